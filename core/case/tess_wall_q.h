/* Wall distances of the case's shapes for curved-wall (Bouzidi) links: the `wall_q` callback of the link table
 * (core/tess_links.h). A link runs from a node point x along a lattice vector c; q in (0, 1] is the fraction of
 * the link at which it first enters a wall-making shape of the case (solid.NAME or wall.NAME sphere, cylinder
 * or box; see docs/case-format.md), one of its STL surfaces or a sphere of a [spheres.NAME] bed, and -1 means
 * that the link meets no such surface: the backend then uses plain halfway bounce-back (domain faces, voxel
 * files). */
#ifndef TESS_WALL_Q_H
#define TESS_WALL_Q_H

#include "tess_shapes.h"

/* Entry parameter t in (0, 1] of the segment x + t c into one shape, or -1 when the segment does not enter it
 * (misses it, starts inside or on it, or reaches it only beyond t = 1). The surface counts as inside, like
 * tess_shape_contains; a crossing within 1e-12 beyond t = 1 (a node exactly on the surface) gives 1. */
double tess_wall_q_shape(const tess_shape_t *s, const double x[3], const double c[3]);

/* The callback: ctx is a const tess_case_t *. The smallest entry parameter over the case's remembered shapes,
 * its STL surfaces (tess_case_stl_wall_q) and the spheres of its beds (through their cell grids,
 * tess_sphere_grid.h, at a cost independent of the number of spheres); along a periodic axis the shapes repeat
 * with the box length (images at -n and +n count too). */
double tess_wall_q_case(void *ctx, const double x[3], const double c[3]);

#endif
