/* The HIP backend: the shared GPU backend (backends/gpu) compiled by hipcc against the HIP runtime. */
#define TESS_GPU_HIP 1
#include "tess_gpu_backend.h"

TESS_GPU_DEFINE_BACKEND(tess_backend_hip, "hip");
