/* The wall shear stress on an STL surface (docs/outputs.md, "wss_<step>.vtp"): VTK XML PolyData with the
 * surface's triangles and, per triangle (cell data), the WSS of the WSS node (tess_wss.h) nearest to the
 * triangle's centre within 3 nodes, its magnitude, and the triangle's unit normal turned to point into the
 * fluid (to agree with that node's wall normal). Triangles with no WSS node that near get 0 and matched = 0. */
#ifndef TESS_WSS_SURFACE_H
#define TESS_WSS_SURFACE_H

#include "tess_geometry.h"
#include "tess_wss.h"

typedef struct {
    long ntri;
    double *v;        /* 9 per triangle: corners in lattice coordinates (owned) */
    double *normal;   /* 3 per triangle */
    int64_t *node;    /* per triangle: WSS node index, -1 none */
} tess_wss_surface_t;

/* Takes ownership of v (ntri triangles, malloc'd). */
tess_status tess_wss_surface_create(tess_wss_surface_t *s, double *v, long ntri, const tess_wss_t *w,
                                    const tess_geometry_t *g, tess_error_t *err);
void tess_wss_surface_free(tess_wss_surface_t *s);

/* Writes the surface atomically with the WSS vectors wss (3 per WSS node, tess_wss_compute); points are placed
 * at origin + spacing * (lattice coordinates), as the .vti files place the nodes. */
tess_status tess_wss_surface_write(const tess_wss_surface_t *s, const char *path, const double *wss, double spacing,
                                   const double origin[3], tess_error_t *err);

#endif
