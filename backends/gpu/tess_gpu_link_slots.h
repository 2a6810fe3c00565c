/* Curved-wall links resolved once: where each link's Bouzidi rule reads its populations. The tile kernel's
 * fix-up used to find them per link and step through the node codes of the halo and, for the quadratic rule, a
 * node type in global memory, three dependent round trips per link; with the slot it issues the five loads
 * at once (docs/performance-notes.md, "Bouzidi on the GPU"). The geometry does not change during a run, so a
 * small kernel fills the slots after initialise, from the same tile neighbourhoods the sweep uses. */
#ifndef TESS_GPU_LINK_SLOTS_H
#define TESS_GPU_LINK_SLOTS_H

#include "tess_gpu_constants.h"
extern "C" {
#include "tess_link_slots.h"
}

/* The slot's layout and filling are core's (tess_link_slots.h), the same on the CPU engine. */
typedef tess_link_slot_t tess_gpu_link_slot_t; /* 32 bytes: one sector */
#define TESS_GPU_LINK_NONE TESS_LINK_NONE

/* The slot packed into 16 bytes for the AB tile kernel, which has the tile's 27 neighbours in shared memory: q, and
 * in `bits` the direction i (5 bits, TESS_GPU_PACK_NONE for TESS_LINK_NONE), kd (5), the node (6), x + c_i and
 * x + 2 c_i each as 12 bits (1 << 11 when present | neighbour slot 0..26 << 6 | local index), and one bit set when
 * the wall term is not +0.0 (then read from the full slot). A tile extent of at least 2 keeps x + 2 c_i within the
 * 3x3x3 neighbourhood. FP64 on lattices of at most TESS_GPU_PACK_MASK_Q directions:
 * bit TESS_GPU_PACK_FIRST set on a node's first link, which carries the directions kd of all the node's links from
 * bit TESS_GPU_PACK_MASK (bit kd - 1), so that the kernel finds each node's links without shared-memory atomics. */
typedef struct {
    double q;
    uint64_t bits;
} tess_gpu_link_pack_t;
#define TESS_GPU_PACK_NONE 31u
#define TESS_GPU_PACK_FIRST 44
#define TESS_GPU_PACK_MASK 45
#define TESS_GPU_PACK_MASK_Q 19 /* directions 1..18 in bits 45..62 */

static __device__ __forceinline__ uint64_t tess_gpu_link_pack_node(const int32_t *nb27, int32_t m)
{
    if (m < 0)
        return 0;
    int j = 0;
    while (j < 26 && nb27[j] != (m >> 6))
        j++;
    return (uint64_t)((1u << 11) | ((unsigned)j << 6) | (unsigned)(m & 63));
}

/* One thread per link: core's tess_link_slot_fill on the device's tile neighbourhoods and node types, with this run's
 * materials and wall rule, and its packed form; fp64: an FP64 run (each node's first link then carries the node's
 * link directions). L: tess_gpu_q of the lattice (its slot_fill writes both precisions' wall terms). */
template <typename L>
__global__ void __launch_bounds__(128)
tess_gpu_link_slots_fill(const tess_link_t *__restrict__ links, const int32_t *__restrict__ link_tile, int64_t nlinks,
                         const tess_q_grid_t g, tess_gpu_link_slot_t *__restrict__ slots,
                         tess_gpu_link_pack_t *__restrict__ packs, int fp64)
{
    const int64_t l = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (l >= nlinks)
        return;
    const tess_link_t link = links[l];
    tess_gpu_link_slot_t s;
    const int32_t k = link_tile[l];
    L::slot_fill(&tess_gpu_c.p, &g, k, &link, &s);
    slots[l] = s;
    const int32_t *nb27 = g.neighbors + 27 * (size_t)k;
    tess_gpu_link_pack_t pk;
    pk.q = s.q;
    pk.bits = (uint64_t)(s.i == TESS_LINK_NONE ? TESS_GPU_PACK_NONE : s.i) | (uint64_t)s.kd << 5 |
              (uint64_t)s.node << 10 | tess_gpu_link_pack_node(nb27, s.n1) << 16 |
              tess_gpu_link_pack_node(nb27, s.n2) << 28 |
              (uint64_t)(__double_as_longlong(s.wall64) != 0 || __float_as_uint(s.wall32) != 0u) << 40;
    if (fp64 && L::q <= TESS_GPU_PACK_MASK_Q && (l == 0 || link_tile[l - 1] != k || links[l - 1].node != link.node)) {
        uint64_t mask = 0; /* links are sorted by tile and node */
        for (int64_t m = l; m < nlinks && link_tile[m] == k && links[m].node == link.node; m++)
            mask |= (uint64_t)1 << (links[m].dir - 1);
        pk.bits |= (uint64_t)1 << TESS_GPU_PACK_FIRST | mask << TESS_GPU_PACK_MASK;
    }
    packs[l] = pk;
}

#endif
