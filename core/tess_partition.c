/* Recursive coordinate bisection of the tiles (tess_partition.h), the halo lists and the halo volume. */
#include "tess_partition.h"
#include "tess_lattice.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
    int32_t key[3]; /* the cut axis's coordinate first, then the other two: a total order with the tile index */
    int32_t tile;
    int64_t weight;
} item_t;

static int item_cmp(const void *pa, const void *pb)
{
    const item_t *a = pa, *b = pb;
    for (int i = 0; i < 3; i++)
        if (a->key[i] != b->key[i])
            return a->key[i] < b->key[i] ? -1 : 1;
    return (a->tile > b->tile) - (a->tile < b->tile);
}

static int item_cmp_i32(const void *pa, const void *pb)
{
    const int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    return (a > b) - (a < b);
}

void tess_partition_tile_weights(const tess_tiling_t *t, const tess_params_t *p, int64_t *weight)
{
    for (int32_t k = 0; k < t->ntiles; k++) {
        int64_t w = 0;
        for (int l = 0; l < 64; l++)
            w += tess_kind_is_wet(p->mat[t->node_type[64 * (size_t)k + l]].kind);
        weight[k] = w;
    }
}

/* Gives ranks r0 .. r0 + nr - 1 the n tiles of it (n >= nr). */
static void bisect(const tess_tiling_t *t, item_t *it, int32_t n, int r0, int nr, int32_t *rank)
{
    if (nr == 1) {
        for (int32_t i = 0; i < n; i++)
            rank[it[i].tile] = r0;
        return;
    }
    int32_t lo[3] = {INT32_MAX, INT32_MAX, INT32_MAX}, hi[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
    for (int32_t i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) {
            const int32_t c = t->tile_corner[3 * (size_t)it[i].tile + a];
            lo[a] = c < lo[a] ? c : lo[a];
            hi[a] = c > hi[a] ? c : hi[a];
        }
    int axis = 0;
    for (int a = 1; a < 3; a++)
        if (hi[a] - lo[a] > hi[axis] - lo[axis])
            axis = a;
    int64_t total = 0;
    for (int32_t i = 0; i < n; i++) {
        for (int j = 0; j < 3; j++)
            it[i].key[j] = t->tile_corner[3 * (size_t)it[i].tile + (axis + j) % 3];
        total += it[i].weight;
    }
    qsort(it, (size_t)n, sizeof *it, item_cmp);
    /* The cut k (tiles [0, k) to the first nl ranks) whose weight is nearest total * nl / nr, leaving each side
     * at least one tile per rank; compared as integers (times nr) so that no rounding decides. */
    const int nl = nr / 2;
    const int64_t target = total * nl;
    int64_t prefix = 0, best_err = -1;
    int32_t best = nl;
    for (int32_t k = 0; k <= n - (nr - nl); k++) {
        if (k >= nl) {
            const int64_t e = llabs(prefix * nr - target);
            if (best_err < 0 || e < best_err) {
                best_err = e;
                best = k;
            }
        }
        if (k < n)
            prefix += it[k].weight;
    }
    bisect(t, it, best, r0, nl, rank);
    bisect(t, it + best, n - best, r0 + nl, nr - nl, rank);
}

/* Populations that cross into rank r: for each wet node of r's tiles that touch another rank, each direction
 * whose pull source x - c_i is a wet node in another rank's tile. */
static int64_t crossing_pops(const tess_tiling_t *t, const tess_params_t *p, const tess_partition_t *part, int r)
{
    const tess_lattice_t *lat = tess_lattice_get((tess_lattice_id)t->lattice);
    int64_t n = 0;
    for (int32_t j = part->owned_start[r]; j < part->owned_start[r + 1]; j++) {
        const int32_t k = part->owned[j];
        int foreign = 0;
        for (int s = 0; s < 27; s++) {
            const int32_t nb = t->neighbors[27 * (size_t)k + s];
            foreign |= nb >= 0 && part->rank[nb] != r;
        }
        if (!foreign)
            continue;
        for (int l = 0; l < 64; l++) {
            if (!tess_kind_is_wet(p->mat[t->node_type[64 * (size_t)k + l]].kind))
                continue;
            int x, y, z;
            tess_tiling_local_xyz(t, l, &x, &y, &z);
            x += t->tile_corner[3 * (size_t)k];
            y += t->tile_corner[3 * (size_t)k + 1];
            z += t->tile_corner[3 * (size_t)k + 2];
            for (int i = 0; i < lat->q; i++) {
                const int64_t src = tess_tiling_node_index(t, x - lat->c[i][0], y - lat->c[i][1], z - lat->c[i][2]);
                n += src >= 0 && part->rank[src / 64] != r && tess_kind_is_wet(p->mat[t->node_type[src]].kind);
            }
        }
    }
    return n;
}

void tess_partition_free(tess_partition_t *part)
{
    free(part->rank);
    free(part->weight);
    free(part->owned_start);
    free(part->owned);
    free(part->halo_start);
    free(part->halo);
    free(part->rank_weight);
    free(part->halo_pops);
    memset(part, 0, sizeof *part);
}

tess_status tess_partition_build(tess_partition_t *part, const tess_tiling_t *t, const tess_params_t *p,
                                 const int64_t *weight, int nranks, tess_error_t *err)
{
    memset(part, 0, sizeof *part);
    if (nranks < 1)
        return tess_fail(err, TESS_ERR_INPUT, "rank count %d: expected at least 1", nranks);
    if (nranks > t->ntiles)
        return tess_fail(err, TESS_ERR_INPUT,
                         "%d ranks but the case has %d non-empty tiles: each rank needs at least one tile", nranks,
                         (int)t->ntiles);
    if (!weight && !p)
        return tess_fail(err, TESS_ERR_INPUT, "partition: neither tile weights nor materials given");
    const size_t nt = (size_t)t->ntiles, nr = (size_t)nranks;
    part->nranks = nranks;
    part->ntiles = t->ntiles;
    part->rank = malloc(nt * sizeof *part->rank);
    part->weight = malloc(nt * sizeof *part->weight);
    part->owned_start = calloc(nr + 1, sizeof *part->owned_start);
    part->owned = malloc(nt * sizeof *part->owned);
    part->halo_start = calloc(nr + 1, sizeof *part->halo_start);
    part->rank_weight = calloc(nr, sizeof *part->rank_weight);
    part->halo_pops = calloc(nr, sizeof *part->halo_pops);
    item_t *it = malloc(nt * sizeof *it);
    int32_t *mark = malloc(nt * sizeof *mark);
    if (!part->rank || !part->weight || !part->owned_start || !part->owned || !part->halo_start ||
        !part->rank_weight || !part->halo_pops || !it || !mark)
        goto nomem;
    if (weight)
        memcpy(part->weight, weight, nt * sizeof *weight);
    else
        tess_partition_tile_weights(t, p, part->weight);
    for (size_t k = 0; k < nt; k++)
        it[k] = (item_t){{0, 0, 0}, (int32_t)k, part->weight[k]};
    bisect(t, it, t->ntiles, 0, nranks, part->rank);
    free(it);
    it = NULL;

    /* Owned lists by counting sort: increasing tile index within each rank. */
    for (size_t k = 0; k < nt; k++) {
        part->owned_start[part->rank[k] + 1]++;
        part->rank_weight[part->rank[k]] += part->weight[k];
    }
    for (size_t r = 0; r < nr; r++)
        part->owned_start[r + 1] += part->owned_start[r];
    {
        int32_t *fill = malloc(nr * sizeof *fill);
        if (!fill)
            goto nomem;
        memcpy(fill, part->owned_start, nr * sizeof *fill);
        for (size_t k = 0; k < nt; k++)
            part->owned[fill[part->rank[k]]++] = (int32_t)k;
        free(fill);
    }

    /* Halo lists: each rank's foreign neighbours, marked once (mark[k] = r + 1), listed in tile order. Two passes:
     * count, then fill. */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t k = 0; k < nt; k++)
            mark[k] = 0;
        int32_t at = 0;
        for (int r = 0; r < nranks; r++) {
            const int32_t first = at;
            for (int32_t j = part->owned_start[r]; j < part->owned_start[r + 1]; j++)
                for (int s = 0; s < 27; s++) {
                    const int32_t nb = t->neighbors[27 * (size_t)part->owned[j] + s];
                    if (nb < 0 || part->rank[nb] == r || mark[nb] == r + 1)
                        continue;
                    mark[nb] = r + 1;
                    if (pass == 1)
                        part->halo[at] = nb;
                    at++;
                }
            if (pass == 0)
                part->halo_start[r + 1] = at;
            else
                qsort(part->halo + first, (size_t)(at - first), sizeof *part->halo, item_cmp_i32);
        }
        if (pass == 0 && !(part->halo = malloc((at > 0 ? (size_t)at : 1) * sizeof *part->halo)))
            goto nomem;
    }
    free(mark);
    mark = NULL;

    int64_t max = 0, sum = 0;
    for (size_t r = 0; r < nr; r++) {
        max = part->rank_weight[r] > max ? part->rank_weight[r] : max;
        sum += part->rank_weight[r];
        if (p)
            part->halo_pops[r] = crossing_pops(t, p, part, (int)r);
    }
    part->imbalance = sum > 0 ? (double)max * (double)nranks / (double)sum : 1.0;
    return TESS_OK;
nomem:
    free(it);
    free(mark);
    tess_partition_free(part);
    return tess_fail(err, TESS_ERR_NOMEM, "out of memory partitioning %d tiles among %d ranks", (int)t->ntiles, nranks);
}
