/* The lattice-generic engine on the GPU (docs/architecture.md, "Generic lattice engine"), written once for CUDA
 * and HIP: the AB pattern, one thread per node, one tile (64 threads) per block. A wet node calls the core's
 * tess_q_node_step (the pull with walls, curved links and inlets/outlets, then the collision; core/tess_q_step.h)
 * and stores its populations in its own slots of the other copy, in the engine's storage
 * (t * Q + i) * 64 + local, as backends/cpu/cpu_q.c does. No physics is written here: CPU and GPU compile the same
 * per-node source, so the reproducible build gives the same bits on both.
 *
 * Correct first, not tuned: node types, neighbour lists and populations are read from global memory link by
 * link (no shared-memory halo as in tess_gpu_kernels.h), and every tile takes the full per-node function (the
 * CPU's plain-tile path gives the same bits, so it is left out). */
#ifndef TESS_GPU_Q_KERNELS_H
#define TESS_GPU_Q_KERNELS_H

#include "tess_gpu_kernels.h"
extern "C" {
#include "tess_q_step.h"
}

/* What the generic kernel reads besides the populations; device pointers. The link arrays are NULL when the
 * tiling has no curved links (every node then has none). */
typedef struct {
    const int32_t *neighbors;   /* 27 per tile */
    const uint8_t *node_type;   /* 64 per tile, local order */
    const tess_link_t *links;   /* the tiling's curved-wall links, sorted by tile and node */
    const int64_t *node_link;   /* per tile node: its first link */
    const uint8_t *node_nlink;  /* per tile node: its number of links */
    const int32_t *corner;      /* 3 per tile: box coordinates of its node (0, 0, 0) (profiled inlets) */
    int ex, ey, ez;             /* tile extent */
    int32_t ntiles;
} tess_gpu_q_args_t;

/* The core's per-node functions of one lattice and precision, by template arguments. */
template <typename R, int LATTICE> struct tess_gpu_q;
#define TESS_GPU_Q(R, LATTICE, NAME, Q)                                                                          \
    template <> struct tess_gpu_q<R, LATTICE> {                                                                 \
        enum { q = Q };                                                                                          \
        static __device__ __forceinline__ void node_step(const tess_params_t *p, const tess_q_grid_t *g,         \
                                                         const R *f, int32_t k, int x, int y, int z,             \
                                                         const tess_link_t *links, int nlinks, R *out)           \
        {                                                                                                        \
            tess_q_node_step_##NAME(p, g, f, TESS_Q_CANON, k, x, y, z, links, nlinks, out);                      \
        }                                                                                                        \
        static __device__ __forceinline__ int64_t slot(const tess_q_grid_t *g, const tess_params_t *p, int32_t k, \
                                                       int x, int y, int z, int i)                               \
        {                                                                                                        \
            return tess_q_slot_##NAME(g, p, TESS_Q_CANON, k, x, y, z, i);                                        \
        }                                                                                                        \
    }
TESS_GPU_Q(double, TESS_LATTICE_D2Q9, d2q9_f64, 9);
TESS_GPU_Q(float, TESS_LATTICE_D2Q9, d2q9_f32, 9);
TESS_GPU_Q(double, TESS_LATTICE_D3Q13, d3q13_f64, 13);
TESS_GPU_Q(float, TESS_LATTICE_D3Q13, d3q13_f32, 13);
TESS_GPU_Q(double, TESS_LATTICE_D3Q19, d3q19_f64, 19);
TESS_GPU_Q(float, TESS_LATTICE_D3Q19, d3q19_f32, 19);
TESS_GPU_Q(double, TESS_LATTICE_D3Q27, d3q27_f64, 27);
TESS_GPU_Q(float, TESS_LATTICE_D3Q27, d3q27_f32, 27);
#undef TESS_GPU_Q

/* One AB step: src holds the canonical post-collision state (slot i of node y is f*_i(y)), dst receives the
 * next one. Block k is tile k; thread n is its node of local index n = x + ex (y + ey z), the engine's order.
 * Dry nodes are neither read as fluid nor written: both copies start with the state (as on the CPU). */
template <typename R, int LATTICE>
__global__ void __launch_bounds__(64)
tess_gpu_q_ab_step(const R *__restrict__ src, R *__restrict__ dst, const tess_gpu_q_args_t a)
{
    typedef tess_gpu_q<R, LATTICE> L;
    const int32_t k = (int32_t)blockIdx.x;
    const int n = (int)threadIdx.x;
    if (k >= a.ntiles || n >= 64)
        return;
    const tess_params_t *p = &tess_gpu_c.p;
    const int64_t node = 64 * (int64_t)k + n;
    if (!tess_q_kind_is_wet(p->mat[a.node_type[node]].kind))
        return;
    tess_q_grid_t g;
    g.neighbors = a.neighbors;
    g.node_type = a.node_type;
    g.corner = a.corner;
    g.ex = a.ex;
    g.ey = a.ey;
    g.ez = a.ez;
    const int x = n % a.ex, y = (n / a.ex) % a.ey, z = n / (a.ex * a.ey);
    const int nlinks = a.node_nlink ? (int)a.node_nlink[node] : 0;
    const tess_link_t *links = nlinks ? a.links + a.node_link[node] : a.links;
    R f[L::q];
    L::node_step(p, &g, src, k, x, y, z, links, nlinks, f);
    for (int i = 0; i < L::q; i++)
        dst[L::slot(&g, p, k, x, y, z, i)] = f[i];
}

#endif
