/* Inside/outside of the lattice nodes for a closed triangle surface, by ray parity along x.
 *
 * Node (i, j, k) sits at the point (i, j, k) (the mesh is already in lattice coordinates). For each line
 * (j, k) the crossings of the line with the triangles are collected; a node is inside when an odd number of
 * crossings lie at or before it. Lines through edges and corners, and nodes on the surface, are decided as if
 * the node were moved by (d, e, e^2) with 0 < e^2 << e << d infinitesimal (a symbolic perturbation):
 *  - the 2D test "does line (j, k) cross triangle T" is exact: corners are rounded to multiples of 2^-24
 *    (lattice units; shared corners round alike, so the surface stays closed) and the side of each edge is
 *    computed in 128-bit integers, an exact zero being replaced by the sign of the perturbation. A line
 *    through an edge or a corner therefore crosses exactly the triangles that the moved line crosses;
 *  - a crossing at exactly the node's x counts as before the node.
 * So no line leaks through an edge or corner, the result does not depend on the triangle order, and a box
 * whose faces lie on nodes covers the nodes of the half-open box [min, max) on every axis. */
#ifndef TESS_VOXELIZE_H
#define TESS_VOXELIZE_H

#include "tess_error.h"
#include "tess_stl.h"
#include <stdint.h>

/* inside[x + nx (y + ny z)] = 1 for nodes inside the mesh, 0 otherwise; *count = number inside. A line
 * that crosses the surface an odd number of times (the surface is not closed) is an error naming the line. */
tess_status tess_voxelize(const tess_stl_mesh_t *m, int nx, int ny, int nz, uint8_t *inside, long *count,
                          tess_error_t *err);

/* Corners must lie within +-2^28 lattice units (TESS_ERR_INPUT otherwise). */

/* The same rule for one point (any coordinates): 1 inside, 0 outside. Loops over all triangles. */
int tess_voxelize_contains(const tess_stl_mesh_t *m, const double p[3]);

#endif
