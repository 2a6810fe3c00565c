/* The CPU engine over several MPI ranks (docs/mpi.md): rank 0 runs the command as in a single-process run and
 * drives this backend table, which holds rank 0's share of the tiles and commands the other ranks; ranks above
 * 0 serve those commands (tess_cpu_dist_serve) until rank 0 lets them go. The run's state lives in the ranks'
 * engines, each over its own tiles plus one layer of halo tiles (tess_halo_plan.h); every step exchanges only
 * the slots that cross a rank boundary, with non-blocking messages posted after the boundary tiles and awaited
 * after the interior tiles. Populations cross this table's interface in the canonical global layout, gathered on
 * rank 0 (downloads) or scattered from it (initialise), so everything above (outputs, forces, the monitor,
 * restart files) runs on rank 0 unchanged and gives the single-rank run's bits. Patterns AB, AA and MR. */
#ifndef TESS_CPU_DIST_H
#define TESS_CPU_DIST_H

#include "tess_backend.h"
#include "tess_halo_plan.h"

/* Rank 0's table; create refuses when another instance exists (one distributed run at a time). */
extern const tess_backend_ops_t tess_cpu_dist_ops;

/* Ranks above 0: serve rank 0's commands until it releases them; returns the exit status rank 0 passes on. */
int tess_cpu_dist_serve(void);
/* Rank 0, once its command is done: releases the serving ranks with the command's exit status (no-op with one
 * rank, or when already released). */
void tess_cpu_dist_release(int code);

/* A task outside the engine that the serving ranks run on rank 0's word (the field outputs' pieces,
 * tess_vti_pieces.h): every rank sets it before serving; rank 0 wakes the serving ranks into it with
 * tess_cpu_dist_service (a no-op with one rank), then does its own part. */
void tess_cpu_dist_set_service(void (*fn)(void));
void tess_cpu_dist_service(void);

/* Whether be is an instance of tess_cpu_dist_ops. */
int tess_cpu_dist_is(const tess_backend_ops_t *ops);
/* The figures of every rank (out: tess_mpi_size() entries) and the partition's imbalance (max over mean wet
 * nodes). Every rank takes part (a command). */
tess_status tess_cpu_dist_stats(tess_backend_t *be, tess_halo_rank_t *out, double *imbalance, tess_error_t *err);

#endif
