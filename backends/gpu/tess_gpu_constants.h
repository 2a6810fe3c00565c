/* What every GPU kernel reads that is the same for every node, written once for CUDA and HIP (compiled as C++ by
 * nvcc or hipcc through tess_gpu_backend.h): the physics and, per material, whether it is computed. */
#ifndef TESS_GPU_CONSTANTS_H
#define TESS_GPU_CONSTANTS_H

#include "tess_gpu_runtime.h"
extern "C" {
#include "tess_backend.h"
#include "tess_physics.h"
}
#include <stdint.h>

#define TESS_GPU_MAX_TILES_PER_BLOCK 2
/* Shared-memory code of a halo node: TESS_GPU_WET, or the material index of a dry node (for its wall velocity). */
#define TESS_GPU_WET 0xFFu
/* A kernel's collision read from p->collision at run time (the measurement variants), not fixed at compile time. */
#define TESS_GPU_MODEL_ANY (-1)

/* Kept in constant memory: uniform loads are broadcast and fold into instructions. Static: every translation
 * unit of a backend (tess_gpu_launch.h) has its own bank, filled by tess_gpu_bind_constants. */
typedef struct {
    tess_params_t p;
    uint8_t wet[256];
    /* MR's group kernel (tess_gpu_mr_step): the materials whose Zou-He reconstruction it applies itself (D3Q19
     * inlet/outlet planes, tess_gpu_mr_zou_he_in_plain), and whether there are any (else it reads no node type) */
    uint8_t mr_zou_he[256];
    uint8_t mr_any_zou_he;
    const uint8_t *mr_zh_tile; /* per tile: whether it holds such a node (device memory; NULL: none does) */
} tess_gpu_constants_t;

static __constant__ tess_gpu_constants_t tess_gpu_c;

/* Direction tables by lattice, for run-time directions (the tile kernel's plain path folds its own at compile
 * time): cx, cy, cz, opp. */
static __constant__ int8_t tess_gpu_dir[4][27][4];

#endif
