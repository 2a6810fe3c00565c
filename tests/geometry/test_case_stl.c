/* The case file's STL sections: cases/bent_tube.ini loads with the tube voxelized, its two openings as a
 * velocity inlet and a pressure outlet (method nee) whose normals are the rotated analytic ones and whose
 * nodes are the cap layers; the case's wall_q finds the tube's wall. */
#include "tess_case.h"
#include "tess_case_stl.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    char path[2048], label[1400];
    snprintf(path, sizeof path, "%s/../bent_tube.ini", argv[1]);
    tess_case_t c;
    tess_error_t err;
    if (tess_case_load(path, NULL, 0, &c, &err) != TESS_OK) {
        printf("FAIL %s\n", err.msg);
        return 1;
    }
    const tess_geometry_t *g = &c.geometry;
    long count[4] = {0, 0, 0, 0};
    double mean[4][3] = {{0}};
    for (int z = 0; z < g->nz; z++)
        for (int y = 0; y < g->ny; y++)
            for (int x = 0; x < g->nx; x++) {
                const int t = g->type[tess_geometry_index(g, x, y, z)];
                if (t > 3)
                    continue;
                count[t]++;
                mean[t][0] += x;
                mean[t][1] += y;
                mean[t][2] += z;
            }
    tess_test_true("bent_tube.ini: materials solid, fluid, inlet (velocity, nee), outlet (pressure, nee)",
                   c.params.nmat == 4 && c.params.mat[2].kind == TESS_NODE_VELOCITY &&
                       c.params.mat[3].kind == TESS_NODE_PRESSURE && c.params.mat[2].method == TESS_BC_NEE &&
                       c.params.mat[3].method == TESS_BC_NEE);
    /* Tube scaled 8, turned 30 degrees about z, moved by (6, 9, 10): opening0 (file origin, normal -x) at
     * (6, 9, 10) facing (-cos 30, -sin 30, 0); opening1 (file (6, 3, 0), normal +y) facing (-sin 30, cos 30, 0). */
    const double c30 = cos(PI / 6), s30 = 0.5;
    const double n0[3] = {-c30, -s30, 0}, n1[3] = {-s30, c30, 0};
    double d0 = 0, d1 = 0, du = 0;
    for (int a = 0; a < 3; a++) {
        d0 += (c.params.mat[2].normal[a] - n0[a]) * (c.params.mat[2].normal[a] - n0[a]);
        d1 += (c.params.mat[3].normal[a] - n1[a]) * (c.params.mat[3].normal[a] - n1[a]);
        du += (c.params.mat[2].u[a] + 0.02 * n0[a]) * (c.params.mat[2].u[a] + 0.02 * n0[a]);
    }
    tess_test_close("inlet normal against (-cos 30, -sin 30, 0) (float32 corners: 1e-6)", sqrt(d0), 0, 1e-6);
    tess_test_close("outlet normal against (-sin 30, cos 30, 0)", sqrt(d1), 0, 1e-6);
    tess_test_close("inlet velocity: 0.02 along the inward normal", sqrt(du), 0, 1e-8);
    /* Cap layers: 0 <= depth < max c.n = cos 30 + sin 30 = 1.366 (D3Q19 link (-1, -1, 0) for the inlet), so
     * about area x 1.366 = 198.8 x 1.366 = 272 nodes (24-gon of radius 8); +-10 % for the discrete count. */
    const double area = 12 * sin(2 * PI / 24) * 64, layer = area * (c30 + s30);
    for (int k = 2; k <= 3; k++) {
        snprintf(label, sizeof label, "%s cap layer: %ld nodes against area x (cos 30 + sin 30) = %.0f (10 %%)",
                 k == 2 ? "inlet" : "outlet", count[k], layer);
        tess_test_close(label, count[k] / layer, 1.0, 0.1);
    }
    /* Layer centres: on the opening's axis, about half the layer depth (0.68) inside. */
    const double cen[2][3] = {{6, 9, 10}, {6 + 8 * (6 * c30 - 3 * s30), 9 + 8 * (6 * s30 + 3 * c30), 10}};
    for (int k = 2; k <= 3; k++) {
        const double *nn = k == 2 ? n0 : n1;
        double dist2 = 0;
        for (int a = 0; a < 3; a++) {
            const double want = cen[k - 2][a] - 0.68 * nn[a];
            dist2 += (mean[k][a] / count[k] - want) * (mean[k][a] / count[k] - want);
        }
        snprintf(label, sizeof label, "%s cap layer's centre against the opening's centre 0.68 inside (0.3 nodes)",
                 k == 2 ? "inlet" : "outlet");
        tess_test_close(label, sqrt(dist2), 0, 0.3);
    }
    /* All wet nodes against the tube's volume 12252 (O(1/r) = 1/8 tolerance as in test_voxelize). */
    const double vol = 12 * sin(2 * PI / 24) * (3 + 48 * sin(PI / 32)) * 512;
    snprintf(label, sizeof label, "wet nodes %ld against the faceted tube's volume %.0f (relative, 1/r)",
             count[1] + count[2] + count[3], vol);
    tess_test_close(label, (count[1] + count[2] + count[3]) / vol - 1, 0, 1.0 / 8);
    /* wall_q: 4 nodes into the pipe from the inlet centre, the top of the pipe is the line of 24-gon corners at
     * z = 10 + 8 = 18 (an edge between two triangles): a link from z = 17.5 along +z crosses it at q = 0.5. */
    const double x[3] = {6 + 4 * c30, 9 + 4 * s30, 17.5}, cz[3] = {0, 0, 1};
    tess_test_close("case wall_q: link from 0.5 below the pipe's top wall", tess_case_stl_wall_q(c.stl, x, cz), 0.5, 1e-6);
    const double xc[3] = {6 + 4 * c30, 9 + 4 * s30, 10}, cx[3] = {1, 0, 0};
    tess_test_close("case wall_q: link on the pipe's axis crosses nothing", tess_case_stl_wall_q(c.stl, xc, cx), -1, 0);
    tess_case_free(&c);

    /* A body: the sphere (radius 6 nodes) with inside = solid in a 24^3 box, opening sections refused on it. */
    char ini[2048];
    snprintf(ini, sizeof ini, "%s/body.ini", argv[2]);
    FILE *f = fopen(ini, "w");
    fprintf(f, "[domain]\nnx = 24\nny = 24\nnz = 24\n[stl.ball]\nfile = %s/binary_sphere_link.stl\nscale = 6\n"
               "translate = 11.7 12.2 11.9\ninside = solid\n",
            argv[2]);
    fclose(f);
    char src[2048], dst[2048];
    snprintf(src, sizeof src, "%s/sphere_binary.stl", argv[1]);
    snprintf(dst, sizeof dst, "%s/binary_sphere_link.stl", argv[2]);
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    int ch;
    while ((ch = fgetc(in)) != EOF)
        fputc(ch, out);
    fclose(in);
    fclose(out);
    if (tess_case_load(ini, NULL, 0, &c, &err) != TESS_OK) {
        printf("FAIL %s\n", err.msg);
        return 1;
    }
    long solid = 0;
    for (size_t i = 0; i < (size_t)24 * 24 * 24; i++)
        solid += c.geometry.type[i] == 0;
    const double vball = 4.0 / 3.0 * PI * 216 * 0.9914; /* the icosphere's volume: 0.9914 of the sphere's (test_voxelize) */
    snprintf(label, sizeof label, "inside = solid: %ld solid nodes against the ball's volume %.0f (relative, 1/R = 1/6)",
             solid, vball);
    tess_test_close(label, solid / vball - 1, 0, 1.0 / 6);
    tess_case_free(&c);
    const char *const bad[] = {"outlet.o.opening=ball.opening0"};
    const tess_status st = tess_case_load(ini, bad, 1, &c, &err);
    snprintf(label, sizeof label, "an opening of a closed body is refused: %s", st == TESS_OK ? "accepted" : err.msg);
    tess_test_true(label, st == TESS_ERR_INPUT && strstr(err.msg, "which has none"));
    if (st == TESS_OK)
        tess_case_free(&c);
    return tess_test_result("test_case_stl");
}
