/* One node of the engine: pull the incoming populations (with walls, curved walls and open
 * boundaries) and collide. Backends wrap these in their loops (backends/cpu/cpu_q*.c; a GPU kernel would
 * call the same functions, one thread a node), so the engine's physics exists once.
 *
 * Storage: per non-empty tile t, per direction i, a block of 64 values; node `local` (x + ex (y + ey z)) of the
 * tile holds population i at tess_pop_index(g->pop, Q, t, i, local) (tess_pop_layout.h: tile-major on the GPU,
 * direction-major in the CPU engine). Two conventions say which population a slot holds:
 *   TESS_Q_CANON    slot i of node y holds the post-collision f*_i(y) (the AB state; AA after even steps);
 *   TESS_Q_SWAPPED  f*_i(y) sits in slot opp(i) of y + c_i when that node is wet, else in slot i of y (AA after
 *                   odd steps: every population already moved to the node that pulls it, in the opposite slot).
 * The pull reads through one convention and the AA pattern writes through the other, so that a node reads and
 * writes the same set of slots (no two nodes share one) and AA after even steps equals AB bitwise. */
#ifndef TESS_Q_STEP_H
#define TESS_Q_STEP_H

#include "tess_boundary_q.h"
#include "tess_inlet.h"
#include "tess_links.h"
#include "tess_pop_layout.h"
#include <stdint.h>

enum { TESS_Q_CANON = 0, TESS_Q_SWAPPED = 1 };

/* What the per-node functions need of the tiling (device pointers on a GPU). */
typedef struct {
    const int32_t *neighbors; /* 27 per tile (tess_tiling_slot order), -1: empty or outside */
    const uint8_t *node_type; /* 64 per tile, local order */
    const int32_t *corner;    /* 3 per tile: box coordinates of its node (0, 0, 0) (profiled inlets need them) */
    int ex, ey, ez;           /* tile extent */
    int64_t step;             /* the step the sweep computes (tess_params_t.step0 + sweeps since initialise): the
                               * time at which time-dependent inlets and outlets take their waveforms' values */
    tess_pop_layout_t pop;    /* where the populations' values lie (last: zero-initialised, tile-major) */
} tess_q_grid_t;

TESS_HD TESS_INLINE int tess_q_kind_is_wet(int kind)
{
    return kind == TESS_NODE_FLUID || kind == TESS_NODE_VELOCITY || kind == TESS_NODE_PRESSURE;
}

/* Moves node (x, y, z) of tile k by (dx, dy, dz), each in -2..2 (tiles are at least 4 wide on every axis a
 * lattice moves along): returns the new node's tile (-1: empty or outside) and updates the local coordinates. */
TESS_HD TESS_INLINE int32_t tess_q_grid_move(const tess_q_grid_t *g, int32_t k, int *x, int *y, int *z, int dx, int dy,
                                             int dz)
{
    int nx = *x + dx, ny = *y + dy, nz = *z + dz;
    const int sx = nx < 0 ? -1 : nx >= g->ex ? 1 : 0, sy = ny < 0 ? -1 : ny >= g->ey ? 1 : 0,
              sz = nz < 0 ? -1 : nz >= g->ez ? 1 : 0;
    *x = nx - sx * g->ex;
    *y = ny - sy * g->ey;
    *z = nz - sz * g->ez;
    return g->neighbors[27 * (int64_t)k + (sx + 1) + 3 * (sy + 1) + 9 * (sz + 1)];
}

TESS_HD TESS_INLINE int tess_q_grid_local(const tess_q_grid_t *g, int x, int y, int z)
{
    return x + g->ex * (y + g->ey * z);
}

/* Material index of node (x, y, z) of tile k (0, plain solid, outside the stored tiles). */
TESS_HD TESS_INLINE int tess_q_grid_type(const tess_q_grid_t *g, int32_t k, int x, int y, int z)
{
    return k < 0 ? 0 : g->node_type[64 * (int64_t)k + tess_q_grid_local(g, x, y, z)];
}

#define TESS_QTEMPLATE "tess_q_step_t.h"
#include "tess_instantiate_q.h"

#endif
