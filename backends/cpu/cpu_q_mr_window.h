/* The engine's moment representation with one copy of the moments: the sliding window of the moment-
 * representation paper (section 3.1) over the engine's tiles, for every lattice with a regularized collision
 * (D2Q9, D3Q19, D3Q27). docs/architecture.md ("Generic lattice engine", MR) and docs/patterns.md describe it.
 *
 * A block is a rectangle of tile columns along the window axis (z for the 3D lattices, y for D2Q9, whose tiles
 * are one node thick in z). Each thread slides its own window through a block: the post-collision populations
 * of tile layer w + 1 are rebuilt from the still-old moments into the window, then layer w pulls from the
 * window (layers w - 1, w, w + 1), collides in moment space and overwrites its moments. Every value that a
 * window cannot hold (a link from another block, a curved-wall link, an inlet/outlet's whole gather) is
 * computed from the old moments in a pre-pass before any moment is overwritten, so every node sees the state
 * before the step and any blocking and thread count give the same bits.
 *
 * A step may run in parts over tile ranges (tess_cpu_q_step_tiles; the distributed run's boundary tiles, then
 * its interior): each block's window then runs only over the tile layers that hold the part's tiles, rebuilding
 * only the columns they pull from, and a part before the last writes its new moments into a side buffer, so that
 * the later parts' windows still rebuild the old ones (docs/mpi.md, "MR"). */
#ifndef TESS_CPU_Q_MR_WINDOW_H
#define TESS_CPU_Q_MR_WINDOW_H

#include "tess_error.h"
#include <stddef.h>
#include <stdint.h>

struct tess_cpu_q;
struct tess_tiling;

/* A link from another block: slot dst = i * 64 + local of the destination tile takes f*_i of tile node src
 * (tile * 64 + local), rebuilt from its old moments in the pre-pass. */
typedef struct {
    int64_t src;
    uint16_t dst;
} tess_cpu_q_mrw_cross_t;

typedef struct tess_cpu_q_mrw {
    int axis;                /* the window axis: 2 (z), or 1 (y) for D2Q9 */
    int nw;                  /* tile layers along the axis */
    int periodic;            /* the axis is periodic: two more window slots (layer 0 and the last layer) */
    int nslots;              /* 3, or 5 with a periodic axis */
    int b0, b1;              /* block extent in tile columns along the two lateral axes */
    int ncols;               /* b0 * b1: window columns per slot */
    int layer;               /* nodes of one layer of a block (the `mr_layer` it was built from) */
    int32_t nblocks;         /* blocks with at least one tile */
    int32_t *block_tiles;    /* per block, per column, per layer: tile index or -1 */
    int32_t *tile_block;     /* per tile: its block (index into the non-empty blocks) */
    int32_t *tile_col;       /* per tile: its column within the block */
    int32_t *tile_w;         /* per tile: its layer along the window axis */
    int64_t *cross_start;    /* per tile: first entry of cross (ntiles + 1 entries) */
    tess_cpu_q_mrw_cross_t *cross;
    int64_t ncross;
    void *cross_val;         /* the pre-pass's value of every cross entry */
    uint8_t *tile_plain;     /* the engine's plain tile with no link from another block */
    int nthreads;
    void **window;           /* per thread: nslots * ncols tiles of q x 64 populations */
    size_t window_bytes;     /* of one thread's window */
    uint8_t *need;           /* per thread: ncols flags, the block's columns a part's tiles pull from */
    /* Stepping in parts (tess_cpu_q_mr_parts): a part that does not complete the step writes the new moments of
     * its tiles (all below nside) here, since the later parts still rebuild their old ones; the last part copies
     * tiles [side_k0, side_k1) back. */
    void *side;
    int32_t nside, side_k0, side_k1;
    size_t bytes;            /* everything above */
} tess_cpu_q_mrw_t;

/* The blocks, the per-thread windows and the tile maps of a tiling (at upload_geometry). Errors:
 * TESS_ERR_NOMEM. */
tess_status tess_cpu_q_mrw_create(struct tess_cpu_q *be, const struct tess_tiling *t, tess_error_t *err);
/* The links from other blocks and the plain tiles (at initialise: they depend on the materials). Errors:
 * TESS_ERR_NOMEM. */
tess_status tess_cpu_q_mrw_build(struct tess_cpu_q *be, tess_error_t *err);
/* Room for the new moments of tiles [0, nside) while a step runs in parts (tess_cpu_q_mr_parts). Errors:
 * TESS_ERR_NOMEM. */
tess_status tess_cpu_q_mrw_side(struct tess_cpu_q *be, int32_t nside, tess_error_t *err);
void tess_cpu_q_mrw_free(tess_cpu_q_mrw_t *w);

#endif
