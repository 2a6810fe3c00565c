/* The CUDA backend's step launcher for one lattice, precision and pattern step
 * (tess_gpu_launch.h); CMakeLists.txt compiles this file once per triple, with TESS_GPU_STEP_R,
 * TESS_GPU_STEP_LATTICE and TESS_GPU_STEP_PAT set. */
#define TESS_GPU_CUDA 1
#include "tess_gpu_launch.h"

template tess_status tess_gpu_launch_step<TESS_GPU_STEP_R, TESS_GPU_STEP_LATTICE, TESS_GPU_STEP_PAT>(tess_backend_t *,
                                                                                                  tess_error_t *);
