/* Triangle surfaces from STL files (ASCII or binary) and the similarity transform of the case file.
 * The facet normals and the vertex order of an STL file are not used: inside and outside come from ray
 * parity (tess_voxelize.h), the orientation of openings from an inside test (tess_stl_openings.h), so
 * meshes with inconsistent winding or missing normals work. Corners shared by triangles must be written
 * with the same coordinates (every STL writer does this); they are matched exactly, without a tolerance. */
#ifndef TESS_STL_H
#define TESS_STL_H

#include "tess_error.h"
#include <stddef.h>
#include <stdint.h>

typedef struct {
    size_t ntri;
    double *v;    /* 9 doubles a triangle: x, y, z of its three corners */
    int32_t *tag; /* per triangle: -1 the surface from the file, k >= 0 the cap of opening k */
    size_t cap;   /* allocated triangles */
} tess_stl_mesh_t;

/* Scale, then rotate, then translate: p' = R (scale p) + translate, with R = Rz(rz) Ry(ry) Rx(rx): the
 * rotation about x is applied first, then the one about y, then the one about z (fixed axes, angles in
 * degrees, right-handed). */
typedef struct {
    double scale;
    double rotate[3];
    double translate[3];
} tess_stl_transform_t;

/* Reads an STL file. Binary when the file is exactly 84 + 50 n bytes long, n being the count in bytes
 * 80..83 (a binary header may begin with "solid"); ASCII otherwise. Errors (TESS_ERR_INPUT) name the file,
 * the line (ASCII) or the triangle (binary) and what was expected. */
tess_status tess_stl_read(const char *path, tess_stl_mesh_t *m, tess_error_t *err);
void tess_stl_free(tess_stl_mesh_t *m);

/* Appends a triangle (tag -1 for surface); returns 0, or -1 when out of memory. */
int tess_stl_add(tess_stl_mesh_t *m, const double a[3], const double b[3], const double c[3], int32_t tag);

void tess_stl_transform_identity(tess_stl_transform_t *t);
/* The rotation matrix of t (row-major). */
void tess_stl_rotation(const tess_stl_transform_t *t, double r[3][3]);
void tess_stl_transform_point(const tess_stl_transform_t *t, const double p[3], double out[3]);
/* Rotation only (directions such as normals; scale > 0 keeps them pointing the same way). */
void tess_stl_transform_direction(const tess_stl_transform_t *t, const double d[3], double out[3]);
void tess_stl_mesh_transform(tess_stl_mesh_t *m, const tess_stl_transform_t *t);

/* Volume enclosed by a closed, consistently oriented mesh (divergence theorem); negative when the
 * triangles wind clockwise seen from outside. */
double tess_stl_signed_volume(const tess_stl_mesh_t *m);
/* Bounding box of all triangles. */
void tess_stl_bounds(const tess_stl_mesh_t *m, double lo[3], double hi[3]);

#endif
