/* Geometry primitives of the case file, in lattice coordinates: node (x, y, z) sits at the point (x, y, z),
 * and a shape covers the nodes it contains (boundaries included). */
#ifndef TESS_SHAPES_H
#define TESS_SHAPES_H

#include "tess_geometry.h"
#include <stdint.h>

typedef enum { TESS_SHAPE_BOX = 0, TESS_SHAPE_SPHERE = 1, TESS_SHAPE_CYLINDER = 2 } tess_shape_kind;

typedef struct {
    tess_shape_kind kind;
    double a[3]; /* box: min corner; sphere: centre; cylinder: first end point */
    double b[3]; /* box: max corner; cylinder: second end point */
    double r;    /* sphere and cylinder radius */
} tess_shape_t;

int tess_shape_contains(const tess_shape_t *s, double x, double y, double z);
/* Sets every node of the grid inside the shape to `value`; returns how many nodes it set. */
long tess_shape_paint(const tess_shape_t *s, tess_geometry_t *g, uint8_t value);

/* Randomly placed solid spheres (value 0), overlaps allowed, added one at a time until the fraction of
 * non-solid nodes in the region [lo, hi] (node indices, inclusive) is at most `porosity`. Centres are
 * uniform in the region; the generator is a fixed 64-bit one (splitmix64), so a seed gives the same
 * geometry on every machine. Returns the porosity reached and the number of spheres in *count. */
double tess_random_spheres(tess_geometry_t *g, double diameter, double porosity, uint64_t seed, const int lo[3],
                           const int hi[3], long *count);

#endif
