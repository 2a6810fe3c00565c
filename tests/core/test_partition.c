/* The partition of tiles among MPI ranks (core/tess_partition.h): every tile owned once and the owned lists agree
 * with the per-tile ranks; on a uniform periodic box each rank's wet nodes are within one tile's weight (64) of
 * the mean, as the bisection's bound (half a tile per cut, summed over the cuts on a rank's path: at most 11/12 of
 * a tile for up to 8 ranks) promises; the halo lists equal a brute-force search over all tile pairs; the crossing
 * populations of a two-slab cut equal the analytic count; a sparse bed of random spheres stays within the same
 * bound (imbalance <= 1 + 32 * 11/6 * R / W); and more ranks than tiles is refused. Counts are integers and must
 * match exactly. */
#include "tess_partition.h"
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

/* Every tile has a rank in [0, R), appears in exactly that rank's owned list, once; owned lists are increasing. */
static void check_owned(const char *name, const tess_tiling_t *t, const tess_partition_t *part)
{
    int ok = part->owned_start[0] == 0 && part->owned_start[part->nranks] == t->ntiles;
    int *seen = calloc((size_t)t->ntiles, sizeof *seen);
    for (int r = 0; r < part->nranks && ok; r++)
        for (int32_t j = part->owned_start[r]; j < part->owned_start[r + 1]; j++) {
            const int32_t k = part->owned[j];
            ok &= k >= 0 && k < t->ntiles && part->rank[k] == r && !seen[k]++;
            ok &= j == part->owned_start[r] || part->owned[j - 1] < k;
        }
    for (int32_t k = 0; k < t->ntiles && ok; k++)
        ok &= seen[k] == 1;
    int empty = 0;
    for (int r = 0; r < part->nranks; r++)
        empty += tess_partition_owned_count(part, r) == 0;
    free(seen);
    char what[160];
    snprintf(what, sizeof what, "%s, %d ranks: every tile owned by exactly one rank, lists agree", name, part->nranks);
    tess_test_true(what, ok);
    snprintf(what, sizeof what, "%s, %d ranks: no rank without a tile (%d empty)", name, part->nranks, empty);
    tess_test_true(what, empty == 0);
}

/* Tile distance along axis a with the periodic minimum image. */
static int tile_dist(const tess_tiling_t *t, int a, int32_t ka, int32_t kb)
{
    const int e[3] = {t->ex, t->ey, t->ez}, n[3] = {t->tx, t->ty, t->tz};
    int d = abs(t->tile_corner[3 * ka + a] / e[a] - t->tile_corner[3 * kb + a] / e[a]);
    if (t->periodic[a] && n[a] - d < d)
        d = n[a] - d;
    return d;
}

/* Brute force, once per tiling: every pair of tiles within one tile of each other along every axis (all pairs
 * compared, independent of the tiling's neighbour lists). Returns the pairs (a, b), a != b, both orders. */
static int32_t *near_pairs(const tess_tiling_t *t, int64_t *npairs)
{
    int64_t n = 0, cap = 32 * (int64_t)t->ntiles;
    int32_t *pairs = malloc((size_t)cap * 2 * sizeof *pairs);
    for (int32_t a = 0; a < t->ntiles; a++)
        for (int32_t b = 0; b < t->ntiles; b++)
            if (a != b && tile_dist(t, 0, a, b) <= 1 && tile_dist(t, 1, a, b) <= 1 && tile_dist(t, 2, a, b) <= 1 &&
                n < cap) {
                pairs[2 * n] = a;
                pairs[2 * n + 1] = b;
                n++;
            }
    *npairs = n;
    return pairs;
}

/* Tile b is in rank r's halo iff it belongs to another rank and is near one of r's tiles. */
static void check_halo(const char *name, const tess_tiling_t *t, const tess_partition_t *part, const int32_t *pairs,
                       int64_t npairs)
{
    const size_t nt = (size_t)t->ntiles;
    unsigned char *want = calloc(nt * (size_t)part->nranks, 1);
    for (int64_t i = 0; i < npairs; i++) {
        const int32_t a = pairs[2 * i], b = pairs[2 * i + 1];
        if (part->rank[a] != part->rank[b])
            want[(size_t)part->rank[a] * nt + (size_t)b] = 1;
    }
    int ok = 1, total = 0;
    for (int r = 0; r < part->nranks; r++) {
        int32_t at = part->halo_start[r];
        for (size_t k = 0; k < nt; k++)
            if (want[(size_t)r * nt + k]) {
                ok &= at < part->halo_start[r + 1] && part->halo[at] == (int32_t)k;
                at++;
                total++;
            }
        ok &= at == part->halo_start[r + 1];
    }
    free(want);
    char what[200];
    snprintf(what, sizeof what, "%s, %d ranks: halo lists equal the brute-force foreign neighbours (%d in all)", name,
             part->nranks, total);
    tess_test_true(what, ok);
}

/* Largest |rank weight - mean| times R, against the allowed deviation times R (integers: exact). */
static void check_balance(const char *name, const tess_partition_t *part, int64_t allowed_times_6)
{
    const int64_t R = part->nranks;
    int64_t w = 0, worst = 0;
    for (int r = 0; r < R; r++)
        w += part->rank_weight[r];
    for (int r = 0; r < R; r++) {
        const int64_t d = llabs(part->rank_weight[r] * R - w);
        worst = d > worst ? d : worst;
    }
    char what[200];
    snprintf(what, sizeof what, "%s, %d ranks: largest deviation from the mean %.2f wet nodes (bound %.2f), imbalance %.5f",
             name, (int)R, (double)worst / (double)R, (double)allowed_times_6 / 6.0, part->imbalance);
    tess_test_true(what, 6 * worst <= allowed_times_6 * R);
}

static void test_uniform_box(void)
{
    /* 5 x 6 x 7 tiles of fluid, periodic: every tile weighs 64, 210 tiles (not a multiple of most R). */
    tess_params_t p;
    tess_params_default(&p);
    tess_tiling_t t;
    tess_test_periodic_fluid_box(&t, &p, 20, 24, 28);
    tess_test_true("uniform box: 210 tiles of 64 wet nodes", t.ntiles == 210 && t.n_wet == 210 * 64);
    int64_t npairs;
    int32_t *pairs = near_pairs(&t, &npairs);
    for (int R = 1; R <= 8; R++) {
        tess_partition_t part, again;
        tess_error_t err;
        if (tess_partition_build(&part, &t, &p, NULL, R, &err) != TESS_OK) {
            tess_test_true(err.msg, 0);
            continue;
        }
        check_owned("uniform box", &t, &part);
        /* Within one tile's weight of the mean: 6 x 64. */
        check_balance("uniform box", &part, 6 * 64);
        check_halo("uniform box", &t, &part, pairs, npairs);
        tess_partition_build(&again, &t, &p, NULL, R, &err);
        char what[96];
        snprintf(what, sizeof what, "uniform box, %d ranks: a second partition is identical", R);
        tess_test_true(what, memcmp(part.rank, again.rank, (size_t)t.ntiles * sizeof *part.rank) == 0);
        tess_partition_free(&again);
        tess_partition_free(&part);
    }
    free(pairs);
    tess_tiling_free(&t);
}

static void test_slab_pops(void)
{
    /* 32 x 16 x 16 fluid, periodic: two ranks cut x at 16 into slabs. Each rank pulls across two planes of 16 x 16
     * nodes (x = 16 and the periodic x = 0), through the directions with c_x = +-1: 5 of D3Q19's, 9 of D3Q27's. */
    static const struct {
        tess_lattice_id lat;
        int per_plane;
    } cases[] = {{TESS_LATTICE_D3Q19, 5}, {TESS_LATTICE_D3Q27, 9}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tess_params_t p;
        tess_params_default(&p);
        p.lattice = cases[c].lat;
        tess_tiling_t t;
        tess_test_periodic_fluid_box(&t, &p, 32, 16, 16);
        tess_partition_t part;
        tess_error_t err;
        if (tess_partition_build(&part, &t, &p, NULL, 2, &err) != TESS_OK) {
            tess_test_true(err.msg, 0);
            tess_tiling_free(&t);
            continue;
        }
        int slabs = 1;
        for (int32_t k = 0; k < t.ntiles; k++)
            slabs &= part.rank[k] == (t.tile_corner[3 * k] >= 16);
        tess_test_true("32x16x16 box, 2 ranks: cut at x = 16", slabs);
        const int64_t ref = 2 * 16 * 16 * cases[c].per_plane;
        for (int r = 0; r < 2; r++) {
            char what[120];
            snprintf(what, sizeof what, "32x16x16 box, %s, rank %d: %lld crossing populations (expected %lld)",
                     tess_lattice_get(cases[c].lat)->name, r, (long long)part.halo_pops[r], (long long)ref);
            tess_test_true(what, part.halo_pops[r] == ref);
        }
        tess_partition_free(&part);
        tess_tiling_free(&t);
    }
}

static void test_sparse_spheres(void)
{
    /* 96^3, periodic in x and y, not z (outside is solid): 300 random spheres of radius 8 leave about half the box
     * fluid and many tiles empty or part-filled. */
    tess_geometry_t g;
    tess_params_t p;
    tess_params_default(&p);
    const int n = 96, rad = 8;
    tess_geometry_init(&g, n, n, n, 1);
    g.periodic[0] = g.periodic[1] = 1;
    tess_test_rng rng;
    tess_test_rng_seed(&rng, 13);
    for (int s = 0; s < 300; s++) {
        const int cx = (int)(n * tess_test_uniform(&rng)), cy = (int)(n * tess_test_uniform(&rng)),
                  cz = (int)(n * tess_test_uniform(&rng));
        for (int dz = -rad; dz <= rad; dz++)
            for (int dy = -rad; dy <= rad; dy++)
                for (int dx = -rad; dx <= rad; dx++) {
                    const int z = cz + dz;
                    if (dx * dx + dy * dy + dz * dz > rad * rad || z < 0 || z >= n)
                        continue;
                    g.type[tess_geometry_index(&g, (cx + dx + n) % n, (cy + dy + n) % n, z)] = 0;
                }
    }
    tess_tiling_t t;
    build(&t, &g, &p);
    tess_geometry_free(&g);
    char what[160];
    snprintf(what, sizeof what, "sphere bed: %d of %d tiles non-empty, %.3f of the box wet", (int)t.ntiles,
             t.tx * t.ty * t.tz, (double)t.n_wet / (n * n * n));
    tess_test_true(what, t.ntiles < t.tx * t.ty * t.tz && t.n_wet < n * n * n * 6 / 10);
    int64_t npairs;
    int32_t *pairs = near_pairs(&t, &npairs);
    for (int R = 2; R <= 8; R++) {
        tess_partition_t part;
        tess_error_t err;
        if (tess_partition_build(&part, &t, &p, NULL, R, &err) != TESS_OK) {
            tess_test_true(err.msg, 0);
            continue;
        }
        check_owned("sphere bed", &t, &part);
        /* Half of the heaviest tile (at most 64) per cut, times the path's sum of 1 / ranks (at most 11/6). */
        check_balance("sphere bed", &part, 32 * 11);
        check_halo("sphere bed", &t, &part, pairs, npairs);
        tess_partition_free(&part);
    }
    free(pairs);
    tess_tiling_free(&t);
}

static void test_too_many_ranks(void)
{
    tess_geometry_t g;
    tess_params_t p;
    tess_params_default(&p);
    tess_geometry_init(&g, 8, 8, 8, 1);
    tess_tiling_t t;
    build(&t, &g, &p);
    tess_geometry_free(&g);
    tess_partition_t part;
    tess_error_t err = {0};
    tess_status st = tess_partition_build(&part, &t, &p, NULL, 8, &err);
    tess_test_true("8 tiles, 8 ranks: accepted, one tile each", st == TESS_OK && part.owned_start[8] == 8 &&
                   tess_partition_owned_count(&part, 7) == 1);
    if (st == TESS_OK)
        tess_partition_free(&part);
    st = tess_partition_build(&part, &t, &p, NULL, 9, &err);
    printf("  refusal: %s\n", err.msg);
    tess_test_true("8 tiles, 9 ranks: refused as bad input naming the tile count",
                   st == TESS_ERR_INPUT && strstr(err.msg, "9 ranks") && strstr(err.msg, "8 non-empty tiles") &&
                   !strchr(err.msg, '\n'));
    tess_tiling_free(&t);
}

int main(void)
{
    test_uniform_box();
    test_slab_pops();
    test_sparse_spheres();
    test_too_many_ranks();
    return tess_test_result("test_partition");
}
