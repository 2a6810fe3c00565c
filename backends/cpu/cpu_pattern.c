/* The public CPU backend table: every lattice, collision, boundary and pattern runs on the tiled engine
 * (cpu_q.c, docs/architecture.md; pattern mr with its sliding window, cpu_q_mr_window.h). */
#define _DEFAULT_SOURCE /* madvise */
#include "cpu_q.h"
#include "cpu_topology.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#ifdef _OPENMP
#include <omp.h>
#endif

_Static_assert(offsetof(tess_cpu_q_t, cfg) == 0, "the engine must start with its config");

static tess_cpu_q_t *qbe(tess_backend_t *b)
{
    return (tess_cpu_q_t *)(void *)b;
}

static void *alloc_huge(size_t bytes);

/* Arrays of 2 MiB and more (the populations) on transparent huge pages: the AA odd step reads rows of 27 tiles
 * spread over three tile layers of the box, one 4 KiB page each, and measured 2-6% faster in CPU time per
 * update on them (docs/performance-notes.md). */
void *tess_cpu_alloc(size_t bytes)
{
    if (bytes >= ((size_t)2 << 20))
        return alloc_huge(bytes);
    const size_t rounded = (bytes + 63) / 64 * 64;
    return aligned_alloc(64, rounded ? rounded : 64);
}

static tess_status cpu_create(const tess_backend_config_t *cfg, tess_backend_t **out, tess_error_t *err)
{
    return tess_cpu_q_ops.create(cfg, out, err);
}

static tess_status cpu_upload_geometry(tess_backend_t *b, const tess_tiling_t *t, tess_error_t *err)
{
    return tess_cpu_q_ops.upload_geometry(b, t, err);
}

static tess_status cpu_initialise(tess_backend_t *b, const tess_params_t *p, const void *pops, tess_error_t *err)
{
    return tess_cpu_q_ops.initialise(b, p, pops, err);
}

static tess_status cpu_step(tess_backend_t *b, int nsteps, tess_error_t *err)
{
    return tess_cpu_q_ops.step(b, nsteps, err);
}

static tess_status cpu_download_populations(tess_backend_t *b, void *pops, tess_error_t *err)
{
    return tess_cpu_q_ops.download_populations(b, pops, err);
}

static size_t cpu_bytes(const tess_backend_t *b)
{
    return tess_cpu_q_ops.bytes_allocated(b);
}

static void cpu_describe(const tess_backend_t *b, char *buf, size_t len)
{
    const tess_cpu_q_t *q = (const tess_cpu_q_t *)(const void *)b;
    if (!q->f[0]) { /* no geometry yet (tessera bench's reference instance): no lattice to name */
        char topo[256];
        tess_cpu_topology_summary(topo, sizeof topo);
        snprintf(buf, len, "cpu, %d thread%s; %s", q->nthreads, q->nthreads == 1 ? "" : "s", topo);
        return;
    }
    tess_cpu_q_ops.describe(b, buf, len);
}

/* Population-sized arrays: transparent huge pages (2 MiB) where the kernel offers them, so that a sweep over
 * hundreds of MB does not spend its time on TLB misses. */
static void *alloc_huge(size_t bytes)
{
    const size_t huge = (size_t)2 << 20;
    const size_t rounded = (bytes + huge - 1) / huge * huge;
    void *p = aligned_alloc(huge, rounded ? rounded : huge);
#ifdef MADV_HUGEPAGE
    if (p)
        madvise(p, rounded, MADV_HUGEPAGE);
#endif
    return p;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* STREAM-like copy with the instance's threads and static schedule: the reference for the benchmark's
 * bandwidth fraction (a property of the machine and the thread count, the same for every pattern). Counts bytes
 * read + written (write-allocate traffic is not counted, as in the LBM model's 2 * q * size bytes per update).
 * Median of 7 repetitions. */
static double cpu_copy_bandwidth(tess_backend_t *b, size_t bytes, tess_error_t *err)
{
    const int nthreads = qbe(b)->nthreads;
    const size_t n = bytes / 2 / sizeof(double);
    double *x = alloc_huge(n * sizeof *x), *y = alloc_huge(n * sizeof *y);
    if (!x || !y) {
        free(x);
        free(y);
        tess_fail(err, TESS_ERR_NOMEM, "out of memory for the %zu-byte bandwidth measurement", bytes);
        return 0.0;
    }
#pragma omp parallel for schedule(static) num_threads(nthreads)
    for (size_t i = 0; i < n; i++) {
        x[i] = (double)i;
        y[i] = 0.0;
    }
    double t[7];
    for (int r = 0; r < 7; r++) {
#ifdef _OPENMP
        const double t0 = omp_get_wtime();
#endif
#pragma omp parallel for schedule(static) num_threads(nthreads)
        for (size_t i = 0; i < n; i++)
            y[i] = x[i];
#ifdef _OPENMP
        t[r] = omp_get_wtime() - t0;
#else
        t[r] = 1.0;
#endif
    }
    qsort(t, 7, sizeof t[0], cmp_double);
    const double gbs = y[n / 2] == (double)(n / 2) ? 2.0 * (double)n * sizeof(double) / t[3] / 1e9 : 0.0;
    free(x);
    free(y);
    return gbs;
}

static void cpu_destroy(tess_backend_t *b)
{
    if (!b)
        return;
    tess_cpu_q_ops.destroy(b);
}

const tess_backend_ops_t tess_backend_cpu = {
    .name = "cpu",
    .create = cpu_create,
    .upload_geometry = cpu_upload_geometry,
    .initialise = cpu_initialise,
    .step = cpu_step,
    .download_populations = cpu_download_populations,
    .download_fields = NULL,
    .bytes_allocated = cpu_bytes,
    .copy_bandwidth = cpu_copy_bandwidth,
    .peak_bandwidth = NULL,
    .describe = cpu_describe,
    .destroy = cpu_destroy,
};
