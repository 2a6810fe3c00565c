/* Tiling of the tile paper (Tomczak & Szafran, section 3.1 and Algorithm 1): the box is padded with solid
 * to a multiple of the tile extent, covered by tiles of 64 nodes, and only non-empty tiles are stored.
 * Tiles are 4x4x4 for the 3D lattices and 8x8x1 for D2Q9 (a 2D lattice needs no z neighbours, and a flat
 * tile keeps 64 nodes a tile so that every per-tile array keeps its size). Inside a tile, node (x, y, z)
 * has the local index x + ex (y + ey z) (for 4x4x4 this is L_XYZ of tess_layout.h). */
#ifndef TESS_TILING_H
#define TESS_TILING_H

#include "tess_error.h"
#include "tess_geometry.h"
#include "tess_links.h"
#include "tess_params.h"
#include <stdint.h>

typedef struct tess_tiling {
    int nx, ny, nz;        /* the box as given */
    int ex, ey, ez;        /* tile extent per axis: 4, 4, 4 (3D lattices) or 8, 8, 1 (D2Q9) */
    int lattice, q;        /* the lattice (tess_lattice_id, from the params) and its number of directions */
    int px, py, pz;        /* padded to multiples of the extent */
    int tx, ty, tz;        /* tiles along each axis */
    int periodic[3];
    int32_t *tile_map;     /* tx*ty*tz (x fastest): index into the non-empty list, or -1 */
    int32_t ntiles;        /* non-empty tiles */
    int32_t *tile_corner;  /* 3 per non-empty tile: node coordinates of its corner */
    int32_t *neighbors;    /* 27 per non-empty tile: the 3x3x3 tile neighbourhood (-1: empty or outside) */
    uint8_t *node_type;    /* 64 per non-empty tile, local order; material index as in the geometry */
    int64_t n_wet;         /* non-solid nodes (fluid and boundary): n_fn of eq. (14) */
    double eta_t;          /* tile utilisation, eq. (14) */
    tess_links_t links;    /* curved-wall links (tess_links_build; empty unless a case gives wall distances) */
} tess_tiling_t;

/* Whether a material kind is computed (fluid, inlet, outlet) rather than a wall. */
static inline int tess_kind_is_wet(int kind)
{
    return kind == TESS_NODE_FLUID || kind == TESS_NODE_VELOCITY || kind == TESS_NODE_PRESSURE;
}

/* Builds the tiling for the lattice p->lattice. A tile is non-empty when it holds a wet node or a moving-wall
 * node that a wet node links to (so that wall velocities survive); periodic axes must be multiples of the tile
 * extent (a padded periodic axis would not be periodic); D2Q9 needs nz = 1. Errors: TESS_ERR_INPUT (bad
 * material index, periodic size, 2D lattice on a 3D box), TESS_ERR_NOMEM. */
tess_status tess_tiling_build(tess_tiling_t *t, const tess_geometry_t *g, const tess_params_t *p, tess_error_t *err);
void tess_tiling_free(tess_tiling_t *t);

/* Neighbour slot of tile offset (dx, dy, dz) in {-1, 0, 1}^3. */
static inline int tess_tiling_slot(int dx, int dy, int dz)
{
    return (dx + 1) + 3 * (dy + 1) + 9 * (dz + 1);
}

/* Material of node (x, y, z) of the padded box (periodic wrap applied, outside the box: 0). */
uint8_t tess_tiling_node_type_at(const tess_tiling_t *t, int x, int y, int z);

/* Local index of node (x, y, z) of a tile, and back. */
static inline int tess_tiling_local(const tess_tiling_t *t, int x, int y, int z)
{
    return x + t->ex * (y + t->ey * z);
}

static inline void tess_tiling_local_xyz(const tess_tiling_t *t, int local, int *x, int *y, int *z)
{
    *x = local % t->ex;
    *y = (local / t->ex) % t->ey;
    *z = local / (t->ex * t->ey);
}

/* Tile extent of a lattice: 8x8x1 for D2Q9, 4x4x4 otherwise. */
void tess_tiling_extent(int lattice, int e[3]);

/* Index of node (x, y, z) in per-tile arrays (tile * 64 + local), or -1 when its tile is empty. */
int64_t tess_tiling_node_index(const tess_tiling_t *t, int x, int y, int z);

#endif
