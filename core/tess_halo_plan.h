/* What each rank of a distributed run holds and exchanges (docs/mpi.md, "The exchange"): from the global tiling
 * and its partition (tess_partition.h), per rank a local tiling of its own tiles followed by one layer of halo
 * tiles, and per neighbour rank the lists of population slots that cross the rank boundary each step.
 *
 * Local tile order: the owned tiles next to another rank's tiles first (the boundary, updated before the
 * exchange is posted), then the other owned tiles (the interior, updated while messages travel), then the halo
 * tiles; each group in increasing global tile index. A slot is named by its tile-major index over the local
 * tiles, (local tile * q + i) * 64 + node (tess_pop_layout.h); an engine that stores its populations otherwise
 * converts the lists once (tess_dist_engine_t.state_slots: the CPU engine, direction-major).
 *
 * Two lists per ordered pair of neighbour ranks (r needs from s), both in increasing (global tile, i, node):
 *  - A, the crossing populations: slot i of a wet node y of s with y = x - c_i for a wet node x of r (x pulls it);
 *    the AA pattern's odd step writes exactly these slots from r's side (x's f*_opp(i) goes to slot i of y), so
 *    the same list, sent back, returns them to their owner;
 *  - B, the neighbourhood of r's special nodes (inlets, outlets, nodes with curved-wall links), whose rules read
 *    more than their pull sources (Bouzidi: x + c, x + 2c; extrapolation: a neighbour's pulled populations;
 *    finite differences: velocities two nodes inwards): every slot of every node of s within `radius` nodes
 *    (per axis) of such a node, less the slots of A. */
#ifndef TESS_HALO_PLAN_H
#define TESS_HALO_PLAN_H

#include "tess_error.h"
#include "tess_params.h"
#include "tess_partition.h"
#include "tess_tiling.h"
#include <stdint.h>

typedef struct {
    int rank;
    tess_tiling_t local;    /* owned tiles, then halo tiles; neighbours renumbered (-1: not held here); no
                               tile_map; links of every local tile; n_wet: the owned wet nodes */
    int32_t nbound, nowned; /* tiles [0, nbound) boundary, [nbound, nowned) interior, [nowned, ntiles) halo */
    int32_t *global;        /* per local tile: its global index */
    int nnb;                /* neighbour ranks (owners of the halo tiles), increasing */
    int *nb;
    /* Per neighbour j, CSR over j: slots this rank receives from nb[j] (recv_*) and sends to it (send_*). */
    int64_t *recv_a_start, *recv_a, *recv_b_start, *recv_b;
    int64_t *send_a_start, *send_a, *send_b_start, *send_b;
} tess_halo_plan_t;

/* Figures of one rank of a distributed run (summary.json's "mpi" block, tessera bench under mpirun). */
typedef struct {
    int32_t tiles, halo_tiles, neighbours;
    int64_t wet;            /* owned wet nodes */
    int64_t halo_slots;     /* populations received per step (A + B of the plan) */
    double step_s;          /* time in steps since initialise, exchange included */
    double exchange_s;      /* of which packing, posting, waiting for and unpacking messages */
    double wait_s;          /* of which waiting (what the interior update did not hide) */
    long steps;
    int transport;          /* how its messages travel: TESS_XFER_* (backends/cpu/cpu_dist_xfer.h) */
    double peak_bytes;      /* the process's peak resident memory (VmHWM), 0 where unknown */
    char binding[160];      /* its threads' cores (tess_cpu_rank_bind.h), or why none */
} tess_halo_rank_t;

/* Plans for every rank of part (an array of part->nranks), with B's radius in nodes (3 covers the AB pattern's
 * reads, 4 the AA pattern's swapped reads, which look one node further). Errors: TESS_ERR_NOMEM. */
tess_status tess_halo_plan_build(tess_halo_plan_t *plans, const tess_tiling_t *t, const tess_params_t *p,
                                 const tess_partition_t *part, int radius, tess_error_t *err);
void tess_halo_plan_free(tess_halo_plan_t *plan);

/* Slots of a plan's lists, for the summary: received per step (A + B over the neighbours). */
int64_t tess_halo_plan_recv_count(const tess_halo_plan_t *plan);

#endif
