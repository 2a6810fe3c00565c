/* Tiles of 4x4x4 nodes and the intra-tile layouts of the tile paper (Tomczak & Szafran, eqs. 11-13).
 * Every backend, the I/O and the tests address populations only through these functions, so the
 * layout is decided here and nowhere else.
 *
 * Storage of one population copy: for each non-empty tile t, for each direction i, a data block of
 * 64 values; node (xt, yt, zt) of the tile holds its f_i at
 *     (t * Q + i) * 64 + tess_layout_offset(i, xt, yt, zt).
 * Node types use one block per tile in L_XYZ order. */
#ifndef TESS_LAYOUT_H
#define TESS_LAYOUT_H

#include "tess_config.h"
#include "tess_d3q19.h"

#define TESS_TILE_EDGE 4
#define TESS_TILE_NODES 64

typedef enum { TESS_LAYOUT_XYZ = 0, TESS_LAYOUT_YXZ = 1, TESS_LAYOUT_ZIGZAG_NE = 2 } tess_layout_kind;

/* Eq. (11). */
TESS_HD TESS_INLINE unsigned tess_layout_xyz(unsigned x, unsigned y, unsigned z)
{
    return x + 4u * y + 16u * z;
}

/* Eq. (12). */
TESS_HD TESS_INLINE unsigned tess_layout_yxz(unsigned x, unsigned y, unsigned z)
{
    return y + 4u * x + 16u * z;
}

/* Eq. (13): pairs of z-neighbours side by side, rows of x running along a zigzag in y. */
TESS_HD TESS_INLINE unsigned tess_layout_zigzag_ne(unsigned x, unsigned y, unsigned z)
{
    return 2u * (x + 3u * y + ((x + 1u) & 4u) * (3u - y)) + (z & 1u) + 16u * (z & 2u);
}

/* The paper's assignment for D3Q19 (section 3.2): YXZ for E, W, ET, EB, NW, SW, WT, WB;
 * zigzagNE for NE and SE; XYZ for the rest. Indices follow tess_d3q19.h. */
TESS_HD TESS_INLINE int tess_layout_of_dir_d3q19(int i)
{
    switch (i) {
    case 1: case 2: case 8: case 10: case 11: case 12: case 13: case 14:
        return TESS_LAYOUT_YXZ;
    case 7: case 9:
        return TESS_LAYOUT_ZIGZAG_NE;
    default:
        return TESS_LAYOUT_XYZ;
    }
}

TESS_HD TESS_INLINE unsigned tess_layout_apply(int kind, unsigned x, unsigned y, unsigned z)
{
    return kind == TESS_LAYOUT_YXZ         ? tess_layout_yxz(x, y, z)
           : kind == TESS_LAYOUT_ZIGZAG_NE ? tess_layout_zigzag_ne(x, y, z)
                                           : tess_layout_xyz(x, y, z);
}

/* Offset of node (x, y, z) of a tile inside the data block of direction i.
 * plain_xyz != 0 selects L_XYZ for every direction (the paper's baseline in Table 5). */
TESS_HD TESS_INLINE unsigned tess_layout_offset(int i, unsigned x, unsigned y, unsigned z, int plain_xyz)
{
    return plain_xyz ? tess_layout_xyz(x, y, z) : tess_layout_apply(tess_layout_of_dir_d3q19(i), x, y, z);
}

/* Pull addressing inside a 3x3x3 tile neighbourhood: node (x, y, z) of a tile pulls its f_i from the upstream
 * node (x, y, z) - c_i, which lies in the neighbour tile of slot (dx + 1) + 3 (dy + 1) + 9 (dz + 1), dx, dy, dz in
 * {-1, 0, 1} (the tiling's neighbour order), at tile coordinates ((x - cx) & 3, ...). Every backend's gather uses
 * these two, so the neighbourhood convention lives here with the layouts. With constant arguments (unrolled
 * loops) both fold to constants. */
TESS_HD TESS_INLINE int tess_pull_slot(int i, int x, int y, int z)
{
    const int cx[19] = TESS_D3Q19_CX, cy[19] = TESS_D3Q19_CY, cz[19] = TESS_D3Q19_CZ;
    /* (s + 4) >> 2 - 1 is floor(s / 4) for s in -1..4 */
    return ((x - cx[i] + 4) >> 2) + 3 * ((y - cy[i] + 4) >> 2) + 9 * ((z - cz[i] + 4) >> 2);
}

/* Offset of the upstream f_i in its tile's data block of direction i. */
TESS_HD TESS_INLINE unsigned tess_pull_offset(int i, int x, int y, int z, int plain_xyz)
{
    const int cx[19] = TESS_D3Q19_CX, cy[19] = TESS_D3Q19_CY, cz[19] = TESS_D3Q19_CZ;
    return tess_layout_offset(i, (unsigned)(x - cx[i]) & 3u, (unsigned)(y - cy[i]) & 3u, (unsigned)(z - cz[i]) & 3u,
                              plain_xyz);
}

#endif
