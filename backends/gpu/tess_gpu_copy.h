/* The copy kernel that measures the device's attainable streaming bandwidth, `tessera bench`'s reference. */
#ifndef TESS_GPU_COPY_H
#define TESS_GPU_COPY_H

#include "tess_gpu_runtime.h"
#include <stddef.h>

/* Grid-stride copy of 16-byte elements (static: the backend's one translation unit launches it). */
static __global__ void tess_gpu_copy(const double2 *__restrict__ src, double2 *__restrict__ dst, size_t n)
{
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n; j += (size_t)gridDim.x * blockDim.x)
        dst[j] = src[j];
}

#endif
