/* The OpenMP CPU reference backend: fused stream-and-collide, pull, two population copies (AB), over the
 * non-empty tiles only. Every node is computed from the previous copy alone and written once, so the result
 * does not depend on the number of threads or the schedule. */
#include "cpu_backend.h"
#include "tess_layout.h"
#include "tess_physics.h"
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define TESS_R double
#define TESS_FN(name) name##_f64
#include "cpu_ab_step_t.h"
#undef TESS_R
#undef TESS_FN

#define TESS_R float
#define TESS_FN(name) name##_f32
#include "cpu_ab_step_t.h"
#undef TESS_R
#undef TESS_FN

static void *alloc_aligned(size_t bytes)
{
    const size_t rounded = (bytes + 63) / 64 * 64;
    return aligned_alloc(64, rounded ? rounded : 64);
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
#ifdef _OPENMP
    be->nthreads = cfg->threads > 0 ? cfg->threads : omp_get_max_threads();
#else
    be->nthreads = 1;
#endif
    tess_cpu_gather_table_build(&be->table, 0);
    static const int w36[19] = TESS_D3Q19_W36;
    for (int i = 0; i < 19; i++)
        be->rest_w[i] = w36[i] / 36.0;
    *out = be;
    return TESS_OK;
}

static tess_status cpu_upload_geometry(tess_backend_t *be, const tess_tiling_t *t, tess_error_t *err)
{
    const size_t nt = t->ntiles > 0 ? (size_t)t->ntiles : 1;
    be->ntiles = t->ntiles;
    be->neighbors = malloc(27 * nt * sizeof *be->neighbors);
    be->node_type = malloc(64 * nt);
    be->tile_plain = calloc(nt, 1);
    be->tile_has_open = calloc(nt, 1);
    const size_t fbytes = nt * 19 * 64 * tess_precision_size(be->cfg.precision);
    be->f[0] = alloc_aligned(fbytes);
    be->f[1] = alloc_aligned(fbytes);
    if (!be->neighbors || !be->node_type || !be->tile_plain || !be->tile_has_open || !be->f[0] || !be->f[1])
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory: the cpu backend needs %zu bytes for %d tiles",
                         2 * fbytes + 92 * nt, t->ntiles);
    memcpy(be->neighbors, t->neighbors, 27 * (size_t)t->ntiles * sizeof *be->neighbors);
    memcpy(be->node_type, t->node_type, 64 * (size_t)t->ntiles);
    be->bytes = 2 * fbytes + nt * (27 * sizeof(int32_t) + 64 + 2);
    return TESS_OK;
}

/* Tiles whose whole 3x3x3 neighbourhood is plain fluid (material 1) take the check-free gather. */
static void classify_tiles(tess_backend_t *be)
{
    for (int m = 0; m < 256; m++)
        be->wet[m] = m < be->params.nmat && tess_kind_is_wet(be->params.mat[m].kind);
    for (int32_t k = 0; k < be->ntiles; k++) {
        int plain = 1, open = 0;
        for (int s = 0; s < 27 && plain; s++) {
            const int32_t t2 = be->neighbors[27 * (size_t)k + s];
            if (t2 < 0) {
                plain = 0;
                break;
            }
            for (int n = 0; n < 64; n++)
                if (be->node_type[64 * (size_t)t2 + n] != 1) {
                    plain = 0;
                    break;
                }
        }
        for (int n = 0; n < 64; n++) {
            const int kind = be->params.mat[be->node_type[64 * (size_t)k + n]].kind;
            open |= kind == TESS_NODE_VELOCITY || kind == TESS_NODE_PRESSURE;
        }
        be->tile_plain[k] = (uint8_t)(plain && be->params.mat[1].kind == TESS_NODE_FLUID);
        be->tile_has_open[k] = (uint8_t)open;
    }
}

static tess_status cpu_initialise(tess_backend_t *be, const tess_params_t *p, const void *pops, tess_error_t *err)
{
    (void)err;
    be->params = *p;
    classify_tiles(be);
    const size_t blk = 19 * 64 * tess_precision_size(be->cfg.precision);
    /* First touch by the thread that will update the tile (same static schedule as the step). */
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int32_t k = 0; k < be->ntiles; k++) {
        memcpy((char *)be->f[0] + (size_t)k * blk, (const char *)pops + (size_t)k * blk, blk);
        memcpy((char *)be->f[1] + (size_t)k * blk, (const char *)pops + (size_t)k * blk, blk);
    }
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
    memcpy(pops, be->f[be->cur], (size_t)be->ntiles * 19 * 64 * tess_precision_size(be->cfg.precision));
    return TESS_OK;
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
    free(be->tile_plain);
    free(be->tile_has_open);
    free(be->f[0]);
    free(be->f[1]);
    free(be);
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
    .copy_bandwidth = NULL,
    .describe = NULL,
    .destroy = cpu_destroy,
};
