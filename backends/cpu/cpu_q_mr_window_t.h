/* The engine's sliding-window MR step (cpu_q_mr_window.h) for one lattice and precision. Instantiated by cpu_q.c
 * after cpu_q_step_t.h, whose row pull (cpu_q_rows) and tile buffer it uses: the window holds tiles tile-major
 * ((i * 64 + local) per tile, tess_pop_layout.h), so the pull is the AB pattern's with a direction stride of 64.
 *
 * Every pulled value is tess_q_load's for the moment representation (the Hermite rebuild of the upstream node's
 * old moments), whether it comes from the window, from the pre-pass (links from other blocks, curved links,
 * inlets and outlets) or from a fix-up (bounce-back from the node's own slot), so the step equals the two-copy
 * per-node MR (tess_q_node_step_mr_fd) bit for bit (tests/lattice/test_q_mr_window.c, tests/lattice/test_q_fd.c). */

#define R TESS_R

#ifdef _OPENMP
#include <omp.h>
#endif

#if TESS_QL_Q != 13

/* Window slot of tile layer zn while layer L is completed: layers cycle through slots 0-2; along a periodic axis
 * layer 0 stays in slot 3 (the last layer needs it) and the last layer is rebuilt early into slot 4 (layer 0
 * needs it). */
static inline int TESS_QFN(cpu_q_mrw_slot)(const tess_cpu_q_mrw_t *w, int L, int zn)
{
    if (w->periodic) {
        if (zn == 0)
            return 3;
        if (L == 0 && zn == w->nw - 1)
            return 4;
    }
    return zn % 3;
}

static inline R *TESS_QFN(cpu_q_mrw_tile)(const tess_cpu_q_mrw_t *w, R *win, int slot, int col)
{
    return win + ((size_t)slot * w->ncols + col) * TESS_QL_Q * 64;
}

/* Pre-pass, before any moment is overwritten (orphaned worksharing inside the step's parallel region): the
 * values a window cannot hold, from the old moments through the core's functions; the fd nodes' gathers take
 * the strain rate of cpu_fd's pre-pass, which ran on the same old moments before the step. */
static void TESS_QFN(cpu_q_mrw_prepass)(tess_cpu_q_t *be, const R *ms)
{
    const tess_params_t *p = &be->params;
    const tess_q_grid_t *g = &be->grid;
    const tess_cpu_q_mrw_t *w = be->mrw;
    R *pre = (R *)be->buf, *link_val = (R *)be->link_val, *xval = (R *)w->cross_val;
#pragma omp for schedule(static) nowait
    for (int64_t s = 0; s < be->nspecial; s++) { /* inlets and outlets: the whole gather */
        const int64_t node = be->special[s];
        const int32_t k = (int32_t)(node / 64);
        const int n = (int)(node % 64);
        const int x = n % g->ex, y = (n / g->ex) % g->ey, z = n / (g->ex * g->ey);
        TESS_QFN(tess_q_gather_from)(p, g, (const R *)0, ms, TESS_Q_CANON, k, x, y, z, be->links + be->node_link[node],
                                     be->node_nlink[node], tess_cpu_fd_strain_of(&be->fd, node), pre + s * TESS_QL_Q);
    }
    if (p->wall != TESS_WALL_BOUNCE_BACK) {
#pragma omp for schedule(static) nowait
        for (int32_t k = 0; k < be->ntiles; k++) /* curved-wall links, from their slots (tess_link_slots.h) */
            for (int64_t l = be->tile_link[k]; l < be->tile_link[k + 1]; l++)
                if (be->slots[l].i != TESS_LINK_NONE)
                    link_val[l] = TESS_QFN(tess_link_slot_value)(p, tess_pop_layout_tiles(), (const R *)0, ms,
                                                                 TESS_Q_CANON, k, &be->slots[l]);
    }
#pragma omp for schedule(static)
    for (int32_t k = 0; k < be->ntiles; k++) { /* links from other blocks; sorted by upstream node */
        int64_t hsrc = -1;
        R h[TESS_MR_NH] = {0}; /* set by the first entry (gcc cannot see it) */
        for (int64_t e = w->cross_start[k]; e < w->cross_start[k + 1]; e++) {
            const int64_t src = w->cross[e].src;
            if (src != hsrc) {
                R m[TESS_MR_NM];
                TESS_QFN(tess_q_mr_load)(ms, (int32_t)(src / 64), (int)(src % 64), m);
                TESS_QPFN(tess_mr_coeffs)(m, h);
                hsrc = src;
            }
            xval[e] = TESS_QFN(tess_q_hermite_population)(w->cross[e].dst >> 6, h);
        }
    }
}

/* The post-collision populations of tile layer zl of block b (the columns with need set), rebuilt from the old
 * moments into a window slot. */
static void TESS_QFN(cpu_q_mrw_rebuild)(const tess_cpu_q_t *be, int32_t b, int zl, int slot, R *win,
                                        const uint8_t *need)
{
    const tess_cpu_q_mrw_t *w = be->mrw;
    const R *ms = (const R *)be->f[0];
    for (int c = 0; c < w->ncols; c++) {
        const int32_t k = w->block_tiles[((size_t)b * w->ncols + c) * w->nw + zl];
        if (k < 0 || !need[c])
            continue;
        R *TESS_RESTRICT dst = TESS_QFN(cpu_q_mrw_tile)(w, win, slot, c);
        for (int n = 0; n < 64; n++) {
            R m[TESS_MR_NM], h[TESS_MR_NH];
            TESS_QFN(tess_q_mr_load)(ms, k, n, m);
            TESS_QPFN(tess_mr_coeffs)(m, h);
            TESS_UNROLL
            for (int i = 0; i < TESS_QL_Q; i++)
                dst[i * 64 + n] = TESS_QFN(tess_q_hermite_population)(i, h);
        }
    }
}

/* The moments of the gathered populations, collided in moment space and stored as tile k of ms, with the model
 * choices as constants so that the loop over the 64 nodes vectorises (tess_q_node_step_mr's calls, the same
 * bits). restrict: a store to ms may otherwise change p or buf for the compiler. */
__attribute__((always_inline)) static inline void TESS_QFN(cpu_q_mrw_collide_model)(
    const tess_params_t *TESS_RESTRICT p, const TESS_QFN(cpu_q_buffer) *TESS_RESTRICT buf, R *TESS_RESTRICT ms,
    int32_t k, int fluid, int force)
{
    for (int n = 0; n < 64; n++) {
        R f[TESS_QL_Q], m[TESS_MR_NM];
        TESS_UNROLL
        for (int i = 0; i < TESS_QL_Q; i++)
            f[i] = buf->f[i][n];
        TESS_QFN(tess_q_hermite_moments)(f, m);
        TESS_QFN(tess_q_moment_collide)(p, fluid, force, m);
        TESS_QFN(tess_q_mr_store)(ms, k, n, m);
    }
}

static void TESS_QFN(cpu_q_mrw_collide)(const tess_params_t *p, const TESS_QFN(cpu_q_buffer) *buf, R *ms, int32_t k)
{
    const int quasi = p->fluid == TESS_FLUID_QUASI_COMPRESSIBLE;
    if (quasi && p->use_force)
        TESS_QFN(cpu_q_mrw_collide_model)(p, buf, ms, k, TESS_FLUID_QUASI_COMPRESSIBLE, 1);
    else if (quasi)
        TESS_QFN(cpu_q_mrw_collide_model)(p, buf, ms, k, TESS_FLUID_QUASI_COMPRESSIBLE, 0);
    else if (p->use_force)
        TESS_QFN(cpu_q_mrw_collide_model)(p, buf, ms, k, TESS_FLUID_INCOMPRESSIBLE, 1);
    else
        TESS_QFN(cpu_q_mrw_collide_model)(p, buf, ms, k, TESS_FLUID_INCOMPRESSIBLE, 0);
}

/* Completes the tiles of layer L of block b in the step's range [sweep_k0, sweep_k1), their new moments into ms
 * (the engine's moments, or the side buffer of a part before the last): the row pull from the window (links from other blocks and empty tiles read
 * the zeroed scratch tile and are fixed up), the fix-ups of a tile that is not plain (as cpu_q_sweep: rest state
 * on dry nodes, bounce-back from the node's own old slot opp(i), then the pre-pass's values), the collision in
 * moment space and the store of the wet nodes' moments over the old ones. */
static void TESS_QFN(cpu_q_mrw_complete)(const tess_cpu_q_t *be, int32_t b, int L, R *win,
                                         TESS_QFN(cpu_q_buffer) *buf, R *scratch, R *ms)
{
    const tess_params_t *p = &be->params;
    const tess_cpu_q_mrw_t *w = be->mrw;
    const int opp[TESS_QL_Q] = TESS_QL_OPP, wt[TESS_QL_Q] = TESS_QL_W;
    const int curved = p->wall != TESS_WALL_BOUNCE_BACK;
    const R *pre = (const R *)be->buf, *link_val = (const R *)be->link_val, *xval = (const R *)w->cross_val;
    for (int c = 0; c < w->ncols; c++) {
        const int32_t k = w->block_tiles[((size_t)b * w->ncols + c) * w->nw + L];
        if (k < be->sweep_k0 || k >= be->sweep_k1)
            continue;
        const int32_t *nb = be->neighbors + 27 * (size_t)k;
        R *base[27];
        for (int s = 0; s < 27; s++) {
            const int32_t t2 = nb[s];
            base[s] = t2 >= 0 && w->tile_block[t2] == b
                          ? TESS_QFN(cpu_q_mrw_tile)(w, win, TESS_QFN(cpu_q_mrw_slot)(w, L, w->tile_w[t2]),
                                                     w->tile_col[t2])
                          : scratch;
        }
        TESS_QFN(cpu_q_rows)(base, 64, buf, 0, ~(uint64_t)0); /* the window's tiles: tile-major */
        if (w->tile_plain[k]) {
            TESS_QFN(cpu_q_mrw_collide)(p, buf, ms, k);
            continue;
        }
        const R *self = base[13];
        for (int64_t e = be->fix_start[k]; e < be->fix_start[k + 1]; e++) {
            const tess_cpu_q_fix_t fx = be->fix[e];
            if (fx.i == TESS_CPU_Q_DRY) {
                for (int i = 0; i < TESS_QL_Q; i++)
                    buf->f[i][fx.n] = (R)wt[i] / (R)TESS_QL_WDEN;
            } else {
                buf->f[fx.i][fx.n] = TESS_QFN(tess_q_bounce_back)(fx.i, self[opp[fx.i] * 64 + fx.n], &p->mat[fx.mat]);
            }
        }
        for (int64_t e = w->cross_start[k]; e < w->cross_start[k + 1]; e++)
            buf->f[w->cross[e].dst >> 6][w->cross[e].dst & 63] = xval[e];
        if (curved)
            for (int64_t l = be->tile_link[k]; l < be->tile_link[k + 1]; l++)
                if (be->slots[l].i != TESS_LINK_NONE)
                    buf->f[be->slots[l].i][be->slots[l].node] = link_val[l];
        for (int64_t s = be->tile_special[k]; s < be->tile_special[k + 1]; s++) {
            const int n = (int)(be->special[s] % 64);
            for (int i = 0; i < TESS_QL_Q; i++)
                buf->f[i][n] = pre[s * TESS_QL_Q + i];
        }
        const uint64_t wet = be->tile_wet[k];
        if (wet == ~(uint64_t)0) { /* no dry node (the fix-ups were links from other blocks or walls only) */
            TESS_QFN(cpu_q_mrw_collide)(p, buf, ms, k);
            continue;
        }
        /* dry nodes keep their old moments (as in the two-copy MR): collide into a tile of scratch moments, then
         * store the wet nodes */
        _Alignas(64) R mt[TESS_MR_NM * 64];
        TESS_QFN(cpu_q_mrw_collide)(p, buf, mt, 0);
        for (int n = 0; n < 64; n++)
            if (wet >> n & 1u) {
                R m[TESS_MR_NM];
                TESS_QFN(tess_q_mr_load)(mt, 0, n, m);
                TESS_QFN(tess_q_mr_store)(ms, k, n, m);
            }
    }
}

/* One block's tiles in the range [sweep_k0, sweep_k1): only the tile layers that hold them, with the layers
 * around each rebuilt into the window before it is completed (and before anything of them is overwritten: the
 * layers go up, and the last one's upper neighbour along a periodic axis is layer 0, kept in its own slot), and
 * only the columns that the range's tiles pull from. Each slot remembers the layer it holds, so a layer is
 * rebuilt once however the range is cut; every rebuild reads a layer not yet completed in this call, and a part
 * before the last writes elsewhere (ms), so the window holds only old moments. */
static void TESS_QFN(cpu_q_mrw_block)(const tess_cpu_q_t *be, int32_t b, R *win, TESS_QFN(cpu_q_buffer) *buf,
                                      R *scratch, R *ms, uint8_t *need)
{
    const tess_cpu_q_mrw_t *w = be->mrw;
    const int T = w->nw, k0 = be->sweep_k0, k1 = be->sweep_k1;
    const int32_t *bt = w->block_tiles + (size_t)b * w->ncols * T;
    const int whole = k0 == 0 && k1 == be->ntiles; /* every layer and column, as without parts */
    int La = whole ? 0 : T, Lb = whole ? T - 1 : -1;
    memset(need, whole, (size_t)w->ncols);
    for (int c = 0; c < w->ncols && !whole; c++)
        for (int L = 0; L < T; L++) {
            const int32_t k = bt[(size_t)c * T + L];
            if (k < k0 || k >= k1)
                continue;
            La = L < La ? L : La;
            Lb = L > Lb ? L : Lb;
            const int32_t *nb = be->neighbors + 27 * (size_t)k;
            for (int s = 0; s < 27; s++)
                if (nb[s] >= 0 && w->tile_block[nb[s]] == b)
                    need[w->tile_col[nb[s]]] = 1;
        }
    int held[5] = {-1, -1, -1, -1, -1};
    for (int L = La; L <= Lb; L++) {
        int any = 0;
        for (int c = 0; c < w->ncols && !any; c++)
            any = bt[(size_t)c * T + L] >= k0 && bt[(size_t)c * T + L] < k1;
        if (!any)
            continue;
        for (int d = -1; d <= 1; d++) {
            int zn = L + d;
            if (w->periodic)
                zn = (zn + T) % T;
            else if (zn < 0 || zn >= T)
                continue;
            const int slot = TESS_QFN(cpu_q_mrw_slot)(w, L, zn);
            if (held[slot] != zn) {
                TESS_QFN(cpu_q_mrw_rebuild)(be, b, zn, slot, win, need);
                held[slot] = zn;
            }
        }
        TESS_QFN(cpu_q_mrw_complete)(be, b, L, win, buf, scratch, ms);
    }
}

/* One step, or a part of one (tess_cpu_q_step_tiles): the pre-pass with the first part, the blocks' windows over
 * the part's tiles; a part before the last keeps its new moments in the side buffer (its tiles' dry nodes copied
 * there first: they keep their old moments), and the last part copies them back once no window needs the old. */
void TESS_QFN(cpu_q_mr_window_step)(tess_cpu_q_t *be, int part)
{
    tess_cpu_q_mrw_t *w = be->mrw;
    const int last = (part & TESS_CPU_Q_LAST) != 0;
    const size_t tile = (size_t)TESS_QFN(tess_q_mr_count)() * 64;
    R *ms = (R *)be->f[0], *out = last ? ms : (R *)w->side;
    if (!last) {
        for (int32_t k = be->sweep_k0; k < be->sweep_k1; k++)
            if (be->tile_wet[k] != ~(uint64_t)0)
                memcpy(out + k * tile, ms + k * tile, tile * sizeof(R));
        if (be->sweep_k0 < be->sweep_k1) {
            w->side_k0 = w->side_k0 < w->side_k1 && w->side_k0 < be->sweep_k0 ? w->side_k0 : be->sweep_k0;
            w->side_k1 = w->side_k1 > be->sweep_k1 ? w->side_k1 : be->sweep_k1;
        }
    }
#pragma omp parallel num_threads(be->nthreads)
    {
#ifdef _OPENMP
        const int th = omp_get_thread_num();
#else
        const int th = 0;
#endif
        R *win = (R *)w->window[th];
        uint8_t *need = w->need + (size_t)th * w->ncols;
        TESS_QFN(cpu_q_buffer) buf;
        _Alignas(64) R scratch[TESS_QL_Q * 64]; /* what links from other blocks and empty tiles pull (fixed up) */
        memset(scratch, 0, sizeof scratch);
        if (part & TESS_CPU_Q_FIRST)
            TESS_QFN(cpu_q_mrw_prepass)(be, ms); /* ends with a barrier */
#pragma omp for schedule(dynamic, 1)
        for (int32_t b = 0; b < w->nblocks; b++)
            TESS_QFN(cpu_q_mrw_block)(be, b, win, &buf, scratch, out, need);
    }
    if (last && w->side_k0 < w->side_k1) {
        memcpy(ms + w->side_k0 * tile, (const R *)w->side + w->side_k0 * tile,
               (size_t)(w->side_k1 - w->side_k0) * tile * sizeof(R));
        w->side_k0 = w->side_k1 = 0;
    }
}

#else /* D3Q13 has no regularized collision, hence no MR (initialise refuses it) */
void TESS_QFN(cpu_q_mr_window_step)(tess_cpu_q_t *be, int part)
{
    (void)be, (void)part;
}
#endif

#undef R
