/* The CPU engine as a distributed rank's engine (core/tess_dist_engine.h): tile ranges through
 * tess_cpu_q_step_tiles (MR as well, its boundary tiles' new moments in a side buffer), the state in host memory
 * (direction-major: the plan's lists converted once), packing and unpacking by plain loops. */
#include "cpu_q.h"
#include "tess_dist_engine.h"

extern const tess_backend_ops_t tess_backend_cpu;

static tess_cpu_q_t *cq(tess_backend_t *b)
{
    return (tess_cpu_q_t *)(void *)b;
}

static tess_status ce_step_tiles(tess_backend_t *b, int32_t k0, int32_t k1, int part, tess_error_t *err)
{
    (void)err;
    tess_cpu_q_step_tiles(cq(b), k0, k1,
                          ((part & TESS_DIST_FIRST) ? TESS_CPU_Q_FIRST : 0) | ((part & TESS_DIST_LAST) ? TESS_CPU_Q_LAST : 0));
    return TESS_OK;
}

/* MR: the boundary tiles' new moments stay aside until the interior, which still reads their old ones, is done
 * (tess_cpu_q_mr_parts); the halo tiles are never stepped. */
static tess_status ce_set_owned(tess_backend_t *b, int32_t nbound, int32_t nowned, int64_t nlinks_owned,
                                tess_error_t *err)
{
    (void)nowned, (void)nlinks_owned;
    return tess_cpu_q_mr_parts(cq(b), nbound, err);
}

static void *ce_state(tess_backend_t *b, int next)
{
    tess_cpu_q_t *q = cq(b);
    if (q->cfg.pattern == TESS_PATTERN_MR && next && tess_cpu_q_mr_state_next(q))
        return tess_cpu_q_mr_state_next(q);
    if (q->cfg.pattern != TESS_PATTERN_AB)
        return q->f[q->cfg.pattern == TESS_PATTERN_AA ? 0 : q->cur];
    return q->f[next ? 1 - q->cur : q->cur];
}

static int64_t ce_steps_done(const tess_backend_t *b)
{
    return ((const tess_cpu_q_t *)(const void *)b)->nsteps_done;
}

static void ce_state_slots(const tess_backend_t *b, int64_t *idx, int64_t n)
{
    tess_cpu_q_state_slots((const tess_cpu_q_t *)(const void *)b, idx, n);
}

static tess_status ce_pack(tess_backend_t *b, void *buf, const void *f, const int64_t *idx, int64_t n, size_t vs,
                           tess_error_t *err)
{
    (void)b, (void)err;
    if (vs == sizeof(double))
        for (int64_t k = 0; k < n; k++)
            ((double *)buf)[k] = ((const double *)f)[idx[k]];
    else
        for (int64_t k = 0; k < n; k++)
            ((float *)buf)[k] = ((const float *)f)[idx[k]];
    return TESS_OK;
}

static tess_status ce_unpack(tess_backend_t *b, void *f, const void *buf, const int64_t *idx, int64_t n, size_t vs,
                             tess_error_t *err)
{
    (void)b, (void)err;
    if (vs == sizeof(double))
        for (int64_t k = 0; k < n; k++)
            ((double *)f)[idx[k]] = ((const double *)buf)[k];
    else
        for (int64_t k = 0; k < n; k++)
            ((float *)f)[idx[k]] = ((const float *)buf)[k];
    return TESS_OK;
}

const tess_dist_engine_t tess_dist_engine_cpu = {
    .name = "cpu",
    .create = NULL, /* tess_backend_cpu.create (a static table's member is no constant expression in C) */
    .ops = &tess_backend_cpu,
    .set_owned = ce_set_owned,
    .step_tiles = ce_step_tiles,
    .state = ce_state,
    .steps_done = ce_steps_done,
    .state_slots = ce_state_slots,
    .pack = ce_pack,
    .unpack = ce_unpack,
    .device = 0,
};
