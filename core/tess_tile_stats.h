/* The monitor's reductions (docs/outputs.md: max_u, mean_rho, du_rel) as partial results per tile, combined in
 * global tile order: a distributed run computes each rank's tiles' partials where the state lives and rank 0
 * combines them (docs/mpi.md), and the single-process run goes through the very same per-tile-then-global
 * order, so the sums' bits do not depend on the rank count or the partition. Only wet nodes (fluid, inlet,
 * outlet) count. */
#ifndef TESS_TILE_STATS_H
#define TESS_TILE_STATS_H

#include "tess_params.h"
#include "tess_tiling.h"

/* Per tile: the sum of the density, the wet nodes, the largest |u|^2, the sum of |u - u_prev|^2 and of |u|^2. */
#define TESS_TILE_STATS_N 5

typedef struct {
    double max_u, mean_rho;
    double du_rel; /* |u - u_prev|_2 / |u|_2 over the wet nodes, NaN without a previous row */
} tess_tile_stats_t;

/* Partials of tiles [0, ntiles) of t (ntiles <= t->ntiles: a rank's own tiles come first in its local tiling)
 * into part (TESS_TILE_STATS_N per tile) from the per-tile-node fields rho (64 per tile) and u (3 x 64 per tile),
 * and u_prev of the previous monitor row in the same layout (NULL: none; its sums are then 0). Nodes in each tile
 * in local order, components x, y, z. */
void tess_tile_stats(const tess_tiling_t *t, int32_t ntiles, const tess_params_t *p, const double *rho,
                     const double *u, const double *u_prev, double *part);

/* The monitor values from the partials of every tile of the global tiling, in global tile order (ntiles x
 * TESS_TILE_STATS_N); have_prev 0 gives du_rel NaN. */
void tess_tile_stats_combine(const double *part, int32_t ntiles, int have_prev, tess_tile_stats_t *s);

#endif
