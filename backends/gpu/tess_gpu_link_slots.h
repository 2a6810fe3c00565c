/* Curved-wall links resolved once: where each link's Bouzidi rule reads its populations. The tile kernel's
 * fix-up used to find them per link and step through the node codes of the halo and, for the quadratic rule, a
 * node type in global memory, three dependent round trips per link; with the slot it issues the five loads
 * at once (docs/performance-notes.md, "Bouzidi on the GPU"). The geometry does not change during a run, so a
 * small kernel fills the slots after initialise, from the same tile neighbourhoods the sweep uses. */
#ifndef TESS_GPU_LINK_SLOTS_H
#define TESS_GPU_LINK_SLOTS_H

#include "tess_gpu_constants.h"
extern "C" {
#include "tess_links.h"
}

/* One link of node n of tile k (the node's own range of tess_links_node_ranges): its incoming direction i and opp(i),
 * the material of the dry node x - c_i (for the moving-wall term), q, and the tile nodes (64 tile + local) x + c_i
 * and x + 2 c_i when the rule reads them (wet), else -1. i = TESS_GPU_LINK_NONE: x - c_i is wet, the plain
 * pull stands. */
typedef struct {
    double q;
    double wall64; /* the moving-wall term of the link (tess_q_wall_term), FP64 and FP32 */
    float wall32;
    int32_t n1;
    int32_t n2;
    uint8_t i;
    uint8_t kd; /* opp(i): the direction towards the wall */
    uint8_t up;
    uint8_t node; /* the node's local index in its tile */
} tess_gpu_link_slot_t; /* 32 bytes: one sector */

#define TESS_GPU_LINK_NONE 0xFFu

/* The tile node of box offset (x, y, z) from node (0, 0, 0) of tile k, one tile away at most, or -1 when that tile
 * is empty. */
static __device__ __forceinline__ int32_t tess_gpu_tile_node(const int32_t *__restrict__ neighbors, int32_t k, int x,
                                                            int y, int z, int ex, int ey, int ez)
{
    const int sx = x < 0 ? -1 : x >= ex ? 1 : 0, sy = y < 0 ? -1 : y >= ey ? 1 : 0, sz = z < 0 ? -1 : z >= ez ? 1 : 0;
    const int32_t t = neighbors[27 * (size_t)k + (sx + 1) + 3 * (sy + 1) + 9 * (sz + 1)];
    if (t < 0)
        return -1;
    return 64 * t + (x - sx * ex) + ex * ((y - sy * ey) + ey * (z - sz * ez));
}

/* One thread per link: tess_q_pull_from's choice of data for the Bouzidi rule (order 2 reads x + 2 c_i only when
 * x + c_i is wet; a missing node falls back as there). Needs the constants of this run (wet, wall). */
template <typename L64, typename L32> /* tess_gpu_q of the lattice in FP64 and FP32 */
__global__ void __launch_bounds__(128)
tess_gpu_link_slots_fill(const tess_link_t *__restrict__ links, const int32_t *__restrict__ link_tile, int64_t nlinks,
                         const int32_t *__restrict__ neighbors, const uint8_t *__restrict__ node_type, int lattice,
                         int ex, int ey, int ez, tess_gpu_link_slot_t *__restrict__ slots)
{
    const int64_t l = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (l >= nlinks)
        return;
    const tess_gpu_constants_t *c = &tess_gpu_c;
    const tess_link_t link = links[l];
    const int32_t k = (int32_t)link_tile[l];
    const int n = link.node, x = n % ex, y = (n / ex) % ey, z = n / (ex * ey);
    const int i = tess_gpu_dir[lattice][link.dir][3];
    const int dx = tess_gpu_dir[lattice][i][0], dy = tess_gpu_dir[lattice][i][1], dz = tess_gpu_dir[lattice][i][2];
    tess_gpu_link_slot_t s;
    s.q = link.q;
    s.n1 = s.n2 = -1;
    s.i = (uint8_t)TESS_GPU_LINK_NONE;
    s.kd = (uint8_t)link.dir;
    s.up = 0;
    s.node = (uint8_t)n;
    s.wall64 = 0.0;
    s.wall32 = 0.0f;
    const int32_t nu = tess_gpu_tile_node(neighbors, k, x - dx, y - dy, z - dz, ex, ey, ez);
    const unsigned up = nu < 0 ? 0u : node_type[nu];
    if (!c->wet[up]) {
        s.i = (uint8_t)i;
        s.up = (uint8_t)up;
        /* Computed here once: the core function indexes its direction tables at run time, which in the sweep
         * put them on every thread's stack (local memory traffic per node). */
        s.wall64 = L64::wall_term(i, &c->p.mat[up]);
        s.wall32 = L32::wall_term(i, &c->p.mat[up]);
        const int32_t n1 = tess_gpu_tile_node(neighbors, k, x + dx, y + dy, z + dz, ex, ey, ez);
        if (n1 >= 0 && c->wet[node_type[n1]]) {
            s.n1 = n1;
            if (c->p.wall == TESS_WALL_BOUZIDI_QUADRATIC) {
                const int32_t n2 = tess_gpu_tile_node(neighbors, k, x + 2 * dx, y + 2 * dy, z + 2 * dz, ex, ey, ez);
                if (n2 >= 0 && c->wet[node_type[n2]])
                    s.n2 = n2;
            }
        }
    }
    slots[l] = s;
}

#endif
