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

/* The spheres one random bed placed (tess_random_spheres): n centres of radius r in lattice coordinates, kept
 * so that curved-wall links can find the exact surface (tess_wall_q.h). */
typedef struct {
    double r;
    double *centre; /* x, y, z of sphere i at 3 i .. 3 i + 2; malloc'd, tess_sphere_bed_free */
    long n;
} tess_sphere_bed_t;

void tess_sphere_bed_free(tess_sphere_bed_t *b);

/* Randomly placed solid spheres (value 0), overlaps allowed, added one at a time until the fraction of
 * non-solid nodes in the region [lo, hi] (node indices, inclusive) is at most `porosity`. Centres are
 * uniform in the region; the generator is a fixed 64-bit one (splitmix64), so a seed gives the same
 * geometry on every machine. The spheres are carved in the region only. Fills *bed with every sphere placed
 * (the caller frees it) and returns the porosity reached, or -1 when the centres found no memory (*bed then
 * holds none; the nodes are carved all the same). */
double tess_random_spheres(tess_geometry_t *g, double diameter, double porosity, uint64_t seed, const int lo[3],
                           const int hi[3], tess_sphere_bed_t *bed);

#endif
