/* A plain dense lattice Boltzmann reference for the tests only: nx*ny*nz arrays, pull streaming, no tiles,
 * no layouts. It calls the same core per-node functions as every backend (tess_bounce_back_*,
 * tess_node_collide_*), so a tiled backend must reproduce it bit for bit; any difference is in the
 * addressing, the tiling or the boundary handling of the backend, never in the physics. */
#ifndef TESS_DENSE_REFERENCE_H
#define TESS_DENSE_REFERENCE_H

#include "tess_backend.h"
#include "tess_geometry.h"
#include "tess_params.h"
#include "tess_tiling.h"

/* Dense populations: f_i of node (x, y, z) at [i * n + x + nx * (y + ny * z)], n = nx * ny * nz. */
void tess_dense_step_f64(const tess_geometry_t *g, const tess_params_t *p, const double *src, double *dst);
void tess_dense_step_f32(const tess_geometry_t *g, const tess_params_t *p, const float *src, float *dst);

/* Copies canonical tile populations of the wet nodes into dense arrays (other nodes get 0). */
void tess_dense_from_canonical(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec,
                               const void *pops, void *dense);

/* Number of wet nodes and directions whose values differ bitwise between the dense arrays and the canonical
 * populations; *first receives a description of the first difference. */
long tess_dense_compare(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *pops,
                        const void *dense, char *first, size_t first_len);

#endif
