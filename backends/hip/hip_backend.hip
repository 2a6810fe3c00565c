/* The HIP backend: the shared GPU backend (backends/gpu) compiled by hipcc against the HIP runtime, and its
 * engine for distributed runs (tess_gpu_dist.h). */
#define TESS_GPU_HIP 1
#include "tess_gpu_ops.h"
#include "tess_gpu_dist.h"

TESS_GPU_DEFINE_BACKEND(tess_backend_hip, "hip");
TESS_GPU_DEFINE_DIST(tess_dist_engine_hip, tess_backend_hip, "yes (ROCm)");
