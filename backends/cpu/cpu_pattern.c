/* The public CPU backend table: every lattice, collision, boundary and pattern runs on the tiled engine
 * (cpu_q.c, docs/architecture.md). One exception is left, marked TUNED MR below: D3Q19 pattern mr with the
 * physics of the sliding-window kernel of cpu_mr.c still runs there, until the engine's sliding-window MR
 * replaces it. */
#define _DEFAULT_SOURCE /* madvise */
#include "cpu_pattern.h"
#include "cpu_q.h"
#include "cpu_topology.h"
#include "tess_physics.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#ifdef _OPENMP
#include <omp.h>
#endif

_Static_assert(offsetof(tess_cpu_q_t, cfg) == 0, "the engine must start with its config");

static tess_cpu_q_t *qbe(tess_backend_t *b)
{
    return (tess_cpu_q_t *)(void *)b;
}

void *tess_cpu_alloc(size_t bytes)
{
    const size_t rounded = (bytes + 63) / 64 * 64;
    return aligned_alloc(64, rounded ? rounded : 64);
}

/* ---- TUNED MR. Remove this block, the lines marked TUNED MR in the table below, tess_cpu_q_t's tuned_mr
 * fields and cpu_mr.c, cpu_mr_step_t.h, cpu_pattern.h, cpu_gather_table.[ch], cpu_pull_rows_t.h and
 * cpu_tile_buffer_t.h in one step once the engine's sliding-window MR lands. ---- */

/* What the tuned MR kernel runs: D3Q19, halfway bounce-back walls, Zou-He or fd planes without waveforms. */
static int tuned_mr_runs(const tess_cpu_q_t *q, const tess_params_t *p)
{
    if (q->cfg.pattern != TESS_PATTERN_MR || p->lattice != TESS_LATTICE_D3Q19 || p->wall != TESS_WALL_BOUNCE_BACK)
        return 0;
    for (int m = 0; m < p->nmat; m++)
        if ((p->mat[m].kind == TESS_NODE_VELOCITY || p->mat[m].kind == TESS_NODE_PRESSURE) &&
            (p->mat[m].method == TESS_BC_NEE || p->mat[m].waveform > 0))
            return 0;
    return 1;
}

static void tuned_mr_destroy(tess_cpu_pattern_t *be)
{
    if (!be)
        return;
    tess_cpu_mr_free(be);
    tess_cpu_fd_free(&be->fd);
    free(be->neighbors);
    free(be->node_type);
    free(be->tile_corner);
    free(be->tile_plain);
    free(be->tile_has_open);
    free(be);
}

/* Hands the engine instance's tiling to a tuned MR instance (created on the first call) and initialises it;
 * the engine's own copies of the moments are released. */
static tess_status tuned_mr_initialise(tess_cpu_q_t *q, const tess_params_t *p, const void *pops, tess_error_t *err)
{
    tess_status s = tess_q_check_physics(p, err);
    if (s != TESS_OK)
        return s;
    if (p->collision != TESS_COLLISION_REGULARIZED)
        return tess_fail(err, TESS_ERR_INPUT,
                         "the MR pattern stores moments and runs the regularized collision only: set collision = "
                         "regularized, or use pattern ab or aa for lbgk and mrt");
    tess_cpu_pattern_t *be = q->tuned_mr;
    if (!be) {
        if (!(be = q->tuned_mr = calloc(1, sizeof *be)))
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory creating the cpu backend");
        be->cfg = q->cfg;
        be->nthreads = q->nthreads;
        tess_cpu_gather_table_build(&be->table, 0);
        static const int w36[19] = TESS_D3Q19_W36;
        for (int i = 0; i < 19; i++)
            be->rest_w[i] = w36[i] / 36.0;
        tess_tiling_t view = {0};
        view.ntiles = q->ntiles;
        view.tx = q->tuned_mr_tiles[0];
        view.ty = q->tuned_mr_tiles[1];
        view.tz = q->tuned_mr_tiles[2];
        memcpy(view.periodic, q->tuned_mr_periodic, sizeof view.periodic);
        view.neighbors = q->neighbors;
        view.node_type = q->node_type;
        view.tile_corner = q->corner;
        if ((s = tess_cpu_pattern_upload(be, &view, err)) != TESS_OK || (s = tess_cpu_mr_upload(be, err)) != TESS_OK)
            return s;
        be->grid = (tess_q_grid_t){be->neighbors, be->node_type, be->tile_corner, 4, 4, 4, 0};
        free(q->f[0]);
        free(q->f[1]);
        q->f[0] = q->f[1] = NULL;
    }
    be->params = *p;
    tess_cpu_pattern_classify(be);
    if ((s = tess_cpu_fd_build(&be->fd, p, be->node_type, be->ntiles, err)) != TESS_OK)
        return s;
    be->nsteps_done = 0;
    return tess_cpu_mr_initialise(be, pops, err);
}

static void tuned_mr_step(tess_cpu_pattern_t *be, int nsteps)
{
    for (int s = 0; s < nsteps; s++) {
        tess_cpu_fd_prepass(&be->fd, &be->params, &be->grid, be->cfg.precision, NULL, be->m, TESS_Q_CANON,
                            be->nthreads);
        tess_cpu_mr_step(be);
        be->nsteps_done++;
    }
}

static void tuned_mr_describe(const tess_cpu_pattern_t *be, char *buf, size_t len)
{
    char topo[256];
    tess_cpu_topology_summary(topo, sizeof topo);
    snprintf(buf, len, "cpu, D3Q19, pattern mr, %d threads, %d blocks, layer %d nodes; %s", be->nthreads, be->nblocks,
             be->layer_nodes, topo);
}
/* ---- end of TUNED MR ---- */

static tess_status cpu_create(const tess_backend_config_t *cfg, tess_backend_t **out, tess_error_t *err)
{
    return tess_cpu_q_ops.create(cfg, out, err);
}

static tess_status cpu_upload_geometry(tess_backend_t *b, const tess_tiling_t *t, tess_error_t *err)
{
    tess_cpu_q_t *q = qbe(b);
    if (q->tuned_mr) /* TUNED MR: a second tiling goes to the engine */
        tuned_mr_destroy(q->tuned_mr), q->tuned_mr = NULL;
    q->tuned_mr_tiles[0] = t->tx; /* TUNED MR */
    q->tuned_mr_tiles[1] = t->ty;
    q->tuned_mr_tiles[2] = t->tz;
    memcpy(q->tuned_mr_periodic, t->periodic, sizeof q->tuned_mr_periodic);
    return tess_cpu_q_ops.upload_geometry(b, t, err);
}

static tess_status cpu_initialise(tess_backend_t *b, const tess_params_t *p, const void *pops, tess_error_t *err)
{
    tess_cpu_q_t *q = qbe(b);
    if ((q->f[0] || q->tuned_mr) && p->lattice == q->lattice && tuned_mr_runs(q, p)) /* TUNED MR */
        return tuned_mr_initialise(q, p, pops, err);
    if (q->tuned_mr)
        return tess_fail(err, TESS_ERR_UNSUPPORTED,
                         "this cpu instance runs the D3Q19 MR kernel: initialise it with the same kind of physics");
    return tess_cpu_q_ops.initialise(b, p, pops, err);
}

static tess_status cpu_step(tess_backend_t *b, int nsteps, tess_error_t *err)
{
    if (qbe(b)->tuned_mr) { /* TUNED MR */
        tuned_mr_step(qbe(b)->tuned_mr, nsteps);
        return TESS_OK;
    }
    return tess_cpu_q_ops.step(b, nsteps, err);
}

static tess_status cpu_download_populations(tess_backend_t *b, void *pops, tess_error_t *err)
{
    if (qbe(b)->tuned_mr) { /* TUNED MR */
        tess_cpu_mr_download(qbe(b)->tuned_mr, pops);
        return TESS_OK;
    }
    return tess_cpu_q_ops.download_populations(b, pops, err);
}

static size_t cpu_bytes(const tess_backend_t *b)
{
    const tess_cpu_q_t *q = (const tess_cpu_q_t *)(const void *)b;
    if (q->tuned_mr) /* TUNED MR */
        return q->tuned_mr->bytes;
    return tess_cpu_q_ops.bytes_allocated(b);
}

static void cpu_describe(const tess_backend_t *b, char *buf, size_t len)
{
    const tess_cpu_q_t *q = (const tess_cpu_q_t *)(const void *)b;
    if (q->tuned_mr) { /* TUNED MR */
        tuned_mr_describe(q->tuned_mr, buf, len);
        return;
    }
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
    tuned_mr_destroy(qbe(b)->tuned_mr); /* TUNED MR */
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
