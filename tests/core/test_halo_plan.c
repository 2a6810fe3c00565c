/* The halo plan of a distributed run (core/tess_halo_plan.h), without MPI: on a periodic fluid box cut into two
 * slabs the A lists hold exactly the analytic crossing populations (2 planes x 16 x 16 nodes x 5 directions of
 * D3Q19 = 2,560 per rank) and B is empty (no inlet, outlet or curved link); on a sparse bed of spheres with an
 * inlet plane, for 2..6 ranks: every rank's A total equals the partition's crossing-population count (counted
 * there independently), what r receives from s is slot for slot what s sends to r (the same global tile,
 * direction and node), receives land in halo tiles and sends come from boundary tiles, every owned tile's
 * neighbours are held locally (one complete layer of halo), and every B slot's node lies within the radius of one
 * of r's inlet nodes. All counts are integers and must match exactly. */
#include "tess_halo_plan.h"
#include "tess_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void build(tess_tiling_t *t, tess_geometry_t *g, tess_params_t *p)
{
    tess_error_t err;
    if (tess_tiling_build(t, g, p, &err) != TESS_OK)
        tess_test_true(err.msg, 0);
}

static int plans(tess_halo_plan_t *pl, tess_partition_t *part, const tess_tiling_t *t, const tess_params_t *p, int R,
                 int radius)
{
    tess_error_t err;
    if (tess_partition_build(part, t, p, NULL, R, &err) != TESS_OK ||
        tess_halo_plan_build(pl, t, p, part, radius, &err) != TESS_OK) {
        tess_test_true(err.msg, 0);
        return 0;
    }
    return 1;
}

/* The global (tile, i, node) of a plan's slot index. */
static void slot_of(const tess_halo_plan_t *pl, int64_t idx, int32_t *g, int *i, int *n)
{
    const int q = pl->local.q;
    *n = (int)(idx % 64);
    *i = (int)(idx / 64 % q);
    *g = pl->global[idx / 64 / q];
}

static void check_pairs(const char *name, const tess_halo_plan_t *pl, const tess_tiling_t *t, const tess_partition_t *part,
                        int R)
{
    int ok_match = 1, ok_where = 1, ok_a = 1, ok_layer = 1;
    for (int r = 0; r < R; r++) {
        const tess_halo_plan_t *a = &pl[r];
        int64_t na = 0;
        for (int j = 0; j < a->nnb; j++) {
            const tess_halo_plan_t *b = &pl[a->nb[j]];
            int js = 0;
            while (js < b->nnb && b->nb[js] != r)
                js++;
            ok_match &= js < b->nnb;
            if (js == b->nnb)
                continue;
            const int64_t *rs[2] = {a->recv_a_start, a->recv_b_start}, *ss[2] = {b->send_a_start, b->send_b_start};
            const int64_t *rl[2] = {a->recv_a, a->recv_b}, *sl[2] = {b->send_a, b->send_b};
            for (int k = 0; k < 2; k++) {
                const int64_t n = rs[k][j + 1] - rs[k][j];
                ok_match &= n == ss[k][js + 1] - ss[k][js];
                for (int64_t e = 0; e < n && ok_match; e++) {
                    int32_t g1, g2;
                    int i1, i2, n1, n2;
                    const int64_t ir = rl[k][rs[k][j] + e], is = sl[k][ss[k][js] + e];
                    slot_of(a, ir, &g1, &i1, &n1);
                    slot_of(b, is, &g2, &i2, &n2);
                    ok_match &= g1 == g2 && i1 == i2 && n1 == n2 && part->rank[g1] == a->nb[j];
                    const int64_t tr = ir / 64 / a->local.q, ts = is / 64 / b->local.q;
                    ok_where &= tr >= a->nowned && tr < a->local.ntiles && ts < b->nbound;
                }
            }
            na += a->recv_a_start[j + 1] - a->recv_a_start[j];
        }
        ok_a &= na == part->halo_pops[r];
        for (int32_t k = 0; k < a->nowned; k++)
            for (int s = 0; s < 27; s++) {
                const int32_t lk = a->local.neighbors[27 * (size_t)k + s];
                const int32_t gk = t->neighbors[27 * (size_t)a->global[k] + s];
                ok_layer &= gk < 0 ? lk < 0 : lk >= 0 && lk < a->local.ntiles && a->global[lk] == gk;
            }
    }
    char what[200];
    snprintf(what, sizeof what, "%s, %d ranks: r's receives from s are s's sends to r, slot for slot", name, R);
    tess_test_true(what, ok_match);
    snprintf(what, sizeof what, "%s, %d ranks: receives into halo tiles, sends from boundary tiles", name, R);
    tess_test_true(what, ok_where);
    snprintf(what, sizeof what, "%s, %d ranks: A totals equal the partition's crossing populations", name, R);
    tess_test_true(what, ok_a);
    snprintf(what, sizeof what, "%s, %d ranks: owned tiles' neighbours all held locally", name, R);
    tess_test_true(what, ok_layer);
}

static void test_slabs(void)
{
    tess_params_t p;
    tess_params_default(&p);
    tess_tiling_t t;
    tess_test_periodic_fluid_box(&t, &p, 32, 16, 16);
    tess_partition_t part;
    tess_halo_plan_t pl[2];
    if (!plans(pl, &part, &t, &p, 2, 3))
        return;
    for (int r = 0; r < 2; r++) {
        char what[160];
        snprintf(what, sizeof what, "slabs: rank %d receives A %lld (2 x 16 x 16 x 5 = 2560), B %lld (0)", r,
                 (long long)pl[r].recv_a_start[pl[r].nnb], (long long)pl[r].recv_b_start[pl[r].nnb]);
        tess_test_true(what, pl[r].recv_a_start[pl[r].nnb] == 2560 && pl[r].recv_b_start[pl[r].nnb] == 0 &&
                                 pl[r].nnb == 1 && pl[r].nowned + (pl[r].local.ntiles - pl[r].nowned) ==
                                                       pl[r].local.ntiles);
    }
    check_pairs("slabs", pl, &t, &part, 2);
    for (int r = 0; r < 2; r++)
        tess_halo_plan_free(&pl[r]);
    tess_partition_free(&part);
    tess_tiling_free(&t);
}

/* Every B slot's node within `radius` (per axis, periodic y) of an inlet node owned by the receiving rank. */
static int b_near_inlets(const tess_halo_plan_t *pl, const tess_tiling_t *t, const tess_params_t *p, int radius)
{
    for (int64_t e = 0; e < pl->recv_b_start[pl->nnb]; e++) {
        int32_t g;
        int i, n, x, y, z, found = 0;
        slot_of(pl, pl->recv_b[e], &g, &i, &n);
        tess_tiling_local_xyz(t, n, &x, &y, &z);
        x += t->tile_corner[3 * g];
        y += t->tile_corner[3 * g + 1];
        z += t->tile_corner[3 * g + 2];
        for (int32_t k = 0; k < pl->nowned && !found; k++) {
            const int32_t gk = pl->global[k];
            for (int l = 0; l < 64 && !found; l++) {
                if (p->mat[t->node_type[64 * (size_t)gk + l]].kind != TESS_NODE_VELOCITY)
                    continue;
                int a, b, c;
                tess_tiling_local_xyz(t, l, &a, &b, &c);
                int dy = abs(t->tile_corner[3 * gk + 1] + b - y);
                dy = dy < t->py - dy ? dy : t->py - dy;
                found = abs(t->tile_corner[3 * gk] + a - x) <= radius && dy <= radius &&
                        abs(t->tile_corner[3 * gk + 2] + c - z) <= radius;
            }
        }
        if (!found)
            return 0;
    }
    return 1;
}

static void test_sparse(void)
{
    tess_geometry_t g;
    tess_params_t p;
    tess_params_default(&p);
    p.nmat = 4;
    p.mat[3].kind = TESS_NODE_VELOCITY;
    p.mat[3].axis = 0;
    p.mat[3].sign = -1;
    /* Longest along y, so that the first cuts cross the inlet plane. */
    const int n = 32, ny = 48, rad = 5;
    tess_geometry_init(&g, n, ny, n, 1);
    g.periodic[1] = 1;
    tess_test_rng rng;
    tess_test_rng_seed(&rng, 7);
    for (int s = 0; s < 40; s++) {
        const int cx = (int)(n * tess_test_uniform(&rng)), cy = (int)(ny * tess_test_uniform(&rng)),
                  cz = (int)(n * tess_test_uniform(&rng));
        for (int dz = -rad; dz <= rad; dz++)
            for (int dy = -rad; dy <= rad; dy++)
                for (int dx = -rad; dx <= rad; dx++) {
                    const int x = cx + dx, z = cz + dz;
                    if (dx * dx + dy * dy + dz * dz > rad * rad || x < 0 || x >= n || z < 0 || z >= n)
                        continue;
                    g.type[tess_geometry_index(&g, x, (cy + dy + ny) % ny, z)] = 0;
                }
    }
    for (int z = 0; z < n; z++) /* an inlet plane at x = 0 where the bed left fluid */
        for (int y = 0; y < ny; y++)
            if (g.type[tess_geometry_index(&g, 0, y, z)] == 1)
                g.type[tess_geometry_index(&g, 0, y, z)] = 3;
    tess_tiling_t t;
    build(&t, &g, &p);
    tess_geometry_free(&g);
    for (int R = 2; R <= 6; R++) {
        tess_partition_t part;
        tess_halo_plan_t pl[6];
        if (!plans(pl, &part, &t, &p, R, 3))
            return;
        check_pairs("sphere bed", pl, &t, &part, R);
        int near = 1;
        int64_t nb = 0;
        for (int r = 0; r < R; r++) {
            near &= b_near_inlets(&pl[r], &t, &p, 3);
            nb += pl[r].recv_b_start[pl[r].nnb];
        }
        char what[160];
        snprintf(what, sizeof what, "sphere bed, %d ranks: %lld B slots, each within 3 nodes of an inlet node", R,
                 (long long)nb);
        tess_test_true(what, near && nb > 0);
        for (int r = 0; r < R; r++)
            tess_halo_plan_free(&pl[r]);
        tess_partition_free(&part);
    }
    tess_tiling_free(&t);
}

int main(void)
{
    test_slabs();
    test_sparse();
    return tess_test_result("test_halo_plan");
}
