#include "tess_voxelize.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#if !defined(__SIZEOF_INT128__)
#error "tess_voxelize.c needs a compiler with 128-bit integers (gcc, clang) for its exact edge tests"
#endif
typedef __int128 i128;

#define SNAP 16777216.0 /* 2^24: corners in units of 2^-24 lattice spacings */
#define COORD_MAX 268435456.0 /* 2^28: snapped values stay below 2^52, exact in a double */

/* A triangle with snapped corners: y, z as integers for the exact tests, x as doubles for the crossing. */
typedef struct {
    int64_t y[3], z[3];
    double x[3];
} snapped_t;

static void snap(const double *v, snapped_t *s)
{
    for (int c = 0; c < 3; c++) {
        s->x[c] = nearbyint(v[3 * c] * SNAP) / SNAP;
        s->y[c] = (int64_t)nearbyint(v[3 * c + 1] * SNAP);
        s->z[c] = (int64_t)nearbyint(v[3 * c + 2] * SNAP);
    }
}

/* Side of the point (py, pz), moved by (e, e^2), of the edge p -> q: +1 left, -1 right, 0 only for an edge
 * of zero length. Exact: twice the signed area of (p, q, point) in 128-bit integers. */
static int edge_side(int64_t qy0, int64_t qz0, int64_t qy1, int64_t qz1, int64_t py, int64_t pz)
{
    const i128 ay = (i128)qy0 - py, az = (i128)qz0 - pz, by = (i128)qy1 - py, bz = (i128)qz1 - pz;
    const i128 e = ay * bz - az * by;
    if (e != 0)
        return e > 0 ? 1 : -1;
    /* The point is on the edge's line. d/de of the area under (py + e, pz + e^2) is -(qz1 - qz0); at
     * order e^2 it is (qy1 - qy0). */
    if (qz1 != qz0)
        return qz1 > qz0 ? -1 : 1;
    if (qy1 != qy0)
        return qy1 > qy0 ? 1 : -1;
    return 0;
}

/* Does the line {(t, py, pz)} (snapped units) cross the triangle? Sets *x to the crossing's x. */
static int line_hits(const snapped_t *s, int64_t py, int64_t pz, double *x)
{
    int sg[3];
    for (int c = 0; c < 3; c++) {
        const int a = (c + 1) % 3, b = (c + 2) % 3; /* the edge opposite corner c */
        sg[c] = edge_side(s->y[a], s->z[a], s->y[b], s->z[b], py, pz);
    }
    if (!((sg[0] > 0 && sg[1] > 0 && sg[2] > 0) || (sg[0] < 0 && sg[1] < 0 && sg[2] < 0)))
        return 0;
    /* Barycentric weights (unnormalised, exact zero on an edge) give the crossing's x. Written as
     * x0 + ... so that a face at constant x gives that x exactly. */
    double w[3];
    for (int c = 0; c < 3; c++) {
        const int a = (c + 1) % 3, b = (c + 2) % 3;
        const i128 ay = (i128)s->y[a] - py, az = (i128)s->z[a] - pz, by = (i128)s->y[b] - py, bz = (i128)s->z[b] - pz;
        w[c] = (double)(ay * bz - az * by);
    }
    const double sum = w[0] + w[1] + w[2];
    *x = sum == 0.0 ? s->x[0] : s->x[0] + (w[1] * (s->x[1] - s->x[0]) + w[2] * (s->x[2] - s->x[0])) / sum;
    return 1;
}

static int in_range(const double *v)
{
    for (int k = 0; k < 9; k++)
        if (!(fabs(v[k]) < COORD_MAX))
            return 0;
    return 1;
}

int tess_voxelize_contains(const tess_stl_mesh_t *m, const double p[3])
{
    const int64_t py = (int64_t)nearbyint(p[1] * SNAP), pz = (int64_t)nearbyint(p[2] * SNAP);
    const double px = nearbyint(p[0] * SNAP) / SNAP;
    long n = 0;
    for (size_t t = 0; t < m->ntri; t++) {
        snapped_t s;
        double x;
        if (!in_range(m->v + 9 * t))
            continue;
        snap(m->v + 9 * t, &s);
        if (line_hits(&s, py, pz, &x) && x <= px)
            n++;
    }
    return (int)(n & 1);
}

typedef struct {
    size_t line;
    double x;
} hit_t;

static int cmp_hit(const void *pa, const void *pb)
{
    const hit_t *a = pa, *b = pb;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return a->x < b->x ? -1 : a->x > b->x;
}

tess_status tess_voxelize(const tess_stl_mesh_t *m, int nx, int ny, int nz, uint8_t *inside, long *count,
                          tess_error_t *err)
{
    hit_t *h = NULL;
    size_t nh = 0, cap = 0;
    for (size_t t = 0; t < m->ntri; t++) {
        const double *v = m->v + 9 * t;
        if (!in_range(v)) {
            free(h);
            return tess_fail(err, TESS_ERR_INPUT,
                             "triangle %zu has a corner beyond +-2^28 lattice units ((%g, %g, %g), (%g, %g, %g), (%g, "
                             "%g, %g)): check scale and translate",
                             t, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
        }
        const double ylo = fmin(v[1], fmin(v[4], v[7])), yhi = fmax(v[1], fmax(v[4], v[7]));
        const double zlo = fmin(v[2], fmin(v[5], v[8])), zhi = fmax(v[2], fmax(v[5], v[8]));
        /* Lines within the bounding box, one node of margin for the rounding of corners. */
        const int j0 = (int)fmax(0, ceil(ylo) - 1), j1 = (int)fmin(ny - 1, floor(yhi) + 1);
        const int k0 = (int)fmax(0, ceil(zlo) - 1), k1 = (int)fmin(nz - 1, floor(zhi) + 1);
        if (j0 > j1 || k0 > k1)
            continue;
        snapped_t s;
        snap(v, &s);
        for (int k = k0; k <= k1; k++)
            for (int j = j0; j <= j1; j++) {
                double x;
                if (!line_hits(&s, (int64_t)j * (int64_t)SNAP, (int64_t)k * (int64_t)SNAP, &x))
                    continue;
                if (nh == cap) {
                    cap = cap ? 2 * cap : 4096;
                    hit_t *nhp = realloc(h, cap * sizeof *h);
                    if (!nhp) {
                        free(h);
                        return tess_fail(err, TESS_ERR_NOMEM, "out of memory voxelizing %zu triangles", m->ntri);
                    }
                    h = nhp;
                }
                h[nh].line = (size_t)j + (size_t)ny * (size_t)k;
                h[nh].x = x;
                nh++;
            }
    }
    if (nh)
        qsort(h, nh, sizeof *h, cmp_hit);
    memset(inside, 0, (size_t)nx * ny * nz);
    long total = 0;
    for (size_t a = 0; a < nh;) {
        size_t b = a;
        while (b < nh && h[b].line == h[a].line)
            b++;
        if ((b - a) % 2) {
            const int j = (int)(h[a].line % (size_t)ny), k = (int)(h[a].line / (size_t)ny);
            const size_t odd = b - a;
            free(h);
            return tess_fail(err, TESS_ERR_INPUT,
                             "the surface is not closed: the line along x at y = %d, z = %d crosses it %zu times (an "
                             "odd number)",
                             j, k, odd);
        }
        /* Crossings at or before node i (the node moved by +d along x). */
        uint8_t *row = inside + (size_t)nx * h[a].line;
        size_t c = a;
        for (int i = 0; i < nx; i++) {
            while (c < b && h[c].x <= (double)i)
                c++;
            if ((c - a) & 1) {
                row[i] = 1;
                total++;
            }
        }
        a = b;
    }
    free(h);
    *count = total;
    return TESS_OK;
}
