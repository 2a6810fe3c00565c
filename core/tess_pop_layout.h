/* Where population i of node `local` of tile k lies in an array of populations: the one place every backend's
 * index into populations comes from (tess_q_slot, the link slots, the CPU engine's sweeps, state conversion and
 * halo packing). Two forms, told apart by the direction stride:
 *   tile-major (dir == 0, the zero value): (k * q + i) * 64 + local. A tile's q x 64 values are contiguous; the
 *     GPU backends, the canonical state's tiles (tess_state.h) and the MR window's tiles use it.
 *   direction-major (dir > 0): i * dir + k * 64 + local. One array per direction over all tiles (structure of
 *     arrays over tiles): the CPU engine's populations, so that a sweep over the tiles reads and writes q
 *     sequential streams, which the hardware prefetchers follow (docs/performance-notes.md, "Direction-major
 *     populations"). dir >= 64 * ntiles values, padded (tess_pop_layout_directions). */
#ifndef TESS_POP_LAYOUT_H
#define TESS_POP_LAYOUT_H

#include "tess_config.h"
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int64_t dir; /* values between direction i and i + 1 of a node; 0: tile-major */
} tess_pop_layout_t;

/* The tile-major layout (a zero-initialised tess_pop_layout_t is this one). */
TESS_HD TESS_INLINE tess_pop_layout_t tess_pop_layout_tiles(void)
{
    tess_pop_layout_t l;
    l.dir = 0;
    return l;
}

/* Index of population i of node `local` (0..63) of tile k, for a lattice of q directions. */
TESS_HD TESS_INLINE int64_t tess_pop_index(tess_pop_layout_t l, int q, int64_t k, int i, int local)
{
    return l.dir ? (int64_t)i * l.dir + 64 * k + local : (k * q + i) * 64 + local;
}

/* Values between tile k and k + 1 at the same direction and node, and between direction i and i + 1. */
TESS_HD TESS_INLINE int64_t tess_pop_tile_stride(tess_pop_layout_t l, int q)
{
    return l.dir ? 64 : (int64_t)q * 64;
}
TESS_HD TESS_INLINE int64_t tess_pop_dir_stride(tess_pop_layout_t l)
{
    return l.dir ? l.dir : 64;
}

/* The direction-major layout for ntiles tiles of values of vs bytes: each direction's array a whole number of
 * 64-byte lines, and an odd number of them, so that the q streams of one node sit in q different cache sets
 * (a stride of a power of two bytes, as 128^3 nodes give, would put all q on one set of the L1 and the L2). */
static inline tess_pop_layout_t tess_pop_layout_directions(int64_t ntiles, size_t vs)
{
    int64_t lines = (64 * ntiles * (int64_t)vs + 63) / 64;
    if (lines % 2 == 0)
        lines++;
    tess_pop_layout_t l;
    l.dir = lines * 64 / (int64_t)vs;
    return l;
}

/* Values an array of the layout holds for q directions and ntiles tiles. */
static inline size_t tess_pop_layout_values(tess_pop_layout_t l, int q, int64_t ntiles)
{
    return l.dir ? (size_t)l.dir * (size_t)q : (size_t)ntiles * (size_t)q * 64;
}

#endif
