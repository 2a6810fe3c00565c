/* The simulation state in canonical tile storage (tess_layout.h): building initial states from
 * macroscopic fields and reading macroscopic fields back, with the core's physics, for every backend.
 * D3Q19 keeps the per-direction layouts of tess_layout.h; the other lattices store direction i of node
 * `local` (x + ex (y + ey z)) of tile t at (t * q + i) * 64 + local. */
#ifndef TESS_STATE_H
#define TESS_STATE_H

#include "tess_backend.h"

/* Values in one population copy: ntiles * q * 64. */
size_t tess_state_count(const tess_tiling_t *t);

/* Values that one state copy holds per node in a pattern: q populations (AB, AA), or the stored moments of
 * the moment representation (MR: 10 on 3D lattices, 6 on D2Q9). */
int tess_state_node_values(tess_pattern pattern, int lattice, int q);

/* Canonical index of population i of node `local` of tile k. */
size_t tess_state_index(const tess_tiling_t *t, int32_t k, int i, int local);

/* Values of tiles [k0, k1) between the canonical storage (whole: `canon`) and the tile-major order of a
 * device's copy, direction i of node `local` of tile k at ((k - k0) * q + i) * 64 + local of `tiles`: to_tiles 1
 * reads canon and writes tiles, 0 the reverse. A GPU backend uploads and downloads through it in chunks. */
void tess_state_convert(const tess_tiling_t *t, tess_precision prec, void *canon, void *tiles, int32_t k0, int32_t k1,
                        int to_tiles);

/* Fills pops with the equilibrium of (rho, u). rho and u are dense over the box (nx*ny*nz and 3*nx*ny*nz,
 * x fastest) or NULL for the uniform rho0 / u0. Solid nodes inside tiles get the rest state. */
void tess_state_equilibrium(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, void *pops,
                            double rho0, const double u0[3], const double *rho, const double *u);

/* The same equilibrium for tiles [k0, k1) only, in tile-major order (direction i of node local of tile k at
 * ((k - k0) * q + i) * 64 + local, tess_state_convert's `tiles`): bit for bit the values tess_state_equilibrium
 * puts there, a chunk at a time, so that a GPU run never holds the whole state on the host. */
void tess_state_equilibrium_tiles(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, int32_t k0,
                                  int32_t k1, void *tiles, double rho0, const double u0[3], const double *rho,
                                  const double *u);

/* Density and velocity per tile node (tile * 64 + local) from canonical populations; solid nodes get 0. */
void tess_state_fields(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *pops,
                       double *rho, double *u);

/* Copies per-tile-node fields into dense box arrays (x fastest); nodes in empty tiles get `empty`. ncomp is 1
 * for scalars and 3 for vectors (interleaved). */
void tess_state_to_dense(const tess_tiling_t *t, const double *tiled, int ncomp, double empty, double *dense);

#endif
