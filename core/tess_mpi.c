/* MPI start-up, rank and library queries (tess_mpi.h); stubs when the build has no MPI. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "tess_mpi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int tess_mpi_launch_size(void)
{
    /* Not SLURM_NTASKS: a batch script holds it while it runs a single process itself. */
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && atoi(v) > 1)
            return atoi(v);
    }
    return 1;
}

#ifdef TESS_HAVE_MPI
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

static int started, rank, size = 1, local_rank;

/* The variables each launcher sets in its processes' environment. */
static int launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]))
            return 1;
    return 0;
}

static void start(int *argc, char ***argv)
{
    int done = 0;
    MPI_Initialized(&done);
    if (!done)
        MPI_Init(argc, argv);
    started = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm node;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        MPI_Comm_rank(node, &local_rank);
        MPI_Comm_free(&node);
    }
}

void tess_mpi_init(int *argc, char ***argv)
{
    if (launched())
        start(argc, argv);
}

void tess_mpi_finalize(void)
{
    int done = 0;
    if (started && (MPI_Finalized(&done), !done))
        MPI_Finalize();
}

int tess_mpi_built(void) { return 1; }
int tess_mpi_started(void) { return started; }
int tess_mpi_rank(void) { return rank; }
int tess_mpi_size(void) { return size; }
int tess_mpi_local_rank(void) { return local_rank; }

void tess_mpi_library(char *buf, size_t len)
{
    /* MPI_Get_library_version may be called before MPI_Init (MPI 3.0, section 8.1.1). */
    char v[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int n = 0;
    MPI_Get_library_version(v, &n);
    v[strcspn(v, "\r\n")] = 0;
    snprintf(buf, len, "%s", v);
}

const char *tess_mpi_gpu_aware(void)
{
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    /* Open MPI sets the answer while it starts: ask after MPI_Init. */
    if (!started)
        start(NULL, NULL);
    if (MPIX_Query_cuda_support())
        return "yes (CUDA)";
#endif
#if defined(MPIX_ROCM_AWARE_SUPPORT) && MPIX_ROCM_AWARE_SUPPORT
    if (!started)
        start(NULL, NULL);
    if (MPIX_Query_rocm_support())
        return "yes (ROCm)";
#endif
#if defined(MPIX_CUDA_AWARE_SUPPORT) || defined(MPIX_ROCM_AWARE_SUPPORT)
#if (defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT) || \
    (defined(MPIX_ROCM_AWARE_SUPPORT) && MPIX_ROCM_AWARE_SUPPORT)
    return "no (the library's GPU support is off at run time)";
#else
    return "no (the library was built without GPU support)";
#endif
#else
    return "unknown (the library has no run-time query)";
#endif
}

enum { CHUNK = 1 << 30 };

void tess_mpi_bcast(void *buf, size_t bytes, int root)
{
    if (!started || size < 2)
        return;
    for (size_t o = 0; o < bytes; o += CHUNK) {
        const size_t n = bytes - o < CHUNK ? bytes - o : CHUNK;
        MPI_Bcast((char *)buf + o, (int)n, MPI_BYTE, root, MPI_COMM_WORLD);
    }
}

void tess_mpi_send(const void *buf, size_t bytes, int dest, int tag)
{
    for (size_t o = 0; o < bytes; o += CHUNK) {
        const size_t n = bytes - o < CHUNK ? bytes - o : CHUNK;
        MPI_Send((const char *)buf + o, (int)n, MPI_BYTE, dest, tag, MPI_COMM_WORLD);
    }
}

void tess_mpi_recv(void *buf, size_t bytes, int src, int tag)
{
    for (size_t o = 0; o < bytes; o += CHUNK) {
        const size_t n = bytes - o < CHUNK ? bytes - o : CHUNK;
        MPI_Recv((char *)buf + o, (int)n, MPI_BYTE, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

int tess_mpi_max_int(int v)
{
    int r = v;
    if (started && size > 1)
        MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return r;
}

long long tess_mpi_sum_ll(long long v)
{
    long long r = v;
    if (started && size > 1)
        MPI_Allreduce(&v, &r, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    return r;
}

void tess_mpi_gather(const void *send, size_t bytes, void *recv, int root)
{
    if (!started || size < 2) {
        memcpy(recv, send, bytes);
        return;
    }
    MPI_Gather(send, (int)bytes, MPI_BYTE, recv, (int)bytes, MPI_BYTE, root, MPI_COMM_WORLD);
}

double tess_mpi_wtime(void)
{
    return MPI_Wtime();
}

struct tess_mpi_requests {
    int cap, n;
    MPI_Request req[];
};

tess_mpi_requests_t *tess_mpi_requests_new(int n)
{
    tess_mpi_requests_t *r = malloc(sizeof *r + (size_t)(n > 0 ? n : 1) * sizeof(MPI_Request));
    if (r) {
        r->cap = n;
        r->n = 0;
    }
    return r;
}

void tess_mpi_requests_free(tess_mpi_requests_t *r)
{
    free(r);
}

void tess_mpi_isend(tess_mpi_requests_t *r, const void *buf, size_t bytes, int dest, int tag)
{
    MPI_Isend(buf, (int)bytes, MPI_BYTE, dest, tag, MPI_COMM_WORLD, &r->req[r->n++]);
}

void tess_mpi_irecv(tess_mpi_requests_t *r, void *buf, size_t bytes, int src, int tag)
{
    MPI_Irecv(buf, (int)bytes, MPI_BYTE, src, tag, MPI_COMM_WORLD, &r->req[r->n++]);
}

void tess_mpi_waitall(tess_mpi_requests_t *r)
{
    MPI_Waitall(r->n, r->req, MPI_STATUSES_IGNORE);
    r->n = 0;
}

struct tess_mpi_file {
    MPI_File fh;
};

int tess_mpi_file_open(const char *path, int write, tess_mpi_file_t **f)
{
    *f = calloc(1, sizeof **f);
    const int mode = write ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY;
    const int ok = *f && MPI_File_open(MPI_COMM_WORLD, path, mode, MPI_INFO_NULL, &(*f)->fh) == MPI_SUCCESS;
    if (!ok) {
        free(*f);
        *f = NULL;
    }
    return ok ? 0 : -1;
}

int tess_mpi_file_blocks(tess_mpi_file_t *f, int write, const int64_t *file_off, const int64_t *mem_off, int64_t n,
                         size_t block, void *buf)
{
    /* One block a datatype element: counts stay small whatever the rank's share (MPI counts are int). */
    MPI_Datatype blk, ftype, mtype;
    MPI_Aint *fd = malloc((size_t)(n ? n : 1) * sizeof *fd), *md = malloc((size_t)(n ? n : 1) * sizeof *md);
    int rc = fd && md && n <= 0x7fffffff && block <= 0x7fffffff ? 0 : -1;
    for (int64_t k = 0; rc == 0 && k < n; k++) {
        fd[k] = (MPI_Aint)file_off[k];
        md[k] = (MPI_Aint)mem_off[k];
    }
    /* Every rank reaches the collective calls, a failed one with no blocks. */
    if (rc)
        n = 0;
    MPI_Type_contiguous((int)block, MPI_BYTE, &blk);
    MPI_Type_commit(&blk);
    MPI_Type_create_hindexed_block((int)n, 1, fd, blk, &ftype);
    MPI_Type_create_hindexed_block((int)n, 1, md, blk, &mtype);
    MPI_Type_commit(&ftype);
    MPI_Type_commit(&mtype);
    MPI_File_set_view(f->fh, 0, MPI_BYTE, ftype, "native", MPI_INFO_NULL);
    MPI_Status status;
    const int r = write ? MPI_File_write_all(f->fh, buf, n ? 1 : 0, mtype, &status)
                        : MPI_File_read_all(f->fh, buf, n ? 1 : 0, mtype, &status);
    if (r != MPI_SUCCESS)
        rc = -1;
    MPI_File_set_view(f->fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    MPI_Type_free(&mtype);
    MPI_Type_free(&ftype);
    MPI_Type_free(&blk);
    free(fd);
    free(md);
    return rc;
}

int tess_mpi_file_write_at(tess_mpi_file_t *f, int64_t off, const void *buf, size_t bytes)
{
    MPI_Status status;
    return MPI_File_write_at(f->fh, (MPI_Offset)off, buf, (int)bytes, MPI_BYTE, &status) == MPI_SUCCESS ? 0 : -1;
}

int tess_mpi_file_close(tess_mpi_file_t *f)
{
    const int rc = f && MPI_File_close(&f->fh) == MPI_SUCCESS ? 0 : -1;
    free(f);
    return rc;
}

#else /* no MPI in this build: one process */

void tess_mpi_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
}
void tess_mpi_finalize(void) {}
int tess_mpi_built(void) { return 0; }
int tess_mpi_started(void) { return 0; }
int tess_mpi_rank(void) { return 0; }
int tess_mpi_size(void) { return 1; }
int tess_mpi_local_rank(void) { return 0; }

void tess_mpi_library(char *buf, size_t len)
{
    snprintf(buf, len, "not built");
}

const char *tess_mpi_gpu_aware(void)
{
    return "unknown (MPI not built)";
}

void tess_mpi_bcast(void *buf, size_t bytes, int root)
{
    (void)buf, (void)bytes, (void)root;
}
void tess_mpi_send(const void *buf, size_t bytes, int dest, int tag)
{
    (void)buf, (void)bytes, (void)dest, (void)tag;
}
void tess_mpi_recv(void *buf, size_t bytes, int src, int tag)
{
    (void)buf, (void)bytes, (void)src, (void)tag;
}
int tess_mpi_max_int(int v)
{
    return v;
}
long long tess_mpi_sum_ll(long long v)
{
    return v;
}
void tess_mpi_gather(const void *send, size_t bytes, void *recv, int root)
{
    (void)root;
    memcpy(recv, send, bytes);
}
double tess_mpi_wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
struct tess_mpi_requests {
    int n;
};
tess_mpi_requests_t *tess_mpi_requests_new(int n)
{
    (void)n;
    return calloc(1, sizeof(tess_mpi_requests_t));
}
void tess_mpi_requests_free(tess_mpi_requests_t *r)
{
    free(r);
}
void tess_mpi_isend(tess_mpi_requests_t *r, const void *buf, size_t bytes, int dest, int tag)
{
    (void)r, (void)buf, (void)bytes, (void)dest, (void)tag;
}
void tess_mpi_irecv(tess_mpi_requests_t *r, void *buf, size_t bytes, int src, int tag)
{
    (void)r, (void)buf, (void)bytes, (void)src, (void)tag;
}
void tess_mpi_waitall(tess_mpi_requests_t *r)
{
    (void)r;
}
/* Never called without MPI (a distributed run needs it): every call fails. */
struct tess_mpi_file {
    int unused;
};
int tess_mpi_file_open(const char *path, int write, tess_mpi_file_t **f)
{
    (void)path, (void)write;
    *f = NULL;
    return -1;
}
int tess_mpi_file_blocks(tess_mpi_file_t *f, int write, const int64_t *file_off, const int64_t *mem_off, int64_t n,
                         size_t block, void *buf)
{
    (void)f, (void)write, (void)file_off, (void)mem_off, (void)n, (void)block, (void)buf;
    return -1;
}
int tess_mpi_file_write_at(tess_mpi_file_t *f, int64_t off, const void *buf, size_t bytes)
{
    (void)f, (void)off, (void)buf, (void)bytes;
    return -1;
}
int tess_mpi_file_close(tess_mpi_file_t *f)
{
    (void)f;
    return -1;
}
#endif
