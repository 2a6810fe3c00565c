/* Openings: the bent tube has two, with the analytic centroids, outward normals, areas and radii, also after
 * a case-file transform; a closed sphere has none; one missing triangle is a clean opening; holes that are
 * not simple loops, and non-manifold edges, are refused naming the place. */
#include "tess_stl.h"
#include "tess_stl_openings.h"
#include "tess_stl_shapes.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

static tess_stl_mesh_t load(const char *dir, const char *name)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    tess_stl_mesh_t m;
    tess_error_t err;
    if (tess_stl_read(path, &m, &err) != TESS_OK) {
        printf("FAIL %s\n", err.msg);
        exit(1);
    }
    return m;
}

static double dist3(const double a[3], const double b[3])
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

static int same_corner(const double *a, const double *b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

static void remove_triangle(tess_stl_mesh_t *m, size_t t)
{
    memmove(m->v + 9 * t, m->v + 9 * (t + 1), 9 * (m->ntri - t - 1) * sizeof *m->v);
    memmove(m->tag + t, m->tag + t + 1, (m->ntri - t - 1) * sizeof *m->tag);
    m->ntri--;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    char label[1400];
    tess_error_t err;
    for (int file = 0; file < 2; file++) {
        const char *name = file ? "bent_tube_binary.stl" : "bent_tube.stl";
        tess_stl_mesh_t m = load(argv[1], name);
        const size_t before = m.ntri;
        tess_stl_opening_t *o;
        int n;
        if (tess_stl_openings(&m, name, &o, &n, &err) != TESS_OK) {
            printf("FAIL %s\n", err.msg);
            return 1;
        }
        snprintf(label, sizeof label, "%s: 2 openings (found %d), capped by 2 x 24 fan triangles", name, n);
        tess_test_true(label, n == 2 && m.ntri == before + 48);
        if (n != 2)
            return tess_test_result("test_openings");
        /* Analytic (file units): opening0 at the origin facing -x, opening1 at (6, 3, 0) facing +y; regular
         * 24-gons of circumradius 1: area 12 sin(2 pi / 24), corners at distance 1. Corners are float32
         * (relative rounding 6e-8), so 1e-6 holds for everything. */
        const double c[2][3] = {{0, 0, 0}, {6, 3, 0}}, nr[2][3] = {{-1, 0, 0}, {0, 1, 0}};
        for (int k = 0; k < 2; k++) {
            printf("     %s opening%d: centroid (%.9f, %.9f, %.9f), normal (%.9f, %.9f, %.9f), area %.9f, radius %.9f, "
                   "%d edges\n", name, k, o[k].centroid[0], o[k].centroid[1], o[k].centroid[2], o[k].normal[0],
                   o[k].normal[1], o[k].normal[2], o[k].area, o[k].radius, o[k].nedges);
            snprintf(label, sizeof label, "%s opening%d: |centroid - analytic|", name, k);
            tess_test_close(label, dist3(o[k].centroid, c[k]), 0, 1e-6);
            snprintf(label, sizeof label, "%s opening%d: |outward normal - analytic|", name, k);
            tess_test_close(label, dist3(o[k].normal, nr[k]), 0, 1e-6);
            snprintf(label, sizeof label, "%s opening%d: area (24-gon)", name, k);
            tess_test_close(label, o[k].area, 12 * sin(2 * PI / 24), 1e-6);
            snprintf(label, sizeof label, "%s opening%d: radius", name, k);
            tess_test_close(label, o[k].radius, 1.0, 1e-6);
        }
        /* Capped, the mesh encloses the faceted tube: |signed volume| = A (3 + 16 * 3 sin(pi/32)). */
        const double vt = 12 * sin(2 * PI / 24) * (3 + 48 * sin(PI / 32));
        snprintf(label, sizeof label, "%s: capped volume (relative, float32 corners)", name);
        tess_test_close(label, fabs(tess_stl_signed_volume(&m)) / vt - 1, 0, 1e-6);
        /* After a case-file transform: the centroid moves as a point, the normal turns with the rotation. */
        tess_stl_transform_t t;
        tess_stl_transform_identity(&t);
        t.scale = 8;
        t.rotate[0] = 10;
        t.rotate[1] = 20;
        t.rotate[2] = 30;
        t.translate[0] = 5;
        t.translate[1] = -2;
        t.translate[2] = 7;
        for (int k = 0; k < 2; k++) {
            tess_stl_opening_t q = o[k];
            tess_stl_opening_transform(&q, &t);
            double cw[3], nw[3];
            tess_stl_transform_point(&t, c[k], cw);
            tess_stl_transform_direction(&t, nr[k], nw);
            snprintf(label, sizeof label, "%s opening%d after scale 8, rotate 10 20 30: |centroid - analytic| (8e-6: scaled)", name, k);
            tess_test_close(label, dist3(q.centroid, cw), 0, 8e-6);
            snprintf(label, sizeof label, "%s opening%d after the transform: |normal - rotated analytic normal|", name, k);
            tess_test_close(label, dist3(q.normal, nw), 0, 1e-6);
            snprintf(label, sizeof label, "%s opening%d after the transform: radius", name, k);
            tess_test_close(label, q.radius, 8.0, 8e-6);
        }
        free(o);
        tess_stl_free(&m);
    }

    /* The closed sphere: no openings, nothing added. */
    tess_stl_mesh_t s = load(argv[1], "sphere.stl");
    tess_stl_opening_t *o;
    int n;
    size_t before = s.ntri;
    tess_status st = tess_stl_openings(&s, "sphere.stl", &o, &n, &err);
    tess_test_true("sphere: no openings, no caps", st == TESS_OK && n == 0 && o == NULL && s.ntri == before);

    /* One triangle missing: a clean 3-edge opening at that triangle's centroid. */
    double tc[3];
    for (int k = 0; k < 3; k++)
        tc[k] = (s.v[k] + s.v[3 + k] + s.v[6 + k]) / 3;
    tess_stl_mesh_t h = s;
    h.v = malloc(9 * s.cap * sizeof *h.v);
    h.tag = malloc(s.cap * sizeof *h.tag);
    memcpy(h.v, s.v, 9 * s.ntri * sizeof *h.v);
    memcpy(h.tag, s.tag, s.ntri * sizeof *h.tag);
    remove_triangle(&h, 0);
    st = tess_stl_openings(&h, "hole.stl", &o, &n, &err);
    tess_test_true("sphere minus one triangle: one opening of 3 edges", st == TESS_OK && n == 1 && o[0].nedges == 3);
    if (st == TESS_OK && n == 1) {
        tess_test_close("... at the missing triangle's centroid", dist3(o[0].centroid, tc), 0, 1e-12);
        /* outward = away from the sphere's centre */
        tess_test_true("... its normal points out of the sphere",
                       o[0].normal[0] * tc[0] + o[0].normal[1] * tc[1] + o[0].normal[2] * tc[2] > 0);
        free(o);
    }
    tess_stl_free(&h);

    /* Two missing triangles touching at one corner: 4 boundary edges meet there; the message names it. */
    size_t t2 = 0;
    double shared[3] = {0, 0, 0};
    for (size_t t = 1; t < s.ntri && !t2; t++) {
        int common = 0, edge_common = 0;
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                if (same_corner(s.v + 3 * a, s.v + 9 * t + 3 * b)) {
                    common++;
                    memcpy(shared, s.v + 3 * a, sizeof shared);
                }
        (void)edge_common;
        if (common == 1)
            t2 = t;
    }
    h = s;
    h.v = malloc(9 * s.cap * sizeof *h.v);
    h.tag = malloc(s.cap * sizeof *h.tag);
    memcpy(h.v, s.v, 9 * s.ntri * sizeof *h.v);
    memcpy(h.tag, s.tag, s.ntri * sizeof *h.tag);
    remove_triangle(&h, t2);
    remove_triangle(&h, 0);
    st = tess_stl_openings(&h, "bowtie.stl", &o, &n, &err);
    char want[512];
    snprintf(want, sizeof want, "bowtie.stl: the surface has a hole that is not a simple closed loop: 4 boundary edges "
             "meet at the corner (%g, %g, %g) (expected 2)", shared[0], shared[1], shared[2]);
    snprintf(label, sizeof label, "two holes sharing a corner: error naming the corner (\"%s\")",
             st == TESS_OK ? "accepted" : err.msg);
    tess_test_true(label, st == TESS_ERR_INPUT && strcmp(err.msg, want) == 0);
    tess_stl_free(&h);

    /* A corner written as -0 in one triangle and 0 in another is one corner: flip the sign of every zero
     * coordinate of the first 100 triangles, and the sphere stays closed. */
    {
        tess_stl_mesh_t z = s;
        z.v = malloc(9 * s.cap * sizeof *z.v);
        z.tag = malloc(s.cap * sizeof *z.tag);
        memcpy(z.v, s.v, 9 * s.ntri * sizeof *z.v);
        memcpy(z.tag, s.tag, s.ntri * sizeof *z.tag);
        long flipped = 0;
        for (size_t i = 0; i < 900; i++)
            if (z.v[i] == 0.0) {
                z.v[i] = -z.v[i];
                flipped++;
            }
        st = tess_stl_openings(&z, "signed_zero.stl", &o, &n, &err);
        snprintf(label, sizeof label, "sphere with %ld zeros turned into -0: still closed (no openings)", flipped);
        tess_test_true(label, flipped > 0 && st == TESS_OK && n == 0);
        tess_stl_free(&z);
    }

    /* A third triangle on an edge: non-manifold, named by the edge's corners. */
    tess_stl_add(&s, s.v, s.v + 3, (const double[3]){0, 0, 0}, -1);
    st = tess_stl_openings(&s, "fin.stl", &o, &n, &err);
    snprintf(label, sizeof label, "a third triangle on an edge: non-manifold error naming the edge (\"%s\")",
             st == TESS_OK ? "accepted" : err.msg);
    tess_test_true(label, st == TESS_ERR_INPUT && strstr(err.msg, "fin.stl: non-manifold edge (") &&
                              strstr(err.msg, "3 triangles share it"));
    tess_stl_free(&s);

    /* A straight tube whose seam does not close: the last column of triangles takes its corners at angle 2 pi
     * from (cos 2 pi, sin 2 pi), sin 2 pi = -2.4e-16 instead of 0. The two ends and the seam's two sides then
     * form one boundary loop whose ends' vector areas cancel; its centroid was a quotient of rounding errors
     * (reported at -2.7e14). It is refused as enclosing almost no area, named at a point within the tube's
     * bounding box [0, 4] x [-1, 1]^2. With the seam closed (corner index 0 reused) the tube has 2 openings. */
    for (int seam_off = 0; seam_off < 2; seam_off++) {
        tess_stl_mesh_t t;
        memset(&t, 0, sizeof t);
        const int around = 16, rings = 5;
        for (int i = 0; i + 1 < rings; i++)
            for (int j = 0; j < around; j++) {
                const int j1 = j + 1 == around && !seam_off ? 0 : j + 1;
                const double a0 = 2 * PI * j / around, a1 = 2 * PI * j1 / around;
                const double p00[3] = {i, cos(a0), sin(a0)}, p10[3] = {i + 1, cos(a0), sin(a0)};
                const double p01[3] = {i, cos(a1), sin(a1)}, p11[3] = {i + 1, cos(a1), sin(a1)};
                tess_stl_add(&t, p00, p10, p11, -1);
                tess_stl_add(&t, p00, p11, p01, -1);
            }
        st = tess_stl_openings(&t, "seam.stl", &o, &n, &err);
        if (!seam_off) {
            tess_test_true("tube with a closed seam: 2 openings of 16 edges",
                           st == TESS_OK && n == 2 && o[0].nedges == 16 && o[1].nedges == 16);
            if (st == TESS_OK)
                free(o);
        } else {
            double at[3] = {NAN, NAN, NAN};
            const char *p = st == TESS_OK ? NULL : strstr(err.msg, "around (");
            if (p)
                sscanf(p, "around (%lf, %lf, %lf)", &at[0], &at[1], &at[2]);
            snprintf(label, sizeof label, "tube with a seam off by 2.4e-16: refused, \"almost no area\", named inside "
                     "its bounding box (\"%s\")", st == TESS_OK ? "accepted" : err.msg);
            tess_test_true(label, st == TESS_ERR_INPUT && strstr(err.msg, "encloses almost no area") &&
                                      at[0] >= 0 && at[0] <= 4 && fabs(at[1]) <= 1 && fabs(at[2]) <= 1);
        }
        tess_stl_free(&t);
    }
    return tess_test_result("test_openings");
}
