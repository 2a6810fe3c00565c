/* One spelling of the GPU runtime for the CUDA and HIP backends (the waLBerla GPUWrapper pattern): the
 * shared backend source calls gpuMalloc, gpuMemcpy, ... and this header maps them to the vendor runtime.
 * A translation unit defines exactly one of TESS_GPU_CUDA or TESS_GPU_HIP before including it. Only names the
 * shared source uses are listed, so a missing HIP equivalent shows up at compile time, not at run time. */
#ifndef TESS_GPU_RUNTIME_H
#define TESS_GPU_RUNTIME_H

#if defined(TESS_GPU_CUDA) == defined(TESS_GPU_HIP)
#error "define exactly one of TESS_GPU_CUDA and TESS_GPU_HIP before including tess_gpu_runtime.h"
#endif

#if defined(TESS_GPU_CUDA)
#include <cuda_runtime.h>
#define TESS_GPU_RUNTIME_NAME "CUDA"
typedef cudaError_t gpuError_t;
typedef cudaEvent_t gpuEvent_t;
typedef cudaStream_t gpuStream_t;
typedef cudaDeviceProp gpuDeviceProp_t;
typedef cudaFuncAttributes gpuFuncAttributes;
#define gpuSuccess cudaSuccess
#define gpuErrorNoDevice cudaErrorNoDevice
#define gpuErrorMemoryAllocation cudaErrorMemoryAllocation
#define gpuErrorInvalidDeviceFunction cudaErrorInvalidDeviceFunction
#define gpuErrorNoBinaryForGpu cudaErrorNoKernelImageForDevice
#define gpuMemcpyHostToDevice cudaMemcpyHostToDevice
#define gpuMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define gpuGetErrorString cudaGetErrorString
#define gpuGetErrorName cudaGetErrorName
#define gpuGetLastError cudaGetLastError
#define gpuGetDeviceCount cudaGetDeviceCount
#define gpuSetDevice cudaSetDevice
#define gpuGetDeviceProperties cudaGetDeviceProperties
#define gpuDeviceGetAttribute cudaDeviceGetAttribute
#define gpuDevAttrClockRate cudaDevAttrClockRate
#define gpuDevAttrMemoryClockRate cudaDevAttrMemoryClockRate
#define gpuFuncGetAttributes cudaFuncGetAttributes
#define gpuFuncSetAttribute cudaFuncSetAttribute
#define gpuFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize
#define gpuMalloc cudaMalloc
#define gpuFree cudaFree
#define gpuMallocHost cudaMallocHost
#define gpuFreeHost cudaFreeHost
#define gpuMemGetInfo cudaMemGetInfo
#define gpuMemcpy cudaMemcpy
#define gpuMemset cudaMemset
#define gpuMemcpyAsync cudaMemcpyAsync
#define gpuMemcpyToSymbol cudaMemcpyToSymbol
#define gpuDeviceSynchronize cudaDeviceSynchronize
#define gpuEventCreate cudaEventCreate
#define gpuEventDestroy cudaEventDestroy
#define gpuEventRecord cudaEventRecord
#define gpuEventSynchronize cudaEventSynchronize
#define gpuEventElapsedTime cudaEventElapsedTime
#define gpuEventCreateWithFlags cudaEventCreateWithFlags
#define gpuEventDisableTiming cudaEventDisableTiming
#define gpuStreamCreateWithFlags cudaStreamCreateWithFlags
#define gpuStreamNonBlocking cudaStreamNonBlocking
#define gpuStreamWaitEvent cudaStreamWaitEvent
#define gpuStreamSynchronize cudaStreamSynchronize
#else
#include <hip/hip_runtime.h>
#define TESS_GPU_RUNTIME_NAME "HIP"
typedef hipError_t gpuError_t;
typedef hipEvent_t gpuEvent_t;
typedef hipStream_t gpuStream_t;
typedef hipDeviceProp_t gpuDeviceProp_t;
typedef hipFuncAttributes gpuFuncAttributes;
#define gpuSuccess hipSuccess
#define gpuErrorNoDevice hipErrorNoDevice
#define gpuErrorMemoryAllocation hipErrorOutOfMemory
#define gpuErrorInvalidDeviceFunction hipErrorInvalidDeviceFunction
#define gpuErrorNoBinaryForGpu hipErrorNoBinaryForGpu
#define gpuMemcpyHostToDevice hipMemcpyHostToDevice
#define gpuMemcpyDeviceToHost hipMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#define gpuGetErrorString hipGetErrorString
#define gpuGetErrorName hipGetErrorName
#define gpuGetLastError hipGetLastError
#define gpuGetDeviceCount hipGetDeviceCount
#define gpuSetDevice hipSetDevice
#define gpuGetDeviceProperties hipGetDeviceProperties
#define gpuDeviceGetAttribute hipDeviceGetAttribute
#define gpuDevAttrClockRate hipDeviceAttributeClockRate
#define gpuDevAttrMemoryClockRate hipDeviceAttributeMemoryClockRate
#define gpuFuncGetAttributes hipFuncGetAttributes
#define gpuFuncSetAttribute hipFuncSetAttribute
#define gpuFuncAttributeMaxDynamicSharedMemorySize hipFuncAttributeMaxDynamicSharedMemorySize
#define gpuMalloc hipMalloc
#define gpuFree hipFree
#define gpuMallocHost hipHostMalloc
#define gpuFreeHost hipHostFree
#define gpuMemGetInfo hipMemGetInfo
#define gpuMemcpy hipMemcpy
#define gpuMemset hipMemset
#define gpuMemcpyAsync hipMemcpyAsync
#define gpuMemcpyToSymbol hipMemcpyToSymbol
#define gpuDeviceSynchronize hipDeviceSynchronize
#define gpuEventCreate hipEventCreate
#define gpuEventDestroy hipEventDestroy
#define gpuEventRecord hipEventRecord
#define gpuEventSynchronize hipEventSynchronize
#define gpuEventElapsedTime hipEventElapsedTime
#define gpuEventCreateWithFlags hipEventCreateWithFlags
#define gpuEventDisableTiming hipEventDisableTiming
#define gpuStreamCreateWithFlags hipStreamCreateWithFlags
#define gpuStreamNonBlocking hipStreamNonBlocking
#define gpuStreamWaitEvent hipStreamWaitEvent
#define gpuStreamSynchronize hipStreamSynchronize
#endif

#endif
