/* Precomputed pull addressing for one tile (64 nodes x 19 directions): where each node's f_i comes from
 * (neighbour-tile slot and offset in that tile's data block) and where its own f_opp(i) sits for
 * bounce-back. Built once from the core's layout functions, so the CPU loops carry no index arithmetic. */
#ifndef TESS_CPU_GATHER_TABLE_H
#define TESS_CPU_GATHER_TABLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint8_t src_slot[19][64];  /* 3x3x3 neighbourhood slot of the upstream node x - c_i */
    uint8_t src_xyz[19][64];   /* upstream node inside its tile, L_XYZ (for its node type) */
    uint16_t src_off[19][64];  /* upstream f_i inside its tile's data block of direction i */
    uint16_t self_opp[19][64]; /* this node's f_opp(i) inside the data block of opp(i) */
    uint16_t dst_off[19][64];  /* this node's f_i inside the data block of direction i */
    uint16_t src_idx[19][64];  /* i * 64 + src_off: the upstream f_i relative to its tile's first value */
    uint8_t dst_plain[19];     /* 1: dst_off is the identity (L_XYZ), the store is a straight copy */
} tess_cpu_gather_table_t;

void tess_cpu_gather_table_build(tess_cpu_gather_table_t *g, int plain_xyz);

/* The AB and AA patterns keep every direction of a tile in L_XYZ (x fastest): a row of 4 nodes then pulls from
 * contiguous values and the even AA step and the AB store are block copies, which vectorise; the paper's
 * per-direction layouts serve the GPU's coalescing and buy nothing in a CPU cache. Converts tile k (19 x 64
 * values of value_size bytes) from the canonical layouts to L_XYZ (to_xyz) or back. */
void tess_cpu_tile_convert(int32_t k, void *dst, const void *src, size_t value_size, int to_xyz);

#endif
