/* The one place that talks to MPI (docs/mpi.md). Built with TESSERA_WITH_MPI it wraps the library; without it
 * every function is a stub: rank 0 of 1, "not built". MPI starts only when an MPI launcher (mpirun, mpiexec,
 * srun) started the process: a plain `tessera ...` then neither pays the library's start-up (0.7 s for
 * Open MPI's singleton start here) nor carries its allocations into the sanitizer builds' leak reports. */
#ifndef TESS_MPI_H
#define TESS_MPI_H

#include <stddef.h>
#include <stdint.h>

/* Starts MPI when a launcher's environment is present (Open MPI, MPICH/Hydra, PMIx, Slurm). Call once, first
 * thing in main(); tess_mpi_finalize before returning. */
void tess_mpi_init(int *argc, char ***argv);
void tess_mpi_finalize(void);

int tess_mpi_built(void);   /* 1 when this build has MPI */
int tess_mpi_started(void); /* 1 when MPI_Init ran */
int tess_mpi_rank(void);    /* 0 unless started */
int tess_mpi_size(void);    /* 1 unless started */
/* This rank among the ranks of its node (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED): a GPU rank's device. */
int tess_mpi_local_rank(void); /* 0 unless started */

/* The process count a launcher's environment announces (1 without one), whether or not this build has MPI: a
 * build without MPI started by mpirun -np 4 can then say so instead of running the case four times. */
int tess_mpi_launch_size(void);

/* The library's version, first line of MPI_Get_library_version ("not built" without MPI). */
void tess_mpi_library(char *buf, size_t len);

/* Whether the library can send from and receive into GPU memory: "yes (CUDA)", "yes (ROCm)", "no (...)" or
 * "unknown (...)" with the reason. Open MPI answers through mpi-ext.h at run time (it starts MPI for that when
 * its headers say the library may be CUDA-aware and the process has no launcher); other libraries: unknown. */
const char *tess_mpi_gpu_aware(void);

/* Messages of the distributed run (docs/mpi.md; backends/cpu/cpu_dist.c), in bytes on MPI_COMM_WORLD. Large
 * blocking transfers go in pieces of 1 GiB (MPI counts are int). Without MPI (or not started) they are never
 * called with another rank: bcast and the reductions return at once, wtime is a monotonic clock. */
void tess_mpi_bcast(void *buf, size_t bytes, int root);
void tess_mpi_send(const void *buf, size_t bytes, int dest, int tag);
void tess_mpi_recv(void *buf, size_t bytes, int src, int tag);
/* The largest v over the ranks (every rank calls it). */
int tess_mpi_max_int(int v);
/* The sum of v over the ranks, exact (integers). */
long long tess_mpi_sum_ll(long long v);
/* Every rank's `bytes` bytes, concatenated in rank order on root (recv: size * bytes; may be NULL elsewhere). */
void tess_mpi_gather(const void *send, size_t bytes, void *recv, int root);
double tess_mpi_wtime(void);

/* Non-blocking transfers: a set of n requests, slot by slot; wait completes every slot posted since the last
 * wait. Each transfer is at most INT_MAX bytes (a halo message is far below). */
typedef struct tess_mpi_requests tess_mpi_requests_t;
tess_mpi_requests_t *tess_mpi_requests_new(int n); /* NULL: out of memory */
void tess_mpi_requests_free(tess_mpi_requests_t *r);
void tess_mpi_isend(tess_mpi_requests_t *r, const void *buf, size_t bytes, int dest, int tag);
void tess_mpi_irecv(tess_mpi_requests_t *r, void *buf, size_t bytes, int src, int tag);
void tess_mpi_waitall(tess_mpi_requests_t *r);

/* MPI-IO on one file shared by every rank (the restart file of a distributed run, docs/mpi.md). open and close
 * are collective; each returns 0 or -1 (a failure on this rank: the caller agrees with the others). */
typedef struct tess_mpi_file tess_mpi_file_t;
int tess_mpi_file_open(const char *path, int write, tess_mpi_file_t **f); /* write: created, write-only */
/* Collective: n blocks of `block` bytes, block k between byte file_off[k] of the file (increasing) and byte
 * mem_off[k] of buf (any order); write 1 writes them to the file, 0 reads them into buf. */
int tess_mpi_file_blocks(tess_mpi_file_t *f, int write, const int64_t *file_off, const int64_t *mem_off, int64_t n,
                         size_t block, void *buf);
/* This rank alone: bytes at byte offset off (the header). Call before tess_mpi_file_blocks, whose view it resets. */
int tess_mpi_file_write_at(tess_mpi_file_t *f, int64_t off, const void *buf, size_t bytes);
int tess_mpi_file_close(tess_mpi_file_t *f);

#endif
