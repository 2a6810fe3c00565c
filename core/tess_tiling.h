/* Tiling of the tile paper (Tomczak & Szafran, section 3.1 and Algorithm 1): the box is padded with solid
 * to a multiple of 4, covered by 4x4x4 tiles, and only non-empty tiles are stored. */
#ifndef TESS_TILING_H
#define TESS_TILING_H

#include "tess_error.h"
#include "tess_geometry.h"
#include "tess_params.h"
#include <stdint.h>

typedef struct {
    int nx, ny, nz;        /* the box as given */
    int px, py, pz;        /* padded to multiples of 4 */
    int tx, ty, tz;        /* tiles along each axis */
    int periodic[3];
    int32_t *tile_map;     /* tx*ty*tz (x fastest): index into the non-empty list, or -1 */
    int32_t ntiles;        /* non-empty tiles */
    int32_t *tile_corner;  /* 3 per non-empty tile: node coordinates of its corner */
    int32_t *neighbors;    /* 27 per non-empty tile: the 3x3x3 tile neighbourhood (-1: empty or outside) */
    uint8_t *node_type;    /* 64 per non-empty tile, L_XYZ order; material index as in the geometry */
    int64_t n_wet;         /* non-solid nodes (fluid and boundary): n_fn of eq. (14) */
    double eta_t;          /* tile utilisation, eq. (14) */
} tess_tiling_t;

/* Whether a material kind is computed (fluid, inlet, outlet) rather than a wall. */
static inline int tess_kind_is_wet(int kind)
{
    return kind == TESS_NODE_FLUID || kind == TESS_NODE_VELOCITY || kind == TESS_NODE_PRESSURE;
}

/* Builds the tiling. A tile is non-empty when it holds a wet node or a moving-wall node that a wet node
 * links to (so that wall velocities survive); periodic axes must be multiples of 4 (a padded periodic
 * axis would not be periodic). Errors: TESS_ERR_INPUT (bad material index, periodic size), TESS_ERR_NOMEM. */
tess_status tess_tiling_build(tess_tiling_t *t, const tess_geometry_t *g, const tess_params_t *p, tess_error_t *err);
void tess_tiling_free(tess_tiling_t *t);

/* Neighbour slot of tile offset (dx, dy, dz) in {-1, 0, 1}^3. */
static inline int tess_tiling_slot(int dx, int dy, int dz)
{
    return (dx + 1) + 3 * (dy + 1) + 9 * (dz + 1);
}

/* Material of node (x, y, z) of the padded box (periodic wrap applied, outside the box: 0). */
uint8_t tess_tiling_node_type_at(const tess_tiling_t *t, int x, int y, int z);

/* Index of node (x, y, z) in per-tile arrays (tile * 64 + L_XYZ), or -1 when its tile is empty. */
int64_t tess_tiling_node_index(const tess_tiling_t *t, int x, int y, int z);

#endif
