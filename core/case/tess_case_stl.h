/* The STL parts of a case file (docs/case-format.md, "STL surfaces"): [stl.NAME] sections that read a surface,
 * place it in the lattice, cap its openings and voxelize it into the node types, and inlet/outlet sections
 * that sit on an opening (`opening = NAME.opening0`). Internal to core/case. */
#ifndef TESS_CASE_STL_H
#define TESS_CASE_STL_H

#include "tess_case_entries.h"
#include "tess_geometry.h"
#include "tess_params.h"

typedef struct tess_case_stl tess_case_stl_t; /* the case's STL sections, in order */

/* [stl.NAME]: keys file (relative to `dir`, the case file's folder), scale, rotate, translate, inside. Paints
 * g: inside = fluid makes the inside fluid (1) and everything else solid (0); inside = solid makes the
 * inside solid and leaves the rest. Appends the surface to *list (created on first use). */
tess_status tess_case_stl_section(tess_entries_t *es, const char *section, const char *dir, tess_geometry_t *g,
                                  tess_case_stl_t **list, tess_error_t *err);

/* An inlet (inlet = 1) or outlet section with an `opening` key: reads velocity (a speed along the inward
 * normal, or a vector) or density, and method (nee); sets m's velocity or density, normal (outward, the
 * opening's), axis/sign (the normal's largest component) and method; paints the cap layer with `value`: the
 * nodes inside the vessel within max_i (c_i . n) of the cap plane (every node with a link through the cap;
 * one layer for a cap normal to an axis), within the cap's radius. `lattice` gives the c_i. circle receives the
 * opening's centroid (x y z) and radius (the mean distance of its rim's corners), for a Womersley profile. */
tess_status tess_case_stl_opening(tess_entries_t *es, const char *section, int inlet, const tess_case_stl_t *list,
                                  const tess_lattice_t *lattice, tess_geometry_t *g, uint8_t value, tess_material_t *m,
                                  double circle[4], tess_error_t *err);

/* wall_q callback of the link table (core/tess_links.h) over all STL surfaces of the case (ctx is the
 * tess_case_stl_t list, NULL for none): the smallest q in (0, 1], or -1. Caps are not walls. */
double tess_case_stl_wall_q(void *ctx, const double x[3], const double c[3]);

/* Wall normal callback of the wall shear stress (tess_wss_normal_fn, core/io/tess_wss.h) over all STL surfaces of
 * the case (ctx is the list): the nearest surface triangle's normal, turned to agree with the lattice normal
 * that n holds on entry (the STL winding is not trusted); 0 (keep the lattice normal) when no surface triangle
 * lies within sqrt(3) of x (the node's wall is another one). */
int tess_case_stl_normal(void *ctx, const double x[3], double n[3]);

/* The surface triangles of every [stl] section, in lattice coordinates, one after the other into a malloc'd
 * array of 9 doubles a triangle (*v; NULL when none); returns how many (-1 when out of memory). */
long tess_case_stl_triangles(const tess_case_stl_t *list, double **v);

/* A one-line warning into buf when some opening has no inlet or outlet on it (it is then capped as a wall:
 * often a facet missing from a closed surface), naming the STL file and the open edges' count; returns 1 then,
 * 0 when every opening is used. Call after all inlet and outlet sections were read. */
int tess_case_stl_unused_openings(const tess_case_stl_t *list, char *buf, size_t len);

void tess_case_stl_free(tess_case_stl_t *list);

#endif
