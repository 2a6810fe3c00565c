/* The public CPU backend table: AB instances go to cpu_ab.c, AA instances to cpu_aa.c, MR instances and every
 * instance with `generic` set to the lattice-generic engine (cpu_q.c; MR with its sliding window).
 * Every instance starts with its tess_backend_config_t, so the pattern can be read before the type is known. */
#include "cpu_pattern.h"
#include "cpu_backend.h"
#include "cpu_q.h"
#include "cpu_topology.h"
#include "tess_layout.h"
#include "tess_physics.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

_Static_assert(offsetof(struct tess_backend, cfg) == 0, "the AB backend must start with its config");
_Static_assert(offsetof(tess_cpu_pattern_t, cfg) == 0, "the pattern backend must start with its config");

/* Instances of the lattice-generic engine (cpu_q.c): `generic` set in their config, or pattern MR (the engine's
 * one-copy MR replaced the tuned D3Q19 one). */
static int generic_of(const tess_backend_t *be)
{
    const tess_backend_config_t *cfg = (const tess_backend_config_t *)(const void *)be;
    return cfg->generic || cfg->pattern == TESS_PATTERN_MR;
}

static tess_pattern pattern_of(const tess_backend_t *be)
{
    return ((const tess_backend_config_t *)(const void *)be)->pattern;
}

static tess_cpu_pattern_t *pat(tess_backend_t *be)
{
    return (tess_cpu_pattern_t *)(void *)be;
}

void *tess_cpu_alloc(size_t bytes)
{
    const size_t rounded = (bytes + 63) / 64 * 64;
    return aligned_alloc(64, rounded ? rounded : 64);
}

static tess_status cpu_create(const tess_backend_config_t *cfg, tess_backend_t **out, tess_error_t *err)
{
    if (cfg->generic || cfg->pattern == TESS_PATTERN_MR)
        return tess_cpu_q_ops.create(cfg, out, err);
    if (cfg->plain_xyz && !cfg->generic)
        return tess_fail(err, TESS_ERR_UNSUPPORTED,
                         "the layout study (plain_xyz) is a GPU measurement: the cpu patterns store every direction in "
                         "L_XYZ already");
    if (cfg->pattern == TESS_PATTERN_AB)
        return tess_cpu_ab_ops.create(cfg, out, err);
    if (cfg->pattern != TESS_PATTERN_AA)
        return tess_fail(err, TESS_ERR_INPUT, "unknown propagation pattern %d (expected ab, aa or mr)", (int)cfg->pattern);
    if (cfg->variant != TESS_KERNEL_FULL)
        return tess_fail(err, TESS_ERR_UNSUPPORTED, "kernel variants other than 'full' exist on the GPU backends only");
    tess_cpu_pattern_t *be = calloc(1, sizeof *be);
    if (!be)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory creating the cpu backend");
    be->cfg = *cfg;
    be->nthreads = tess_cpu_topology_team(cfg->threads);
    tess_cpu_gather_table_build(&be->table, cfg->pattern == TESS_PATTERN_AA); /* AA stores L_XYZ (cpu_aa.c) */
    static const int w36[19] = TESS_D3Q19_W36;
    for (int i = 0; i < 19; i++)
        be->rest_w[i] = w36[i] / 36.0;
    *out = (tess_backend_t *)(void *)be;
    return TESS_OK;
}

tess_status tess_cpu_pattern_upload(tess_cpu_pattern_t *be, const tess_tiling_t *t, tess_error_t *err)
{
    const size_t nt = t->ntiles > 0 ? (size_t)t->ntiles : 1;
    be->ntiles = t->ntiles;
    be->tx = t->tx;
    be->ty = t->ty;
    be->tz = t->tz;
    memcpy(be->periodic, t->periodic, sizeof be->periodic);
    be->neighbors = malloc(27 * nt * sizeof *be->neighbors);
    be->node_type = malloc(64 * nt);
    be->tile_corner = malloc(3 * nt * sizeof *be->tile_corner);
    be->tile_plain = calloc(nt, 1);
    be->tile_has_open = calloc(nt, 1);
    if (!be->neighbors || !be->node_type || !be->tile_corner || !be->tile_plain || !be->tile_has_open)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory copying the tiling of %d tiles", t->ntiles);
    memcpy(be->neighbors, t->neighbors, 27 * (size_t)t->ntiles * sizeof *be->neighbors);
    memcpy(be->node_type, t->node_type, 64 * (size_t)t->ntiles);
    memcpy(be->tile_corner, t->tile_corner, 3 * (size_t)t->ntiles * sizeof *be->tile_corner);
    be->bytes = nt * (27 * sizeof(int32_t) + 64 + 3 * sizeof(int32_t) + 2);
    return TESS_OK;
}

/* Tiles whose whole 3x3x3 neighbourhood exists and is plain fluid take the check-free gather. */
void tess_cpu_pattern_classify(tess_cpu_pattern_t *be)
{
    for (int m = 0; m < 256; m++)
        be->wet[m] = m < be->params.nmat && tess_kind_is_wet(be->params.mat[m].kind);
    for (int32_t k = 0; k < be->ntiles; k++) {
        int plain = be->params.mat[1].kind == TESS_NODE_FLUID, open = 0;
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
        be->tile_plain[k] = (uint8_t)plain;
        be->tile_has_open[k] = (uint8_t)open;
    }
}

static tess_status cpu_upload_geometry(tess_backend_t *b, const tess_tiling_t *t, tess_error_t *err)
{
    if (generic_of(b))
        return tess_cpu_q_ops.upload_geometry(b, t, err);
    if (t->lattice != 0)
        return tess_fail(err, TESS_ERR_INPUT, "the tuned cpu kernels run D3Q19 only (set generic in the config)");
    if (pattern_of(b) == TESS_PATTERN_AB)
        return tess_cpu_ab_ops.upload_geometry(b, t, err);
    tess_cpu_pattern_t *be = pat(b);
    tess_status s = tess_cpu_pattern_upload(be, t, err);
    if (s != TESS_OK)
        return s;
    return tess_cpu_aa_upload(be, err);
}

static tess_status cpu_initialise(tess_backend_t *b, const tess_params_t *p, const void *pops, tess_error_t *err)
{
    if (generic_of(b))
        return tess_cpu_q_ops.initialise(b, p, pops, err);
    if (pattern_of(b) == TESS_PATTERN_AB) {
        for (int m = 0; m < p->nmat; m++)
            if ((p->mat[m].kind == TESS_NODE_VELOCITY || p->mat[m].kind == TESS_NODE_PRESSURE) &&
                p->mat[m].method == TESS_BC_FINITE_DIFFERENCE)
                return tess_fail(err, TESS_ERR_UNSUPPORTED,
                                 "material %d: the finite-difference boundary runs with patterns aa and mr on the cpu "
                                 "backend (pattern ab: use method = zou-he or nee)", m);
        return tess_cpu_ab_ops.initialise(b, p, pops, err);
    }
    tess_cpu_pattern_t *be = pat(b);
    be->params = *p;
    tess_cpu_pattern_classify(be);
    tess_status s = tess_cpu_pattern_fd_setup(be, err);
    if (s != TESS_OK)
        return s;
    be->nsteps_done = 0;
    return tess_cpu_aa_initialise(be, pops, err);
}

static tess_status cpu_step(tess_backend_t *b, int nsteps, tess_error_t *err)
{
    if (generic_of(b))
        return tess_cpu_q_ops.step(b, nsteps, err);
    if (pattern_of(b) == TESS_PATTERN_AB)
        return tess_cpu_ab_ops.step(b, nsteps, err);
    tess_cpu_pattern_t *be = pat(b);
    for (int s = 0; s < nsteps; s++) {
        tess_cpu_pattern_fd_prepass(be);
        tess_cpu_aa_step(be);
        be->nsteps_done++;
    }
    return TESS_OK;
}

static tess_status cpu_download_populations(tess_backend_t *b, void *pops, tess_error_t *err)
{
    if (generic_of(b))
        return tess_cpu_q_ops.download_populations(b, pops, err);
    if (pattern_of(b) == TESS_PATTERN_AB)
        return tess_cpu_ab_ops.download_populations(b, pops, err);
    tess_cpu_pattern_t *be = pat(b);
    if (be->nsteps_done & 1)
        return tess_fail(err, TESS_ERR_UNSUPPORTED,
                         "the AA pattern holds canonical populations after even steps only (%lld steps done)",
                         (long long)be->nsteps_done);
    tess_cpu_aa_download(be, pops);
    return TESS_OK;
}

static size_t cpu_bytes(const tess_backend_t *b)
{
    if (generic_of(b))
        return tess_cpu_q_ops.bytes_allocated(b);
    if (pattern_of(b) == TESS_PATTERN_AB)
        return tess_cpu_ab_ops.bytes_allocated(b);
    return ((const tess_cpu_pattern_t *)(const void *)b)->bytes;
}

static void cpu_describe(const tess_backend_t *b, char *buf, size_t len)
{
    const tess_backend_config_t *cfg = (const tess_backend_config_t *)(const void *)b;
    if (generic_of(b)) {
        tess_cpu_q_ops.describe(b, buf, len);
        return;
    }
    if (cfg->pattern == TESS_PATTERN_AB && tess_cpu_ab_ops.describe) {
        tess_cpu_ab_ops.describe(b, buf, len);
        return;
    }
    char topo[256];
    tess_cpu_topology_summary(topo, sizeof topo);
    snprintf(buf, len, "cpu, pattern %s, %d threads; %s", cfg->pattern == TESS_PATTERN_AA ? "aa" : "ab",
             cfg->pattern == TESS_PATTERN_AB ? cfg->threads : ((const tess_cpu_pattern_t *)(const void *)b)->nthreads,
             topo);
}

/* The copy bandwidth is a property of the machine and the thread count: AA and MR instances measure it with a
 * temporary AB instance of the same threads, so every pattern reports the lead's measurement. */
static double cpu_copy_bandwidth(tess_backend_t *b, size_t bytes, tess_error_t *err)
{
    const tess_backend_config_t *own = (const tess_backend_config_t *)(const void *)b;
    if (!tess_cpu_ab_ops.copy_bandwidth || own->generic)
        return 0.0;
    if (pattern_of(b) == TESS_PATTERN_AB)
        return tess_cpu_ab_ops.copy_bandwidth(b, bytes, err);
    tess_backend_config_t cfg = *own;
    cfg.pattern = TESS_PATTERN_AB;
    cfg.threads = generic_of(b) ? ((const tess_cpu_q_t *)(const void *)b)->nthreads : pat(b)->nthreads;
    tess_backend_t *ab = NULL;
    if (tess_cpu_ab_ops.create(&cfg, &ab, err) != TESS_OK)
        return -1.0;
    const double gbs = tess_cpu_ab_ops.copy_bandwidth(ab, bytes, err);
    tess_cpu_ab_ops.destroy(ab);
    return gbs;
}

static double cpu_peak_bandwidth(const tess_backend_t *b)
{
    return tess_cpu_ab_ops.peak_bandwidth && !generic_of(b) && pattern_of(b) == TESS_PATTERN_AB
               ? tess_cpu_ab_ops.peak_bandwidth(b)
               : 0.0;
}

static void cpu_destroy(tess_backend_t *b)
{
    if (!b)
        return;
    if (generic_of(b)) {
        tess_cpu_q_ops.destroy(b);
        return;
    }
    if (pattern_of(b) == TESS_PATTERN_AB) {
        tess_cpu_ab_ops.destroy(b);
        return;
    }
    tess_cpu_pattern_t *be = pat(b);
    free(be->fix_start);
    free(be->fix);
    free(be->neighbors);
    free(be->node_type);
    free(be->tile_corner);
    free(be->tile_plain);
    free(be->tile_has_open);
    free(be->fd);
    free(be->fd_of_node);
    free(be->f);
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
    .copy_bandwidth = cpu_copy_bandwidth,
    .peak_bandwidth = cpu_peak_bandwidth,
    .describe = cpu_describe,
    .destroy = cpu_destroy,
};
