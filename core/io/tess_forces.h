/* Forces on the named bodies of a case by momentum exchange (Ladd 1994; the D3Q13 paper's eqs. 10-11 with the
 * moving-wall term), computed on the host from the canonical populations of the stored state, for every
 * backend. docs/outputs.md describes the columns and the sign: the force that the fluid exerts on the body. */
#ifndef TESS_FORCES_H
#define TESS_FORCES_H

#include "tess_backend.h"
#include "tess_case.h"
#include "tess_lattice.h"
#include <stdint.h>

/* Force on each body b of `bodies` into force[3 b .. 3 b + 2]. pops is the stored (post-collision, f*) state of
 * the tiling in precision prec; g is the case's node-type grid (body nodes need not lie in stored tiles).
 * For each wet node x and direction i whose neighbour x + c_i is a node of body b:
 *     F_b += c_i (f_i*(x) + f_ibar(x, t + 1)),
 * where f_ibar(x, t + 1) is what the boundary rule returns along the opposite direction in the next step: the
 * core's halfway bounce-back, f_i*(x) - 2 w_i rho_w (c_i . u_w) / c_s^2 for a moving wall, or on a curved-wall
 * link of the tiling (tess_links.h, p->wall Bouzidi) the core's interpolated value (tess_boundary_q.h) from the
 * same neighbours the engine reads. Any lattice of tess_lattice.h: every node of the grid is a cell of
 * unit volume (D3Q13 runs both sublattices, so no factor 2 of the D3Q13 paper's half lattice), and D2Q9 gives
 * the force per unit depth. Links that leave the box through a non-periodic face are not a body's. lat must be
 * the tiling's lattice (TESS_ERR_INPUT otherwise). */
tess_status tess_forces_compute(const tess_lattice_t *lat, const tess_tiling_t *t, const tess_geometry_t *g,
                                const tess_params_t *p, const tess_case_forces_t *bodies, tess_precision prec,
                                const void *pops, double *force, tess_error_t *err);

/* The same in parts, for a distributed run (docs/mpi.md): the links between wet nodes and body nodes, per tile
 * of t in CSR form (link[start[k] .. start[k + 1]) in node, then direction order), found from the case's grid
 * once; the force of one tile's links, evaluated on any tiling that holds the tile and its neighbour tiles'
 * values (a rank's local tiling: k its local index); and the sum of such per-tile partials in the order given
 * (the global order of the tiles that have links). tess_forces_compute is links, tiles, sum, so a distributed
 * run that combines its ranks' partials in global tile order gives its bits. */
typedef struct {
    uint8_t node, dir, body, mat; /* wet node `node` of the tile, direction to the body node, body, its material */
} tess_force_link_t;
typedef struct {
    int32_t ntiles;
    int64_t *start; /* ntiles + 1 */
    tess_force_link_t *link;
} tess_force_links_t;
tess_status tess_forces_links(const tess_lattice_t *lat, const tess_tiling_t *t, const tess_geometry_t *g,
                              const tess_params_t *p, const tess_case_forces_t *bodies, tess_force_links_t *out,
                              tess_error_t *err);
void tess_forces_links_free(tess_force_links_t *fl);
/* f[3 nbody]: the force of tile k's nlink links on each body. */
void tess_forces_tile(const tess_lattice_t *lat, const tess_tiling_t *t, const tess_params_t *p, int nbody, int32_t k,
                      const tess_force_link_t *link, int64_t nlink, tess_precision prec, const void *pops, double *f);
/* force[3 nbody] = the sum of nparts partials of 3 nbody values, in their order. */
void tess_forces_combine(const double *part, int64_t nparts, int nbody, double *force);
/* tess_forces_compute with links already found. */
tess_status tess_forces_from_links(const tess_lattice_t *lat, const tess_tiling_t *t, const tess_params_t *p, int nbody,
                                   const tess_force_links_t *fl, tess_precision prec, const void *pops, double *force,
                                   tess_error_t *err);

/* Drag and lift coefficients C = 2 F / (rho U^2 A) of a force along the case's drag and lift axes (NaN when
 * the case gives no reference values). */
void tess_forces_coefficients(const tess_case_forces_t *bodies, const double force[3], double *cd, double *cl);

/* The monitor columns of the bodies, per body: Fx_NAME, Fy_NAME, Fz_NAME, and Cd_NAME, Cl_NAME when the case
 * gives reference values. Returns how many (at most TESS_FORCES_MAX_COLUMNS). */
#define TESS_FORCES_MAX_COLUMNS (5 * TESS_MAX_MATERIALS)
int tess_forces_columns(const tess_case_forces_t *bodies, char names[][80]);
/* The values of those columns from force[3 * nbody]. */
void tess_forces_values(const tess_case_forces_t *bodies, const double *force, double *values);

#endif
