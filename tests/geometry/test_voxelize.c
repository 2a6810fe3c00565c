/* Voxelization: node counts of the sphere and the bent tube against their volumes, every node away from the
 * surface classified as the analytic shape says (no holes, no leaks), ASCII and binary giving the same mask,
 * rotation invariance, and exact results for surfaces whose faces, edges and corners lie on nodes. */
#include "tess_stl.h"
#include "tess_stl_openings.h"
#include "tess_stl_shapes.h"
#include "tess_test.h"
#include "tess_voxelize.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

static tess_stl_mesh_t load(const char *dir, const char *name, int cap)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    tess_stl_mesh_t m;
    tess_error_t err;
    if (tess_stl_read(path, &m, &err) != TESS_OK) {
        printf("FAIL %s\n", err.msg);
        exit(1);
    }
    if (cap) {
        tess_stl_opening_t *o;
        int n;
        if (tess_stl_openings(&m, path, &o, &n, &err) != TESS_OK) {
            printf("FAIL %s\n", err.msg);
            exit(1);
        }
        free(o);
    }
    return m;
}

static uint8_t *voxelize(const tess_stl_mesh_t *m0, const tess_stl_transform_t *t, int n[3], long *count)
{
    tess_stl_mesh_t m = *m0;
    m.v = malloc(9 * m.ntri * sizeof *m.v);
    memcpy(m.v, m0->v, 9 * m.ntri * sizeof *m.v);
    tess_stl_mesh_transform(&m, t);
    uint8_t *in = malloc((size_t)n[0] * n[1] * n[2]);
    tess_error_t err;
    if (tess_voxelize(&m, n[0], n[1], n[2], in, count, &err) != TESS_OK) {
        printf("FAIL %s\n", err.msg);
        exit(1);
    }
    free(m.v);
    return in;
}

/* Node position in the file's coordinates: the inverse of t. */
static void to_file(const tess_stl_transform_t *t, int x, int y, int z, double p[3])
{
    double r[3][3], d[3] = {x - t->translate[0], y - t->translate[1], z - t->translate[2]};
    tess_stl_rotation(t, r);
    for (int i = 0; i < 3; i++)
        p[i] = (r[0][i] * d[0] + r[1][i] * d[1] + r[2][i] * d[2]) / t->scale;
}

/* Sphere: the icosphere's faces lie between the inscribed radius rin and 1 (file units). */
static int sphere_class(const double p[3], double rin, double margin)
{
    const double d = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    return d < rin - margin ? 1 : d > 1 + margin ? 0 : -1;
}

/* Bent tube (radius 1, straight 3, bend radius 3, 24 corners): 1 surely inside, 0 surely outside, -1 within
 * `margin` of the faceted surface or of the caps. */
static int tube_class(const double p[3], double margin)
{
    const double r = 1, len = 3, rb = 3, rin = r * cos(PI / 24);
    const double xs = fmin(fmax(p[0], 0), len);
    const double ds = sqrt((p[0] - xs) * (p[0] - xs) + p[1] * p[1] + p[2] * p[2]);
    const double hx = p[0] - len, hy = p[1] - rb;
    double th = atan2(hx, -hy);
    th = fmin(fmax(th, 0), 0.5 * PI);
    const double cx = len + rb * sin(th), cy = rb - rb * cos(th);
    const double da = sqrt((p[0] - cx) * (p[0] - cx) + (p[1] - cy) * (p[1] - cy) + p[2] * p[2]);
    const double d = fmin(ds, da);
    if (p[0] < -margin || (p[0] > len && p[1] > rb + margin) || d > r + margin)
        return 0;
    if (p[0] > margin && !(p[0] > len && p[1] > rb - margin) && d < rin - margin)
        return 1;
    return -1;
}

static long misclassified(const uint8_t *in, const int n[3], const tess_stl_transform_t *t, int tube, double rin,
                          double margin, long *checked)
{
    long bad = 0;
    *checked = 0;
    for (int z = 0; z < n[2]; z++)
        for (int y = 0; y < n[1]; y++)
            for (int x = 0; x < n[0]; x++) {
                double p[3];
                to_file(t, x, y, z, p);
                const int c = tube ? tube_class(p, margin) : sphere_class(p, rin, margin);
                if (c < 0)
                    continue;
                (*checked)++;
                bad += c != in[x + (size_t)n[0] * (y + (size_t)n[1] * z)];
            }
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    char label[1400];
    /* ---- sphere, R = 20 nodes, centre off the grid ---- */
    tess_stl_mesh_t sa = load(argv[1], "sphere.stl", 0), sb = load(argv[1], "sphere_binary.stl", 0);
    const double R = 20;
    tess_stl_transform_t t;
    tess_stl_transform_identity(&t);
    t.scale = R;
    t.translate[0] = 24.31;
    t.translate[1] = 25.67;
    t.translate[2] = 23.93;
    int n[3] = {50, 50, 50};
    long ca, cb;
    uint8_t *ma = voxelize(&sa, &t, n, &ca), *mb = voxelize(&sb, &t, n, &cb);
    const size_t nn = (size_t)n[0] * n[1] * n[2];
    tess_test_true("sphere: the ASCII and the binary file give the same mask node for node", memcmp(ma, mb, nn) == 0);
    double rin = 1; /* inscribed radius: the smallest distance from the centre to a face's plane */
    for (size_t f = 0; f < sa.ntri; f++) {
        const double *a = sa.v + 9 * f, *b = a + 3, *c = a + 6;
        double e1[3], e2[3], nrm[3];
        for (int k = 0; k < 3; k++) {
            e1[k] = b[k] - a[k];
            e2[k] = c[k] - a[k];
        }
        nrm[0] = e1[1] * e2[2] - e1[2] * e2[1];
        nrm[1] = e1[2] * e2[0] - e1[0] * e2[2];
        nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
        const double l = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
        rin = fmin(rin, fabs(nrm[0] * a[0] + nrm[1] * a[1] + nrm[2] * a[2]) / l);
    }
    const double vpoly = fabs(tess_stl_signed_volume(&sa)) * R * R * R, vsph = 4.0 / 3.0 * PI * R * R * R;
    printf("     sphere R = %g nodes: %ld nodes inside, polyhedron volume %.1f, sphere volume %.1f, inscribed radius "
           "%.5f R\n", R, ca, vpoly, vsph, rin);
    tess_test_true("sphere: polyhedron volume between the inscribed and the circumscribed sphere's",
                   vpoly <= vsph && vpoly >= vsph * rin * rin * rin);
    /* A node's unit cell is cut by the surface only within half a cell diagonal of it, so |count - V| is at
     * most the volume of that shell, ~ A sqrt(3) = 3 sqrt(3) V / R; the count errors of the different
     * nodes largely cancel, and 1/R (constant 1 instead of 5.2) is the O(1/R) tolerance used here. */
    snprintf(label, sizeof label, "sphere: relative node-count error against the polyhedron's volume (tolerance 1/R)");
    tess_test_close(label, (ca - vpoly) / vpoly, 0.0, 1.0 / R);
    snprintf(label, sizeof label,
             "sphere: relative node-count error against 4/3 pi R^3 (tolerance 1/R + the faceting deficit 1 - rin^3 = %.4f)",
             1 - rin * rin * rin);
    tess_test_close(label, (ca - vsph) / vsph, 0.0, 1.0 / R + 1 - rin * rin * rin);
    long checked;
    /* Nodes farther than 1e-9 R from the shell between the inscribed and circumscribed spheres are surely
     * inside or outside: every one must be classified so (a hole or a leak would show here). */
    long bad = misclassified(ma, n, &t, 0, rin, 1e-9, &checked);
    snprintf(label, sizeof label, "sphere: nodes off the faceting shell classified as the analytic sphere says (%ld checked)",
             checked);
    tess_test_close(label, (double)bad, 0, 0);

    /* Rotation: the same sphere turned 30, 45, 60 degrees; both counts lie within 1/R of the same volume. */
    t.rotate[0] = 30;
    t.rotate[1] = 45;
    t.rotate[2] = 60;
    long cr;
    uint8_t *mr = voxelize(&sa, &t, n, &cr);
    tess_test_close("sphere rotated 30 45 60: relative count change (tolerance 2/R: both within 1/R of the volume)",
                    (double)(cr - ca) / vpoly, 0.0, 2.0 / R);
    bad = misclassified(mr, n, &t, 0, rin, 1e-9, &checked);
    tess_test_close("sphere rotated: nodes off the faceting shell misclassified", (double)bad, 0, 0);
    /* Other radii: the relative count error against the polyhedron's volume stays within 1/R. */
    for (int r = 10; r <= 40; r += 30) {
        tess_stl_transform_t tr;
        tess_stl_transform_identity(&tr);
        tr.scale = r;
        int nr[3] = {2 * r + 10, 2 * r + 10, 2 * r + 10};
        for (int a = 0; a < 3; a++)
            tr.translate[a] = r + 5 + 0.31 * (a + 1);
        long cnt;
        uint8_t *mk = voxelize(&sa, &tr, nr, &cnt);
        const double vp = fabs(tess_stl_signed_volume(&sa)) * r * r * r;
        snprintf(label, sizeof label, "sphere R = %d: %ld nodes, relative error against the polyhedron's volume %.1f (1/R)",
                 r, cnt, vp);
        tess_test_close(label, (cnt - vp) / vp, 0.0, 1.0 / r);
        free(mk);
    }
    free(ma);
    free(mb);
    free(mr);
    tess_stl_free(&sa);
    tess_stl_free(&sb);

    /* ---- bent tube, radius 16 nodes, capped, turned 30 degrees about z and 10 about x ---- */
    tess_stl_mesh_t ta = load(argv[1], "bent_tube.stl", 1), tb = load(argv[1], "bent_tube_binary.stl", 1);
    const double S = 16;
    tess_stl_transform_identity(&t);
    t.scale = S;
    t.rotate[0] = 10;
    t.rotate[2] = 30;
    t.translate[0] = 12.4;
    t.translate[1] = 18.3;
    t.translate[2] = 20.0;
    n[0] = 100;
    n[1] = 120;
    n[2] = 50;
    {
        tess_stl_mesh_t moved = ta;
        moved.v = malloc(9 * ta.ntri * sizeof *moved.v);
        memcpy(moved.v, ta.v, 9 * ta.ntri * sizeof *moved.v);
        tess_stl_mesh_transform(&moved, &t);
        double lo[3], hi[3];
        tess_stl_bounds(&moved, lo, hi);
        free(moved.v);
        snprintf(label, sizeof label, "bent tube: the moved tube (%.1f..%.1f, %.1f..%.1f, %.1f..%.1f) lies inside the %dx%dx%d domain",
                 lo[0], hi[0], lo[1], hi[1], lo[2], hi[2], n[0], n[1], n[2]);
        tess_test_true(label, lo[0] > 0 && lo[1] > 0 && lo[2] > 0 && hi[0] < n[0] - 1 && hi[1] < n[1] - 1 && hi[2] < n[2] - 1);
    }
    ma = voxelize(&ta, &t, n, &ca);
    mb = voxelize(&tb, &t, n, &cb);
    tess_test_true("bent tube: the ASCII and the binary file give the same mask node for node",
                   memcmp(ma, mb, (size_t)n[0] * n[1] * n[2]) == 0);
    /* Exact volume of the faceted tube: 24-gon area A times (straight length + the bend's 16 wedges, each
     * sin(pi/32) A rb: a wedge between two planar rings joined by straight edges). */
    const double area = 12 * sin(2 * PI / 24), vtube = area * (3 + 16 * 3 * sin(PI / 32)) * S * S * S;
    const double vmesh = fabs(tess_stl_signed_volume(&ta)) * S * S * S;
    tess_test_close("bent tube: capped mesh volume against the faceted tube's formula (relative; float32 corners: 1e-6)",
                    vmesh / vtube - 1, 0.0, 1e-6);
    printf("     bent tube, radius %g nodes: %ld nodes inside, volume %.1f (smooth tube %.1f)\n", S, ca, vtube,
           PI * S * S * S * (3 + 1.5 * PI));
    /* Surface-to-volume ratio 2/r for a tube: the shell bound is 2 sqrt(3)/r; 1/r as for the sphere. */
    tess_test_close("bent tube: relative node-count error against the volume (tolerance 1/r)", (ca - vtube) / vtube, 0.0,
                    1.0 / S);
    /* Margin 0.01 tube radii: the bend's chords move the surface by at most 4 (1 - cos(pi/64)) = 0.005. */
    bad = misclassified(ma, n, &t, 1, 0, 0.01, &checked);
    snprintf(label, sizeof label, "bent tube: nodes off the surface (by 0.01 r) classified as the analytic tube says (%ld checked)",
             checked);
    tess_test_close(label, (double)bad, 0, 0);
    free(ma);
    free(mb);
    tess_stl_free(&tb);

    /* Without its caps the tube is open: the voxelizer refuses it, naming a line that crosses it oddly. */
    {
        tess_stl_mesh_t open = load(argv[1], "bent_tube.stl", 0);
        tess_stl_mesh_transform(&open, &t);
        uint8_t *in = malloc((size_t)n[0] * n[1] * n[2]);
        long c;
        tess_error_t err;
        const tess_status st = tess_voxelize(&open, n[0], n[1], n[2], in, &c, &err);
        snprintf(label, sizeof label, "open tube refused: %s", st == TESS_OK ? "(accepted)" : err.msg);
        tess_test_true(label, st == TESS_ERR_INPUT && strstr(err.msg, "the surface is not closed: the line along x at y = "));
        free(in);
        tess_stl_free(&open);
    }
    tess_stl_free(&ta);

    /* ---- grazing: faces, edges and corners exactly on nodes and node lines ---- */
    {
        /* Cube [4, 12]^3: the rule counts the half-open box [4, 12)^3, 512 nodes, whatever the triangulation
         * (the second cube is the same one turned a quarter turn about z, which flips its face diagonals). */
        static const int q[6][4][3] = {{{0, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 0, 0}}, {{0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}},
                                       {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}}, {{0, 1, 0}, {0, 1, 1}, {1, 1, 1}, {1, 1, 0}},
                                       {{0, 0, 0}, {0, 0, 1}, {0, 1, 1}, {0, 1, 0}}, {{1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {1, 0, 1}}};
        tess_stl_mesh_t cube;
        memset(&cube, 0, sizeof cube);
        for (int f = 0; f < 6; f++) {
            double c[4][3];
            for (int v = 0; v < 4; v++)
                for (int k = 0; k < 3; k++)
                    c[v][k] = 4 + 8 * q[f][v][k];
            tess_stl_add(&cube, c[0], c[1], c[2], -1);
            tess_stl_add(&cube, c[0], c[2], c[3], -1);
        }
        int g[3] = {16, 16, 16};
        for (int turn = 0; turn < 2; turn++) {
            tess_stl_transform_identity(&t);
            if (turn) {
                t.rotate[2] = 90; /* (x, y) -> (-y, x): move it back by +16 in x */
                t.translate[0] = 16;
            }
            long c;
            uint8_t *in = voxelize(&cube, &t, g, &c);
            long wrong = 0;
            for (int z = 0; z < 16; z++)
                for (int y = 0; y < 16; y++)
                    for (int x = 0; x < 16; x++)
                        wrong += in[x + 16 * (y + 16 * z)] != (x >= 4 && x < 12 && y >= 4 && y < 12 && z >= 4 && z < 12);
            snprintf(label, sizeof label, "cube on nodes%s: %ld nodes inside (expected 512), nodes off the half-open box",
                     turn ? " turned 90 degrees" : "", c);
            tess_test_close(label, (double)wrong, 0, 0);
            free(in);
        }
        tess_stl_free(&cube);

        /* Octahedron |x-8| + |y-8| + |z-8| <= 5 with corners on nodes: lines through its corners and edges.
         * Reference: the node moved by (d, e, e^2) is inside when every face s.(p - c) = 5 has s.(p - c) < 5,
         * or = 5 with the perturbation pointing inwards, i.e. s_x < 0 (s_x is never 0 here). */
        tess_stl_mesh_t oct;
        memset(&oct, 0, sizeof oct);
        for (int sx = -1; sx <= 1; sx += 2)
            for (int sy = -1; sy <= 1; sy += 2)
                for (int sz = -1; sz <= 1; sz += 2) {
                    const double a[3] = {8 + 5 * sx, 8, 8}, b[3] = {8, 8 + 5 * sy, 8}, c[3] = {8, 8, 8 + 5 * sz};
                    tess_stl_add(&oct, a, b, c, -1);
                }
        tess_stl_transform_identity(&t);
        long c;
        uint8_t *in = voxelize(&oct, &t, g, &c);
        long wrong = 0, ref = 0;
        for (int z = 0; z < 16; z++)
            for (int y = 0; y < 16; y++)
                for (int x = 0; x < 16; x++) {
                    int inside = 1;
                    for (int s = 0; s < 8; s++) {
                        const int sx = s & 1 ? 1 : -1, sy = s & 2 ? 1 : -1, sz = s & 4 ? 1 : -1;
                        const int f = sx * (x - 8) + sy * (y - 8) + sz * (z - 8) - 5;
                        inside &= f < 0 || (f == 0 && sx < 0);
                    }
                    ref += inside;
                    wrong += in[x + 16 * (y + 16 * z)] != inside;
                }
        snprintf(label, sizeof label, "octahedron on nodes: %ld nodes inside (reference %ld), nodes differing from the reference", c, ref);
        tess_test_close(label, (double)wrong, 0, 0);
        free(in);
        tess_stl_free(&oct);
    }
    return tess_test_result("test_voxelize");
}
