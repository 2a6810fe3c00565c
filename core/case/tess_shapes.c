#include "tess_shapes.h"
#include <math.h>
#include <stdlib.h>

int tess_shape_contains(const tess_shape_t *s, double x, double y, double z)
{
    const double p[3] = {x, y, z};
    switch (s->kind) {
    case TESS_SHAPE_BOX:
        for (int k = 0; k < 3; k++)
            if (p[k] < s->a[k] || p[k] > s->b[k])
                return 0;
        return 1;
    case TESS_SHAPE_SPHERE: {
        double d2 = 0.0;
        for (int k = 0; k < 3; k++)
            d2 += (p[k] - s->a[k]) * (p[k] - s->a[k]);
        return d2 <= s->r * s->r;
    }
    case TESS_SHAPE_CYLINDER: {
        /* Projection onto the axis must fall between the end points, the distance to the axis within r. */
        double ax[3], d[3], len2 = 0.0, t = 0.0;
        for (int k = 0; k < 3; k++) {
            ax[k] = s->b[k] - s->a[k];
            d[k] = p[k] - s->a[k];
            len2 += ax[k] * ax[k];
            t += d[k] * ax[k];
        }
        if (len2 <= 0.0 || t < 0.0 || t > len2)
            return 0;
        double r2 = 0.0;
        for (int k = 0; k < 3; k++) {
            const double q = d[k] - ax[k] * t / len2;
            r2 += q * q;
        }
        return r2 <= s->r * s->r;
    }
    }
    return 0;
}

/* Node index range [lo, hi] that can hold points of the shape, clipped to the grid. */
static void node_bounds(const tess_shape_t *s, const tess_geometry_t *g, int lo[3], int hi[3])
{
    const int n[3] = {g->nx, g->ny, g->nz};
    for (int k = 0; k < 3; k++) {
        double a, b;
        if (s->kind == TESS_SHAPE_BOX) {
            a = s->a[k];
            b = s->b[k];
        } else if (s->kind == TESS_SHAPE_SPHERE) {
            a = s->a[k] - s->r;
            b = s->a[k] + s->r;
        } else {
            a = fmin(s->a[k], s->b[k]) - s->r;
            b = fmax(s->a[k], s->b[k]) + s->r;
        }
        const double fa = ceil(a), fb = floor(b);
        lo[k] = fa < 0 ? 0 : (fa > n[k] ? n[k] : (int)fa);
        hi[k] = fb >= n[k] ? n[k] - 1 : (fb < -1 ? -1 : (int)fb);
    }
}

long tess_shape_paint(const tess_shape_t *s, tess_geometry_t *g, uint8_t value)
{
    int lo[3], hi[3];
    node_bounds(s, g, lo, hi);
    long count = 0;
    for (int z = lo[2]; z <= hi[2]; z++)
        for (int y = lo[1]; y <= hi[1]; y++)
            for (int x = lo[0]; x <= hi[0]; x++)
                if (tess_shape_contains(s, x, y, z)) {
                    g->type[tess_geometry_index(g, x, y, z)] = value;
                    count++;
                }
    return count;
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1) from the top 53 bits. */
static double uniform(uint64_t *state)
{
    return (double)(splitmix64(state) >> 11) * 0x1.0p-53;
}

void tess_sphere_bed_free(tess_sphere_bed_t *b)
{
    free(b->centre);
    b->centre = NULL;
    b->n = 0;
}

double tess_random_spheres(tess_geometry_t *g, double diameter, double porosity, uint64_t seed, const int lo[3],
                           const int hi[3], tess_sphere_bed_t *bed)
{
    long total = 1, open = 0;
    for (int k = 0; k < 3; k++)
        total *= hi[k] - lo[k] + 1;
    /* The loops over nodes are threaded (a billion-node bed took minutes on one core): every node is counted or
     * cleared by one thread, and the spheres still go in one after another, so the bed is the same. */
#pragma omp parallel for schedule(static) reduction(+ : open)
    for (int z = lo[2]; z <= hi[2]; z++)
        for (int y = lo[1]; y <= hi[1]; y++)
            for (int x = lo[0]; x <= hi[0]; x++)
                open += g->type[tess_geometry_index(g, x, y, z)] != 0;
    uint64_t state = seed;
    const double r = 0.5 * diameter, r2 = r * r;
    bed->r = r;
    bed->centre = NULL;
    bed->n = 0;
    long cap = 0;
    int nomem = 0;
    while ((double)open > porosity * (double)total && open > 0) {
        double c[3];
        for (int k = 0; k < 3; k++)
            c[k] = lo[k] + uniform(&state) * (hi[k] - lo[k] + 1);
        int a[3], b[3];
        for (int k = 0; k < 3; k++) {
            a[k] = (int)fmax(lo[k], ceil(c[k] - r));
            b[k] = (int)fmin(hi[k], floor(c[k] + r));
        }
        long cleared = 0;
#pragma omp parallel for schedule(static) reduction(+ : cleared)
        for (int z = a[2]; z <= b[2]; z++)
            for (int y = a[1]; y <= b[1]; y++)
                for (int x = a[0]; x <= b[0]; x++) {
                    const double d2 = (x - c[0]) * (x - c[0]) + (y - c[1]) * (y - c[1]) + (z - c[2]) * (z - c[2]);
                    uint8_t *t = &g->type[tess_geometry_index(g, x, y, z)];
                    if (d2 <= r2 && *t != 0) {
                        *t = 0;
                        cleared++;
                    }
                }
        open -= cleared;
        if (bed->n == cap && !nomem) {
            cap = cap ? 2 * cap : 64;
            double *grown = realloc(bed->centre, 3 * (size_t)cap * sizeof *grown);
            if (grown)
                bed->centre = grown;
            else
                nomem = 1;
        }
        if (!nomem) {
            for (int k = 0; k < 3; k++)
                bed->centre[3 * bed->n + k] = c[k];
            bed->n++;
        }
    }
    if (nomem) {
        tess_sphere_bed_free(bed);
        return -1.0;
    }
    return (double)open / (double)total;
}
