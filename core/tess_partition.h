/* Partition of a tiling's non-empty tiles among MPI ranks (docs/mpi.md): recursive coordinate bisection of the
 * tile centres weighted by wet nodes per tile. The set's longest axis (of the tile-centre bounding box; ties: x
 * before y before z) is cut at the weighted position that gives the first floor(R/2) ranks the share
 * floor(R/2)/R of the weight, and both halves recurse; tiles are ordered along the axis with the other axes
 * and the tile index breaking ties, and all arithmetic is on integers, so the same tiling gives the same
 * partition on every machine. Each cut misses its target by at most half a tile's weight, so a rank's weight
 * differs from the mean by at most (w_max / 2) times the sum of 1 / (ranks below each cut on its path): under
 * w_max for up to 8 ranks (the sum is at most 11/6, for 5, 6 and 7 ranks). */
#ifndef TESS_PARTITION_H
#define TESS_PARTITION_H

#include "tess_error.h"
#include "tess_params.h"
#include "tess_tiling.h"
#include <stdint.h>

typedef struct {
    int nranks;
    int32_t ntiles;
    int32_t *rank;         /* per tile: its owner */
    int64_t *weight;       /* per tile: wet nodes */
    /* Per rank r, as compressed lists: owned tiles owned[owned_start[r] .. owned_start[r + 1]) and halo tiles
     * halo[halo_start[r] .. halo_start[r + 1]), each in increasing tile index. A halo tile is a non-empty tile of
     * another rank among the 26 neighbours of one of r's tiles (periodic wrap as the tiling's neighbour lists). */
    int32_t *owned_start, *owned;
    int32_t *halo_start, *halo;
    int64_t *rank_weight;  /* per rank: wet nodes owned */
    int64_t *halo_pops;    /* per rank: populations that cross into it each step (a wet node's pull source in
                              another rank's tile) */
    double imbalance;      /* max over mean of rank_weight (1 is perfect) */
} tess_partition_t;

/* Wet nodes (fluid, inlet, outlet: tess_kind_is_wet) of each of t's tiles, with the materials of p. */
void tess_partition_tile_weights(const tess_tiling_t *t, const tess_params_t *p, int64_t *weight);

/* Partitions t's tiles among nranks with the given per-tile weights (NULL: wet nodes, with p's materials; p may
 * be NULL only when weight is given and halo_pops is then not counted: all zero). Errors: TESS_ERR_INPUT when
 * nranks < 1 or exceeds the tile count (every rank needs a tile), TESS_ERR_NOMEM. On error part holds nothing. */
tess_status tess_partition_build(tess_partition_t *part, const tess_tiling_t *t, const tess_params_t *p,
                                 const int64_t *weight, int nranks, tess_error_t *err);
void tess_partition_free(tess_partition_t *part);

/* Halo tiles of rank r, at most; the per-rank halo volume's upper bound is that times 64 times q. */
static inline int32_t tess_partition_halo_count(const tess_partition_t *part, int r)
{
    return part->halo_start[r + 1] - part->halo_start[r];
}

static inline int32_t tess_partition_owned_count(const tess_partition_t *part, int r)
{
    return part->owned_start[r + 1] - part->owned_start[r];
}

#endif
