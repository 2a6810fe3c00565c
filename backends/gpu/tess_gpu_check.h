/* The divergence test's reduction on the device (tess_check.h, docs/reliability.md), written once for CUDA and
 * HIP: density range, largest |u| and the count of NaN/Inf over the wet nodes, so that a check costs one pass
 * over the populations and a few hundred bytes to the host instead of the whole state. The moments are the
 * core's output moments (tess_q_macroscopic, what tess_state_fields computes on the host), read from the
 * constant-memory physics of tess_gpu_constants.h, which the caller must have uploaded.
 *
 * A grid-stride kernel of at most TESS_GPU_CHECK_BLOCKS blocks reduces in shared memory and writes one partial
 * result per block; the host combines them. No atomics: the result is the same on every run. */
#ifndef TESS_GPU_CHECK_H
#define TESS_GPU_CHECK_H

#include "tess_gpu_tile_step.h"
extern "C" {
#include "tess_check.h"
#include "tess_physics_q.h"
}
#include <math.h>

#define TESS_GPU_CHECK_THREADS 256
#define TESS_GPU_CHECK_BLOCKS 1024

typedef struct {
    double rho_min, rho_max, u2_max;
    unsigned long long nonfinite, wet;
} tess_gpu_check_partial_t;

/* The core's output moments of one lattice, overloaded on the precision; the lattice's q comes from
 * tess_gpu_q (tess_gpu_q_kernels.h). */
template <int LATTICE> struct tess_gpu_check_lattice {};
#define TESS_GPU_CHECK_M(LATTICE, NAME)                                                                         \
    static __device__ __forceinline__ void tess_gpu_check_moments(tess_gpu_check_lattice<LATTICE>,             \
                                                                  const tess_params_t *p, const double *f,     \
                                                                  double *rho, double *u)                      \
    {                                                                                                            \
        tess_q_macroscopic_##NAME##_f64(p, f, rho, u);                                                           \
    }                                                                                                            \
    static __device__ __forceinline__ void tess_gpu_check_moments(tess_gpu_check_lattice<LATTICE>,             \
                                                                  const tess_params_t *p, const float *f,      \
                                                                  float *rho, float *u)                        \
    {                                                                                                            \
        tess_q_macroscopic_##NAME##_f32(p, f, rho, u);                                                           \
    }
TESS_GPU_CHECK_M(TESS_LATTICE_D2Q9, d2q9)
TESS_GPU_CHECK_M(TESS_LATTICE_D3Q13, d3q13)
TESS_GPU_CHECK_M(TESS_LATTICE_D3Q19, d3q19)
TESS_GPU_CHECK_M(TESS_LATTICE_D3Q27, d3q27)
#undef TESS_GPU_CHECK_M

/* f: the device copy holding the current state, in the engine's storage (t * Q + i) * 64 + local, local node
 * order x + ex (y + ey z) as node_type. */
template <typename R, int LATTICE>
__global__ void __launch_bounds__(TESS_GPU_CHECK_THREADS)
tess_gpu_check_state_kernel(const R *__restrict__ f, const uint8_t *__restrict__ node_type, int32_t ntiles,
                            tess_gpu_check_partial_t *__restrict__ out)
{
    enum { Q = tess_gpu_q<R, LATTICE>::q };
    __shared__ double s_min[TESS_GPU_CHECK_THREADS], s_max[TESS_GPU_CHECK_THREADS], s_u2[TESS_GPU_CHECK_THREADS];
    __shared__ unsigned long long s_bad[TESS_GPU_CHECK_THREADS], s_wet[TESS_GPU_CHECK_THREADS];
    double mn = INFINITY, mx = -INFINITY, u2max = 0.0;
    unsigned long long bad = 0, wet = 0;
    const int64_t total = 64 * (int64_t)ntiles;
    for (int64_t n = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; n < total; n += (int64_t)gridDim.x * blockDim.x) {
        if (!tess_gpu_c.wet[node_type[n]])
            continue;
        const int64_t k = n / 64;
        const int local = (int)(n % 64);
        R fl[Q];
        for (int i = 0; i < Q; i++)
            fl[i] = f[(k * Q + i) * 64 + local];
        R rho, u[3];
        tess_gpu_check_moments(tess_gpu_check_lattice<LATTICE>(), &tess_gpu_c.p, fl, &rho, u);
        const double r = (double)rho, u2 = (double)u[0] * u[0] + (double)u[1] * u[1] + (double)u[2] * u[2];
        wet++;
        if (!isfinite(r) || !isfinite(u2)) {
            bad++;
            continue;
        }
        mn = fmin(mn, r);
        mx = fmax(mx, r);
        u2max = fmax(u2max, u2);
    }
    const int t = (int)threadIdx.x;
    s_min[t] = mn;
    s_max[t] = mx;
    s_u2[t] = u2max;
    s_bad[t] = bad;
    s_wet[t] = wet;
    __syncthreads();
    for (int h = TESS_GPU_CHECK_THREADS / 2; h > 0; h /= 2) {
        if (t < h) {
            s_min[t] = fmin(s_min[t], s_min[t + h]);
            s_max[t] = fmax(s_max[t], s_max[t + h]);
            s_u2[t] = fmax(s_u2[t], s_u2[t + h]);
            s_bad[t] += s_bad[t + h];
            s_wet[t] += s_wet[t + h];
        }
        __syncthreads();
    }
    if (t == 0) {
        tess_gpu_check_partial_t p;
        p.rho_min = s_min[0];
        p.rho_max = s_max[0];
        p.u2_max = s_u2[0];
        p.nonfinite = s_bad[0];
        p.wet = s_wet[0];
        out[blockIdx.x] = p;
    }
}

template <typename R>
static void tess_gpu_check_launch(const void *f, const uint8_t *node_type, int32_t ntiles, int lattice, unsigned blocks,
                                  tess_gpu_check_partial_t *out)
{
    const R *fr = (const R *)f;
    switch (lattice) {
    case TESS_LATTICE_D2Q9:
        tess_gpu_check_state_kernel<R, TESS_LATTICE_D2Q9><<<blocks, TESS_GPU_CHECK_THREADS>>>(fr, node_type, ntiles, out);
        break;
    case TESS_LATTICE_D3Q13:
        tess_gpu_check_state_kernel<R, TESS_LATTICE_D3Q13><<<blocks, TESS_GPU_CHECK_THREADS>>>(fr, node_type, ntiles, out);
        break;
    case TESS_LATTICE_D3Q27:
        tess_gpu_check_state_kernel<R, TESS_LATTICE_D3Q27><<<blocks, TESS_GPU_CHECK_THREADS>>>(fr, node_type, ntiles, out);
        break;
    default:
        tess_gpu_check_state_kernel<R, TESS_LATTICE_D3Q19><<<blocks, TESS_GPU_CHECK_THREADS>>>(fr, node_type, ntiles, out);
        break;
    }
}

/* Reduces the state in f (precision single or not, lattice; the engine's storage) into r. The physics must be in
 * tess_gpu_c. Returns the first runtime error. */
static gpuError_t tess_gpu_check_state(const void *f, const uint8_t *node_type, int32_t ntiles, int lattice, int single,
                                       tess_check_t *r)
{
    r->rho_min = INFINITY;
    r->rho_max = -INFINITY;
    r->u_max = 0.0;
    r->nonfinite = r->wet = 0;
    if (ntiles <= 0)
        return gpuSuccess;
    const int64_t total = 64 * (int64_t)ntiles;
    int64_t want = (total + TESS_GPU_CHECK_THREADS - 1) / TESS_GPU_CHECK_THREADS;
    const unsigned blocks = (unsigned)(want < TESS_GPU_CHECK_BLOCKS ? want : TESS_GPU_CHECK_BLOCKS);
    tess_gpu_check_partial_t *dev = NULL, host[TESS_GPU_CHECK_BLOCKS];
    gpuError_t rc = gpuMalloc((void **)&dev, blocks * sizeof *dev);
    if (rc != gpuSuccess)
        return rc;
    if (single)
        tess_gpu_check_launch<float>(f, node_type, ntiles, lattice, blocks, dev);
    else
        tess_gpu_check_launch<double>(f, node_type, ntiles, lattice, blocks, dev);
    rc = gpuGetLastError();
    if (rc == gpuSuccess)
        rc = gpuMemcpy(host, dev, blocks * sizeof *dev, gpuMemcpyDeviceToHost);
    (void)gpuFree(dev);
    if (rc != gpuSuccess)
        return rc;
    double u2 = 0.0;
    for (unsigned b = 0; b < blocks; b++) {
        r->rho_min = fmin(r->rho_min, host[b].rho_min);
        r->rho_max = fmax(r->rho_max, host[b].rho_max);
        u2 = fmax(u2, host[b].u2_max);
        r->nonfinite += (long long)host[b].nonfinite;
        r->wet += (long long)host[b].wet;
    }
    r->u_max = sqrt(u2);
    return gpuSuccess;
}

#endif
