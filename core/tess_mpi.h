/* The one place that talks to MPI (docs/mpi.md). Built with TESSERA_WITH_MPI it wraps the library; without it
 * every function is a stub: rank 0 of 1, "not built". MPI starts only when an MPI launcher (mpirun, mpiexec,
 * srun) started the process: a plain `tessera ...` then neither pays the library's start-up (0.7 s for
 * Open MPI's singleton start here) nor carries its allocations into the sanitizer builds' leak reports. */
#ifndef TESS_MPI_H
#define TESS_MPI_H

#include <stddef.h>

/* Starts MPI when a launcher's environment is present (Open MPI, MPICH/Hydra, PMIx, Slurm). Call once, first
 * thing in main(); tess_mpi_finalize before returning. */
void tess_mpi_init(int *argc, char ***argv);
void tess_mpi_finalize(void);

int tess_mpi_built(void);   /* 1 when this build has MPI */
int tess_mpi_started(void); /* 1 when MPI_Init ran */
int tess_mpi_rank(void);    /* 0 unless started */
int tess_mpi_size(void);    /* 1 unless started */

/* The process count a launcher's environment announces (1 without one), whether or not this build has MPI: a
 * build without MPI started by mpirun -np 4 can then say so instead of running the case four times. */
int tess_mpi_launch_size(void);

/* The library's version, first line of MPI_Get_library_version ("not built" without MPI). */
void tess_mpi_library(char *buf, size_t len);

/* Whether the library can send from and receive into GPU memory: "yes (CUDA)", "yes (ROCm)", "no (...)" or
 * "unknown (...)" with the reason. Open MPI answers through mpi-ext.h at run time (it starts MPI for that when
 * its headers say the library may be CUDA-aware and the process has no launcher); other libraries: unknown. */
const char *tess_mpi_gpu_aware(void);

#endif
