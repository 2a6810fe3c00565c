/* A uniform cell grid over the centres of equal spheres (a random bed, tess_shapes.h), so that a curved-wall
 * link (tess_wall_q.h) tests the few spheres near its node instead of all of them: O(1) per link. */
#ifndef TESS_SPHERE_GRID_H
#define TESS_SPHERE_GRID_H

#include "tess_error.h"
#include "tess_shapes.h"
#include <stdint.h>

/* Cell edge h >= r + 2: a link x + t c with t in (0, 1] and |c| <= sqrt 3 can only enter a sphere whose centre
 * lies within r + sqrt 3 < h of x along every axis, so the 3 x 3 x 3 cells around x's cell hold them all. */
#define TESS_SPHERE_GRID_REACH 2.0

typedef struct {
    double origin[3];     /* the smallest centre coordinates: corner of cell (0, 0, 0) */
    double h, inv_h;      /* cell edge, at least r + TESS_SPHERE_GRID_REACH, and 1 / h */
    int nc[3];            /* cells along x, y, z */
    int64_t *start;       /* nc[0] nc[1] nc[2] + 1: cell k holds sphere[start[k] .. start[k + 1]) */
    tess_shape_t *sphere; /* the spheres sorted by cell, x fastest (TESS_SHAPE_SPHERE, radius r) */
    int64_t n;
} tess_sphere_grid_t;

/* Sorts the n spheres of radius r centred at centre[3 i .. 3 i + 2] into cells. Errors: TESS_ERR_NOMEM. */
tess_status tess_sphere_grid_build(tess_sphere_grid_t *g, const double *centre, int64_t n, double r,
                                   tess_error_t *err);
void tess_sphere_grid_free(tess_sphere_grid_t *g);

/* Index ranges [range[j][0], range[j][1]) of g->sphere, j < the returned count (at most 9, one per row of
 * three cells), holding every sphere whose centre lies within h of x along every axis (and some farther). */
int tess_sphere_grid_near(const tess_sphere_grid_t *g, const double x[3], int64_t range[9][2]);

#endif
