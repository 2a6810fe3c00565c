/* MPI start-up, rank and library queries (tess_mpi.h); stubs when the build has no MPI. */
#include "tess_mpi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int started, rank, size = 1;

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

void tess_mpi_library(char *buf, size_t len)
{
    snprintf(buf, len, "not built");
}

const char *tess_mpi_gpu_aware(void)
{
    return "unknown (MPI not built)";
}
#endif
