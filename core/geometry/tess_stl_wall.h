/* Link distances to an STL surface: the wall_q callback of the link table (curved-wall boundaries).
 *
 * q is the fraction of the link x -> x + c at which it first crosses the surface, in (0, 1], or -1 when the
 * link does not cross it. Only the triangles from the file count (tag -1): the caps of openings are not
 * walls. The triangles are binned in a uniform grid of cubic cells (at least half a lattice spacing, about
 * the mean triangle size), so a query tests the few triangles in the cells around the link. */
#ifndef TESS_STL_WALL_H
#define TESS_STL_WALL_H

#include "tess_error.h"
#include "tess_stl.h"

typedef struct tess_stl_wall tess_stl_wall_t;

/* Copies the surface triangles of m (in lattice coordinates) and bins them. */
tess_status tess_stl_wall_create(const tess_stl_mesh_t *m, tess_stl_wall_t **out, tess_error_t *err);
void tess_stl_wall_destroy(tess_stl_wall_t *w);

/* ctx is a tess_stl_wall_t. Thread-safe (reads only). */
double tess_stl_wall_q(void *ctx, const double x[3], const double c[3]);

/* The surface triangles in lattice coordinates (9 doubles each: three corners); returns how many. */
size_t tess_stl_wall_triangles(const tess_stl_wall_t *w, const double **v);

/* The surface triangle nearest to point x (searching the cells in growing shells until the nearest found lies
 * within the searched block): its index, the squared distance in *d2 and its unit normal in n (the corners'
 * winding order; the caller orients it). -1 when the surface has no triangle. */
long tess_stl_wall_nearest(const tess_stl_wall_t *w, const double x[3], double *d2, double n[3]);

#endif
