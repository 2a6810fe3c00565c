/* The AA odd and even steps of D3Q19 LBGK (tau 0.6, incompressible), FP32 and FP64, on a dense periodic box in
 * three storage layouts, to measure whether longer x-rows in storage take the GPU's AA pair to issue 12's targets
 * (17,500 MLUPS FP32, 9,300 FP64 on the H100). A measurement, not part of the build and not a test:
 * docs/experiments/README.md says how to build and run it, docs/performance-notes.md ("GPU AA: longer x-rows in
 * storage, a microbenchmark") what it found.
 *
 * Storage: blocks of BX x 4 x 4 nodes, numbered x fastest, each holding its Q direction blocks one after another
 * ((b Q + i) 16 BX + x + BX (y + 4 z)): BX = 4 is the engine's tile-major layout (core/tess_q_step.h), BX = 8 and
 * 16 group two and four x-adjacent 4 x 4 x 4 tiles (as docs/experiments/aa_pairs.c did for the CPU), so that a
 * 32-byte FP32 sector is 8 consecutive x values of one row.
 *
 * The kernels follow the engine's tile kernel (backends/gpu/tess_gpu_tile_step.h, tess_gpu_q_step, PAT
 * TESS_GPU_AA_ODD / TESS_GPU_AA_EVEN, every node wet): blocks of 128 threads, one thread a node, the block's 27
 * neighbour blocks read from a table into shared memory behind a barrier; the odd step pulls from x - c_i and stores
 * through TESS_Q_SWAPPED into slot opp(i) of x + c_i (FP32 through the node's few neighbour blocks re-read after the
 * collision, FP64 through the recomputed pull addresses: tess_gpu_q_tile_stores), the even step reads its own slots
 * opp(i) and stores slot i. The collision, the register caps (tess_gpu_q_cap), the odd FP64 step's stores without
 * L1 allocation (tess_gpu_q_store_na) and the FP32 even step's own-block prefetch (tess_gpu_q_own_prefetch) are the
 * engine's own, from that header. A warp is 4 x 4 x 2 nodes (BX 4: one tile holds two warps, a block two tiles, as
 * the engine's default of two tiles a block), 8 x 4 x 1 (BX 8: a block is one storage block) or 16 x 2 x 1 (BX 16:
 * a block is half a storage block). The engine's D3Q19 FP64 odd step pairs tiles (tess_gpu_q_pair); BX 4 here does
 * not (its odd step is the engine's unpaired one).
 *
 * Build (repository root, on the GPU machine; -fmad=false for the reproducible build's arithmetic):
 *   nvcc -arch=sm_90 -O3 -std=c++17 -Icore -Ibackends/gpu docs/experiments/aa_tile_rows.cu -o aa_tile_rows
 * Run: aa_tile_rows check [N]          6 AA steps of every layout against 6 steps of a plain AB reference, bitwise
 *                                     (and 5 AA steps against 6 AB: the check can fail), N^3 (default 64)
 *      aa_tile_rows time [N] [pairs]   MLUPS of the AA pair per layout and precision (median of 3 runs of `pairs`
 *                                     pairs after 2 pairs of warm-up), with a float4 copy of the same bytes
 *      aa_tile_rows steps [N] [steps]  `steps` AA steps (default 3: odd, even, odd) per layout and precision, for
 *                                     Nsight Compute (kernels aa_odd and aa_even)
 *      aa_tile_rows count              L2 sectors and 128-byte lines a bulk warp's loads and stores touch per step
 * N: a multiple of 16 (default 256 for time and steps). */
#define TESS_GPU_CUDA 1
#include "tess_gpu_tile_step.h"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

enum { Q = 19, TPB = 64 * TESS_GPU_MAX_TILES_PER_BLOCK, LAT = TESS_LATTICE_D3Q19 };
static const int hcx[Q] = TESS_D3Q19_CX, hcy[Q] = TESS_D3Q19_CY, hcz[Q] = TESS_D3Q19_CZ;
static const int hopp[Q] = TESS_D3Q19_OPP_TABLE, hw36[Q] = TESS_D3Q19_W36;

#define CK(x)                                                                                                  \
    do {                                                                                                       \
        const cudaError_t e_ = (x);                                                                            \
        if (e_ != cudaSuccess) {                                                                               \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                        \
            exit(1);                                                                                           \
        }                                                                                                      \
    } while (0)

/* A layout's block geometry: NB nodes a block; SB storage blocks a CUDA block (BX 4: two tiles) or PARTS CUDA
 * blocks a storage block (BX 16: two halves); CNT nodes of one storage block in a CUDA block. */
template <int BX> struct tr_geo {
    enum { NB = 16 * BX, SB = NB <= TPB ? TPB / NB : 1, PARTS = NB > TPB ? NB / TPB : 1, CNT = NB < TPB ? NB : TPB };
};

/* One step of one node a thread, PAT TESS_GPU_AA_ODD or TESS_GPU_AA_EVEN; src and dst are the one copy (as in the
 * engine: a node reads and writes only slots that no other node touches in the step). */
template <typename R, int BX, int PAT>
static __device__ __forceinline__ void tr_step(const R *__restrict__ src, R *__restrict__ dst,
                                               const int32_t *__restrict__ nbr)
{
    typedef tess_gpu_q<R, LAT> L;
    typedef tr_geo<BX> G;
    enum {
        NB = G::NB, SB = G::SB, PARTS = G::PARTS, CNT = G::CNT,
        PF_OWN = tess_gpu_q_own_prefetch<R, LAT, PAT>::value,
        NA = tess_gpu_q_store_na<R, LAT, PAT>::value,
        SPD = CNT * (int)sizeof(R) / 32 /* sectors of one direction of a storage block's part */
    };
    __shared__ int32_t s_nb[SB][27];
    const unsigned tid = threadIdx.x;
    const int local = SB > 1 ? (int)(tid / NB) : 0;
    const int n0 = SB > 1 ? 0 : (int)(blockIdx.x % PARTS) * TPB; /* the part's first node */
    const int r = (int)(tid % CNT);                                /* the thread's place in its storage block */
    const int n = n0 + r;
    const int32_t b = SB > 1 ? (int32_t)(blockIdx.x * SB) + local : (int32_t)(blockIdx.x / PARTS);
    const int x = n % BX, y = (n / BX) % 4, z = n / (4 * BX);
    if (r < 27)
        s_nb[local][r] = nbr[27 * (size_t)b + r];
    if (PF_OWN) {
        TESS_UNROLL
        for (int s = r; s < Q * SPD; s += CNT)
            tess_gpu_prefetch_l2((const char *)(src + ((size_t)b * Q + s / SPD) * NB + n0) + 32 * (s % SPD));
    }
    __syncthreads();
    R f[Q];
    TESS_UNROLL
    for (int i = 0; i < Q; i++) {
        size_t at;
        if (PAT == TESS_GPU_AA_EVEN) {
            at = ((size_t)b * Q + L::opp(i)) * NB + n;
        } else {
            const int ux = x - L::cx(i), uy = y - L::cy(i), uz = z - L::cz(i);
            const int slot = ((ux + BX) / BX) + 3 * ((uy + 4) / 4) + 9 * ((uz + 4) / 4);
            const int ul = (ux & (BX - 1)) + BX * ((uy & 3) + 4 * (uz & 3));
            at = ((size_t)s_nb[local][slot] * Q + i) * NB + ul;
        }
        f[i] = src[at];
    }
    tess_gpu_q_collide<L, TESS_COLLISION_LBGK>(&tess_gpu_c.p, f);
    if (PAT == TESS_GPU_AA_ODD && tess_gpu_q_tile_stores<R, LAT>::value) {
        /* the engine's FP32 store: the node's few neighbour blocks re-read through volatile */
        const volatile int32_t *vnb = s_nb[local];
        const int bx = x == 0 ? -1 : x == BX - 1 ? 1 : 0, by = y == 0 ? -1 : y == 3 ? 1 : 0,
                  bz = z == 0 ? -1 : z == 3 ? 1 : 0;
        const int32_t t100 = vnb[13 + bx], t010 = vnb[13 + 3 * by], t110 = vnb[13 + bx + 3 * by],
                      t001 = vnb[13 + 9 * bz], t101 = vnb[13 + bx + 9 * bz], t011 = vnb[13 + 3 * by + 9 * bz],
                      t111 = vnb[13 + bx + 3 * by + 9 * bz];
        TESS_UNROLL
        for (int i = 0; i < Q; i++) {
            const int cx = L::cx(i), cy = L::cy(i), cz = L::cz(i);
            const bool wx = cx != 0 && cx == bx, wy = cy != 0 && cy == by, wz = cz != 0 && cz == bz;
            const int32_t t = wz ? (wy ? (wx ? t111 : t011) : (wx ? t101 : t001))
                                 : (wy ? (wx ? t110 : t010) : (wx ? t100 : b));
            const int dx = x + cx, dy = y + cy, dz = z + cz;
            const int dl = (dx & (BX - 1)) + BX * ((dy & 3) + 4 * (dz & 3));
            tess_gpu_store<NA>(dst + ((size_t)t * Q + L::opp(i)) * NB + dl, f[i]);
        }
    } else if (PAT == TESS_GPU_AA_ODD) {
        /* the engine's FP64 store: the pull's addresses of opp(i), recomputed from the neighbourhood re-read */
        asm volatile("" ::: "memory");
        const volatile int32_t *nb = s_nb[local];
        TESS_UNROLL
        for (int i = 0; i < Q; i++) {
            const int dx = x + L::cx(i), dy = y + L::cy(i), dz = z + L::cz(i);
            const int slot = ((dx + BX) / BX) + 3 * ((dy + 4) / 4) + 9 * ((dz + 4) / 4);
            const int dl = (dx & (BX - 1)) + BX * ((dy & 3) + 4 * (dz & 3));
            tess_gpu_store<NA>(dst + ((size_t)nb[slot] * Q + L::opp(i)) * NB + dl, f[i]);
        }
    } else {
        R *out = dst + (size_t)b * Q * NB;
        TESS_UNROLL
        for (int i = 0; i < Q; i++)
            out[i * NB + n] = f[i];
    }
}

/* The two steps as kernels of their own names (Nsight Compute's -k), with the engine's register caps. */
template <typename R, int BX>
__global__ void __launch_bounds__(TPB, (tess_gpu_q_cap<R, LAT, TESS_GPU_AA_ODD>::value))
aa_odd(const R *__restrict__ src, R *__restrict__ dst, const int32_t *__restrict__ nbr)
{
    tr_step<R, BX, TESS_GPU_AA_ODD>(src, dst, nbr);
}
template <typename R, int BX>
__global__ void __launch_bounds__(TPB, (tess_gpu_q_cap<R, LAT, TESS_GPU_AA_EVEN>::value))
aa_even(const R *__restrict__ src, R *__restrict__ dst, const int32_t *__restrict__ nbr)
{
    tr_step<R, BX, TESS_GPU_AA_EVEN>(src, dst, nbr);
}

/* The reference: a plain AB step on an x-fastest array per direction (i V + x + N (y + N z)), periodic, the
 * same collision. */
template <typename R> __global__ void ab_ref(const R *__restrict__ src, R *__restrict__ dst, int N)
{
    typedef tess_gpu_q<R, LAT> L;
    const size_t V = (size_t)N * N * N, node = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (node >= V)
        return;
    const int x = (int)(node % N), y = (int)(node / N % N), z = (int)(node / ((size_t)N * N));
    R f[Q];
    for (int i = 0; i < Q; i++) {
        const int ux = (x - L::cx(i) + N) % N, uy = (y - L::cy(i) + N) % N, uz = (z - L::cz(i) + N) % N;
        f[i] = src[i * V + ux + (size_t)N * (uy + (size_t)N * uz)];
    }
    tess_gpu_q_collide<L, TESS_COLLISION_LBGK>(&tess_gpu_c.p, f);
    for (int i = 0; i < Q; i++)
        dst[i * V + node] = f[i];
}

__global__ void copy4(const float4 *__restrict__ a, float4 *__restrict__ b, size_t n)
{
    for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < n; j += (size_t)gridDim.x * blockDim.x)
        b[j] = a[j];
}

/* A deterministic state near rest: w_i (1 + 0.02 (h - 1/2)), h from a hash of the value's index. */
static __host__ __device__ double tr_hash(uint64_t v)
{
    v ^= v >> 33;
    v *= 0xff51afd7ed558ccdULL;
    v ^= v >> 33;
    v *= 0xc4ceb9fe1a85ec53ULL;
    v ^= v >> 33;
    return (double)(v >> 11) * (1.0 / 9007199254740992.0);
}
template <typename R> __global__ void tr_fill(R *f, size_t nval, int nb)
{
    const double w36[Q] = TESS_D3Q19_W36;
    for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < nval; j += (size_t)gridDim.x * blockDim.x)
        f[j] = (R)(w36[(j / nb) % Q] / 36.0 * (1.0 + 0.02 * (tr_hash(j) - 0.5)));
}

/* Host: the block layout's index of population i of node (X, Y, Z), and the neighbour table. */
static size_t tr_index(int BX, int N, int i, int X, int Y, int Z)
{
    const size_t nbx = N / BX, nby = N / 4, nb = 16 * BX;
    const size_t b = X / BX + nbx * (Y / 4 + nby * (size_t)(Z / 4));
    return (b * Q + i) * nb + X % BX + BX * (Y % 4 + 4 * (Z % 4));
}
static std::vector<int32_t> tr_neighbors(int BX, int N)
{
    const int nbx = N / BX, nby = N / 4, nbz = N / 4;
    std::vector<int32_t> t(27 * (size_t)nbx * nby * nbz);
    for (int bz = 0; bz < nbz; bz++)
        for (int by = 0; by < nby; by++)
            for (int bx = 0; bx < nbx; bx++)
                for (int s = 0; s < 27; s++) {
                    const int sx = s % 3 - 1, sy = s / 3 % 3 - 1, sz = s / 9 - 1;
                    const int X = (bx + sx + nbx) % nbx, Y = (by + sy + nby) % nby, Z = (bz + sz + nbz) % nbz;
                    t[27 * (bx + (size_t)nbx * (by + (size_t)nby * bz)) + s] = X + nbx * (Y + nby * Z);
                }
    return t;
}

static void tr_constants()
{
    static tess_gpu_constants_t c; /* tess_params_default's LBGK D3Q19 fields, tau 0.6 */
    memset(&c, 0, sizeof c);
    c.p.collision = TESS_COLLISION_LBGK;
    c.p.fluid = TESS_FLUID_INCOMPRESSIBLE;
    c.p.lattice = TESS_LATTICE_D3Q19;
    c.p.tau = 0.6;
    c.p.nmat = 2;
    c.p.mat[0].kind = TESS_NODE_SOLID;
    c.p.mat[1].kind = TESS_NODE_FLUID;
    c.p.mat[0].rho = c.p.mat[1].rho = 1.0;
    c.wet[1] = 1;
    CK(cudaMemcpyToSymbol(tess_gpu_c, &c, sizeof c));
}

/* One layout on the device: its neighbour table and launch shape. */
struct tr_layout {
    int BX, N;
    int32_t *nbr;
    unsigned grid;
};
static tr_layout tr_make(int BX, int N)
{
    tr_layout l;
    l.BX = BX;
    l.N = N;
    const std::vector<int32_t> t = tr_neighbors(BX, N);
    CK(cudaMalloc(&l.nbr, t.size() * sizeof(int32_t)));
    CK(cudaMemcpy(l.nbr, t.data(), t.size() * sizeof(int32_t), cudaMemcpyHostToDevice));
    l.grid = (unsigned)((size_t)N * N * N / TPB);
    return l;
}

/* AA step s (1-based: odd steps odd) of a layout. */
template <typename R> static void tr_launch(const tr_layout &l, R *f, int s)
{
    const bool odd = s % 2 == 1;
#define TR_CASE(BXV)                                                                                           \
    if (l.BX == BXV) {                                                                                         \
        if (odd)                                                                                               \
            aa_odd<R, BXV><<<l.grid, TPB>>>(f, f, l.nbr);                                                      \
        else                                                                                                   \
            aa_even<R, BXV><<<l.grid, TPB>>>(f, f, l.nbr);                                                     \
        return;                                                                                                \
    }
    TR_CASE(4)
    TR_CASE(8)
    TR_CASE(16)
#undef TR_CASE
}

static const int tr_bxs[3] = {4, 8, 16};

template <typename R> static int tr_check(int N)
{
    const size_t V = (size_t)N * N * N, nval = Q * V;
    std::vector<R> plain(nval), ref(nval), got(nval), blk(nval);
    for (int i = 0; i < Q; i++)
        for (size_t v = 0; v < V; v++)
            plain[i * V + v] = (R)(hw36[i] / 36.0 * (1.0 + 0.02 * (tr_hash(i * V + v) - 0.5)));
    R *a, *c;
    CK(cudaMalloc(&a, nval * sizeof(R)));
    CK(cudaMalloc(&c, nval * sizeof(R)));
    CK(cudaMemcpy(a, plain.data(), nval * sizeof(R), cudaMemcpyHostToDevice));
    for (int s = 0; s < 6; s++) {
        ab_ref<R><<<(unsigned)((V + 127) / 128), 128>>>(a, c, N);
        std::swap(a, c);
    }
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(ref.data(), a, nval * sizeof(R), cudaMemcpyDeviceToHost));
    size_t moved = 0; /* the reference moved away from its start (the comparison is not of unchanged values) */
    for (size_t j = 0; j < nval; j++)
        moved += memcmp(&ref[j], &plain[j], sizeof(R)) != 0;
    int bad = 0;
    for (int li = 0; li < 3; li++) {
        const int BX = tr_bxs[li];
        const tr_layout l = tr_make(BX, N);
        for (int steps = 6; steps >= 5; steps--) {
            for (int i = 0; i < Q; i++)
                for (int Z = 0; Z < N; Z++)
                    for (int Y = 0; Y < N; Y++)
                        for (int X = 0; X < N; X++)
                            blk[tr_index(BX, N, i, X, Y, Z)] = plain[i * V + X + (size_t)N * (Y + (size_t)N * Z)];
            CK(cudaMemcpy(a, blk.data(), nval * sizeof(R), cudaMemcpyHostToDevice));
            for (int s = 1; s <= steps; s++)
                tr_launch<R>(l, a, s);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(blk.data(), a, nval * sizeof(R), cudaMemcpyDeviceToHost));
            size_t differ = 0;
            for (int i = 0; i < Q; i++)
                for (int Z = 0; Z < N; Z++)
                    for (int Y = 0; Y < N; Y++)
                        for (int X = 0; X < N; X++) {
                            const size_t j = i * V + X + (size_t)N * (Y + (size_t)N * Z);
                            differ += memcmp(&blk[tr_index(BX, N, i, X, Y, Z)], &ref[j], sizeof(R)) != 0;
                        }
            printf("check FP%d BX %2d N %d: %d AA steps against 6 AB steps: %zu of %zu values differ (bitwise)%s\n",
                   (int)(8 * sizeof(R)), BX, N, steps, differ, nval,
                   steps == 6 ? (differ ? "  FAIL" : "  ok") : (differ ? "  (expected to differ: ok)" : "  FAIL"));
            bad += steps == 6 ? differ != 0 : differ == 0;
        }
        CK(cudaFree(l.nbr));
    }
    printf("check FP%d: the AB reference changed %zu of %zu values in 6 steps\n", (int)(8 * sizeof(R)), moved, nval);
    CK(cudaFree(a));
    CK(cudaFree(c));
    return bad;
}

static double tr_median3(double a, double b, double c)
{
    return std::max(std::min(a, b), std::min(std::max(a, b), c));
}

/* Copy bandwidth of nval values of R (read + write), median of 3 runs of 10 copies. */
template <typename R> static double tr_copy_gbs(R *a, R *c, size_t nval)
{
    const size_t n4 = nval * sizeof(R) / 16;
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    double t[3];
    copy4<<<132 * 16, 256>>>((const float4 *)a, (float4 *)c, n4);
    for (int rep = 0; rep < 3; rep++) {
        CK(cudaEventRecord(e0));
        for (int k = 0; k < 10; k++)
            copy4<<<132 * 16, 256>>>((const float4 *)a, (float4 *)c, n4);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        t[rep] = ms;
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    return 10.0 * 2.0 * (double)(nval * sizeof(R)) / (tr_median3(t[0], t[1], t[2]) * 1e6);
}

template <typename R> static void tr_time(int N, int pairs, int round)
{
    const size_t V = (size_t)N * N * N, nval = Q * V;
    R *a, *c;
    CK(cudaMalloc(&a, nval * sizeof(R)));
    CK(cudaMalloc(&c, nval * sizeof(R)));
    tr_fill<R><<<132 * 16, 256>>>(a, nval, 64);
    const double gbs = tr_copy_gbs<R>(a, c, nval);
    printf("time FP%d N %d round %d: copy %.1f GB/s\n", (int)(8 * sizeof(R)), N, round, gbs);
    const int steps = 2 * pairs;
    std::vector<cudaEvent_t> ev(steps + 1);
    for (auto &e : ev)
        CK(cudaEventCreate(&e));
    for (int li = 0; li < 3; li++) {
        const int BX = tr_bxs[round % 2 ? 2 - li : li]; /* every second round in reverse order */
        const tr_layout l = tr_make(BX, N);
        tr_fill<R><<<132 * 16, 256>>>(a, nval, 16 * BX);
        for (int s = 1; s <= 4; s++) /* two pairs of warm-up */
            tr_launch<R>(l, a, s);
        double tot[3], odd[3], even[3];
        for (int rep = 0; rep < 3; rep++) {
            for (int s = 1; s <= steps; s++) {
                CK(cudaEventRecord(ev[s - 1]));
                tr_launch<R>(l, a, s);
            }
            CK(cudaEventRecord(ev[steps]));
            CK(cudaEventSynchronize(ev[steps]));
            CK(cudaGetLastError());
            odd[rep] = even[rep] = 0;
            for (int s = 1; s <= steps; s++) {
                float ms;
                CK(cudaEventElapsedTime(&ms, ev[s - 1], ev[s]));
                (s % 2 ? odd : even)[rep] += ms;
            }
            float ms;
            CK(cudaEventElapsedTime(&ms, ev[0], ev[steps]));
            tot[rep] = ms;
        }
        const double t = tr_median3(tot[0], tot[1], tot[2]);
        const double mlups = (double)V * steps / (t * 1e3);
        const double pct = 100.0 * mlups * 1e6 * 2.0 * Q * sizeof(R) / (gbs * 1e9);
        printf("time FP%d N %d round %d BX %2d: %.1f MLUPS (%.1f%% of copy); odd step %.1f us, even step %.1f us "
               "(medians of 3 runs of %d pairs; runs %.3f %.3f %.3f ms)\n",
               (int)(8 * sizeof(R)), N, round, BX, mlups, pct, 1e3 * tr_median3(odd[0], odd[1], odd[2]) / pairs,
               1e3 * tr_median3(even[0], even[1], even[2]) / pairs, pairs, tot[0], tot[1], tot[2]);
        CK(cudaFree(l.nbr));
    }
    for (auto &e : ev)
        CK(cudaEventDestroy(e));
    CK(cudaFree(a));
    CK(cudaFree(c));
}

template <typename R> static void tr_steps(int N, int steps)
{
    const size_t nval = (size_t)Q * N * N * N;
    R *a;
    CK(cudaMalloc(&a, nval * sizeof(R)));
    for (int li = 0; li < 3; li++) {
        const tr_layout l = tr_make(tr_bxs[li], N);
        tr_fill<R><<<132 * 16, 256>>>(a, nval, 16 * tr_bxs[li]);
        for (int s = 1; s <= steps; s++)
            tr_launch<R>(l, a, s);
        CK(cudaDeviceSynchronize());
        printf("steps FP%d BX %2d N %d: %d AA steps\n", (int)(8 * sizeof(R)), tr_bxs[li], N, steps);
        CK(cudaFree(l.nbr));
    }
    CK(cudaFree(a));
}

/* Sectors (32 B) and lines (128 B) a bulk warp's loads and stores touch in the odd step, summed over the
 * directions (a warp instruction per direction), and the floor 2 Q R / 32 a node each way; from the layouts'
 * index functions, so that the counts of the notes are checked, not assumed. */
static void tr_count()
{
    const int N = 64;
    for (int rb = 4; rb <= 8; rb += 4)
        for (int li = 0; li < 3; li++) {
            const int BX = tr_bxs[li];
            /* the first warp of the storage block at (16, 16, 16): nodes n = 0..31 of it */
            long sec[2] = {0, 0}, lines[2] = {0, 0};
            for (int st = 0; st < 2; st++) /* loads: slot i of x - c_i; stores: slot opp(i) of x + c_i */
                for (int i = 0; i < Q; i++) {
                    std::set<size_t> s, ln;
                    const int sg = st ? 1 : -1, j = st ? hopp[i] : i;
                    for (int n = 0; n < 32; n++) {
                        const int X = 16 + n % BX + sg * hcx[i], Y = 16 + n / BX % 4 + sg * hcy[i],
                                  Z = 16 + n / (4 * BX) + sg * hcz[i];
                        const size_t byte = tr_index(BX, N, j, X, Y, Z) * rb;
                        s.insert(byte / 32);
                        ln.insert(byte / 128);
                    }
                    sec[st] += (long)s.size();
                    lines[st] += (long)ln.size();
                }
            printf("count FP%d BX %2d: odd step per warp of 32 nodes: loads %ld sectors, %ld lines; stores %ld "
                   "sectors, %ld lines; floor %d sectors each way; %.2f sectors a node update (loads + stores)\n",
                   8 * rb, BX, sec[0], lines[0], sec[1], lines[1], Q * rb, (sec[0] + sec[1]) / 32.0);
        }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "check";
    if (!strcmp(mode, "count")) {
        tr_count();
        return 0;
    }
    const int N = argc > 2 ? atoi(argv[2]) : (strcmp(mode, "check") ? 256 : 64);
    if (N < 16 || N % 16) {
        fprintf(stderr, "N must be a positive multiple of 16\n");
        return 2;
    }
    tr_constants();
    cudaFuncAttributes fa;
#define TR_REGS(R, BX)                                                                                         \
    CK(cudaFuncGetAttributes(&fa, aa_odd<R, BX>));                                                             \
    printf("regs FP%d BX %2d: odd %d registers, %zu B local;", (int)(8 * sizeof(R)), BX, fa.numRegs,           \
           (size_t)fa.localSizeBytes);                                                                         \
    CK(cudaFuncGetAttributes(&fa, aa_even<R, BX>));                                                            \
    printf(" even %d, %zu B\n", fa.numRegs, (size_t)fa.localSizeBytes);
    TR_REGS(float, 4) TR_REGS(float, 8) TR_REGS(float, 16) TR_REGS(double, 4) TR_REGS(double, 8)
    TR_REGS(double, 16)
#undef TR_REGS
    if (!strcmp(mode, "check")) {
        const int bad = tr_check<float>(N) + tr_check<double>(N);
        printf("check: %s\n", bad ? "FAILED" : "all AA layouts bitwise equal to AB after 6 steps");
        return bad ? 1 : 0;
    }
    if (!strcmp(mode, "time")) {
        const int pairs = argc > 3 ? atoi(argv[3]) : 10;
        for (int round = 0; round < 2; round++) {
            tr_time<float>(N, pairs, round);
            tr_time<double>(N, pairs, round);
        }
        return 0;
    }
    if (!strcmp(mode, "steps")) {
        const int steps = argc > 3 ? atoi(argv[3]) : 3;
        tr_steps<float>(N, steps);
        tr_steps<double>(N, steps);
        return 0;
    }
    fprintf(stderr, "usage: %s check [N] | time [N] [pairs] | steps [N] [steps] | count\n", argv[0]);
    return 2;
}
