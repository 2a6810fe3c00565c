#include "tess_sphere_grid.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Cell of coordinate v along axis k (a product, not a quotient: a query looks up 9 periodic images); the
 * largest centre falls in cell nc - 1 by the choice of nc. */
static double cell_floor(const tess_sphere_grid_t *g, int k, double v)
{
    return floor((v - g->origin[k]) * g->inv_h);
}

static int cell_of(const tess_sphere_grid_t *g, int k, double v)
{
    const double f = cell_floor(g, k, v);
    return f < 0 ? 0 : f > g->nc[k] - 1 ? g->nc[k] - 1 : (int)f;
}

void tess_sphere_grid_free(tess_sphere_grid_t *g)
{
    free(g->start);
    free(g->sphere);
    memset(g, 0, sizeof *g);
}

tess_status tess_sphere_grid_build(tess_sphere_grid_t *g, const double *centre, int64_t n, double r,
                                   tess_error_t *err)
{
    memset(g, 0, sizeof *g);
    double hi[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        g->origin[k] = n > 0 ? centre[k] : 0.0;
        hi[k] = g->origin[k];
    }
    for (int64_t i = 1; i < n; i++)
        for (int k = 0; k < 3; k++) {
            g->origin[k] = fmin(g->origin[k], centre[3 * i + k]);
            hi[k] = fmax(hi[k], centre[3 * i + k]);
        }
    /* The smallest edge that keeps the 27-cell search complete, grown while the cells outnumber the spheres
     * by far (tiny spheres in a large box), so that memory stays O(n). */
    g->h = r + TESS_SPHERE_GRID_REACH;
    const double most = fmax(64.0, 8.0 * (double)n);
    for (;;) {
        g->inv_h = 1.0 / g->h;
        double cells = 1.0;
        for (int k = 0; k < 3; k++)
            cells *= cell_floor(g, k, hi[k]) + 1.0;
        if (cells <= most)
            break;
        g->h *= 1.25;
    }
    for (int k = 0; k < 3; k++)
        g->nc[k] = (int)cell_floor(g, k, hi[k]) + 1;
    const size_t ncell = (size_t)g->nc[0] * g->nc[1] * g->nc[2];
    g->start = calloc(ncell + 1, sizeof *g->start);
    g->sphere = malloc((n > 0 ? (size_t)n : 1) * sizeof *g->sphere);
    int64_t *cell = malloc((n > 0 ? (size_t)n : 1) * sizeof *cell);
    if (!g->start || !g->sphere || !cell) {
        free(cell);
        tess_sphere_grid_free(g);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the cell grid of %lld spheres", (long long)n);
    }
    /* Counting sort by cell: start[k + 1] counts cell k, the prefix sums give each cell's first slot. */
    for (int64_t i = 0; i < n; i++) {
        const double *p = centre + 3 * i;
        cell[i] = cell_of(g, 0, p[0]) +
                  (int64_t)g->nc[0] * (cell_of(g, 1, p[1]) + (int64_t)g->nc[1] * cell_of(g, 2, p[2]));
        g->start[cell[i] + 1]++;
    }
    for (size_t k = 0; k < ncell; k++)
        g->start[k + 1] += g->start[k];
    for (int64_t i = 0; i < n; i++) {
        tess_shape_t *s = &g->sphere[g->start[cell[i]]++];
        memset(s, 0, sizeof *s);
        s->kind = TESS_SHAPE_SPHERE;
        memcpy(s->a, centre + 3 * i, sizeof s->a);
        s->r = r;
    }
    /* The placement advanced every start[k] to its cell's end: shift back by one cell. */
    memmove(g->start + 1, g->start, ncell * sizeof *g->start);
    g->start[0] = 0;
    free(cell);
    g->n = n;
    return TESS_OK;
}

int tess_sphere_grid_near(const tess_sphere_grid_t *g, const double x[3], int64_t range[9][2])
{
    if (g->n == 0)
        return 0;
    int lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        const double f = cell_floor(g, k, x[k]);
        if (f + 1 < 0 || f - 1 > g->nc[k] - 1)
            return 0; /* a periodic image far outside the bed */
        lo[k] = f - 1 < 0 ? 0 : (int)f - 1;
        hi[k] = f + 1 > g->nc[k] - 1 ? g->nc[k] - 1 : (int)f + 1;
    }
    int m = 0;
    for (int z = lo[2]; z <= hi[2]; z++)
        for (int y = lo[1]; y <= hi[1]; y++) {
            const int64_t row = (int64_t)g->nc[0] * (y + (int64_t)g->nc[1] * z);
            const int64_t a = g->start[row + lo[0]], b = g->start[row + hi[0] + 1];
            if (b > a) {
                range[m][0] = a;
                range[m][1] = b;
                m++;
            }
        }
    return m;
}
