/* Test surfaces the project generates itself (tess_stl_gen writes them to cases/stl/) and an STL writer.
 * All in the file's own units; the case file scales them to lattice units. */
#ifndef TESS_STL_SHAPES_H
#define TESS_STL_SHAPES_H

#include "tess_error.h"
#include "tess_stl.h"

/* Unit sphere at the origin: the icosahedron subdivided `level` times (20 * 4^level triangles), corners
 * projected onto the sphere, wound counter-clockwise seen from outside. */
int tess_shape_icosphere(tess_stl_mesh_t *m, int level);

/* Bent tube of radius r, open at both ends: a straight pipe along +x from the origin, length len, in
 * nstraight segments, then a 90-degree bend of centreline radius rb about the axis through (len, rb, 0)
 * parallel to z, in nbend segments, ending at (len + rb, rb, 0) heading +y. Cross-sections are regular
 * polygons of `around` corners. Openings: at the origin (outward normal -x) and at the end (+y). */
int tess_shape_bent_tube(tess_stl_mesh_t *m, double r, double len, double rb, int around, int nstraight, int nbend);

/* Writes the triangles as float32 (binary, with `header` as the 80-byte header) or ASCII (%.9g of the
 * float32 values, so both files hold the same numbers to float precision), through a temporary file. */
tess_status tess_stl_write(const char *path, const tess_stl_mesh_t *m, int binary, const char *header,
                           tess_error_t *err);

#endif
