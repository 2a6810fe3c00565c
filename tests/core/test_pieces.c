/* The output pieces of the ranks (core/tess_pieces.h): for the partitions of a sparse bed of random spheres (a box
 * that is not a multiple of the tile size) and of a 2D box (D2Q9, 8x8x1 tiles) among R = 1..8 ranks, the point
 * extents must be what VTK needs to assemble one image: every cell of the domain in exactly one piece (cells
 * between the points of an extent; along an axis of one node, the node), every node in at least one piece, every
 * extent inside the domain. One rank's piece is the whole domain. Integer counts, compared exactly. */
#include "tess_partition.h"
#include "tess_pieces.h"
#include "tess_test.h"
#include <stdio.h>
#include <stdlib.h>

static void check(const char *name, const tess_tiling_t *t, const tess_params_t *p, int R)
{
    tess_partition_t part;
    tess_error_t err;
    if (tess_partition_build(&part, t, p, NULL, R, &err) != TESS_OK) {
        tess_test_true(err.msg, 0);
        return;
    }
    int32_t(*ext)[6] = malloc((size_t)R * sizeof *ext);
    tess_pieces_extents(t, part.rank, R, ext);
    const int n[3] = {t->nx, t->ny, t->nz};
    int inside = 1;
    for (int r = 0; r < R; r++)
        for (int a = 0; a < 3; a++)
            inside &= ext[r][2 * a] >= 0 && ext[r][2 * a] <= ext[r][2 * a + 1] && ext[r][2 * a + 1] < n[a];
    /* Cells per axis: n - 1, or the one node of an axis of one node. */
    const int c[3] = {n[0] > 1 ? n[0] - 1 : 1, n[1] > 1 ? n[1] - 1 : 1, n[2] > 1 ? n[2] - 1 : 1};
    long once = 0, cells = (long)c[0] * c[1] * c[2], nodes_missing = 0;
    for (int z = 0; z < c[2]; z++)
        for (int y = 0; y < c[1]; y++)
            for (int x = 0; x < c[0]; x++) {
                const int at[3] = {x, y, z};
                int k = 0;
                for (int r = 0; r < R; r++) {
                    int in = 1;
                    for (int a = 0; a < 3; a++)
                        in &= n[a] > 1 ? ext[r][2 * a] <= at[a] && at[a] < ext[r][2 * a + 1]
                                       : ext[r][2 * a] <= at[a] && at[a] <= ext[r][2 * a + 1];
                    k += in;
                }
                once += k == 1;
            }
    for (int z = 0; z < n[2]; z++)
        for (int y = 0; y < n[1]; y++)
            for (int x = 0; x < n[0]; x++) {
                int k = 0;
                for (int r = 0; r < R && !k; r++)
                    k = ext[r][0] <= x && x <= ext[r][1] && ext[r][2] <= y && y <= ext[r][3] && ext[r][4] <= z &&
                        z <= ext[r][5];
                nodes_missing += !k;
            }
    char what[200];
    snprintf(what, sizeof what, "%s, %d ranks: extents inside the %dx%dx%d domain", name, R, n[0], n[1], n[2]);
    tess_test_true(what, inside);
    snprintf(what, sizeof what, "%s, %d ranks: cells in exactly one piece", name, R);
    tess_test_close(what, (double)once, (double)cells, 0.0);
    snprintf(what, sizeof what, "%s, %d ranks: nodes in no piece", name, R);
    tess_test_close(what, (double)nodes_missing, 0.0, 0.0);
    if (R == 1) {
        snprintf(what, sizeof what, "%s, 1 rank: the piece is the whole domain", name);
        tess_test_true(what, ext[0][0] == 0 && ext[0][1] == n[0] - 1 && ext[0][2] == 0 && ext[0][3] == n[1] - 1 &&
                                 ext[0][4] == 0 && ext[0][5] == n[2] - 1);
    }
    free(ext);
    tess_partition_free(&part);
}

/* Tiles g (and frees it), then checks the partitions among 1 to 8 ranks. */
static void check_all(const char *name, tess_geometry_t *g, const tess_params_t *p)
{
    tess_tiling_t t;
    tess_error_t err;
    const tess_status st = tess_tiling_build(&t, g, p, &err);
    tess_geometry_free(g);
    if (st != TESS_OK) {
        tess_test_true(err.msg, 0);
        return;
    }
    for (int R = 1; R <= 8; R++)
        check(name, &t, p, R);
    tess_tiling_free(&t);
}

static void test_spheres(void)
{
    /* 64x45x37 (y and z no multiple of 4), periodic in x: 60 random spheres of radius 6 in fluid. */
    tess_geometry_t g;
    tess_params_t p;
    tess_params_default(&p);
    const int n[3] = {64, 45, 37}, rad = 6;
    tess_geometry_init(&g, n[0], n[1], n[2], 1);
    g.periodic[0] = 1;
    tess_test_rng rng;
    tess_test_rng_seed(&rng, 7);
    for (int s = 0; s < 60; s++) {
        const int cx = (int)(n[0] * tess_test_uniform(&rng)), cy = (int)(n[1] * tess_test_uniform(&rng)),
                  cz = (int)(n[2] * tess_test_uniform(&rng));
        for (int dz = -rad; dz <= rad; dz++)
            for (int dy = -rad; dy <= rad; dy++)
                for (int dx = -rad; dx <= rad; dx++) {
                    const int x = cx + dx, y = cy + dy, z = cz + dz;
                    if (dx * dx + dy * dy + dz * dz <= rad * rad && x >= 0 && x < n[0] && y >= 0 && y < n[1] &&
                        z >= 0 && z < n[2])
                        g.type[tess_geometry_index(&g, x, y, z)] = 0;
                }
    }
    check_all("sphere bed", &g, &p);
}

static void test_2d(void)
{
    tess_params_t p;
    tess_params_default(&p);
    p.lattice = TESS_LATTICE_D2Q9;
    tess_geometry_t g;
    tess_geometry_init(&g, 70, 29, 1, 1);
    check_all("2D box", &g, &p);
}

int main(void)
{
    test_spheres();
    test_2d();
    return tess_test_result("test_pieces");
}
