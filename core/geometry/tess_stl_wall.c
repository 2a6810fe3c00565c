#include "tess_stl_wall.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct tess_stl_wall {
    size_t ntri;
    double *v;         /* 9 doubles a triangle */
    double lo[3], h;   /* grid origin and cell size */
    int n[3];          /* cells per axis */
    size_t *start;     /* CSR: triangles of cell c are idx[start[c] .. start[c + 1]) */
    uint32_t *idx;
};

#define MAX_CELLS (1L << 22)

static long cell_of(const tess_stl_wall_t *w, double p, int a)
{
    long i = (long)floor((p - w->lo[a]) / w->h);
    return i < 0 ? 0 : i >= w->n[a] ? w->n[a] - 1 : i;
}

tess_status tess_stl_wall_create(const tess_stl_mesh_t *m, tess_stl_wall_t **out, tess_error_t *err)
{
    *out = NULL;
    tess_stl_wall_t *w = calloc(1, sizeof *w);
    if (!w)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the STL wall distances");
    size_t nt = 0;
    for (size_t t = 0; t < m->ntri; t++)
        nt += m->tag[t] < 0;
    if (nt > UINT32_MAX) {
        free(w);
        return tess_fail(err, TESS_ERR_INPUT, "%zu surface triangles: at most 2^32 supported", nt);
    }
    w->v = malloc((nt ? nt : 1) * 9 * sizeof *w->v);
    if (!w->v) {
        tess_stl_wall_destroy(w);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the STL wall distances");
    }
    double mean = 0.0, hi[3];
    for (int a = 0; a < 3; a++) {
        w->lo[a] = INFINITY;
        hi[a] = -INFINITY;
    }
    for (size_t t = 0; t < m->ntri; t++) {
        if (m->tag[t] >= 0)
            continue;
        double *v = w->v + 9 * w->ntri++;
        memcpy(v, m->v + 9 * t, 9 * sizeof *v);
        double ext = 0.0;
        for (int a = 0; a < 3; a++) {
            const double l = fmin(v[a], fmin(v[3 + a], v[6 + a])), u = fmax(v[a], fmax(v[3 + a], v[6 + a]));
            w->lo[a] = fmin(w->lo[a], l);
            hi[a] = fmax(hi[a], u);
            ext = fmax(ext, u - l);
        }
        mean += ext;
    }
    if (w->ntri == 0) {
        for (int a = 0; a < 3; a++) {
            w->lo[a] = 0;
            w->n[a] = 1;
        }
        w->h = 1;
    } else {
        /* Cells about the mean triangle extent, at least half a spacing (a link spans at most 3 cells per
         * axis), and no more than MAX_CELLS. */
        w->h = fmax(0.5, mean / (double)w->ntri);
        for (;;) {
            double cells = 1;
            for (int a = 0; a < 3; a++) {
                w->n[a] = (int)fmax(1, ceil((hi[a] - w->lo[a]) / w->h));
                cells *= w->n[a];
            }
            if (cells <= MAX_CELLS)
                break;
            w->h *= 1.5;
        }
    }
    const size_t nc = (size_t)w->n[0] * w->n[1] * w->n[2];
    w->start = calloc(nc + 1, sizeof *w->start);
    if (!w->start) {
        tess_stl_wall_destroy(w);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the STL wall distances");
    }
    /* Two passes over each triangle's box of cells: count, then fill. */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t t = 0; t < w->ntri; t++) {
            const double *v = w->v + 9 * t;
            long c0[3], c1[3];
            for (int a = 0; a < 3; a++) {
                c0[a] = cell_of(w, fmin(v[a], fmin(v[3 + a], v[6 + a])), a);
                c1[a] = cell_of(w, fmax(v[a], fmax(v[3 + a], v[6 + a])), a);
            }
            for (long k = c0[2]; k <= c1[2]; k++)
                for (long j = c0[1]; j <= c1[1]; j++)
                    for (long i = c0[0]; i <= c1[0]; i++) {
                        const size_t c = (size_t)i + (size_t)w->n[0] * ((size_t)j + (size_t)w->n[1] * (size_t)k);
                        if (pass == 0)
                            w->start[c + 1]++;
                        else
                            w->idx[w->start[c]++] = (uint32_t)t;
                    }
        }
        if (pass == 0) {
            for (size_t c = 0; c < nc; c++)
                w->start[c + 1] += w->start[c];
            w->idx = malloc((w->start[nc] ? w->start[nc] : 1) * sizeof *w->idx);
            if (!w->idx) {
                tess_stl_wall_destroy(w);
                return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the STL wall distances");
            }
        } else {
            /* The fill advanced each start to the next cell's start: shift back. */
            for (size_t c = nc; c > 0; c--)
                w->start[c] = w->start[c - 1];
            w->start[0] = 0;
        }
    }
    *out = w;
    return TESS_OK;
}

void tess_stl_wall_destroy(tess_stl_wall_t *w)
{
    if (!w)
        return;
    free(w->v);
    free(w->start);
    free(w->idx);
    free(w);
}

/* Segment-triangle crossing (Moller-Trumbore): the parameter t along x + t c, or -1. Crossings on an edge
 * or corner count (a small tolerance on the barycentric coordinates), so a link through a shared edge is
 * not missed. */
static double segment_hits(const double *v, const double x[3], const double c[3])
{
    const double tol = 1e-12;
    double e1[3], e2[3], p[3], s[3], q[3];
    for (int a = 0; a < 3; a++) {
        e1[a] = v[3 + a] - v[a];
        e2[a] = v[6 + a] - v[a];
        s[a] = x[a] - v[a];
    }
    p[0] = c[1] * e2[2] - c[2] * e2[1];
    p[1] = c[2] * e2[0] - c[0] * e2[2];
    p[2] = c[0] * e2[1] - c[1] * e2[0];
    const double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    const double scale = sqrt((e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]) * (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
    if (!(fabs(det) > 1e-14 * scale)) /* the link runs parallel to the triangle */
        return -1.0;
    const double inv = 1.0 / det;
    const double bu = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) * inv;
    if (bu < -tol || bu > 1 + tol)
        return -1.0;
    q[0] = s[1] * e1[2] - s[2] * e1[1];
    q[1] = s[2] * e1[0] - s[0] * e1[2];
    q[2] = s[0] * e1[1] - s[1] * e1[0];
    const double bv = (c[0] * q[0] + c[1] * q[1] + c[2] * q[2]) * inv;
    if (bv < -tol || bu + bv > 1 + tol)
        return -1.0;
    return (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv;
}

double tess_stl_wall_q(void *ctx, const double x[3], const double c[3])
{
    const tess_stl_wall_t *w = ctx;
    long c0[3], c1[3];
    for (int a = 0; a < 3; a++) {
        const double l = fmin(x[a], x[a] + c[a]), u = fmax(x[a], x[a] + c[a]);
        if (u < w->lo[a] || l > w->lo[a] + w->n[a] * w->h)
            return -1.0; /* the link misses the surface's bounding box */
        c0[a] = cell_of(w, l, a);
        c1[a] = cell_of(w, u, a);
    }
    double best = INFINITY;
    for (long k = c0[2]; k <= c1[2]; k++)
        for (long j = c0[1]; j <= c1[1]; j++)
            for (long i = c0[0]; i <= c1[0]; i++) {
                const size_t cell = (size_t)i + (size_t)w->n[0] * ((size_t)j + (size_t)w->n[1] * (size_t)k);
                for (size_t e = w->start[cell]; e < w->start[cell + 1]; e++) {
                    const double t = segment_hits(w->v + 9 * (size_t)w->idx[e], x, c);
                    if (t > 0.0 && t <= 1.0 && t < best)
                        best = t;
                }
            }
    return best <= 1.0 ? best : -1.0;
}

size_t tess_stl_wall_triangles(const tess_stl_wall_t *w, const double **v)
{
    *v = w->v;
    return w->ntri;
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Squared distance from p to the triangle v (Ericson, Real-Time Collision Detection, 5.1.5: the Voronoi
 * region of p among the corners, edges and face). */
static double point_triangle_d2(const double *v, const double p[3])
{
    const double *a = v, *b = v + 3, *c = v + 6;
    double ab[3], ac[3], ap[3], bp[3], cp[3], q[3];
    for (int k = 0; k < 3; k++) {
        ab[k] = b[k] - a[k];
        ac[k] = c[k] - a[k];
        ap[k] = p[k] - a[k];
        bp[k] = p[k] - b[k];
        cp[k] = p[k] - c[k];
    }
    const double d1 = dot3(ab, ap), d2 = dot3(ac, ap), d3 = dot3(ab, bp), d4 = dot3(ac, bp), d5 = dot3(ab, cp),
                 d6 = dot3(ac, cp);
    const double vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
    double s = 0.0, t = 0.0; /* q = a + s ab + t ac */
    if (d1 <= 0 && d2 <= 0) {
    } else if (d3 >= 0 && d4 <= d3) {
        s = 1;
    } else if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        s = d1 / (d1 - d3);
    } else if (d6 >= 0 && d5 <= d6) {
        t = 1;
    } else if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        t = d2 / (d2 - d6);
    } else if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        s = 1 - w;
        t = w;
    } else {
        const double den = 1.0 / (va + vb + vc);
        s = vb * den;
        t = vc * den;
    }
    for (int k = 0; k < 3; k++)
        q[k] = a[k] + s * ab[k] + t * ac[k] - p[k];
    return dot3(q, q);
}

long tess_stl_wall_nearest(const tess_stl_wall_t *w, const double x[3], double *d2, double n[3])
{
    if (w->ntri == 0)
        return -1;
    long c[3];
    for (int a = 0; a < 3; a++)
        c[a] = cell_of(w, x[a], a);
    long kmax = w->n[0];
    if (w->n[1] > kmax)
        kmax = w->n[1];
    if (w->n[2] > kmax)
        kmax = w->n[2];
    long best = -1;
    double bd = INFINITY;
    /* A triangle within distance k h of x overlaps a cell at most k cells from x's (x inside the grid), so the
     * search may stop at shell k once the nearest found is that close; points outside the grid search on. */
    for (long k = 0; k <= kmax; k++) {
        for (long dk = -k; dk <= k; dk++)
            for (long dj = -k; dj <= k; dj++)
                for (long di = -k; di <= k; di++) {
                    if (labs(di) != k && labs(dj) != k && labs(dk) != k)
                        continue; /* inner cells were searched in earlier shells */
                    const long i = c[0] + di, j = c[1] + dj, l = c[2] + dk;
                    if (i < 0 || j < 0 || l < 0 || i >= w->n[0] || j >= w->n[1] || l >= w->n[2])
                        continue;
                    const size_t cell = (size_t)i + (size_t)w->n[0] * ((size_t)j + (size_t)w->n[1] * (size_t)l);
                    for (size_t e = w->start[cell]; e < w->start[cell + 1]; e++) {
                        const double d = point_triangle_d2(w->v + 9 * (size_t)w->idx[e], x);
                        if (d < bd) {
                            bd = d;
                            best = (long)w->idx[e];
                        }
                    }
                }
        int inside = 1;
        for (int a = 0; a < 3; a++)
            inside &= x[a] >= w->lo[a] && x[a] <= w->lo[a] + w->n[a] * w->h;
        if (best >= 0 && inside && bd <= (double)(k * k) * w->h * w->h)
            break;
    }
    const double *v = w->v + 9 * (size_t)best;
    double e1[3], e2[3];
    for (int a = 0; a < 3; a++) {
        e1[a] = v[3 + a] - v[a];
        e2[a] = v[6 + a] - v[a];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    const double len = sqrt(dot3(n, n));
    for (int a = 0; a < 3; a++)
        n[a] = len > 0 ? n[a] / len : 0.0;
    *d2 = bd;
    return best;
}
