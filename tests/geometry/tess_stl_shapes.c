#include "tess_stl_shapes.h"
#include "tess_file.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void normalize(double v[3])
{
    const double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int k = 0; k < 3; k++)
        v[k] /= l;
}

static int subdivide(tess_stl_mesh_t *m, const double *a, const double *b, const double *c, int level)
{
    if (level == 0)
        return tess_stl_add(m, a, b, c, -1);
    double ab[3], bc[3], ca[3];
    /* a + b == b + a exactly, so an edge's midpoint is the same number from both of its triangles */
    for (int k = 0; k < 3; k++) {
        ab[k] = 0.5 * (a[k] + b[k]);
        bc[k] = 0.5 * (b[k] + c[k]);
        ca[k] = 0.5 * (c[k] + a[k]);
    }
    normalize(ab);
    normalize(bc);
    normalize(ca);
    return subdivide(m, a, ab, ca, level - 1) || subdivide(m, ab, b, bc, level - 1) ||
           subdivide(m, ca, bc, c, level - 1) || subdivide(m, ab, bc, ca, level - 1);
}

int tess_shape_icosphere(tess_stl_mesh_t *m, int level)
{
    const double g = 0.5 * (1.0 + sqrt(5.0));
    double v[12][3] = {{-1, g, 0}, {1, g, 0}, {-1, -g, 0}, {1, -g, 0}, {0, -1, g}, {0, 1, g},
                       {0, -1, -g}, {0, 1, -g}, {g, 0, -1}, {g, 0, 1}, {-g, 0, -1}, {-g, 0, 1}};
    static const int f[20][3] = {{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                                 {11, 10, 2}, {10, 7, 6}, {7, 1, 8}, {3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8},
                                 {3, 8, 9}, {4, 9, 5}, {2, 4, 11}, {6, 2, 10}, {8, 6, 7}, {9, 8, 1}};
    for (int i = 0; i < 12; i++)
        normalize(v[i]);
    memset(m, 0, sizeof *m);
    for (int t = 0; t < 20; t++)
        if (subdivide(m, v[f[t][0]], v[f[t][1]], v[f[t][2]], level) != 0)
            return -1;
    return 0;
}

int tess_shape_bent_tube(tess_stl_mesh_t *m, double r, double len, double rb, int around, int nstraight, int nbend)
{
    const double pi = 3.14159265358979323846;
    const int nring = nstraight + nbend + 1;
    double *ring = malloc((size_t)nring * around * 3 * sizeof *ring);
    if (!ring)
        return -1;
    /* Ring i: centre P and the unit vector R pointing away from the bend axis; corner j at
     * P + r (cos phi R + sin phi z). The straight part uses the frame of the bend's start (R = -y), so the
     * ring where they meet is one ring, computed once. */
    for (int i = 0; i < nring; i++) {
        double p[3], rr[3];
        if (i <= nstraight) {
            p[0] = len * i / nstraight;
            p[1] = p[2] = 0.0;
            rr[0] = 0.0;
            rr[1] = -1.0;
            rr[2] = 0.0;
        } else {
            const double th = 0.5 * pi * (i - nstraight) / nbend;
            p[0] = len + rb * sin(th);
            p[1] = rb - rb * cos(th);
            p[2] = 0.0;
            rr[0] = sin(th);
            rr[1] = -cos(th);
            rr[2] = 0.0;
        }
        for (int j = 0; j < around; j++) {
            const double ph = 2.0 * pi * j / around;
            double *q = ring + 3 * ((size_t)i * around + j);
            for (int k = 0; k < 3; k++)
                q[k] = p[k] + r * (cos(ph) * rr[k] + sin(ph) * (k == 2));
        }
    }
    memset(m, 0, sizeof *m);
    for (int i = 0; i + 1 < nring; i++)
        for (int j = 0; j < around; j++) {
            const double *a = ring + 3 * ((size_t)i * around + j), *b = ring + 3 * ((size_t)(i + 1) * around + j);
            const double *c = ring + 3 * ((size_t)(i + 1) * around + (j + 1) % around);
            const double *d = ring + 3 * ((size_t)i * around + (j + 1) % around);
            if (tess_stl_add(m, a, b, c, -1) || tess_stl_add(m, a, c, d, -1)) {
                free(ring);
                return -1;
            }
        }
    free(ring);
    return 0;
}

static void put32(unsigned char *p, uint32_t u)
{
    for (int k = 0; k < 4; k++)
        p[k] = (unsigned char)(u >> (8 * k));
}

static void putf(unsigned char *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    put32(p, u);
}

tess_status tess_stl_write(const char *path, const tess_stl_mesh_t *m, int binary, const char *header,
                           tess_error_t *err)
{
    tess_file_t w;
    tess_status st = tess_file_begin(&w, path, err);
    if (st != TESS_OK)
        return st;
    if (binary) {
        unsigned char h[84] = {0};
        memcpy(h, header, strlen(header) < 80 ? strlen(header) : 80);
        put32(h + 80, (uint32_t)m->ntri);
        fwrite(h, 1, sizeof h, w.f);
    } else {
        fprintf(w.f, "solid %s\n", header);
    }
    for (size_t t = 0; t < m->ntri; t++) {
        float v[9], n[3];
        for (int k = 0; k < 9; k++)
            v[k] = (float)m->v[9 * t + k];
        double e1[3], e2[3], c[3];
        for (int k = 0; k < 3; k++) {
            e1[k] = (double)v[3 + k] - v[k];
            e2[k] = (double)v[6 + k] - v[k];
        }
        c[0] = e1[1] * e2[2] - e1[2] * e2[1];
        c[1] = e1[2] * e2[0] - e1[0] * e2[2];
        c[2] = e1[0] * e2[1] - e1[1] * e2[0];
        const double l = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
        for (int k = 0; k < 3; k++)
            n[k] = l > 0 ? (float)(c[k] / l) : 0.0f;
        if (binary) {
            unsigned char r[50] = {0};
            for (int k = 0; k < 3; k++)
                putf(r + 4 * k, n[k]);
            for (int k = 0; k < 9; k++)
                putf(r + 12 + 4 * k, v[k]);
            fwrite(r, 1, sizeof r, w.f);
        } else {
            fprintf(w.f, "  facet normal %.9g %.9g %.9g\n    outer loop\n", n[0], n[1], n[2]);
            for (int c3 = 0; c3 < 3; c3++)
                fprintf(w.f, "      vertex %.9g %.9g %.9g\n", v[3 * c3], v[3 * c3 + 1], v[3 * c3 + 2]);
            fprintf(w.f, "    endloop\n  endfacet\n");
        }
    }
    if (!binary)
        fprintf(w.f, "endsolid %s\n", header);
    return tess_file_commit(&w, err);
}
