/* The MR pattern on the CPU: the moment representation of regularized LBM with the sliding-window propagation
 * of the moment-representation paper (section 3.1), adapted to tiles (cpu_mr_step_t.h). This file sets up the
 * blocks, the interface buffer and the per-thread windows. */
#include "cpu_pattern.h"
#include "cpu_topology.h"
#include "tess_layout.h"
#include "tess_physics.h"
#include "tess_tiling.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define TESS_TEMPLATE "cpu_mr_step_t.h"
#include "tess_instantiate.h"

/* The tuned MR instance's copy of the tiling (cpu_pattern.c hands it the engine's). */
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

/* Bit of lateral neighbour column (dx, dy) != (0, 0) in a tile's mask. */
static int lateral_bit(int dx, int dy)
{
    const int s = (dx + 1) + 3 * (dy + 1);
    return s < 4 ? s : s - 1;
}

/* Layer size (nodes of one z-layer of a block) from the cache: the window of three tile layers (3 x 4 node
 * layers x 19 populations) fills the L2 share of one thread (measured: the plateau spans 0.5 to 4 MiB windows
 * on a 2 MiB L2, docs/patterns.md). */
static int auto_layer_nodes(const tess_cpu_pattern_t *be)
{
    int shared = 1;
    size_t cache = tess_cpu_topology_cache(2, &shared);
    if (cache == 0)
        cache = (size_t)1 << 20;
    const size_t per_thread = cache / (size_t)(shared > 0 ? shared : 1);
    const size_t per_layer_node = 3 * 4 * 19 * tess_precision_size(be->cfg.precision);
    size_t nodes = per_thread / per_layer_node;
    return nodes < 16 ? 16 : (int)nodes;
}

/* Splits n tile columns of an axis into nb nearly equal blocks; a periodic axis needs an even count (or one
 * block) so that the two colours alternate across the wrap. */
static int fix_count(int n, int nb, int periodic)
{
    if (nb < 1)
        nb = 1;
    if (nb > n)
        nb = n;
    if (periodic && nb > 1 && (nb & 1))
        nb = nb + 1 <= n ? nb + 1 : nb - 1;
    return nb;
}

tess_status tess_cpu_mr_upload(tess_cpu_pattern_t *be, tess_error_t *err)
{
    const size_t rs = tess_precision_size(be->cfg.precision);
    const size_t nt = be->ntiles > 0 ? (size_t)be->ntiles : 1;
    be->m = tess_cpu_alloc(nt * 10 * 64 * rs);
    if (!be->m)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory: the MR pattern needs %zu bytes of moments", nt * 640 * rs);
    be->bytes += nt * 10 * 64 * rs;

    /* Block shape: about layer/16 tile columns, as square as the box allows. */
    be->layer_nodes = be->cfg.mr_layer > 0 ? be->cfg.mr_layer : auto_layer_nodes(be);
    int ncol = be->layer_nodes / 16, bx = 1, by = 1;
    if (ncol < 1)
        ncol = 1;
    for (;;) {
        bx = (int)floor(sqrt((double)ncol));
        if (bx < 1)
            bx = 1;
        if (bx > be->tx)
            bx = be->tx;
        by = ncol / bx;
        if (by < 1)
            by = 1;
        if (by > be->ty)
            by = be->ty;
        /* an automatic layer keeps at least one block per thread in each of the four colours */
        const int64_t nb = (int64_t)((be->tx + bx - 1) / bx) * ((be->ty + by - 1) / by);
        if (be->cfg.mr_layer > 0 || ncol == 1 || nb >= 4 * (int64_t)be->nthreads)
            break;
        ncol = ncol * 3 / 4;
    }
    if (be->cfg.mr_layer <= 0)
        be->layer_nodes = 16 * bx * by;
    const int nbx = fix_count(be->tx, (be->tx + bx - 1) / bx, be->periodic[0]);
    const int nby = fix_count(be->ty, (be->ty + by - 1) / by, be->periodic[1]);

    /* Tile-column -> block. */
    int32_t *col_block = malloc((size_t)be->tx * be->ty * sizeof *col_block);
    be->tile_block = malloc(nt * sizeof *be->tile_block);
    be->tile_col = malloc(nt * sizeof *be->tile_col);
    be->tile_mask = calloc(nt, 1);
    be->tile_ibuf = malloc(nt * sizeof *be->tile_ibuf);
    be->blocks = calloc((size_t)nbx * nby, sizeof *be->blocks);
    be->xmap = malloc(256 * sizeof *be->xmap);
    be->xlist = malloc(256 * sizeof *be->xlist);
    be->fix_start = calloc(nt + 1, sizeof *be->fix_start);
    be->rest_tile = tess_cpu_alloc(19 * 64 * rs);
    if (!col_block || !be->tile_block || !be->tile_col || !be->tile_mask || !be->tile_ibuf || !be->blocks || !be->xmap ||
        !be->xlist || !be->fix_start || !be->rest_tile) {
        free(col_block);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory setting up the MR blocks");
    }
    /* Blocks are numbered colour by colour, so that each colour's blocks are contiguous. */
    int32_t nblocks = 0;
    int32_t *block_of = malloc((size_t)nbx * nby * sizeof *block_of);
    if (!block_of) {
        free(col_block);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory setting up the MR blocks");
    }
    for (int color = 0; color < 4; color++)
        for (int iy = 0; iy < nby; iy++)
            for (int ix = 0; ix < nbx; ix++)
                if ((ix & 1) + 2 * (iy & 1) == color) {
                    block_of[ix + nbx * iy] = nblocks;
                    be->blocks[nblocks].color = color;
                    nblocks++;
                }
    be->nblocks = nblocks;
    for (int ty = 0; ty < be->ty; ty++)
        for (int tx = 0; tx < be->tx; tx++) {
            const int ix = (int)((int64_t)tx * nbx / be->tx), iy = (int)((int64_t)ty * nby / be->ty);
            col_block[tx + be->tx * ty] = block_of[ix + nbx * iy];
        }
    free(block_of);

    /* Columns of each block that hold at least one tile. */
    int32_t *col_index = malloc((size_t)be->tx * be->ty * sizeof *col_index);
    uint8_t *col_used = calloc((size_t)be->tx * be->ty, 1);
    if (!col_index || !col_used) {
        free(col_block);
        free(col_index);
        free(col_used);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory setting up the MR blocks");
    }
    for (int32_t k = 0; k < be->ntiles; k++)
        col_used[be->tile_corner[3 * k] / 4 + be->tx * (be->tile_corner[3 * k + 1] / 4)] = 1;
    for (int c = 0; c < be->tx * be->ty; c++)
        col_index[c] = col_used[c] ? be->blocks[col_block[c]].ncol++ : -1;
    be->max_ncol = 1;
    for (int32_t b = 0; b < nblocks; b++) {
        if (be->blocks[b].ncol > be->max_ncol)
            be->max_ncol = be->blocks[b].ncol;
        be->blocks[b].tiles = malloc(((size_t)be->blocks[b].ncol * be->tz + 1) * sizeof(int32_t));
        if (!be->blocks[b].tiles) {
            free(col_block);
            free(col_index);
            free(col_used);
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory setting up the MR blocks");
        }
        for (size_t i = 0; i < (size_t)be->blocks[b].ncol * be->tz; i++)
            be->blocks[b].tiles[i] = -1;
    }
    for (int32_t k = 0; k < be->ntiles; k++) {
        const int tx = be->tile_corner[3 * k] / 4, ty = be->tile_corner[3 * k + 1] / 4, tz = be->tile_corner[3 * k + 2] / 4;
        const int c = tx + be->tx * ty;
        be->tile_block[k] = col_block[c];
        be->tile_col[k] = col_index[c];
        be->blocks[col_block[c]].tiles[(size_t)col_index[c] * be->tz + tz] = k;
        /* lateral neighbour columns in other blocks */
        int mask = 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                if (!dx && !dy)
                    continue;
                int nx = tx + dx, ny = ty + dy;
                if (nx < 0 || nx >= be->tx) {
                    if (!be->periodic[0])
                        continue;
                    nx = (nx + be->tx) % be->tx;
                }
                if (ny < 0 || ny >= be->ty) {
                    if (!be->periodic[1])
                        continue;
                    ny = (ny + be->ty) % be->ty;
                }
                if (col_block[nx + be->tx * ny] != col_block[c])
                    mask |= 1 << lateral_bit(dx, dy);
            }
        be->tile_mask[k] = (uint8_t)mask;
    }
    free(col_block);
    free(col_index);
    free(col_used);

    /* Per mask: which (direction, node) pairs leave the tile towards a column of another block. */
    static const int cx[19] = TESS_D3Q19_CX, cy[19] = TESS_D3Q19_CY;
    for (int mask = 0; mask < 256; mask++) {
        int count = 0;
        for (int i = 0; i < 19; i++)
            for (int n = 0; n < 64; n++) {
                const int x = n & 3, y = (n >> 2) & 3;
                const int dx = x + cx[i] < 0 ? -1 : (x + cx[i]) >> 2, dy = y + cy[i] < 0 ? -1 : (y + cy[i]) >> 2;
                be->xmap[mask][i][n] = -1;
                if ((dx || dy) && (mask >> lateral_bit(dx, dy) & 1)) {
                    be->xlist[mask][count] = (int16_t)(i * 64 + n);
                    be->xmap[mask][i][n] = (int16_t)count++;
                }
            }
        be->xcount[mask] = count;
    }
    int64_t len = 0;
    for (int32_t k = 0; k < be->ntiles; k++) {
        const int c = be->xcount[be->tile_mask[k]];
        be->tile_ibuf[k] = c ? len : -1;
        len += c;
    }
    be->ibuf_len = len;
    be->ibuf = tess_cpu_alloc((size_t)(len + 1) * rs);
    be->window = calloc((size_t)be->nthreads, sizeof *be->window);
    if (!be->ibuf || !be->window)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the MR interface buffer");
    const size_t wbytes = 5 * (size_t)be->max_ncol * 19 * 64 * rs;
    for (int t = 0; t < be->nthreads; t++) {
        be->window[t] = tess_cpu_alloc(wbytes);
        if (!be->window[t])
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the MR windows");
    }
    /* docs/patterns.md: T (640 R + 186 + 25) + 8 + R (X + 1 + 1216) + P 5 C 1216 R + 2 * 256 * 2432 + 16 B
     * + 4 sum_b (C_b tz + 1) + 16 (fix-up entries, added at initialise) */
    be->bytes += (size_t)(len + 1) * rs + (size_t)be->nthreads * wbytes + 256 * sizeof *be->xmap +
                 256 * sizeof *be->xlist + 19 * 64 * rs + (nt + 1) * sizeof *be->fix_start +
                 nt * (2 * sizeof(int32_t) + 1 + sizeof(int64_t)) + (size_t)nblocks * sizeof *be->blocks;
    for (int32_t b = 0; b < nblocks; b++)
        be->bytes += ((size_t)be->blocks[b].ncol * be->tz + 1) * sizeof(int32_t);
    return TESS_OK;
}

/* Fix-ups of a tile sorted by kind and source: links recomputed from the same upstream node become adjacent
 * and share one set of Hermite coefficients (each entry writes its own buffer slot, so order is free). */
static int fix_cmp(const void *a, const void *b)
{
    const tess_cpu_mr_fix_t *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    return (x->dst > y->dst) - (x->dst < y->dst);
}

/* Per tile, the links the unconditional window gather gets wrong (they depend on the materials, hence built
 * here and not at upload): solid nodes of the tile, links from solid nodes (bounce-back), and links from other
 * blocks: from an earlier colour through the interface buffer, from a later colour by recomputation. */
static tess_status build_fixups(tess_cpu_pattern_t *be, tess_error_t *err)
{
    const tess_cpu_gather_table_t *g = &be->table;
    be->bytes -= be->fix_bytes;
    free(be->fix);
    be->fix = NULL;
    be->fix_bytes = 0;
    size_t cap = 0, count = 0;
    for (int pass = 0; pass < 2; pass++) {
        count = 0;
        for (int32_t k = 0; k < be->ntiles; k++) {
            be->fix_start[k] = (int64_t)count;
            const int32_t *nb = be->neighbors + 27 * (size_t)k;
            const int color = be->blocks[be->tile_block[k]].color;
            for (int n = 0; n < 64; n++) {
                if (!be->wet[be->node_type[64 * (size_t)k + n]]) {
                    if (pass)
                        be->fix[count] = (tess_cpu_mr_fix_t){(uint16_t)n, TESS_MR_FIX_SOLID, 0, 0, 0};
                    count++;
                    continue;
                }
                for (int i = 1; i < 19; i++) {
                    const int32_t t2 = nb[g->src_slot[i][n]];
                    const int un = g->src_xyz[i][n];
                    const uint8_t st = t2 < 0 ? 0 : be->node_type[64 * (size_t)t2 + un];
                    tess_cpu_mr_fix_t fx = {(uint16_t)(i * 64 + n), 0, 0, 0, 0};
                    if (!be->wet[st]) {
                        fx.kind = TESS_MR_FIX_BOUNCE;
                        fx.mat = st;
                    } else if (be->tile_block[t2] != be->tile_block[k]) {
                        if (be->blocks[be->tile_block[t2]].color < color) {
                            fx.kind = TESS_MR_FIX_BUFFER;
                            fx.src = be->tile_ibuf[t2] + be->xmap[be->tile_mask[t2]][i][un];
                        } else {
                            fx.kind = TESS_MR_FIX_RECOMPUTE;
                            fx.src = 64 * (int64_t)t2 + un;
                        }
                    } else {
                        continue;
                    }
                    if (pass)
                        be->fix[count] = fx;
                    count++;
                }
            }
        }
        be->fix_start[be->ntiles] = (int64_t)count;
        if (!pass) {
            cap = count ? count : 1;
            be->fix = malloc(cap * sizeof *be->fix);
            if (!be->fix)
                return tess_fail(err, TESS_ERR_NOMEM, "out of memory for %zu MR fix-up links", count);
        } else {
            for (int32_t k = 0; k < be->ntiles; k++)
                qsort(be->fix + be->fix_start[k], (size_t)(be->fix_start[k + 1] - be->fix_start[k]), sizeof *be->fix,
                      fix_cmp);
        }
    }
    be->fix_bytes = cap * sizeof *be->fix;
    be->bytes += be->fix_bytes;
    return TESS_OK;
}

tess_status tess_cpu_mr_initialise(tess_cpu_pattern_t *be, const void *pops, tess_error_t *err)
{
    const tess_status s = build_fixups(be, err);
    if (s != TESS_OK)
        return s;
    if (be->cfg.precision == TESS_PRECISION_SINGLE)
        cpu_mr_initialise_f32(be, pops);
    else
        cpu_mr_initialise_f64(be, pops);
    return TESS_OK;
}

void tess_cpu_mr_step(tess_cpu_pattern_t *be)
{
    if (be->cfg.precision == TESS_PRECISION_SINGLE)
        cpu_mr_step_f32(be);
    else
        cpu_mr_step_f64(be);
}

void tess_cpu_mr_download(tess_cpu_pattern_t *be, void *pops)
{
    if (be->cfg.precision == TESS_PRECISION_SINGLE)
        cpu_mr_download_f32(be, pops);
    else
        cpu_mr_download_f64(be, pops);
}

void tess_cpu_mr_free(tess_cpu_pattern_t *be)
{
    free(be->m);
    if (be->blocks)
        for (int32_t b = 0; b < be->nblocks; b++)
            free(be->blocks[b].tiles);
    free(be->blocks);
    free(be->tile_block);
    free(be->tile_col);
    free(be->tile_mask);
    free(be->tile_ibuf);
    free(be->xmap);
    free(be->xlist);
    free(be->fix_start);
    free(be->fix);
    free(be->rest_tile);
    free(be->ibuf);
    if (be->window)
        for (int t = 0; t < be->nthreads; t++)
            free(be->window[t]);
    free(be->window);
}
