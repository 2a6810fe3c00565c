/* MR time step (moment representation, sliding window over tile columns), in one precision. Included by
 * cpu_mr.c once per precision with TESS_R and TESS_FN defined.
 *
 * State: the post-collision moments of every node (one copy). A block is a set of tile columns; its layers
 * (tile layers along z) pass through a window of post-collision populations rebuilt from the moments
 * (paper eq. 16): layer z+1 is rebuilt, then layer z is completed: pulled from the window (three layers),
 * boundary-reconstructed, collided in moment space and written back as moments. Links from other blocks:
 * a block of an earlier colour has already overwritten its moments, so the populations that stream forward
 * out of a block are saved in the interface buffer when the block rebuilds them; a block of a later colour
 * still holds the old moments, from which the needed population is recomputed (backward streaming). */

#define R TESS_R


#include "cpu_tile_buffer_t.h"
#include "cpu_pull_rows_t.h" /* the gather: the window is in L_XYZ, as the AB and AA copies */

/* Window slot of tile layer zn while layer L is completed: layers cycle through slots 0-2; with a periodic z
 * axis layer 0 stays in slot 3 (the last layer needs it) and the last layer is rebuilt early into slot 4
 * (the first layer needs it). */
static inline int TESS_FN(cpu_mr_slot)(const tess_cpu_pattern_t *be, int L, int zn)
{
    if (be->periodic[2]) {
        if (zn == 0)
            return 3;
        if (L == 0 && zn == be->tz - 1)
            return 4;
    }
    return zn % 3;
}

static inline R *TESS_FN(cpu_mr_wtile)(const tess_cpu_pattern_t *be, R *w, int slot, int col)
{
    return w + ((size_t)slot * be->max_ncol + col) * 19 * 64;
}

/* Rebuilds the post-collision populations of layer z of block b into a window slot (every direction in L_XYZ:
 * the window is private, so the per-direction layouts would only cost shuffles) and saves the values that
 * stream into other blocks. */
static void TESS_FN(cpu_mr_rebuild)(const tess_cpu_pattern_t *be, const tess_cpu_mr_block_t *b, int z, int slot,
                                    R *w)
{
    const R *m = (const R *)be->m;
    R *ibuf = (R *)be->ibuf;
    for (int c = 0; c < b->ncol; c++) {
        const int32_t k = b->tiles[(size_t)c * be->tz + z];
        if (k < 0)
            continue;
        R *TESS_RESTRICT dst = TESS_FN(cpu_mr_wtile)(be, w, slot, c);
        const R *TESS_RESTRICT mk = m + (size_t)k * 10 * 64;
        for (int n = 0; n < 64; n++) {
            R mm[10], h[10];
            TESS_UNROLL
            for (int q = 0; q < 10; q++)
                mm[q] = mk[q * 64 + n];
            TESS_FN(tess_mr_coeffs)(mm, h);
            TESS_UNROLL
            for (int i = 0; i < 19; i++)
                dst[i * 64 + n] = TESS_FN(tess_mr_population)(i, h);
        }
        const int64_t base = be->tile_ibuf[k];
        if (base >= 0) {
            const int mask = be->tile_mask[k];
            const int16_t *xl = be->xlist[mask];
            const int cnt = be->xcount[mask];
            for (int j = 0; j < cnt; j++)
                ibuf[base + j] = dst[xl[j]];
        }
    }
}

/* Collides the gathered populations of a tile in moment space and stores the moments. */
__attribute__((always_inline)) static inline void TESS_FN(cpu_mr_collide_model)(
    const tess_params_t *TESS_RESTRICT p, const TESS_FN(cpu_tile_buffer) *TESS_RESTRICT buf, R *TESS_RESTRICT mk,
    int fluid, int force)
{
    /* restrict: a store to mk may otherwise change p->tau or buf, which keeps GCC from vectorising the loop */
    for (int n = 0; n < 64; n++) {
        R f[19], mm[10];
        TESS_UNROLL
        for (int i = 0; i < 19; i++)
            f[i] = buf->f[i][n];
        TESS_FN(tess_mr_moments)(f, mm);
        TESS_FN(tess_mr_collide)(p, fluid, force, mm);
        TESS_UNROLL
        for (int q = 0; q < 10; q++)
            mk[q * 64 + n] = mm[q];
    }
}

static void TESS_FN(cpu_mr_collide)(const tess_params_t *p, const TESS_FN(cpu_tile_buffer) *buf, R *mk)
{
    const int quasi = p->fluid == TESS_FLUID_QUASI_COMPRESSIBLE;
    if (quasi && p->use_force)
        TESS_FN(cpu_mr_collide_model)(p, buf, mk, TESS_FLUID_QUASI_COMPRESSIBLE, 1);
    else if (quasi)
        TESS_FN(cpu_mr_collide_model)(p, buf, mk, TESS_FLUID_QUASI_COMPRESSIBLE, 0);
    else if (p->use_force)
        TESS_FN(cpu_mr_collide_model)(p, buf, mk, TESS_FLUID_INCOMPRESSIBLE, 1);
    else
        TESS_FN(cpu_mr_collide_model)(p, buf, mk, TESS_FLUID_INCOMPRESSIBLE, 0);
}

/* Inlets and outlets of a completed tile. Zou-He works on the populations in the window before the moments
 * are taken; the finite-difference boundary works on moments (paper eqs. 22-24): the partial density and
 * momentum of the known populations give rho_0 + 2 rho_1, and the moments of the node follow from eq. 22. */
static void TESS_FN(cpu_mr_open_zou_he)(const tess_cpu_pattern_t *be, int32_t k, TESS_FN(cpu_tile_buffer) *buf)
{
    const tess_params_t *p = &be->params;
    const uint8_t *types = be->node_type + 64 * (size_t)k;
    for (int n = 0; n < 64; n++) {
        const tess_material_t *mat = &p->mat[types[n]];
        if ((mat->kind != TESS_NODE_VELOCITY && mat->kind != TESS_NODE_PRESSURE) ||
            mat->method == TESS_BC_FINITE_DIFFERENCE)
            continue;
        R f[19];
        for (int i = 0; i < 19; i++)
            f[i] = buf->f[i][n];
        TESS_FN(tess_zou_he)(p, mat, f);
        for (int i = 0; i < 19; i++)
            buf->f[i][n] = f[i];
    }
}

static void TESS_FN(cpu_mr_open_fd)(const tess_cpu_pattern_t *be, int32_t k, const TESS_FN(cpu_tile_buffer) *buf,
                                    R *mk)
{
    const int cx[19] = TESS_D3Q19_CX, cy[19] = TESS_D3Q19_CY, cz[19] = TESS_D3Q19_CZ;
    const tess_params_t *p = &be->params;
    const uint8_t *types = be->node_type + 64 * (size_t)k;
    for (int n = 0; n < 64; n++) {
        const tess_material_t *mat = &p->mat[types[n]];
        if ((mat->kind != TESS_NODE_VELOCITY && mat->kind != TESS_NODE_PRESSURE) ||
            mat->method != TESS_BC_FINITE_DIFFERENCE)
            continue;
        R f[19], part[10], mm[10], S[6];
        for (int i = 0; i < 19; i++) {
            const int c[3] = {cx[i], cy[i], cz[i]};
            /* what streamed in from inside the domain; the unknown populations (c.n < 0) are left out */
            f[i] = c[mat->axis] * mat->sign < 0 ? (R)0 : buf->f[i][n];
        }
        TESS_FN(tess_mr_moments)(f, part);
        const R known = TESS_FN(tess_fd_known_sum_moments)(mat->axis, mat->sign, part[TESS_MR_RHO], &part[TESS_MR_JX]);
        const double *fs = tess_cpu_fd_strain_of(&be->fd, 64 * (int64_t)k + n);
        for (int c = 0; c < 6; c++)
            S[c] = (R)fs[c];
        TESS_FN(tess_fd_moments)(p, mat, p->fluid, known, S, mm);
        TESS_FN(tess_mr_collide)(p, p->fluid, p->use_force, mm);
        for (int q = 0; q < 10; q++)
            mk[q * 64 + n] = mm[q];
    }
}

/* Completes layer L of block b: pull from the window, fix the links from solid nodes and other blocks,
 * boundaries, collision in moment space. */
static void TESS_FN(cpu_mr_complete)(const tess_cpu_pattern_t *be, const tess_cpu_mr_block_t *b, int L, R *w,
                                     TESS_FN(cpu_tile_buffer) *buf)
{
    const tess_params_t *p = &be->params;
    R *m = (R *)be->m;
    const R *ibuf = (const R *)be->ibuf;
    const R *rest = (const R *)be->rest_tile;
    for (int c = 0; c < b->ncol; c++) {
        const int32_t k = b->tiles[(size_t)c * be->tz + L];
        if (k < 0)
            continue;
        const int32_t *nb = be->neighbors + 27 * (size_t)k;
        const int myblock = be->tile_block[k];
        const R *base[27];
        for (int s = 0; s < 27; s++) {
            const int32_t t2 = nb[s];
            base[s] = t2 >= 0 && be->tile_block[t2] == myblock
                          ? TESS_FN(cpu_mr_wtile)(be, w, TESS_FN(cpu_mr_slot)(be, L, be->tile_corner[3 * t2 + 2] / 4),
                                                  be->tile_col[t2])
                          : rest;
        }
        TESS_FN(cpu_pull_rows)((R *const *)base, buf, 0); /* write = 0 stores nothing into the window */
        const R *self = base[13];
        int64_t h_src = -1; /* upstream node whose populations fs holds */
        R fs[19];
        for (int64_t e = be->fix_start[k]; e < be->fix_start[k + 1]; e++) {
            const tess_cpu_mr_fix_t fx = be->fix[e];
            const int i = fx.dst >> 6, n = fx.dst & 63;
            switch (fx.kind) {
            case TESS_MR_FIX_SOLID:
                for (int d = 0; d < 19; d++)
                    buf->f[d][fx.dst] = (R)be->rest_w[d];
                break;
            case TESS_MR_FIX_BOUNCE:
                buf->f[i][n] = TESS_FN(tess_bounce_back)(i, self[TESS_D3Q19_OPP(i) * 64 + n], &p->mat[fx.mat]);
                break;
            case TESS_MR_FIX_BUFFER:
                buf->f[i][n] = ibuf[fx.src];
                break;
            default:
                if (fx.src != h_src) {
                    /* all 19 at once (the fix-ups are sorted by source, about five links each): a call with a
                     * constant direction compiles to a few additions, one with a variable direction does not */
                    const R *m2 = m + (size_t)(fx.src >> 6) * 10 * 64 + (fx.src & 63);
                    R mm[10];
                    for (int q = 0; q < 10; q++)
                        mm[q] = m2[q * 64];
                    TESS_FN(tess_mr_populations)(mm, fs);
                    h_src = fx.src;
                }
                buf->f[i][n] = fs[i];
            }
        }
        if (be->tile_has_open[k])
            TESS_FN(cpu_mr_open_zou_he)(be, k, buf);
        R *mk = m + (size_t)k * 10 * 64;
        TESS_FN(cpu_mr_collide)(p, buf, mk);
        if (be->tile_has_open[k] && be->fd.n)
            TESS_FN(cpu_mr_open_fd)(be, k, buf, mk);
    }
}

static void TESS_FN(cpu_mr_block)(const tess_cpu_pattern_t *be, const tess_cpu_mr_block_t *b, R *w,
                                  TESS_FN(cpu_tile_buffer) *buf)
{
    const int T = be->tz;
    TESS_FN(cpu_mr_rebuild)(be, b, 0, TESS_FN(cpu_mr_slot)(be, 1, 0), w);
    if (be->periodic[2] && T > 1)
        TESS_FN(cpu_mr_rebuild)(be, b, T - 1, TESS_FN(cpu_mr_slot)(be, 0, T - 1), w);
    for (int L = 0; L < T; L++) {
        if (L + 1 < T)
            TESS_FN(cpu_mr_rebuild)(be, b, L + 1, TESS_FN(cpu_mr_slot)(be, L + 1, L + 1), w);
        TESS_FN(cpu_mr_complete)(be, b, L, w, buf);
    }
}

static void TESS_FN(cpu_mr_step)(tess_cpu_pattern_t *be)
{
#pragma omp parallel num_threads(be->nthreads)
    {
#ifdef _OPENMP
        R *w = (R *)be->window[omp_get_thread_num()];
#else
        R *w = (R *)be->window[0];
#endif
        TESS_FN(cpu_tile_buffer) buf;
        for (int color = 0; color < 4; color++) {
            /* blocks are sorted by colour; those of one colour never touch, so they run in any order */
#pragma omp for schedule(dynamic, 1)
            for (int32_t bi = 0; bi < be->nblocks; bi++)
                if (be->blocks[bi].color == color)
                    TESS_FN(cpu_mr_block)(be, &be->blocks[bi], w, &buf);
        }
    }
}

static void TESS_FN(cpu_mr_initialise)(tess_cpu_pattern_t *be, const void *pops)
{
    const R *f = (const R *)pops;
    R *m = (R *)be->m;
    for (int i = 0; i < 19; i++)
        for (int n = 0; n < 64; n++)
            ((R *)be->rest_tile)[i * 64 + n] = (R)be->rest_w[i];
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int32_t k = 0; k < be->ntiles; k++)
        for (int n = 0; n < 64; n++) {
            R fn[19], mm[10];
            for (int i = 0; i < 19; i++)
                fn[i] = f[((size_t)k * 19 + i) * 64 + be->table.dst_off[i][n]];
            TESS_FN(tess_mr_moments)(fn, mm);
            for (int q = 0; q < 10; q++)
                m[((size_t)k * 10 + q) * 64 + n] = mm[q];
        }
}

static void TESS_FN(cpu_mr_download)(const tess_cpu_pattern_t *be, void *pops)
{
    R *f = (R *)pops;
    const R *m = (const R *)be->m;
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int32_t k = 0; k < be->ntiles; k++)
        for (int n = 0; n < 64; n++) {
            R mm[10], fn[19];
            for (int q = 0; q < 10; q++)
                mm[q] = m[((size_t)k * 10 + q) * 64 + n];
            TESS_FN(tess_mr_populations)(mm, fn);
            for (int i = 0; i < 19; i++)
                f[((size_t)k * 19 + i) * 64 + be->table.dst_off[i][n]] = fn[i];
        }
}

#undef R
