/* The OpenMP CPU reference backend: fused stream-and-collide, pull, two population copies (AB), over the
 * non-empty tiles only. Every node is computed from the previous copy alone and written once, so the result
 * does not depend on the number of threads or the schedule. */
#define _DEFAULT_SOURCE /* madvise */
#include "cpu_backend.h"
#include "cpu_stream.h"
#include "cpu_topology.h"
#include "tess_layout.h"
#include "tess_physics.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define TESS_TEMPLATE "cpu_ab_step_t.h"
#include "tess_instantiate.h"

/* Population arrays are hundreds of MB and each tile touches several pages: ask for transparent huge pages
 * (2 MiB) so that the pull gather does not spend its time on TLB misses. */
static void *alloc_populations(size_t bytes)
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

static tess_status cpu_create(const tess_backend_config_t *cfg, tess_backend_t **out, tess_error_t *err)
{
    if (cfg->pattern != TESS_PATTERN_AB)
        return tess_fail(err, TESS_ERR_UNSUPPORTED, "the cpu backend runs the AB pattern only in this build");
    if (cfg->variant != TESS_KERNEL_FULL)
        return tess_fail(err, TESS_ERR_UNSUPPORTED, "kernel variants other than 'full' exist on the GPU backends only");
    tess_backend_t *be = calloc(1, sizeof *be);
    if (!be)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory creating the cpu backend");
    be->cfg = *cfg;
    be->nthreads = tess_cpu_topology_team(cfg->threads);
    tess_cpu_gather_table_build(&be->table, 1); /* the copies hold L_XYZ (tess_cpu_tile_convert) */
    static const int w36[19] = TESS_D3Q19_W36;
    for (int i = 0; i < 19; i++)
        be->rest_w[i] = w36[i] / 36.0;
    *out = be;
    return TESS_OK;
}

/* Tiles are processed in slabs of TESS_CPU_BLOCK_Y tile rows: z runs inside a slab, so a tile's data is
 * still in cache when its z-neighbours are processed (a full x-y plane of a 128^3 box is 10 MB per copy). */
#define TESS_CPU_BLOCK_Y 4

typedef struct {
    int64_t key;
    int32_t tile;
} order_entry;

static int order_cmp(const void *a, const void *b)
{
    const int64_t ka = ((const order_entry *)a)->key, kb = ((const order_entry *)b)->key;
    return (ka > kb) - (ka < kb);
}

static tess_status cpu_upload_geometry(tess_backend_t *be, const tess_tiling_t *t, tess_error_t *err)
{
    const size_t nt = (size_t)t->ntiles;
    be->ntiles = t->ntiles;
    be->neighbors = malloc((27 * nt + 1) * sizeof *be->neighbors);
    be->node_type = malloc(64 * nt + 1);
    be->order = malloc((nt + 1) * sizeof *be->order);
    be->tile_has_open = calloc(nt + 1, 1);
    be->fix_start = calloc(nt + 1, sizeof *be->fix_start);
    order_entry *ord = malloc((nt + 1) * sizeof *ord);
    /* One extra tile per copy: the dummy that empty neighbours point at. */
    const size_t fbytes = (nt + 1) * 19 * 64 * tess_precision_size(be->cfg.precision);
    be->f[0] = alloc_populations(fbytes);
    be->f[1] = alloc_populations(fbytes);
    if (!be->neighbors || !be->node_type || !be->order || !be->tile_has_open || !be->fix_start || !ord || !be->f[0] ||
        !be->f[1]) {
        free(ord);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory: the cpu backend needs %zu bytes for %d tiles",
                         2 * fbytes + 200 * nt, t->ntiles);
    }
    for (size_t e = 0; e < 27 * nt; e++)
        be->neighbors[e] = t->neighbors[e] < 0 ? t->ntiles : t->neighbors[e];
    memcpy(be->node_type, t->node_type, 64 * nt);
    for (size_t k = 0; k < nt; k++) {
        const int64_t tx = t->tile_corner[3 * k] / 4, ty = t->tile_corner[3 * k + 1] / 4,
                      tz = t->tile_corner[3 * k + 2] / 4;
        const int64_t slab = ty / TESS_CPU_BLOCK_Y, row = ty % TESS_CPU_BLOCK_Y;
        ord[k].key = ((slab * t->tz + tz) * TESS_CPU_BLOCK_Y + row) * t->tx + tx;
        ord[k].tile = (int32_t)k;
    }
    qsort(ord, nt, sizeof *ord, order_cmp);
    for (size_t k = 0; k < nt; k++)
        be->order[k] = ord[k].tile;
    free(ord);
    be->bytes = 2 * fbytes + nt * (27 * sizeof(int32_t) + 64 + sizeof(int32_t) + 1 + sizeof(int64_t));
    return TESS_OK;
}

/* Lists, per tile, the links whose upstream node is solid and the solid nodes of the tile (see fix). */
static tess_status build_fixups(tess_backend_t *be, tess_error_t *err)
{
    for (int m = 0; m < 256; m++)
        be->wet[m] = m < be->params.nmat && tess_kind_is_wet(be->params.mat[m].kind);
    if (be->fix)
        be->bytes -= be->fix_bytes; /* re-initialisation (restart) replaces the list */
    free(be->fix);
    be->fix = NULL;
    be->fix_bytes = 0;
    size_t cap = 0, count = 0;
    for (int pass = 0; pass < 2; pass++) {
        count = 0;
        for (int32_t k = 0; k < be->ntiles; k++) {
            be->fix_start[k] = (int64_t)count;
            const uint8_t *types = be->node_type + 64 * (size_t)k;
            const int32_t *nb = be->neighbors + 27 * (size_t)k;
            int open = 0;
            for (int n = 0; n < 64; n++) {
                const int kind = be->params.mat[types[n]].kind;
                open |= kind == TESS_NODE_VELOCITY || kind == TESS_NODE_PRESSURE;
                if (!be->wet[types[n]]) {
                    if (pass)
                        be->fix[count] = (tess_cpu_fixup_t){0xff, (uint8_t)n, 0, 0};
                    count++;
                    continue;
                }
                for (int i = 1; i < 19; i++) {
                    const int32_t t2 = nb[be->table.src_slot[i][n]];
                    const uint8_t st = t2 >= be->ntiles ? 0 : be->node_type[64 * (size_t)t2 + be->table.src_xyz[i][n]];
                    if (be->wet[st])
                        continue;
                    if (pass)
                        be->fix[count] = (tess_cpu_fixup_t){(uint8_t)i, (uint8_t)n, st, 0};
                    count++;
                }
            }
            be->tile_has_open[k] = (uint8_t)open;
        }
        be->fix_start[be->ntiles] = (int64_t)count;
        if (!pass) {
            cap = count ? count : 1;
            be->fix = malloc(cap * sizeof *be->fix);
            if (!be->fix)
                return tess_fail(err, TESS_ERR_NOMEM, "out of memory for %zu boundary links", count);
        }
    }
    be->fix_bytes = cap * sizeof *be->fix;
    be->bytes += be->fix_bytes;
    return TESS_OK;
}

static void fill_dummy_tile(tess_backend_t *be, void *copy)
{
    const size_t base = (size_t)be->ntiles * 19 * 64;
    for (int i = 0; i < 19; i++)
        for (int n = 0; n < 64; n++) {
            if (be->cfg.precision == TESS_PRECISION_SINGLE)
                ((float *)copy)[base + (size_t)i * 64 + n] = (float)be->rest_w[i];
            else
                ((double *)copy)[base + (size_t)i * 64 + n] = be->rest_w[i];
        }
}

static tess_status cpu_initialise(tess_backend_t *be, const tess_params_t *p, const void *pops, tess_error_t *err)
{
    be->params = *p;
    tess_status st = build_fixups(be, err);
    if (st != TESS_OK)
        return st;
    const size_t blk = 19 * 64 * tess_precision_size(be->cfg.precision);
    /* First touch by the thread that will update the tile (same order and static schedule as the step). */
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int32_t j = 0; j < be->ntiles; j++) {
        const size_t k = (size_t)be->order[j];
        tess_cpu_tile_convert((int32_t)k, be->f[0], pops, tess_precision_size(be->cfg.precision), 1);
        memcpy((char *)be->f[1] + k * blk, (char *)be->f[0] + k * blk, blk);
    }
    fill_dummy_tile(be, be->f[0]);
    fill_dummy_tile(be, be->f[1]);
    be->cur = 0;
    return TESS_OK;
}

static tess_status cpu_step(tess_backend_t *be, int nsteps, tess_error_t *err)
{
    (void)err;
    for (int s = 0; s < nsteps; s++) {
        if (be->cfg.precision == TESS_PRECISION_SINGLE)
            cpu_ab_step_f32(be);
        else
            cpu_ab_step_f64(be);
    }
    return TESS_OK;
}

static tess_status cpu_download_populations(tess_backend_t *be, void *pops, tess_error_t *err)
{
    (void)err;
    for (int32_t k = 0; k < be->ntiles; k++)
        tess_cpu_tile_convert(k, pops, be->f[be->cur], tess_precision_size(be->cfg.precision), 0);
    return TESS_OK;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* STREAM-like copy with the backend's threads and static schedule: the reference for the benchmark's
 * bandwidth fraction. Counts bytes read + written (write-allocate traffic is not counted, as in the LBM
 * model's 2 * 19 * size bytes per update). Median of 7 repetitions. */
static double cpu_copy_bandwidth(tess_backend_t *be, size_t bytes, tess_error_t *err)
{
    const size_t n = bytes / 2 / sizeof(double);
    double *a = alloc_populations(n * sizeof *a), *b = alloc_populations(n * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        tess_fail(err, TESS_ERR_NOMEM, "out of memory for the %zu-byte bandwidth measurement", bytes);
        return 0.0;
    }
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (size_t i = 0; i < n; i++) {
        a[i] = (double)i;
        b[i] = 0.0;
    }
    double t[7];
    for (int r = 0; r < 7; r++) {
#ifdef _OPENMP
        const double t0 = omp_get_wtime();
#endif
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
        for (size_t i = 0; i < n; i++)
            b[i] = a[i];
#ifdef _OPENMP
        t[r] = omp_get_wtime() - t0;
#else
        t[r] = 1.0;
#endif
    }
    qsort(t, 7, sizeof t[0], cmp_double);
    const double gbs = b[n / 2] == (double)(n / 2) ? 2.0 * (double)n * sizeof(double) / t[3] / 1e9 : 0.0;
    free(a);
    free(b);
    return gbs;
}

static void cpu_describe(const tess_backend_t *be, char *buf, size_t len)
{
    snprintf(buf, len, "CPU, %d OpenMP thread%s", be->nthreads, be->nthreads == 1 ? "" : "s");
}

static size_t cpu_bytes(const tess_backend_t *be)
{
    return be->bytes;
}

static void cpu_destroy(tess_backend_t *be)
{
    if (!be)
        return;
    free(be->neighbors);
    free(be->node_type);
    free(be->order);
    free(be->tile_has_open);
    free(be->fix_start);
    free(be->fix);
    free(be->f[0]);
    free(be->f[1]);
    free(be);
}

const tess_backend_ops_t tess_cpu_ab_ops = { /* public through cpu_pattern.c */
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
