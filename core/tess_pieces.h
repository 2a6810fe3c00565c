/* The output piece of each MPI rank (docs/outputs.md): a box of the domain's nodes close to the region its tiles
 * cover, found by replaying the partition's recursive bisection (tess_partition.h) on the node box. Each cut of
 * the partition falls between two tile planes, or inside one plane (tiles of one plane ordered by the other
 * axes); the box is cut at the plane where the second half's tiles begin (or, when that is the box's first
 * plane, after the first half's last plane). The boxes tile the domain without gaps or overlaps, tiles empty of
 * fluid included; as point extents, each box reaches one node into the next (VTK's pieces share their boundary
 * points, so that the cells between two pieces are drawn). */
#ifndef TESS_PIECES_H
#define TESS_PIECES_H

#include "tess_tiling.h"
#include <stdint.h>

/* Point extents x0 x1 y0 y1 z0 z1 (inclusive, global node indices) of the nranks pieces, from each tile's owner
 * (rank[tile], a partition of t into nranks ranks by tess_partition_build). */
void tess_pieces_extents(const tess_tiling_t *t, const int32_t *rank, int nranks, int32_t (*ext)[6]);

#endif
