/* Link distances to an STL surface (tess_stl_wall_q): links through the sphere's corners against the
 * analytic sphere distance, the grid search against testing every triangle, links that cross nothing, and
 * the time for 1e5 links. */
#include "tess_stl.h"
#include "tess_stl_shapes.h"
#include "tess_stl_wall.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const int C[18][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1},
                             {1, 1, 0}, {-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}, {1, 0, 1}, {-1, 0, -1},
                             {1, 0, -1}, {-1, 0, 1}, {0, 1, 1}, {0, -1, -1}, {0, 1, -1}, {0, -1, 1}};

/* First crossing of x + q c with the sphere |p - ctr| = R from inside: the larger root. */
static double sphere_q(const double x[3], const double c[3], const double ctr[3], double R)
{
    double a = 0, b = 0, cc = -R * R;
    for (int k = 0; k < 3; k++) {
        const double d = x[k] - ctr[k];
        a += c[k] * c[k];
        b += 2 * c[k] * d;
        cc += d * d;
    }
    return (-b + sqrt(b * b - 4 * a * cc)) / (2 * a);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    tess_stl_mesh_t m;
    if (tess_shape_icosphere(&m, 3) != 0)
        return 1;
    const double R = 20, ctr[3] = {32.3, 31.7, 32.1};
    tess_stl_transform_t t;
    tess_stl_transform_identity(&t);
    t.scale = R;
    memcpy(t.translate, ctr, sizeof ctr);
    tess_stl_mesh_transform(&m, &t);
    tess_stl_wall_t *w;
    tess_error_t err;
    if (tess_stl_wall_create(&m, &w, &err) != TESS_OK) {
        printf("FAIL %s\n", err.msg);
        return 1;
    }
    /* Links ending in the surface exactly at a corner of the mesh (corners lie on the sphere): from
     * x = v - q0 c, with c pointing outwards. The mesh is convex, so the corner is the first crossing, and
     * the analytic sphere gives the same q. Rays through a corner are the hardest case for the triangle
     * test (a tolerance of 1e-12 on the barycentric coordinates keeps them from slipping between faces). */
    double worst = 0;
    long links = 0, missed = 0;
    const double q0s[5] = {0.05, 0.37, 0.5, 0.83, 1.0};
    for (size_t i = 0; i < 3 * m.ntri; i += 7) {
        const double *v = m.v + 3 * i;
        for (int d = 0; d < 18; d++) {
            const double c[3] = {C[d][0], C[d][1], C[d][2]};
            double out = 0;
            for (int k = 0; k < 3; k++)
                out += c[k] * (v[k] - ctr[k]);
            if (out < 0.3 * R) /* not too grazing, so that x is well inside */
                continue;
            for (int s = 0; s < 5; s++) {
                double x[3];
                for (int k = 0; k < 3; k++)
                    x[k] = v[k] - q0s[s] * c[k];
                const double q = tess_stl_wall_q(w, x, c), qa = sphere_q(x, c, ctr, R);
                links++;
                if (q < 0)
                    missed++;
                else
                    worst = fmax(worst, fabs(q - qa));
            }
        }
    }
    char label[256];
    snprintf(label, sizeof label, "%ld links ending on mesh corners: none missed", links);
    tess_test_close(label, (double)missed, 0, 0);
    tess_test_close("largest |q - analytic sphere q| on those links (1e-6)", worst, 0, 1e-6);

    /* Random links near the surface: the grid search must find exactly what testing every triangle finds. */
    tess_test_rng rng;
    tess_test_rng_seed(&rng, 12345);
    const long nl = 100000;
    double (*xs)[3] = malloc((size_t)nl * sizeof *xs);
    int *ds = malloc((size_t)nl * sizeof *ds);
    for (long l = 0; l < nl; l++) {
        /* a node within 1.5 of the sphere */
        double u[3], r2 = 0;
        for (int k = 0; k < 3; k++) {
            u[k] = 2 * tess_test_uniform(&rng) - 1;
            r2 += u[k] * u[k];
        }
        const double rr = R - 1.5 + 3 * tess_test_uniform(&rng);
        for (int k = 0; k < 3; k++)
            xs[l][k] = floor(ctr[k] + rr * u[k] / sqrt(r2) + 0.5);
        ds[l] = (int)(18 * tess_test_uniform(&rng));
    }
    clock_t t0 = clock();
    double *qg = malloc((size_t)nl * sizeof *qg);
    long hits = 0;
    for (long l = 0; l < nl; l++) {
        const double c[3] = {C[ds[l]][0], C[ds[l]][1], C[ds[l]][2]};
        qg[l] = tess_stl_wall_q(w, xs[l], c);
        hits += qg[l] > 0;
    }
    const double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("     %ld random links near the surface: %ld cross it; %.3f s (%.2f us a link)\n", nl, hits, secs, 1e6 * secs / nl);
    /* Reference: every triangle on its own (a wall of one triangle each), the smallest q. */
    tess_stl_wall_t **one = malloc(m.ntri * sizeof *one);
    for (size_t f = 0; f < m.ntri; f++) {
        tess_stl_mesh_t tri = {1, m.v + 9 * f, m.tag + f, 1};
        if (tess_stl_wall_create(&tri, &one[f], &err) != TESS_OK)
            return 1;
    }
    long differ = 0;
    for (long l = 0; l < nl; l += 10) {
        const double c[3] = {C[ds[l]][0], C[ds[l]][1], C[ds[l]][2]};
        double best = -1;
        for (size_t f = 0; f < m.ntri; f++) {
            const double q = tess_stl_wall_q(one[f], xs[l], c);
            if (q > 0 && (best < 0 || q < best))
                best = q;
        }
        differ += best != qg[l];
    }
    for (size_t f = 0; f < m.ntri; f++)
        tess_stl_wall_destroy(one[f]);
    free(one);
    snprintf(label, sizeof label, "grid search against every triangle on %ld links: links that differ", nl / 10);
    tess_test_close(label, (double)differ, 0, 0);
    /* Crossing links of random nodes: q within the faceting gap of the analytic sphere. Along a link at
     * angle a to the normal, the gap (R - rin ~ 0.0047 R at this resolution) stretches by 1/cos a; links
     * with cos a < 0.5 are left out, so |q - q_sphere| |c| <= 2 (R - rin) + 1e-9. */
    const double gap = R * (1 - 0.995); /* rin / R = 0.9953 for 1280 faces (test_voxelize prints it) */
    double worst_rel = 0;
    long compared = 0;
    for (long l = 0; l < nl; l++) {
        if (qg[l] < 0)
            continue;
        const double c[3] = {C[ds[l]][0], C[ds[l]][1], C[ds[l]][2]};
        const double qa = sphere_q(xs[l], c, ctr, R);
        double p[3], cn = 0, cl = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]), pl = 0;
        for (int k = 0; k < 3; k++) {
            p[k] = xs[l][k] + qa * c[k] - ctr[k];
            pl += p[k] * p[k];
            cn += p[k] * c[k];
        }
        if (!(qa > 0 && qa <= 1) || cn / (sqrt(pl) * cl) < 0.5)
            continue;
        compared++;
        worst_rel = fmax(worst_rel, fabs(qg[l] - qa) * cl / (2 * gap));
    }
    snprintf(label, sizeof label, "%ld crossing links (not grazing): |q - q_sphere| |c| / (2 x faceting gap) <= 1", compared);
    tess_test_true(label, worst_rel <= 1.0 && compared > 1000);
    printf("     largest ratio %.3f\n", worst_rel);
    /* A link from the centre, far from the surface, crosses nothing. */
    const double c1[3] = {1, 1, 0};
    tess_test_close("link at the centre: -1", tess_stl_wall_q(w, ctr, c1), -1, 0);
    const double far[3] = {200, 0, 0};
    tess_test_close("link outside the surface's box: -1", tess_stl_wall_q(w, far, c1), -1, 0);
    free(xs);
    free(ds);
    free(qg);
    tess_stl_wall_destroy(w);
    tess_stl_free(&m);
    return tess_test_result("test_wall_q");
}
