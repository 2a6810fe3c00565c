/* The CUDA backend: the shared GPU backend (backends/gpu) compiled by nvcc against the CUDA runtime, and its
 * engine for distributed runs (tess_gpu_dist.h). */
#define TESS_GPU_CUDA 1
#include "tess_gpu_ops.h"
#include "tess_gpu_dist.h"

TESS_GPU_DEFINE_BACKEND(tess_backend_cuda, "cuda");
TESS_GPU_DEFINE_DIST(tess_dist_engine_cuda, tess_backend_cuda, "yes (CUDA)");
