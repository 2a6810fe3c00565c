/* The simulation state in canonical tile storage (tess_layout.h): building initial states from
 * macroscopic fields and reading macroscopic fields back, with the core's physics, for every backend. */
#ifndef TESS_STATE_H
#define TESS_STATE_H

#include "tess_backend.h"

/* Values in one population copy: ntiles * 19 * 64. */
size_t tess_state_count(const tess_tiling_t *t);

/* Fills pops with the equilibrium of (rho, u). rho and u are dense over the box (nx*ny*nz and 3*nx*ny*nz,
 * x fastest) or NULL for the uniform rho0 / u0. Solid nodes inside tiles get the rest state. */
void tess_state_equilibrium(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, void *pops,
                            double rho0, const double u0[3], const double *rho, const double *u);

/* Density and velocity per tile node (tile * 64 + L_XYZ) from canonical populations; solid nodes get 0. */
void tess_state_fields(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *pops,
                       double *rho, double *u);

/* Copies per-tile-node fields into dense box arrays (x fastest); nodes in empty tiles get `empty`. ncomp is 1
 * for scalars and 3 for vectors (interleaved). */
void tess_state_to_dense(const tess_tiling_t *t, const double *tiled, int ncomp, double empty, double *dense);

#endif
