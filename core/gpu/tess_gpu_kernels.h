/* The GPU kernels, written once for CUDA and HIP (compiled as C++ by nvcc or hipcc through
 * tess_gpu_backend.h). The fused AB pull step follows the tile paper (Tomczak & Szafran, Algorithm 2):
 * one thread per node, 64 threads per tile, one or two tiles per block; the 3x3x3 tile neighbourhood and the
 * node types of the tile and its one-node halo (6x6x6) are copied to shared memory behind the only barrier;
 * then every wet node gathers its 19 populations, applies bounce-back for links from dry nodes, runs the
 * core's node update in registers and stores in the per-direction layouts of tess_layout.h.
 *
 * Gather semantics are those of the CPU reference (backends/cpu/cpu_ab_step_t.h): a wet upstream node gives
 * its f_i; a dry upstream node (or an empty tile, or outside) gives tess_bounce_back of the node's own f_opp(i)
 * from the previous copy with the upstream node's material. Dry nodes inside a tile are neither read nor
 * written. */
#ifndef TESS_GPU_KERNELS_H
#define TESS_GPU_KERNELS_H

#include "tess_gpu_runtime.h"
extern "C" {
#include "tess_backend.h"
#include "tess_layout.h"
#include "tess_physics.h"
}
#include <stdint.h>

#define TESS_GPU_MAX_TILES_PER_BLOCK 2
/* Shared-memory code of a halo node: TESS_GPU_WET, or the material index of a dry node (for its wall velocity). */
#define TESS_GPU_WET 0xFFu

/* Everything the kernels read that is the same for every node: the physics and, per material, whether it is
 * computed. Kept in constant memory: uniform loads are broadcast and fold into instructions. */
typedef struct {
    tess_params_t p;
    uint8_t wet[256];
} tess_gpu_constants_t;

__constant__ tess_gpu_constants_t tess_gpu_c;

/* The core's physics in the kernel's precision. */
template <typename R> struct tess_gpu_physics;
#define TESS_GPU_PHYSICS(R, SUFFIX)                                                                            \
    template <> struct tess_gpu_physics<R> {                                                                   \
        static __device__ __forceinline__ void node_collide(const tess_params_t *p, const tess_material_t *m,  \
                                                            R *f)                                              \
        {                                                                                                      \
            tess_node_collide_##SUFFIX(p, m, f);                                                               \
        }                                                                                                      \
        static __device__ __forceinline__ void zou_he(const tess_params_t *p, const tess_material_t *m, R *f)  \
        {                                                                                                      \
            tess_zou_he_##SUFFIX(p, m, f);                                                                     \
        }                                                                                                      \
        static __device__ __forceinline__ void collide_model(const tess_params_t *p, int collision, int fluid, \
                                                             int use_force, R *f)                              \
        {                                                                                                      \
            tess_collide_model_##SUFFIX(p, collision, fluid, use_force, f);                                    \
        }                                                                                                      \
        static __device__ __forceinline__ R bounce_back(int i, R f_opp, const tess_material_t *wall)           \
        {                                                                                                      \
            return tess_bounce_back_##SUFFIX(i, f_opp, wall);                                                  \
        }                                                                                                      \
    }
TESS_GPU_PHYSICS(double, f64);
TESS_GPU_PHYSICS(float, f32);
#undef TESS_GPU_PHYSICS

/* Model specialisation of the full kernel: collision * 4 + fluid * 2 + use_force for LBGK and MRT, whose
 * kernels then carry only their own model's code and registers; TESS_GPU_MODEL_ANY reads the choices at run
 * time (the layout study's L_XYZ kernels, and any model without a specialisation). */
#define TESS_GPU_MODEL_ANY (-1)
#define TESS_GPU_MODEL(collision, fluid, force) ((collision) * 4 + (fluid) * 2 + (force))

/* The node update after the gather, as the core defines it (tess_node_collide): boundary reconstruction, then
 * collision, with the model choices constant where the kernel is specialised. */
template <typename R, int MODEL>
static __device__ __forceinline__ void tess_gpu_node_update(const tess_params_t *p, const tess_material_t *m, R *f)
{
    if (MODEL == TESS_GPU_MODEL_ANY) {
        tess_gpu_physics<R>::node_collide(p, m, f);
    } else {
        if (m->kind == TESS_NODE_VELOCITY || m->kind == TESS_NODE_PRESSURE)
            tess_gpu_physics<R>::zou_he(p, m, f);
        tess_gpu_physics<R>::collide_model(p, MODEL >> 2, (MODEL >> 1) & 1, MODEL & 1, f);
    }
}

template <typename R, int VARIANT, int PLAIN_XYZ, int MODEL>
__global__ void __launch_bounds__(64 * TESS_GPU_MAX_TILES_PER_BLOCK)
tess_gpu_ab_step(const R *__restrict__ src, R *__restrict__ dst, const int32_t *__restrict__ neighbors,
                 const uint8_t *__restrict__ node_type, int32_t ntiles)
{
    __shared__ int32_t s_nb[TESS_GPU_MAX_TILES_PER_BLOCK][27];
    __shared__ uint8_t s_code[TESS_GPU_MAX_TILES_PER_BLOCK][216];
    const int local = (int)(threadIdx.x >> 6);
    const int n = (int)(threadIdx.x & 63u);
    const int32_t k = (int32_t)(blockIdx.x * (blockDim.x >> 6)) + local;
    const bool active = k < ntiles;
    const int x = n & 3, y = (n >> 2) & 3, z = n >> 4;
    const tess_gpu_constants_t *c = &tess_gpu_c;

    if (VARIANT != TESS_KERNEL_READ_WRITE_ONLY) {
        /* Algorithm 2, lines 1-4: the neighbourhood, then the node codes of the tile and its halo. */
        if (active && n < 27)
            s_nb[local][n] = neighbors[27 * (size_t)k + n];
        __syncthreads();
        if (active) {
            for (int j = n; j < 216; j += 64) {
                const int hx = j % 6 - 1, hy = (j / 6) % 6 - 1, hz = j / 36 - 1;
                const int slot = ((hx + 4) >> 2) + 3 * ((hy + 4) >> 2) + 9 * ((hz + 4) >> 2);
                const int32_t t2 = s_nb[local][slot];
                const unsigned type =
                    t2 < 0 ? 0u : node_type[64 * (size_t)t2 + tess_layout_xyz(hx & 3, hy & 3, hz & 3)];
                s_code[local][j] = c->wet[type] ? (uint8_t)TESS_GPU_WET : (uint8_t)type;
            }
        }
        __syncthreads();
    }
    if (!active)
        return;
    const unsigned own_type = node_type[64 * (size_t)k + n];
    if (!c->wet[own_type])
        return; /* dry nodes inside a tile: nothing reads them as fluid */

    const R *self = src + (size_t)k * 19 * 64;
    R f[19];
    if (VARIANT == TESS_KERNEL_READ_WRITE_ONLY) {
        TESS_UNROLL
        for (int i = 0; i < 19; i++)
            f[i] = self[i * 64 + tess_layout_offset(i, x, y, z, PLAIN_XYZ)];
    } else {
        const int cx[19] = TESS_D3Q19_CX, cy[19] = TESS_D3Q19_CY, cz[19] = TESS_D3Q19_CZ;
        /* Every load is issued unconditionally, so all 19 are in flight together. Where the upstream node is
         * dry, FP64 loads the node's own f_opp(i), which the bounce-back then turns into f_i: one load per link
         * (random spheres 192^3, porosity 0.11: 43% -> 48% of copy; dense cavity 97% -> 95%). FP32 loads a dummy
         * f_i of the own tile instead and f_opp(i) afterwards: the extra index arithmetic costs FP32 7% on the
         * dense cavity (82% -> 76% of copy), more than the saved load gains (measured on the H100,
         * docs/performance.md). */
        const bool own_load = sizeof(R) == 8;
        const unsigned own[3] = {tess_layout_apply(TESS_LAYOUT_XYZ, x, y, z), tess_layout_apply(TESS_LAYOUT_YXZ, x, y, z),
                                 tess_layout_apply(TESS_LAYOUT_ZIGZAG_NE, x, y, z)};
        TESS_UNROLL
        for (int i = 0; i < 19; i++) {
            const int sx = x - cx[i], sy = y - cy[i], sz = z - cz[i];
            const unsigned code = s_code[local][(sz + 1) * 36 + (sy + 1) * 6 + (sx + 1)];
            const int opp = TESS_D3Q19_OPP(i);
            size_t at;
            if (own_load && code != TESS_GPU_WET)
                at = ((size_t)k * 19 + opp) * 64 + own[PLAIN_XYZ ? 0 : tess_layout_of_dir_d3q19(opp)];
            else
                at = ((size_t)(code == TESS_GPU_WET ? s_nb[local][tess_pull_slot(i, x, y, z)] : k) * 19 + i) * 64 +
                     tess_pull_offset(i, x, y, z, PLAIN_XYZ);
            f[i] = src[at];
        }
        TESS_UNROLL
        for (int i = 0; i < 19; i++) {
            const int sx = x - cx[i], sy = y - cy[i], sz = z - cz[i];
            const unsigned code = s_code[local][(sz + 1) * 36 + (sy + 1) * 6 + (sx + 1)];
            if (code != TESS_GPU_WET) {
                const int opp = TESS_D3Q19_OPP(i);
                const R f_opp = own_load ? f[i] : self[opp * 64 + tess_layout_offset(opp, x, y, z, PLAIN_XYZ)];
                f[i] = tess_gpu_physics<R>::bounce_back(i, f_opp, &c->p.mat[code]);
            }
        }
        if (VARIANT == TESS_KERNEL_FULL)
            tess_gpu_node_update<R, MODEL>(&c->p, &c->p.mat[own_type], f);
    }
    R *out = dst + (size_t)k * 19 * 64;
    TESS_UNROLL
    for (int i = 0; i < 19; i++)
        out[i * 64 + tess_layout_offset(i, x, y, z, PLAIN_XYZ)] = f[i];
}

/* Grid-stride copy of 16-byte elements: the device's attainable streaming bandwidth, the benchmark's reference. */
__global__ void tess_gpu_copy(const double2 *__restrict__ src, double2 *__restrict__ dst, size_t n)
{
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n; j += (size_t)gridDim.x * blockDim.x)
        dst[j] = src[j];
}

#endif
