/* The parts of a simulation's outputs that a distributed run computes on every rank from its own tiles
 * (docs/mpi.md, "Outputs without the global copy"), as tasks of the distributed driver (cpu_dist.h): the
 * monitor's reductions, the divergence test, the forces on named bodies and the restart files; rank 0 combines the ranks' results in global tile order, so the
 * values are the single-process run's bits (tess_tile_stats.h). tess_sim.c calls these under mpirun. */
#ifndef TESS_SIM_DIST_H
#define TESS_SIM_DIST_H

#include "tess_average_dist.h"
#include "tess_backend.h"
#include "tess_check.h"
#include "tess_field_pieces.h"
#include "tess_forces.h"
#include "tess_wss_pieces.h"
#include "tess_restart.h"
#include "tess_tile_stats.h"

/* The worst status over the ranks (every rank calls it): what a task agrees on before its collective calls; a
 * rank that did not fail itself gets a line saying that another did. */
tess_status tess_sim_dist_agree(tess_status st, tess_error_t *err);

/* The start of a task that keeps data between its runs (tess_dist_view_t.keep): rank 0's `bytes` at head (may be
 * NULL, 0) broadcast to every rank, and whether this is the task's first run (rank 0's keep empty), the same
 * answer on every rank. */
int tess_sim_dist_first(const tess_dist_view_t *v, void *head, size_t bytes);

/* Rank 0: every rank's `each` bytes per own tile (local order) into out at the tiles' global indices; the
 * others send theirs. tmp: room for the largest rank's share (tess_sim_dist_most_owned tiles) on rank 0. */
void tess_sim_dist_gather_tiles(const tess_dist_view_t *v, const void *mine, size_t each, void *out, char *tmp);
int32_t tess_sim_dist_most_owned(const tess_dist_view_t *v);
/* The blocks of local tiles [0, n) of a file of per-tile blocks in global tile order after `header` bytes (MPI-IO,
 * tess_mpi_file_blocks): byte offsets in the file and in the rank's data (local order); 0 when out of memory. */
int tess_sim_dist_file_blocks(const tess_dist_view_t *v, int32_t n, int64_t header, size_t block, int64_t **foff,
                              int64_t **moff);

/* Every rank, before it serves or drives a distributed run: the tasks below become the driver's. */
void tess_sim_dist_register(void);

/* The monitor's values and the divergence test over the wet nodes (tess_sim_stats). */
typedef struct {
    tess_tile_stats_t m;
    int bad;       /* 1: a wet node breaks the bounds: the first one (z, y, x order) */
    int at[3];
    double bad_rho, bad_u;
} tess_sim_stats_t;

/* Rank 0 of a distributed run (be: tess_cpu_dist_find's table): tess_sim_stats and tess_sim_check over every
 * rank's own tiles. row 1 keeps this state's velocity per rank as the previous row's. */
tess_status tess_sim_dist_stats(tess_backend_t *be, const tess_check_bounds_t *b, int row, tess_sim_stats_t *out,
                                tess_error_t *err);
tess_status tess_sim_dist_check(tess_backend_t *be, int threads, tess_check_t *r, tess_error_t *err);
/* The forces on the nbody bodies from fl, the links over the global tiling (tess_forces.h): sent to the ranks on
 * the first call (each keeps its own tiles'), then per-tile partials from every rank summed in global tile order. */
tess_status tess_sim_dist_forces(tess_backend_t *be, const tess_force_links_t *fl, int nbody, double *force,
                                 tess_error_t *err);
/* The restart file (tess_restart.h, the same bytes as the single process's) written and read with MPI-IO, every
 * rank its own tiles' blocks at their canonical offsets; the CRC-32 from the ranks' per-tile CRC-32s. Load
 * checks the file as tess_restart_read does and initialises every rank's engine from it (step0: got->step). */
tess_status tess_sim_dist_save(tess_backend_t *be, const char *path, const tess_restart_header_t *h, tess_error_t *err);
tess_status tess_sim_dist_load(tess_backend_t *be, const char *path, const tess_restart_header_t *expect,
                               tess_restart_header_t *got, tess_error_t *err);
/* Every rank's engine initialised with the uniform equilibrium (rho0, u0) of its own and halo tiles, computed
 * there (after tess_cpu_dist_plan): rank 0 never builds the global state. */
tess_status tess_sim_dist_equilibrium(tess_backend_t *be, const tess_params_t *p, double rho0, const double u0[3],
                                      tess_error_t *err);
/* Density and velocity per tile node of the global tiling (rho: 64, u: 3 x 64 per tile) on rank 0, each rank's
 * own tiles computed there: what the outputs that still need the whole box read (docs/mpi.md). */
tess_status tess_sim_dist_fields(tess_backend_t *be, double *rho, double *u, tess_error_t *err);
/* The density and velocity (vals: 4 per node) of a fixed list of n nodes (tile * 64 + local of the global tiling,
 * -1 for none: zeros), each computed by the rank that owns it and sent to rank 0: the probes' corners
 * (tess_probes_nodes). The list is sent to the ranks on the first call; later calls must pass the same list. */
tess_status tess_sim_dist_nodes(tess_backend_t *be, const int64_t *nodes, size_t n, double *vals, tess_error_t *err);
/* The same for the stress (sigma: 6 per node, tess_wss_stress) of a fixed list: the wall-shear-stress nodes and
 * their inward neighbours, each from its owner's local state (the step's inputs, halo included). */
tess_status tess_sim_dist_stress(tess_backend_t *be, const int64_t *nodes, size_t n, double *sigma, tess_error_t *err);
/* A wall-shear-stress file in pieces, every rank its own (tess_wss_pieces.h). */
tess_status tess_sim_dist_wss_pieces(tess_backend_t *be, const tess_wss_pieces_job_t *job, tess_error_t *err);
/* The time averages kept by every rank over its own tiles (tess_average_dist.h). */
tess_status tess_sim_dist_average(tess_backend_t *be, tess_average_dist_job_t *job, tess_error_t *err);
/* A field file in pieces, every rank its own from its own tiles (tess_field_pieces.h). */
tess_status tess_sim_dist_pieces(tess_backend_t *be, tess_field_pieces_job_t *job, tess_error_t *err);

#endif
