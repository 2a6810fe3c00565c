/* An engine over several MPI ranks (docs/mpi.md): the CPU's, or a GPU backend's (core/tess_dist_engine.h; the
 * exchange's buffers in cpu_dist_xfer.h). Rank 0 runs the command as in a single-process run and
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
#include "tess_dist_engine.h"
#include "tess_halo_plan.h"

/* Rank 0's table; create refuses when another instance exists (one distributed run at a time). */
extern const tess_backend_ops_t tess_cpu_dist_ops;

/* Ranks above 0: serve rank 0's commands until it releases them; returns the exit status rank 0 passes on. */
int tess_cpu_dist_serve(void);
/* Rank 0, once its command is done: releases the serving ranks with the command's exit status (no-op with one
 * rank, or when already released). */
void tess_cpu_dist_release(int code);

/* The GPU engines this build runs distributed (core/cli/tess_dist_engines.c; the CPU is always there): every
 * rank registers them before it drives or serves. Then tess_cpu_dist_find gives rank 0's table for a backend
 * name ("cpu", "cuda", "hip"; NULL when that backend does not run distributed). */
void tess_cpu_dist_engines(const tess_dist_engine_t *const *list, int n);
const tess_backend_ops_t *tess_cpu_dist_find(const char *name);

/* A task outside the engine that the serving ranks run on rank 0's word (the field outputs' pieces,
 * tess_vti_pieces.h): every rank sets it before serving; rank 0 wakes the serving ranks into it with
 * tess_cpu_dist_service (a no-op with one rank), then does its own part. */
void tess_cpu_dist_set_service(void (*fn)(void));
void tess_cpu_dist_service(void);

/* Rank 0: partitions the tiling and sends every rank its plan (initialise does it when not done), so that a task
 * can then initialise every rank's engine from its own tiles (an equilibrium state, a restart file). */
tess_status tess_cpu_dist_plan(tess_backend_t *be, const tess_params_t *p, tess_error_t *err);

/* Work over every rank's own tiles (docs/mpi.md, "Outputs without the global copy"): the monitor's reductions,
 * the forces on named bodies and the restart files, computed by each rank from its own state and combined on
 * rank 0, without the global populations. A task sees its rank's local tiling and state (tess_dist_view_t); it
 * runs on every rank alike (SPMD) and does its own collective calls (tess_mpi.h), so it must reach each of them
 * on every rank whatever happens (agree on a failure first). */
typedef struct {
    const tess_tiling_t *local;  /* the rank's local tiling: its own tiles [0, nowned), then its halo tiles */
    int32_t nowned;
    const int32_t *global;       /* per local tile: its global index */
    const tess_params_t *params; /* as initialised (step0 of the state held) */
    tess_precision precision;
    const void *pops;            /* canonical populations of the local tiles (download set; the halo tiles hold the
                                    exchanged slots only), NULL otherwise */
    void **keep;                 /* the task's own data on this rank between its runs, freed when the rank's engine
                                    goes (with the task's drop, or free()) */
    void *node;                  /* for tess_cpu_dist_view_initialise */
    /* rank 0 only (NULL and 0 elsewhere): every rank's own tiles as global indices in its local order */
    int nranks;
    int32_t global_ntiles;
    int32_t *const *owned;
    const int32_t *nowned_of;
} tess_dist_view_t;
enum { TESS_DIST_TASKS_MAX = 16 };
typedef struct {
    tess_status (*fn)(const tess_dist_view_t *v, void *arg, tess_error_t *err); /* arg: rank 0's, NULL elsewhere */
    int download;                                                            /* 1: v->pops holds the state */
    void (*drop)(void *keep); /* frees the task's keep (NULL: free()) */
} tess_dist_task_t;
/* The tasks (at most TESS_DIST_TASKS_MAX; the same list on every rank, set before serving or driving; the array stays the caller's). */
void tess_cpu_dist_set_tasks(const tess_dist_task_t *list, int n);
/* Rank 0: runs task `task` on every rank (itself included); the status is the worst of all ranks. */
tess_status tess_cpu_dist_task(tess_backend_t *be, int task, void *arg, tess_error_t *err);
/* From a task: (re)initialises the rank's engine with the state of its local tiles (a restart file). */
tess_status tess_cpu_dist_view_initialise(const tess_dist_view_t *v, const tess_params_t *p, const void *pops,
                                          tess_error_t *err);

/* Whether be is an instance of one of rank 0's tables (tess_cpu_dist_ops, tess_cpu_dist_find). */
int tess_cpu_dist_is(const tess_backend_ops_t *ops);
/* The figures of every rank (out: tess_mpi_size() entries) and the partition's imbalance (max over mean wet
 * nodes). Every rank takes part (a command). */
tess_status tess_cpu_dist_stats(tess_backend_t *be, tess_halo_rank_t *out, double *imbalance, tess_error_t *err);

#endif
