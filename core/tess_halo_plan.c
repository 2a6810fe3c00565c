/* Local tilings and exchange lists of a distributed run (tess_halo_plan.h). */
#include "tess_halo_plan.h"
#include "tess_lattice.h"
#include "tess_pop_layout.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
    int64_t *v;
    int64_t n, cap;
} vec_t;

static int push(vec_t *a, int64_t x)
{
    if (a->n == a->cap) {
        const int64_t cap = a->cap ? 2 * a->cap : 256;
        int64_t *v = realloc(a->v, (size_t)cap * sizeof *v);
        if (!v)
            return 0;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return 1;
}

/* Per plan while building: the four lists and their per-neighbour starts. */
typedef struct {
    vec_t ra, rb, sa, sb;
} lists_t;

void tess_halo_plan_free(tess_halo_plan_t *plan)
{
    tess_tiling_free(&plan->local);
    free(plan->global);
    free(plan->nb);
    free(plan->recv_a_start);
    free(plan->recv_a);
    free(plan->recv_b_start);
    free(plan->recv_b);
    free(plan->send_a_start);
    free(plan->send_a);
    free(plan->send_b_start);
    free(plan->send_b);
    memset(plan, 0, sizeof *plan);
}

int64_t tess_halo_plan_recv_count(const tess_halo_plan_t *plan)
{
    return plan->nnb ? plan->recv_a_start[plan->nnb] + plan->recv_b_start[plan->nnb] : 0;
}

/* The local tiling of rank r: its tiles in the plan's order (boundary, interior, halo), loc[g] the local index
 * of global tile g (-1 elsewhere). */
static int local_tiling(tess_halo_plan_t *pl, const tess_tiling_t *t, const tess_partition_t *part,
                        const uint8_t *bound, int32_t *loc, const tess_params_t *p)
{
    const int r = pl->rank;
    const int32_t nown = tess_partition_owned_count(part, r), nhalo = tess_partition_halo_count(part, r);
    const int32_t *own = part->owned + part->owned_start[r], *halo = part->halo + part->halo_start[r];
    const int32_t n = nown + nhalo;
    tess_tiling_t *lt = &pl->local;
    *lt = *t;
    lt->tile_map = NULL;
    lt->ntiles = n;
    lt->tile_corner = malloc(3 * (size_t)n * sizeof *lt->tile_corner);
    lt->neighbors = malloc(27 * (size_t)n * sizeof *lt->neighbors);
    lt->node_type = malloc(64 * (size_t)n);
    memset(&lt->links, 0, sizeof lt->links);
    pl->global = malloc((size_t)n * sizeof *pl->global);
    if (!lt->tile_corner || !lt->neighbors || !lt->node_type || !pl->global)
        return 0;
    int32_t at = 0;
    for (int pass = 0; pass < 2; pass++) /* boundary tiles, then interior tiles */
        for (int32_t j = 0; j < nown; j++)
            if ((bound[own[j]] == 0) == pass)
                pl->global[at++] = own[j];
    pl->nowned = nown;
    for (int32_t j = 0; j < nown; j++)
        pl->nbound += bound[own[j]];
    for (int32_t j = 0; j < nhalo; j++)
        pl->global[at++] = halo[j];
    for (int32_t k = 0; k < n; k++)
        loc[pl->global[k]] = k;
    int64_t wet = 0, nl = 0;
    for (int32_t k = 0; k < n; k++) {
        const int32_t g = pl->global[k];
        memcpy(lt->tile_corner + 3 * (size_t)k, t->tile_corner + 3 * (size_t)g, 3 * sizeof *lt->tile_corner);
        memcpy(lt->node_type + 64 * (size_t)k, t->node_type + 64 * (size_t)g, 64);
        for (int s = 0; s < 27; s++) {
            const int32_t nb = t->neighbors[27 * (size_t)g + s];
            lt->neighbors[27 * (size_t)k + s] = nb >= 0 ? loc[nb] : -1;
        }
        if (k < nown)
            for (int l = 0; l < 64; l++)
                wet += tess_kind_is_wet(p->mat[t->node_type[64 * (size_t)g + l]].kind);
        if (t->links.n > 0)
            nl += t->links.start[g + 1] - t->links.start[g];
    }
    lt->n_wet = wet;
    if (t->links.n > 0) {
        lt->links.n = nl;
        lt->links.link = malloc((size_t)(nl ? nl : 1) * sizeof *lt->links.link);
        lt->links.start = malloc(((size_t)n + 1) * sizeof *lt->links.start);
        if (!lt->links.link || !lt->links.start)
            return 0;
        lt->links.start[0] = 0;
        for (int32_t k = 0; k < n; k++) {
            const int32_t g = pl->global[k];
            const int64_t m = t->links.start[g + 1] - t->links.start[g];
            memcpy(lt->links.link + lt->links.start[k], t->links.link + t->links.start[g], (size_t)m * sizeof *lt->links.link);
            lt->links.start[k + 1] = lt->links.start[k] + m;
        }
    }
    /* The neighbour ranks: owners of the halo tiles. */
    pl->nb = malloc((size_t)(nhalo ? nhalo : 1) * sizeof *pl->nb);
    if (!pl->nb)
        return 0;
    for (int32_t j = 0; j < nhalo; j++) {
        const int s = part->rank[halo[j]];
        int found = 0;
        for (int m = 0; m < pl->nnb && !found; m++)
            found = pl->nb[m] == s;
        if (!found)
            pl->nb[pl->nnb++] = s;
    }
    for (int a = 1; a < pl->nnb; a++) /* insertion sort: a few neighbours */
        for (int b = a; b > 0 && pl->nb[b - 1] > pl->nb[b]; b--) {
            const int x = pl->nb[b];
            pl->nb[b] = pl->nb[b - 1];
            pl->nb[b - 1] = x;
        }
    return 1;
}

/* Marks, per slot of r's halo tiles, 1 for A and 2 for B (tess_halo_plan.h). */
static void mark_needs(const tess_halo_plan_t *pl, const tess_tiling_t *t, const tess_params_t *p,
                       const tess_partition_t *part, const uint8_t *nlink, const int32_t *loc, int radius,
                       uint8_t *mark)
{
    const tess_lattice_t *lat = tess_lattice_get((tess_lattice_id)t->lattice);
    const int q = t->q, r = pl->rank, rz = t->ez == 1 ? 0 : radius;
    for (int32_t k = 0; k < pl->nowned; k++) {
        const int32_t g = pl->global[k];
        for (int l = 0; l < 64; l++) {
            const int kind = p->mat[t->node_type[64 * (size_t)g + l]].kind;
            if (!tess_kind_is_wet(kind))
                continue;
            int x, y, z;
            tess_tiling_local_xyz(t, l, &x, &y, &z);
            x += t->tile_corner[3 * (size_t)g];
            y += t->tile_corner[3 * (size_t)g + 1];
            z += t->tile_corner[3 * (size_t)g + 2];
            for (int i = 1; i < q; i++) {
                const int64_t src = tess_tiling_node_index(t, x - lat->c[i][0], y - lat->c[i][1], z - lat->c[i][2]);
                if (src < 0 || part->rank[src / 64] == r || !tess_kind_is_wet(p->mat[t->node_type[src]].kind))
                    continue;
                const int64_t h = loc[src / 64] - pl->nowned;
                mark[(h * q + i) * 64 + src % 64] |= 1;
            }
            const int special = kind != TESS_NODE_FLUID || (nlink && nlink[64 * (size_t)g + l]);
            if (!special)
                continue;
            for (int dz = -rz; dz <= rz; dz++)
                for (int dy = -radius; dy <= radius; dy++)
                    for (int dx = -radius; dx <= radius; dx++) {
                        const int64_t src = tess_tiling_node_index(t, x + dx, y + dy, z + dz);
                        if (src < 0 || part->rank[src / 64] == r || loc[src / 64] < pl->nowned)
                            continue;
                        const int64_t h = loc[src / 64] - pl->nowned;
                        for (int i = 0; i < q; i++)
                            mark[(h * q + i) * 64 + src % 64] |= 2;
                    }
        }
    }
}

static int finish_lists(tess_halo_plan_t *pl, lists_t *ls)
{
    pl->recv_a = ls->ra.v ? ls->ra.v : calloc(1, sizeof(int64_t));
    pl->recv_b = ls->rb.v ? ls->rb.v : calloc(1, sizeof(int64_t));
    pl->send_a = ls->sa.v ? ls->sa.v : calloc(1, sizeof(int64_t));
    pl->send_b = ls->sb.v ? ls->sb.v : calloc(1, sizeof(int64_t));
    memset(ls, 0, sizeof *ls);
    return pl->recv_a && pl->recv_b && pl->send_a && pl->send_b;
}

tess_status tess_halo_plan_build(tess_halo_plan_t *plans, const tess_tiling_t *t, const tess_params_t *p,
                                 const tess_partition_t *part, int radius, tess_error_t *err)
{
    const int R = part->nranks, q = t->q;
    const size_t nt = (size_t)t->ntiles;
    tess_status st = TESS_OK;
    memset(plans, 0, (size_t)R * sizeof *plans);
    /* B's reach must stay within the one layer of halo tiles. */
    const int reach = t->ez == 1 ? (t->ex < t->ey ? t->ex : t->ey) : t->ex;
    if (radius > reach)
        radius = reach;
    uint8_t *bound = calloc(nt ? nt : 1, 1), *nlink = NULL, *mark = NULL;
    int64_t *nl0 = NULL;
    int32_t *loc = malloc((size_t)R * (nt ? nt : 1) * sizeof *loc);
    lists_t *ls = calloc((size_t)R, sizeof *ls);
    if (!bound || !loc || !ls)
        goto nomem;
    if (t->links.n > 0) {
        nlink = malloc(64 * nt);
        nl0 = malloc(64 * nt * sizeof *nl0);
        if (!nlink || !nl0)
            goto nomem;
        tess_links_node_ranges(t, nl0, nlink);
    }
    for (size_t g = 0; g < nt; g++)
        for (int s = 0; s < 27 && !bound[g]; s++) {
            const int32_t nb = t->neighbors[27 * g + (size_t)s];
            bound[g] = nb >= 0 && part->rank[nb] != part->rank[g];
        }
    for (int r = 0; r < R; r++) {
        int32_t *lr = loc + (size_t)r * nt;
        for (size_t g = 0; g < nt; g++)
            lr[g] = -1;
        plans[r].rank = r;
        if (!local_tiling(&plans[r], t, part, bound, lr, p))
            goto nomem;
        const size_t nn = (size_t)(plans[r].nnb + 1) * sizeof(int64_t);
        if (!(plans[r].recv_a_start = calloc(1, nn)) || !(plans[r].recv_b_start = calloc(1, nn)) ||
            !(plans[r].send_a_start = calloc(1, nn)) || !(plans[r].send_b_start = calloc(1, nn)))
            goto nomem;
    }
    /* Rank by rank, r's needs from each neighbour s, in increasing (tile, i, node); s's send lists fill in the
     * same order (its neighbours are visited in increasing rank, as r runs). */
    for (int r = 0; r < R; r++) {
        tess_halo_plan_t *pl = &plans[r];
        const int32_t nhalo = pl->local.ntiles - pl->nowned;
        const int32_t *lr = loc + (size_t)r * nt;
        free(mark);
        if (!(mark = calloc((size_t)(nhalo ? nhalo : 1) * (size_t)q * 64, 1)))
            goto nomem;
        mark_needs(pl, t, p, part, nlink, lr, radius, mark);
        for (int j = 0; j < pl->nnb; j++) {
            const int s = pl->nb[j];
            tess_halo_plan_t *ps = &plans[s];
            int js = 0;
            while (js < ps->nnb && ps->nb[js] != r)
                js++;
            const int32_t *ls_loc = loc + (size_t)s * nt;
            for (int32_t h = 0; h < nhalo; h++) {
                const int32_t g = pl->global[pl->nowned + h];
                if (part->rank[g] != s)
                    continue;
                for (int i = 0; i < q; i++)
                    for (int n = 0; n < 64; n++) {
                        const uint8_t m = mark[((size_t)h * q + i) * 64 + n];
                        if (!m)
                            continue;
                        const int64_t mine = tess_pop_index(tess_pop_layout_tiles(), q, pl->nowned + h, i, n);
                        const int64_t theirs = tess_pop_index(tess_pop_layout_tiles(), q, ls_loc[g], i, n);
                        if (m & 1 ? !push(&ls[r].ra, mine) || !push(&ls[s].sa, theirs)
                                  : !push(&ls[r].rb, mine) || !push(&ls[s].sb, theirs))
                            goto nomem;
                    }
            }
            pl->recv_a_start[j + 1] = ls[r].ra.n;
            pl->recv_b_start[j + 1] = ls[r].rb.n;
            ps->send_a_start[js + 1] = ls[s].sa.n;
            ps->send_b_start[js + 1] = ls[s].sb.n;
        }
    }
    for (int r = 0; r < R; r++)
        if (!finish_lists(&plans[r], &ls[r]))
            goto nomem;
    if (0) { /* the one way out of memory, from any allocation above */
nomem:
        for (int r = 0; ls && r < R; r++) {
            free(ls[r].ra.v);
            free(ls[r].rb.v);
            free(ls[r].sa.v);
            free(ls[r].sb.v);
        }
        for (int r = 0; r < R; r++)
            tess_halo_plan_free(&plans[r]);
        st = tess_fail(err, TESS_ERR_NOMEM, "out of memory planning the halo exchange of %d tiles among %d ranks",
                       (int)t->ntiles, R);
    }
    free(bound);
    free(nlink);
    free(nl0);
    free(mark);
    free(loc);
    free(ls);
    return st;
}
