/* AA time steps over the non-empty tiles, in one precision. Included by cpu_aa.c once per precision with TESS_R
 * and TESS_FN defined (see core/tess_physics.h).
 *
 * Location (i, n) of a node below means the slot that the AB pull would read for its f_i: direction i of the
 * upstream node x - c_i (gather table src_slot/src_off). Streaming is a bijection, so every slot belongs to
 * exactly one node and the pattern needs no second copy and no ordering between tiles:
 *   odd step  (1st, 3rd, ...): read f_i from location (i, n), collide, write f*_opp(i) back to location (i, n);
 *                              a link from a solid node uses the node's own slot opp(i) for both (bounce-back).
 *   even step:                 read f_i from the node's own slot opp(i), collide, write f*_i to its own slot i.
 * After an even step the copy is the canonical AB state; after an odd step slot j of node x holds the
 * post-collision population that has streamed into x along direction opp(j). */

#define R TESS_R

#include "cpu_collide_tile_t.h"
#include "cpu_pull_rows_t.h"

/* Inlet and outlet reconstruction of the tile's open nodes, on the gathered populations. */
static void TESS_FN(cpu_aa_open)(const tess_cpu_pattern_t *be, int32_t k, TESS_FN(cpu_tile_buffer) *buf)
{
    const tess_params_t *p = &be->params;
    const uint8_t *types = be->node_type + 64 * (size_t)k;
    for (int n = 0; n < 64; n++) {
        const tess_material_t *m = &p->mat[types[n]];
        if (m->kind != TESS_NODE_VELOCITY && m->kind != TESS_NODE_PRESSURE)
            continue;
        R f[19], S[6] = {0, 0, 0, 0, 0, 0};
        for (int i = 0; i < 19; i++)
            f[i] = buf->f[i][n];
        if (m->method == TESS_BC_FINITE_DIFFERENCE) {
            const tess_cpu_fd_node_t *fd = &be->fd[be->fd_of_node[64 * (size_t)k + n]];
            for (int c = 0; c < 6; c++)
                S[c] = (R)fd->S[c];
            TESS_FN(tess_fd_boundary)(p, m, p->fluid, S, f);
        } else {
            TESS_FN(tess_zou_he)(p, m, f);
        }
        for (int i = 0; i < 19; i++)
            buf->f[i][n] = f[i];
    }
}

/* Odd step, a tile with dry nodes: the scatter of cpu_pull_rows one value at a time, for the nodes in wet only
 * (bit n: node n is wet): a dry node's location may be a wet neighbour's bounce-back slot. */
static void TESS_FN(cpu_aa_odd_scatter)(R *const *base, const TESS_FN(cpu_tile_buffer) *TESS_RESTRICT buf, uint64_t wet)
{
    TESS_UNROLL
    for (int i = 0; i < 19; i++)
        TESS_UNROLL
        for (int z = 0; z < 4; z++)
            TESS_UNROLL
            for (int y = 0; y < 4; y++)
                TESS_UNROLL
                for (int x = 0; x < 4; x++) {
                    const unsigned n = tess_layout_xyz(x, y, z);
                    if (wet >> n & 1u)
                        base[tess_pull_slot(i, x, y, z)][i * 64 + tess_pull_offset(i, x, y, z, 1)] =
                            buf->f[TESS_D3Q19_OPP(i)][n];
                }
}

/* Even step, inside the tile: read slot opp(i), write slot i; with every direction in L_XYZ these are block
 * copies of 64 values. */
static void TESS_FN(cpu_aa_even_io)(R *TESS_RESTRICT self, TESS_FN(cpu_tile_buffer) *TESS_RESTRICT buf, int write)
{
    TESS_UNROLL
    for (int i = 0; i < 19; i++) {
        if (write)
            memcpy(self + i * 64, buf->f[i], 64 * sizeof(R));
        else
            memcpy(buf->f[i], self + TESS_D3Q19_OPP(i) * 64, 64 * sizeof(R));
    }
}

/* Odd step of tile k: gather from and scatter back to the locations (i, n). A wet node's link from a solid node
 * reads and writes the node's own slot opp(i) (fix-up list); its unconditional write to the solid node's
 * location is harmless (no wet node reads it). Solid nodes of the tile must not write: a location of theirs may
 * be a wet neighbour's bounce-back slot. Empty neighbour tiles point at the thread's scratch tile. */
static void TESS_FN(cpu_aa_odd_tile)(const tess_cpu_pattern_t *be, int32_t k, R *TESS_RESTRICT a, R *scratch,
                                     TESS_FN(cpu_tile_buffer) *buf)
{
    const int32_t *nb = be->neighbors + 27 * (size_t)k;
    const tess_params_t *p = &be->params;
    R *self = a + (size_t)k * 19 * 64;
    R *base[27];
    for (int s = 0; s < 27; s++)
        base[s] = nb[s] >= 0 ? a + (size_t)nb[s] * 19 * 64 : scratch;
    if (be->tile_plain[k]) {
        TESS_FN(cpu_pull_rows)(base, buf, 0);
        TESS_FN(cpu_collide_tile)(p, buf);
        TESS_FN(cpu_pull_rows)(base, buf, 1);
        return;
    }
    TESS_FN(cpu_pull_rows)(base, buf, 0);
    const tess_cpu_gather_table_t *g = &be->table;
    const int64_t e0 = be->fix_start[k], e1 = be->fix_start[k + 1];
    uint64_t wet = ~(uint64_t)0;
    for (int64_t e = e0; e < e1; e++) {
        const tess_cpu_mr_fix_t fx = be->fix[e];
        if (fx.kind == TESS_MR_FIX_SOLID) {
            wet &= ~((uint64_t)1 << fx.dst);
            for (int i = 0; i < 19; i++)
                buf->f[i][fx.dst] = (R)be->rest_w[i];
        } else {
            const int i = fx.dst >> 6, n = fx.dst & 63;
            buf->f[i][n] = TESS_FN(tess_bounce_back)(i, self[(size_t)TESS_D3Q19_OPP(i) * 64 + g->self_opp[i][n]], &p->mat[fx.mat]);
        }
    }
    if (be->tile_has_open[k])
        TESS_FN(cpu_aa_open)(be, k, buf);
    TESS_FN(cpu_collide_tile)(p, buf);
    if (wet == ~(uint64_t)0)
        TESS_FN(cpu_pull_rows)(base, buf, 1); /* every node writes: whole rows */
    else
        TESS_FN(cpu_aa_odd_scatter)(base, buf, wet);
    /* stored already bounced: the even step reads it as the node's incoming f_i */
    for (int64_t e = e0; e < e1; e++) {
        const tess_cpu_mr_fix_t fx = be->fix[e];
        if (fx.kind != TESS_MR_FIX_BOUNCE)
            continue;
        const int i = fx.dst >> 6, n = fx.dst & 63, opp = TESS_D3Q19_OPP(i);
        self[(size_t)opp * 64 + g->self_opp[i][n]] = TESS_FN(tess_bounce_back)(i, buf->f[opp][n], &p->mat[fx.mat]);
    }
}

/* Even step of tile k: everything stays inside the tile. */
static void TESS_FN(cpu_aa_even_tile)(const tess_cpu_pattern_t *be, int32_t k, R *TESS_RESTRICT a,
                                      TESS_FN(cpu_tile_buffer) *buf)
{
    const uint8_t *types = be->node_type + 64 * (size_t)k;
    R *self = a + (size_t)k * 19 * 64;
    TESS_FN(cpu_aa_even_io)(self, buf, 0);
    if (!be->tile_plain[k]) {
        for (int n = 0; n < 64; n++)
            if (!be->wet[types[n]])
                for (int i = 0; i < 19; i++)
                    buf->f[i][n] = (R)be->rest_w[i];
        if (be->tile_has_open[k])
            TESS_FN(cpu_aa_open)(be, k, buf);
    }
    TESS_FN(cpu_collide_tile)(&be->params, buf);
    TESS_FN(cpu_aa_even_io)(self, buf, 1);
}

static void TESS_FN(cpu_aa_step)(tess_cpu_pattern_t *be)
{
    R *a = (R *)be->f;
    const int32_t ntiles = be->ntiles;
    const int odd = (be->nsteps_done & 1) == 0; /* the step about to run is the 1st, 3rd, ... */
#pragma omp parallel num_threads(be->nthreads)
    {
        TESS_FN(cpu_tile_buffer) buf;
        _Alignas(64) R scratch[19 * 64]; /* where links from empty tiles read and write (always fixed up) */
        if (odd) {
#pragma omp for schedule(static)
            for (int32_t k = 0; k < ntiles; k++)
                TESS_FN(cpu_aa_odd_tile)(be, k, a, scratch, &buf);
        } else {
#pragma omp for schedule(static)
            for (int32_t k = 0; k < ntiles; k++)
                TESS_FN(cpu_aa_even_tile)(be, k, a, &buf);
        }
    }
}

#undef R
