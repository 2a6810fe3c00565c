#include "tess_wall_q.h"
#include "tess_case.h"
#include "tess_case_stl.h"
#include "tess_sphere_grid.h"
#include <math.h>

/* A crossing this far beyond the end of the link still counts: a node exactly on the surface is inside
 * (tess_shape_contains), so its link must hit at q = 1 whatever the rounding. */
#define TESS_WALL_Q_SLACK 1e-12

/* Clips the parameter interval [*t0, *t1] to where lo <= p + t d <= hi (one slab). */
static void clip_slab(double p, double d, double lo, double hi, double *t0, double *t1)
{
    if (d == 0.0) {
        if (p < lo || p > hi)
            *t0 = INFINITY; /* parallel and outside: empty */
        return;
    }
    double a = (lo - p) / d, b = (hi - p) / d;
    if (a > b) {
        const double s = a;
        a = b;
        b = s;
    }
    if (a > *t0)
        *t0 = a;
    if (b < *t1)
        *t1 = b;
}

/* Clips [*t0, *t1] to where |o + t d|^2 <= r^2 (o, d: components normal to a cylinder axis, or the offset from a
 * sphere's centre). The entry root is taken as C / (-b + sqrt(disc)), which does not cancel when the link heads
 * for the surface (b < 0). */
static void clip_ball(const double o[3], const double d[3], double r, double *t0, double *t1)
{
    double A = 0.0, b = 0.0, C = -r * r;
    for (int k = 0; k < 3; k++) {
        A += d[k] * d[k];
        b += o[k] * d[k];
        C += o[k] * o[k];
    }
    if (A == 0.0) { /* the segment runs parallel to a cylinder axis: inside all along or never */
        if (C > 0.0)
            *t0 = INFINITY;
        return;
    }
    const double disc = b * b - A * C;
    if (disc < 0.0) {
        *t0 = INFINITY;
        return;
    }
    const double s = sqrt(disc);
    double enter, leave;
    if (b < 0.0) {
        enter = C / (-b + s);
        leave = (-b + s) / A;
    } else {
        enter = (-b - s) / A;
        leave = b + s > 0.0 ? -C / (b + s) : (-b + s) / A;
    }
    if (enter > *t0)
        *t0 = enter;
    if (leave < *t1)
        *t1 = leave;
}

double tess_wall_q_shape(const tess_shape_t *s, const double x[3], const double c[3])
{
    double t0 = -INFINITY, t1 = INFINITY;
    switch (s->kind) {
    case TESS_SHAPE_BOX:
        for (int k = 0; k < 3; k++)
            clip_slab(x[k], c[k], s->a[k], s->b[k], &t0, &t1);
        break;
    case TESS_SHAPE_SPHERE: {
        const double o[3] = {x[0] - s->a[0], x[1] - s->a[1], x[2] - s->a[2]};
        clip_ball(o, c, s->r, &t0, &t1);
        break;
    }
    case TESS_SHAPE_CYLINDER: {
        /* Axial slab 0 <= (p - a).e <= L with e the unit axis, and the disc of radius r normal to it. */
        double e[3], len = 0.0;
        for (int k = 0; k < 3; k++) {
            e[k] = s->b[k] - s->a[k];
            len += e[k] * e[k];
        }
        if (len <= 0.0)
            return -1.0;
        len = sqrt(len);
        double pa = 0.0, da = 0.0;
        for (int k = 0; k < 3; k++) {
            e[k] /= len;
            pa += (x[k] - s->a[k]) * e[k];
            da += c[k] * e[k];
        }
        clip_slab(pa, da, 0.0, len, &t0, &t1);
        double o[3], d[3];
        for (int k = 0; k < 3; k++) {
            o[k] = x[k] - s->a[k] - pa * e[k];
            d[k] = c[k] - da * e[k];
        }
        clip_ball(o, d, s->r, &t0, &t1);
        break;
    }
    }
    if (!(t0 <= t1) || t0 <= 0.0 || t0 > 1.0 + TESS_WALL_Q_SLACK)
        return -1.0;
    return t0 > 1.0 ? 1.0 : t0;
}

/* The first entry into a bed's spheres: only those in the 27 cells around x can be met (tess_sphere_grid.h). */
static double bed_wall_q(const tess_sphere_grid_t *grid, const double x[3], const double c[3])
{
    int64_t range[9][2];
    const int nr = tess_sphere_grid_near(grid, x, range);
    double best = -1.0;
    for (int j = 0; j < nr; j++)
        for (int64_t i = range[j][0]; i < range[j][1]; i++) {
            /* A centre farther than r + 2 > r + |c| (|c| <= sqrt 3) from x cannot be reached: skip the root. */
            const double *o = grid->sphere[i].a, reach = grid->sphere[i].r + TESS_SPHERE_GRID_REACH;
            double d2 = 0.0;
            for (int k = 0; k < 3; k++)
                d2 += (x[k] - o[k]) * (x[k] - o[k]);
            if (d2 > reach * reach)
                continue;
            const double q = tess_wall_q_shape(&grid->sphere[i], x, c);
            if (q > 0.0 && (best < 0.0 || q < best))
                best = q;
        }
    return best;
}

double tess_wall_q_case(void *ctx, const double x[3], const double c[3])
{
    const tess_case_t *cs = ctx;
    const tess_geometry_t *g = &cs->geometry;
    const int n[3] = {g->nx, g->ny, g->nz};
    /* Along a periodic axis the shapes repeat with the box length: a shape sticking out through one face (or a
     * link leaving through it) is met by the link shifted by -n, 0 or +n. */
    double best = -1.0;
    for (int m = 0; m < 27; m++) {
        const int sh[3] = {m % 3 - 1, m / 3 % 3 - 1, m / 9 - 1};
        double y[3];
        int skip = 0;
        for (int k = 0; k < 3; k++) {
            skip |= sh[k] != 0 && !g->periodic[k];
            y[k] = x[k] + sh[k] * n[k];
        }
        if (skip)
            continue;
        for (int i = 0; i <= cs->nshapes + cs->nbeds; i++) {
            /* the primitives, the STL surfaces of the case (core/case/tess_case_stl.h), then the sphere beds */
            const double q = i < cs->nshapes    ? tess_wall_q_shape(&cs->shapes[i].shape, y, c)
                             : i == cs->nshapes ? tess_case_stl_wall_q(cs->stl, y, c)
                                                : bed_wall_q(&cs->beds[i - cs->nshapes - 1].grid, y, c);
            if (q > 0.0 && (best < 0.0 || q < best))
                best = q;
        }
    }
    return best;
}
