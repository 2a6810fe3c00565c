/* Does a global store drop the L1 line (or sector) it hits? The question that decides whether an AA odd step can
 * find an x-neighbour tile's sectors in L1 after that tile stored into them (docs/performance-notes.md, "GPU AA: an
 * x-run sweep for the odd step"). A measurement, not part of the build and not a test.
 *
 * One warp walks N 128-byte lines: it loads line j whole (one float a lane: 4 sectors), then, by MODE, stores
 * nothing (0), one float of sector 0 (1: lane 0), one float of sector 3 (2: lane 31) or the whole line (3), then
 * loads line j whole again; MODE 4 stores the whole line without the first load (does a store allocate the line?).
 * The loads are ld.global (LD=0) or ld.global.nc (LD=1), the tile kernel's own kind (its populations are const
 * __restrict__), in inline assembly, the second at an address offset by a kernel argument that is 0 (so that the
 * compiler can merge neither the two loads nor drop the first). Nsight Compute's L1 sectors of global loads and
 * their hits then say what the store did: 4 N hits of 8 N sectors: the line stays (updated or not); 3 N: only the
 * stored sector is dropped; 0: the whole line. MODE 4: 4 N hits of 4 N: the store allocated the line.
 *
 * Build and run on the GPU machine:
 *   nvcc -O2 -arch=sm_90 docs/experiments/l1_store_probe.cu -o /tmp/l1_store_probe
 *   ncu --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
 *   l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum /tmp/l1_store_probe
 * It launches the ten MODE x LD kernels in that order (MODE slowest), each over a fresh buffer. */
#include <cstdio>
#include <cuda_runtime.h>

template <int LD> __device__ __forceinline__ float probe_load(const float *p)
{
    float v;
    if (LD)
        asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
    else
        asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
    return v;
}

template <int MODE, int LD> __global__ void probe(float *buf, int nlines, float *sink, int zero)
{
    const int lane = threadIdx.x;
    float acc = 0.f;
    for (int j = 0; j < nlines; j++) {
        float *line = buf + 32 * (size_t)j;
        const float a = MODE == 4 ? (float)j : probe_load<LD>(line + lane);
        __syncwarp();
        if (MODE == 3 || MODE == 4 || (MODE == 1 && lane == 0) || (MODE == 2 && lane == 31))
            line[lane] = a + 1.f;
        __syncwarp();
        acc += a + probe_load<LD>(line + lane + zero);
    }
    sink[lane] = acc;
}

int main()
{
    const int nlines = 4096;
    float *buf, *sink;
    if (cudaMalloc(&buf, 10 * 32 * sizeof(float) * (size_t)nlines) != cudaSuccess ||
        cudaMalloc(&sink, 32 * sizeof(float)) != cudaSuccess) {
        fprintf(stderr, "cudaMalloc failed\n");
        return 1;
    }
    cudaMemset(buf, 0, 10 * 32 * sizeof(float) * (size_t)nlines);
    float *b = buf;
    const size_t step = 32 * (size_t)nlines;
    probe<0, 0><<<1, 32>>>(b, nlines, sink, 0), b += step;
    probe<0, 1><<<1, 32>>>(b, nlines, sink, 0), b += step;
    probe<1, 0><<<1, 32>>>(b, nlines, sink, 0), b += step;
    probe<1, 1><<<1, 32>>>(b, nlines, sink, 0), b += step;
    probe<2, 0><<<1, 32>>>(b, nlines, sink, 0), b += step;
    probe<2, 1><<<1, 32>>>(b, nlines, sink, 0), b += step;
    probe<3, 0><<<1, 32>>>(b, nlines, sink, 0), b += step;
    probe<3, 1><<<1, 32>>>(b, nlines, sink, 0), b += step;
    probe<4, 0><<<1, 32>>>(b, nlines, sink, 0), b += step;
    probe<4, 1><<<1, 32>>>(b, nlines, sink, 0);
    const cudaError_t e = cudaDeviceSynchronize();
    printf("l1_store_probe: %d lines a kernel, 10 kernels (MODE 0-4 x LD 0-1): %s\n", nlines, cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
