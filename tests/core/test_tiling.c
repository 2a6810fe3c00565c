/* Tiling (tile paper section 3.1): tile utilisation eta_t of eq. (14) against the paper's figs. 8-9, the
 * non-empty tile count, padding of boxes that are not multiples of 4, and the periodic-size check.
 * eta_t is a ratio of small integers computed as one division, so it must match the exact fraction to within
 * one rounding: tolerance 1e-15. Counts are integers and must match exactly. */
#include "tess_test.h"
#include <stdio.h>
#include <string.h>

/* An infinitely long 8x8 square channel along z (periodic z) with its corner at (ox, oy). */
static void channel_tiling(int ox, int oy, tess_tiling_t *t)
{
    tess_geometry_t g;
    tess_params_t p;
    tess_params_default(&p);
    tess_geometry_init(&g, 16, 16, 8, 0);
    g.periodic[2] = 1;
    for (int z = 0; z < 8; z++)
        for (int y = oy; y < oy + 8; y++)
            for (int x = ox; x < ox + 8; x++)
                g.type[tess_geometry_index(&g, x, y, z)] = 1;
    tess_error_t err;
    if (tess_tiling_build(t, &g, &p, &err) != TESS_OK)
        tess_test_true(err.msg, 0);
    tess_geometry_free(&g);
}

static void test_square_channel(void)
{
    /* Fig. 9: a tile edge on a channel edge in both directions gives 4 tiles per layer (eta 1), in one
     * direction 6 (64/96 = 2/3), in neither 9 (64/144 = 4/9); of the 16 placements 1, 6 and 9 fall in
     * each class, so the average is (1 + 6*2/3 + 9*4/9)/16 = 9/16 (the paper's 0.56). */
    int n_class[3] = {0, 0, 0};
    double sum = 0.0;
    for (int oy = 4; oy < 8; oy++)
        for (int ox = 4; ox < 8; ox++) {
            tess_tiling_t t;
            channel_tiling(ox, oy, &t);
            const int aligned = (ox % 4 == 0) + (oy % 4 == 0);
            const int per_layer = (ox % 4 == 0 ? 2 : 3) * (oy % 4 == 0 ? 2 : 3);
            const double ref = aligned == 2 ? 1.0 : aligned == 1 ? 2.0 / 3.0 : 4.0 / 9.0;
            char what[128];
            snprintf(what, sizeof what, "8x8 channel at (%d,%d): eta_t", ox, oy);
            tess_test_close(what, t.eta_t, ref, 1e-15);
            snprintf(what, sizeof what, "8x8 channel at (%d,%d): %d non-empty tiles (expected %d)", ox, oy, t.ntiles,
                     2 * per_layer);
            tess_test_true(what, t.ntiles == 2 * per_layer);
            snprintf(what, sizeof what, "8x8 channel at (%d,%d): %lld wet nodes (expected 512)", ox, oy,
                     (long long)t.n_wet);
            tess_test_true(what, t.n_wet == 512);
            n_class[2 - aligned]++;
            sum += t.eta_t;
            tess_tiling_free(&t);
        }
    char what[128];
    snprintf(what, sizeof what, "placements with eta 1, 2/3, 4/9: %d, %d, %d (expected 1, 6, 9)", n_class[0],
             n_class[1], n_class[2]);
    tess_test_true(what, n_class[0] == 1 && n_class[1] == 6 && n_class[2] == 9);
    /* 16 additions of values with one rounding each: 16 ulp of 1 is below 4e-15. */
    tess_test_close("average eta_t over the 16 placements", sum / 16.0, 9.0 / 16.0, 4e-15);
}

static void test_tile_count(void)
{
    /* Isolated nodes in a solid 16^3 box: fluid in tiles (0,0,0), (1,0,0) (two nodes) and (3,3,3); a moving
     * wall node in tile (2,0,0) that a fluid node links to makes that tile non-empty; one far from any fluid
     * does not. Expected 4 tiles, numbered in z, y, x order (Algorithm 1). */
    tess_geometry_t g;
    tess_params_t p;
    tess_params_default(&p);
    p.nmat = 3;
    p.mat[2].kind = TESS_NODE_WALL;
    p.mat[2].u[0] = 0.1;
    tess_geometry_init(&g, 16, 16, 16, 0);
    const int fluid[4][3] = {{0, 0, 0}, {5, 0, 0}, {7, 1, 2}, {15, 15, 15}};
    for (int n = 0; n < 4; n++)
        g.type[tess_geometry_index(&g, fluid[n][0], fluid[n][1], fluid[n][2])] = 1;
    g.type[tess_geometry_index(&g, 8, 1, 2)] = 2;   /* linked from (7,1,2) along +x */
    g.type[tess_geometry_index(&g, 12, 12, 0)] = 2; /* no wet neighbour */
    tess_tiling_t t;
    tess_error_t err;
    tess_status s = tess_tiling_build(&t, &g, &p, &err);
    tess_test_true("sparse box tiles", s == TESS_OK);
    char what[160];
    snprintf(what, sizeof what, "sparse box: %d non-empty tiles (expected 4), %lld wet nodes (expected 4)", t.ntiles,
             (long long)t.n_wet);
    tess_test_true(what, t.ntiles == 4 && t.n_wet == 4);
    const int order_ok = t.tile_map[0] == 0 && t.tile_map[1] == 1 && t.tile_map[2] == 2 && t.tile_map[3] == -1 &&
                         t.tile_map[3 + 4 * 3] == -1 && t.tile_map[3 + 4 * (3 + 4 * 3)] == 3;
    tess_test_true("sparse box: tile_map numbers tiles (0,0,0), (1,0,0), (2,0,0), (3,3,3) as 0..3", order_ok);
    tess_test_close("sparse box: eta_t = 4 / (4*64)", t.eta_t, 4.0 / 256.0, 1e-17);
    tess_tiling_free(&t);
    tess_geometry_free(&g);
}

static void test_padding(void)
{
    /* An all-fluid 10x7x5 box pads to 12x8x8: 3*2*2 = 12 tiles, 350 wet nodes, 768 - 350 = 418 padded
     * nodes that must be solid (material 0). */
    tess_geometry_t g;
    tess_params_t p;
    tess_params_default(&p);
    tess_geometry_init(&g, 10, 7, 5, 1);
    tess_tiling_t t;
    tess_error_t err;
    tess_test_true("10x7x5 box tiles", tess_tiling_build(&t, &g, &p, &err) == TESS_OK);
    char what[200];
    snprintf(what, sizeof what, "10x7x5 box: padded %dx%dx%d (expected 12x8x8), %d tiles (expected 12)", t.px, t.py,
             t.pz, t.ntiles);
    tess_test_true(what, t.px == 12 && t.py == 8 && t.pz == 8 && t.ntiles == 12);
    int64_t solid = 0, fluid = 0;
    for (int64_t n = 0; n < 64 * (int64_t)t.ntiles; n++) {
        solid += t.node_type[n] == 0;
        fluid += t.node_type[n] == 1;
    }
    snprintf(what, sizeof what, "10x7x5 box: %lld solid and %lld fluid tile nodes (expected 418 and 350)",
             (long long)solid, (long long)fluid);
    tess_test_true(what, solid == 418 && fluid == 350 && t.n_wet == 350);
    int pad_ok = 1;
    for (int z = 0; z < t.pz; z++)
        for (int y = 0; y < t.py; y++)
            for (int x = 0; x < t.px; x++) {
                const int inside = x < 10 && y < 7 && z < 5;
                pad_ok &= tess_tiling_node_type_at(&t, x, y, z) == (inside ? 1 : 0);
            }
    tess_test_true("10x7x5 box: every padded node is solid, every box node fluid", pad_ok);
    tess_test_close("10x7x5 box: eta_t = 350/768", t.eta_t, 350.0 / 768.0, 1e-15);
    tess_tiling_free(&t);
    tess_geometry_free(&g);
}

static void test_periodic_size(void)
{
    tess_geometry_t g;
    tess_params_t p;
    tess_params_default(&p);
    tess_geometry_init(&g, 10, 8, 8, 1);
    tess_tiling_t t;
    tess_error_t err;
    memset(&err, 0, sizeof err);
    g.periodic[1] = 1; /* 8: allowed */
    tess_status s = tess_tiling_build(&t, &g, &p, &err);
    tess_test_true("periodic y of 8 nodes is accepted", s == TESS_OK);
    if (s == TESS_OK)
        tess_tiling_free(&t);
    g.periodic[0] = 1; /* 10: not a multiple of 4 */
    s = tess_tiling_build(&t, &g, &p, &err);
    printf("     message: %s\n", err.msg);
    tess_test_true("periodic x of 10 nodes is TESS_ERR_INPUT with a message naming axis x",
                   s == TESS_ERR_INPUT && strstr(err.msg, "axis x") != NULL);
    g.periodic[0] = 0;
    g.type[3] = 7; /* only materials 0 and 1 exist */
    s = tess_tiling_build(&t, &g, &p, &err);
    printf("     message: %s\n", err.msg);
    tess_test_true("undefined material index is TESS_ERR_INPUT", s == TESS_ERR_INPUT);
    tess_geometry_free(&g);
}

int main(void)
{
    test_square_channel();
    test_tile_count();
    test_padding();
    test_periodic_size();
    return tess_test_result("test_tiling");
}
