/* A running simulation of a case on one backend: tiling, upload, initial state, stepping, fields and
 * restart files. The command-line program, the benchmark and the GPU tests all drive runs through this. */
#ifndef TESS_SIM_H
#define TESS_SIM_H

#include "tess_backend.h"
#include "tess_halo_plan.h"
#include "tess_setup.h"
#include "tess_case.h"
#include "tess_tiling.h"
#include "tess_wss.h"
#include "tess_sim_dist.h"

typedef struct tess_sim tess_sim_t;

/* Tiles the case's geometry, creates the backend with cfg, uploads and initialises it: equilibrium at
 * [init] density and velocity, or at the fields of the [init] file. A backend with initialise_from gets the state a
 * range of tiles at a time; the host copy of the populations and the per-node fields are then made only when an
 * output first needs them. */
tess_status tess_sim_create(const tess_case_t *c, const tess_backend_ops_t *ops, const tess_backend_config_t *cfg,
                            tess_sim_t **out, tess_error_t *err);
tess_status tess_sim_step(tess_sim_t *s, int n, tess_error_t *err);
/* Dense density (nx*ny*nz) and velocity (3*nx*ny*nz, interleaved), x fastest; solid nodes read 0. */
tess_status tess_sim_fields(tess_sim_t *s, double *rho_dense, double *u_dense, tess_error_t *err);
/* The same per tile node (64 a tile, the tiling's order; the simulation's arrays, valid until the next call on s):
 * of the current state (refresh 1), or those the last tess_sim_fields made (refresh 0). Not distributed. */
tess_status tess_sim_tile_fields(tess_sim_t *s, int refresh, const double **rho, const double **u, tess_error_t *err);
/* The divergence test's reduction of the current state (tess_check.h): the backend's check_state where it has
 * one, else the host's over the downloaded fields. */
tess_status tess_sim_check(tess_sim_t *s, tess_check_t *r, tess_error_t *err);
/* The monitor's values (largest speed, mean density, du_rel) and the divergence test at the wet nodes (the first
 * one, z, y, x order, that breaks b), reduced per tile and combined in global tile order (tess_tile_stats.h):
 * a distributed run computes them on every rank from its own tiles, without gathering the state (docs/mpi.md),
 * and gives the single-process bits. row 1: a monitor row, whose velocity becomes the previous row's (du_rel of
 * the next; NaN on the first row). */
tess_status tess_sim_stats(tess_sim_t *s, const tess_check_bounds_t *b, int row, tess_sim_stats_t *out,
                           tess_error_t *err);
/* The first wet node (z, y, x order) whose values break b (tess_sim_stats): *found 1 with its box
 * coordinates, density and |u|, or 0. */
tess_status tess_sim_check_locate(tess_sim_t *s, const tess_check_bounds_t *b, int at[3], double *rho, double *u,
                                  int *found, tess_error_t *err);
void tess_sim_free(tess_sim_t *s);
/* The canonical populations of the stored state (post-collision), downloaded into the simulation's host copy:
 * valid until the next call on s. For the momentum-exchange forces (tess_forces.h). */
tess_status tess_sim_populations(tess_sim_t *s, const void **pops, tess_error_t *err);

/* The forces on the case's named bodies by momentum exchange (tess_forces.h), as per-tile partials summed in
 * global tile order: under mpirun every rank computes its own tiles' (docs/mpi.md), with the same bits. */
tess_status tess_sim_forces(tess_sim_t *s, const tess_case_t *c, double *force, tess_error_t *err);

/* Whether the run is distributed over MPI ranks (cpu_dist.h). */
int tess_sim_distributed(const tess_sim_t *s);
/* A distributed run's time averages, kept by every rank over its own tiles (tess_average_dist.h; job->corner is set
 * here). */
tess_status tess_sim_average(tess_sim_t *s, tess_average_dist_job_t *job, tess_error_t *err);
/* A distributed run's field file in pieces, every rank its own (tess_field_pieces.h; job->tiling is set here). */
tess_status tess_sim_field_pieces(tess_sim_t *s, tess_field_pieces_job_t *job, tess_error_t *err);

/* A distributed run's density and velocity of a fixed list of nodes (dense indices; vals: 4 per node), each from
 * the rank that owns it (tess_sim_dist_nodes): the same bits as tess_sim_fields there. */
tess_status tess_sim_node_values(tess_sim_t *s, const size_t *nodes, size_t n, double *vals, tess_error_t *err);

/* The wall shear stress of w's nodes (tess_wss_compute): under mpirun each rank computes the stress of its own
 * WSS nodes and inward neighbours from its local state (tess_sim_dist_stress), rank 0 finishes; the same bits. */
tess_status tess_sim_wss(tess_sim_t *s, const tess_wss_t *w, double *wss, tess_error_t *err);

/* A distributed run's wall-shear-stress file in pieces, every rank its own (tess_wss_pieces.h). */
tess_status tess_sim_wss_pieces(tess_sim_t *s, const tess_wss_pieces_job_t *job, tess_error_t *err);

/* A distributed run's figures per rank (docs/mpi.md): *nranks the MPI ranks and out (room for tess_mpi_size()
 * entries) filled, or *nranks 0 when the run is not distributed. Every rank takes part (a command). */
tess_status tess_sim_ranks(tess_sim_t *s, tess_halo_rank_t *out, double *imbalance, int *nranks, tess_error_t *err);

long tess_sim_step_count(const tess_sim_t *s);
const tess_tiling_t *tess_sim_tiling(const tess_sim_t *s);
const tess_backend_ops_t *tess_sim_backend(const tess_sim_t *s);
size_t tess_sim_bytes_allocated(const tess_sim_t *s);
/* The seconds of tess_sim_create's stages (tiling, links, backend, initialise; the case stage is left 0 for the
 * caller, who loaded the case). */
const tess_setup_t *tess_sim_setup(const tess_sim_t *s);
/* One line about the backend's device ("" when the backend has no describe). */
void tess_sim_describe(const tess_sim_t *s, char *buf, size_t len);

/* Writes the current state as a restart file (atomically); reads one back into the backend, checking that
 * it belongs to this case, and sets the step count from it. */
tess_status tess_sim_save_restart(tess_sim_t *s, const char *path, tess_error_t *err);
tess_status tess_sim_load_restart(tess_sim_t *s, const char *path, tess_error_t *err);

#endif
