/* Openings of a surface (the open ends of a vessel): closed loops of boundary edges, capped so that the
 * surface encloses a volume.
 *
 * Corners are matched by exact coordinates. An edge used by one triangle is a boundary edge, by two an
 * interior edge, by three or more an error (non-manifold). Every corner on the boundary must have exactly
 * two boundary edges, so the boundary edges chain into simple closed loops; each loop is an opening. Its
 * cap is a fan of triangles from the loop's corner average to each boundary edge. The openings are
 * numbered in the order of their centroids (x, then y, then z, in the coordinates of the mesh as given, so
 * before any case-file transform): opening0, opening1, ... */
#ifndef TESS_STL_OPENINGS_H
#define TESS_STL_OPENINGS_H

#include "tess_error.h"
#include "tess_stl.h"

/* A loop whose vector area is below this fraction of its fan's unsigned area is refused: it runs back over
 * itself (a seam that does not close) and has no plane to cap. */
#define TESS_STL_OPENING_MIN_FLAT 0.01

typedef struct {
    double centroid[3]; /* area-weighted centroid of the cap */
    double normal[3];   /* unit normal of the cap (its vector area), pointing out of the enclosed volume */
    double area;        /* |vector area| of the cap (its area when the loop is plane) */
    double fan_area;    /* sum of the fan triangles' unsigned areas (>= area) */
    double radius;      /* mean distance of the loop's corners from the centroid */
    double rmax;        /* largest distance of a loop corner from the centroid */
    double fan[3];      /* the cap's fan centre: the average of the loop's corners */
    int nedges;         /* boundary edges in the loop */
} tess_stl_opening_t;

/* Finds the openings of m (all triangles tagged -1), appends their caps (tagged with the opening index),
 * and returns the openings in *out (malloc'd, NULL when none) and their number in *n. The outward
 * direction of each normal is found by testing which side of the cap lies inside the capped surface.
 * Errors (TESS_ERR_INPUT) start with `file` and name the coordinates of the offending edge or corner. */
tess_status tess_stl_openings(tess_stl_mesh_t *m, const char *file, tess_stl_opening_t **out, int *n,
                              tess_error_t *err);

/* Moves an opening with the mesh: points by t, the normal by the rotation, lengths by the scale. */
void tess_stl_opening_transform(tess_stl_opening_t *o, const tess_stl_transform_t *t);

#endif
