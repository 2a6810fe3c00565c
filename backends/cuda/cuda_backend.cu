/* The CUDA backend: the shared GPU backend (backends/gpu) compiled by nvcc against the CUDA runtime. */
#define TESS_GPU_CUDA 1
#include "tess_gpu_backend.h"

TESS_GPU_DEFINE_BACKEND(tess_backend_cuda, "cuda");
