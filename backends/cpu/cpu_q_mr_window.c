/* Set-up of the engine's sliding-window MR (cpu_q_mr_window.h): blocks of tile columns, per-thread windows, and
 * the links that cross from one block into another. The step itself is cpu_q_mr_window_t.h. */
#include "cpu_q_mr_window.h"
#include "cpu_q.h"
#include "cpu_topology.h"
#include "tess_lattice.h"
#include "tess_state.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Columns per block from the cache: the window (three tile layers of populations) fills one thread's share of
 * the L2, as in the paper's figures 7-9; at least one column. */
static int auto_columns(const tess_cpu_q_t *be)
{
    int shared = 1;
    size_t cache = tess_cpu_topology_cache(2, &shared);
    if (cache == 0)
        cache = (size_t)1 << 20;
    const size_t per_thread = cache / (size_t)(shared > 0 ? shared : 1);
    const size_t per_column = 3 * (size_t)be->q * 64 * tess_precision_size(be->cfg.precision);
    const size_t c = per_thread / per_column;
    return c < 1 ? 1 : (int)c;
}

tess_status tess_cpu_q_mrw_create(tess_cpu_q_t *be, const tess_tiling_t *t, tess_error_t *err)
{
    tess_cpu_q_mrw_t *w = calloc(1, sizeof *w);
    if (!w)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the MR window");
    be->mrw = w;
    const int ext[3] = {t->ex, t->ey, t->ez}, n[3] = {t->tx, t->ty, t->tz};
    w->axis = t->ez == 1 ? 1 : 2;
    const int a0 = 0, a1 = w->axis == 2 ? 1 : 2;
    w->nw = n[w->axis];
    w->periodic = t->periodic[w->axis] != 0;
    w->nslots = w->periodic ? 5 : 3;
    const int lateral = ext[a0] * ext[a1]; /* nodes of one tile column's cross-section */
    int cols = be->cfg.mr_layer > 0 ? be->cfg.mr_layer / lateral : auto_columns(be);
    if (cols < 1)
        cols = 1;
    for (;;) { /* as square as the box allows; an automatic size keeps a few blocks per thread for the balance */
        w->b1 = (int)floor(sqrt((double)cols)); /* D2Q9: the second lateral axis (z) has one tile */
        w->b1 = w->b1 < 1 ? 1 : w->b1 > n[a1] ? n[a1] : w->b1;
        w->b0 = cols / w->b1;
        w->b0 = w->b0 < 1 ? 1 : w->b0 > n[a0] ? n[a0] : w->b0;
        const int64_t nb = (int64_t)((n[a0] + w->b0 - 1) / w->b0) * ((n[a1] + w->b1 - 1) / w->b1);
        if (be->cfg.mr_layer > 0 || cols == 1 || nb >= 4 * (int64_t)be->nthreads)
            break;
        cols = cols * 3 / 4;
    }
    w->ncols = w->b0 * w->b1;
    w->layer = lateral * w->ncols;
    const int nb0 = (n[a0] + w->b0 - 1) / w->b0, nb1 = (n[a1] + w->b1 - 1) / w->b1;
    const size_t nt = t->ntiles > 0 ? (size_t)t->ntiles : 1;
    int32_t *id = malloc((size_t)nb0 * nb1 * sizeof *id); /* block of the grid -> non-empty block, or -1 */
    w->tile_block = malloc(nt * sizeof *w->tile_block);
    w->tile_col = malloc(nt * sizeof *w->tile_col);
    w->tile_w = malloc(nt * sizeof *w->tile_w);
    w->tile_plain = calloc(nt, 1);
    w->cross_start = calloc(nt + 1, sizeof *w->cross_start);
    if (!id || !w->tile_block || !w->tile_col || !w->tile_w || !w->tile_plain || !w->cross_start) {
        free(id);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the MR blocks");
    }
    for (int b = 0; b < nb0 * nb1; b++)
        id[b] = -1;
    w->nblocks = 0;
    for (int32_t k = 0; k < t->ntiles; k++) {
        const int c0 = t->tile_corner[3 * k + a0] / ext[a0], c1 = t->tile_corner[3 * k + a1] / ext[a1];
        const int b = c0 / w->b0 + nb0 * (c1 / w->b1);
        if (id[b] < 0)
            id[b] = w->nblocks++;
        w->tile_block[k] = id[b];
        w->tile_col[k] = c0 % w->b0 + w->b0 * (c1 % w->b1);
        w->tile_w[k] = t->tile_corner[3 * k + w->axis] / ext[w->axis];
    }
    free(id);
    const size_t cells = (size_t)(w->nblocks > 0 ? w->nblocks : 1) * w->ncols * w->nw;
    w->block_tiles = malloc(cells * sizeof *w->block_tiles);
    w->nthreads = be->nthreads;
    w->window = calloc((size_t)w->nthreads, sizeof *w->window);
    w->need = malloc((size_t)w->nthreads * w->ncols);
    if (!w->block_tiles || !w->window || !w->need)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the MR blocks");
    for (size_t c = 0; c < cells; c++)
        w->block_tiles[c] = -1;
    for (int32_t k = 0; k < t->ntiles; k++)
        w->block_tiles[((size_t)w->tile_block[k] * w->ncols + w->tile_col[k]) * w->nw + w->tile_w[k]] = k;
    w->window_bytes = (size_t)w->nslots * w->ncols * be->q * 64 * tess_precision_size(be->cfg.precision);
    for (int i = 0; i < w->nthreads; i++)
        if (!(w->window[i] = tess_cpu_alloc(w->window_bytes)))
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory: the MR window needs %zu bytes per thread",
                             w->window_bytes);
    w->bytes = sizeof *w + cells * sizeof *w->block_tiles + nt * (3 * sizeof(int32_t) + 1) +
               (nt + 1) * sizeof *w->cross_start + (size_t)w->nthreads * (w->window_bytes + sizeof(void *) + w->ncols);
    return TESS_OK;
}

/* Per tile, the links whose upstream node is wet but in another block, sorted by upstream node so that the
 * pre-pass rebuilds each upstream node's coefficients once per tile. */
static int cross_cmp(const void *a, const void *b)
{
    const tess_cpu_q_mrw_cross_t *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    return (x->dst > y->dst) - (x->dst < y->dst);
}

tess_status tess_cpu_q_mrw_build(tess_cpu_q_t *be, tess_error_t *err)
{
    tess_cpu_q_mrw_t *w = be->mrw;
    const tess_params_t *p = &be->params;
    const tess_lattice_t *lat = tess_lattice_get((tess_lattice_id)be->lattice);
    const size_t vs = tess_precision_size(be->cfg.precision);
    if (!lat)
        return tess_fail(err, TESS_ERR_INPUT, "unknown lattice id %d", be->lattice);
    w->bytes -= (size_t)w->ncross * (sizeof *w->cross + vs);
    free(w->cross);
    free(w->cross_val);
    w->cross = NULL;
    w->cross_val = NULL;
    int64_t count = 0;
    for (int pass = 0; pass < 2; pass++) {
        count = 0;
        for (int32_t k = 0; k < be->ntiles; k++) {
            w->cross_start[k] = count;
            for (int n = 0; n < 64; n++) {
                if (!tess_q_kind_is_wet(p->mat[be->node_type[64 * (size_t)k + n]].kind))
                    continue;
                const int x = n % be->ex, y = (n / be->ex) % be->ey, z = n / (be->ex * be->ey);
                for (int i = 1; i < be->q; i++) {
                    int ux = x, uy = y, uz = z;
                    const int32_t ku = tess_q_grid_move(&be->grid, k, &ux, &uy, &uz, -lat->c[i][0], -lat->c[i][1],
                                                        -lat->c[i][2]);
                    if (ku < 0 || w->tile_block[ku] == w->tile_block[k] ||
                        !tess_q_kind_is_wet(p->mat[tess_q_grid_type(&be->grid, ku, ux, uy, uz)].kind))
                        continue;
                    if (pass)
                        w->cross[count] = (tess_cpu_q_mrw_cross_t){
                            64 * (int64_t)ku + tess_q_grid_local(&be->grid, ux, uy, uz), (uint16_t)(i * 64 + n)};
                    count++;
                }
            }
        }
        w->cross_start[be->ntiles] = count;
        if (!pass) {
            w->cross = malloc((size_t)(count ? count : 1) * sizeof *w->cross);
            w->cross_val = malloc((size_t)(count ? count : 1) * vs);
            if (!w->cross || !w->cross_val)
                return tess_fail(err, TESS_ERR_NOMEM, "out of memory for %lld MR links between blocks",
                                 (long long)count);
        }
    }
    w->ncross = count;
    for (int32_t k = 0; k < be->ntiles; k++) {
        qsort(w->cross + w->cross_start[k], (size_t)(w->cross_start[k + 1] - w->cross_start[k]), sizeof *w->cross,
              cross_cmp);
        w->tile_plain[k] = (uint8_t)(be->tile_plain[k] && w->cross_start[k + 1] == w->cross_start[k]);
    }
    w->bytes += (size_t)count * (sizeof *w->cross + vs);
    return TESS_OK;
}

tess_status tess_cpu_q_mrw_side(tess_cpu_q_t *be, int32_t nside, tess_error_t *err)
{
    tess_cpu_q_mrw_t *w = be->mrw;
    const size_t tile = (size_t)tess_state_node_values(TESS_PATTERN_MR, be->lattice, be->q) * 64 *
                        tess_precision_size(be->cfg.precision);
    w->bytes -= (size_t)w->nside * tile;
    free(w->side);
    w->side = NULL;
    w->nside = 0;
    w->side_k0 = w->side_k1 = 0;
    if (nside <= 0)
        return TESS_OK;
    if (!(w->side = tess_cpu_alloc((size_t)nside * tile)))
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the new moments of %d tiles", (int)nside);
    w->nside = nside;
    w->bytes += (size_t)nside * tile;
    return TESS_OK;
}

void tess_cpu_q_mrw_free(tess_cpu_q_mrw_t *w)
{
    if (!w)
        return;
    free(w->block_tiles);
    free(w->tile_block);
    free(w->tile_col);
    free(w->tile_w);
    free(w->cross_start);
    free(w->cross);
    free(w->cross_val);
    free(w->tile_plain);
    if (w->window)
        for (int i = 0; i < w->nthreads; i++)
            free(w->window[i]);
    free(w->window);
    free(w->need);
    free(w->side);
    free(w);
}
