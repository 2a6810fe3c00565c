/* The moment representation's state (pattern mr) against canonical populations, for every backend: the moments
 * of each node's populations, and the Hermite rebuild of its populations from the moments (docs/patterns.md, "MR").
 * Written once here so that the CPU engine and the GPU backends' chunked transfers give the same bits. */
#ifndef TESS_STATE_MR_H
#define TESS_STATE_MR_H

#include "tess_backend.h"

/* Tiles [k0, k1), every node (dry ones too, so that every backend gives back the same state). ms holds tile k's
 * stored moments at ((k - k0) * nm + s) * 64 + local (tess_q_mr_store's layout, nm = tess_state_node_values);
 * pops is the whole canonical state (canonical 1: tess_state_index) or the tiles from k0 in tile-major order
 * (canonical 0: direction i of node local of tile k at ((k - k0) * q + i) * 64 + local, as tess_state_convert's
 * `tiles`). to_moments 1 reads pops and writes ms, 0 the reverse. Threaded over tiles: every value is written
 * once, so threads change no bit. D3Q13 (no regularized collision) does nothing. */
void tess_state_mr_convert(const tess_tiling_t *t, tess_precision prec, void *pops, int canonical, void *ms, int32_t k0,
                           int32_t k1, int to_moments);

#endif
