/* One copy of the GPU's MR moments (docs/gpu.md, "MR: one copy"): the device side of the ordering that lets the
 * plain MR kernels (tess_gpu_mr.h) write the new moments into the same array they read the old ones from.
 *
 * The tiles are in tile-layer order (z slowest; tess_tiling_build's order), and the state of T tiles lies in an
 * array of T + G tiles, at tile offset G or 0 in turn. A step from offset G writes tile j at slot j (overwriting the
 * old moments of tile j - G) and runs its groups of tiles from the lowest tile layer up (phase 0); the next step,
 * from offset 0, writes tile j at slot j + G (overwriting tile j + G) and runs them from the top down (phase 1).
 * G is the largest number of tiles in C + 1 consecutive layers, C the tile layers of one block's group (1, 2, or the
 * column sweep's C), so that a block only ever overwrites tiles that no block of its own row of groups, nor of a row
 * still to come, reads. Blocks take their group from a ticket (an atomic counter: groups are handed out in order to
 * resident blocks), count per tile layer when they are done with it, and wait, before they write a layer, until
 * every block that reads the tiles that write overwrites is done: they only ever wait for blocks with an earlier
 * ticket, which are resident, so the grid always progresses. Across a periodic z boundary the first phase
 * overwrites layer 0 before the top layer reads it (the second phase: the top layer before layer 0 reads it): that
 * one node plane is saved before the step (tess_gpu_mr_save) and read from there (tess_gpu_mr_fetch). */
#ifndef TESS_GPU_MR_ORDER_H
#define TESS_GPU_MR_ORDER_H

#include "tess_gpu_tile_step.h"

/* What a one-copy MR kernel needs besides its tile maps; sync == NULL: two copies (any block order). */
struct tess_gpu_mr_order_t {
    int32_t *sync;          /* [0] the ticket, [1 + l] minus the blocks of layer l's row still to finish reading it
                             * (set to 0 and -blocks before each step: complete at 0) */
    const int32_t *lo, *hi; /* per layer, this phase: the layers whose blocks must be done before it is written */
    const int32_t *grow;    /* per group: its first tile layer */
    const void *save;       /* the saved node plane across the periodic z boundary (tess_gpu_mr_save) */
    int32_t save_k0;        /* the first tile of the saved layer */
    int32_t ngroups;
    int phase;              /* 0: groups from the first, 1: from the last */
};

/* The group a block runs (thread 0; one-copy order only). */
static __device__ __forceinline__ int32_t tess_gpu_mr_ticket(const tess_gpu_mr_order_t &o)
{
    const int32_t t = atomicAdd(o.sync, 1);
    return o.phase ? o.ngroups - 1 - t : t;
}

static __device__ __forceinline__ void tess_gpu_mr_pause()
{
#if defined(TESS_GPU_HIP)
    __builtin_amdgcn_s_sleep(1);
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    __nanosleep(100);
#endif
}

/* The counters are read with plain volatile loads and bumped with a reduction whose result nobody waits for: the
 * ordering a block needs is only that the blocks it waits for have finished reading (their loads returned, the
 * values already in shared memory behind a barrier, before they count), and that its own stores come after it saw
 * the counts (they follow a barrier that follows the loop over the loaded values). No fence sits on a block's
 * critical path; the first measurement, with a fence and atomic reads on each side and the wait's reads on the
 * critical path, ran 22% slower than two copies. */
static __device__ __forceinline__ int32_t tess_gpu_mr_peek(const int32_t *p)
{
    return *(const volatile int32_t *)p;
}

/* Thread 0, before the block writes tile layers l0 .. l1: waits until every block that reads what those writes
 * overwrite is done with it. The block's barrier follows. */
static __device__ __forceinline__ void tess_gpu_mr_wait(const tess_gpu_mr_order_t &o, int l0, int l1)
{
    for (int l = l0; l <= l1; l++)
        for (int m = o.lo[l]; m <= o.hi[l]; m++)
            while (tess_gpu_mr_peek(o.sync + 1 + m) < 0)
                tess_gpu_mr_pause();
}

/* The column sweep's wait for layer l, its count read early (tess_gpu_mr_peek of the range's last layer, while the
 * block computes the layer before): the ranges move up a layer at a time, so once a range was complete only its
 * new last layer is in question. known: the last layer of the last complete range (-1: none yet). */
static __device__ __forceinline__ void tess_gpu_mr_wait_next(const tess_gpu_mr_order_t &o, int l, int32_t have,
                                                             int *known)
{
    const int lo = o.lo[l], hi = o.hi[l];
    if (lo > hi)
        return;
    if (!(hi - 1 <= *known && have >= 0))
        tess_gpu_mr_wait(o, l, l);
    *known = hi > *known ? hi : *known;
}

/* Thread 0, after a barrier that follows the block's last read for layers l0 .. l1: the block is done with them. */
static __device__ __forceinline__ void tess_gpu_mr_done(const tess_gpu_mr_order_t &o, int l0, int l1)
{
    for (int l = l0; l <= l1; l++)
        atomicAdd(o.sync + 1 + l, 1);
}

/* The node plane `plane` (0 or 3) of tiles k0 .. k0 + n - 1 of the state src into save, ((k - k0) * nm + s) * 16 +
 * the node's place in the plane. */
template <typename R>
__global__ void __launch_bounds__(256) tess_gpu_mr_save(R *__restrict__ save, const R *__restrict__ src, int32_t k0,
                                                        int32_t n, int plane, int nm)
{
    const int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= (int64_t)n * nm * 16)
        return;
    const int64_t ks = e >> 4; /* (k - k0) * nm + s */
    save[e] = src[((int64_t)k0 * nm + ks) * 64 + plane * 16 + (int)(e & 15)];
}

/* With one copy the list kernel writes each listed node's moments here first (the plain kernel still reads the
 * old ones), and this puts them into the new state after the plain kernel. */
template <typename R, int NM>
__global__ void __launch_bounds__(64) tess_gpu_mr_scatter(R *__restrict__ dst, const R *__restrict__ vals,
                                                          const int64_t *__restrict__ list, int32_t nlist)
{
    const int32_t j = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (j >= nlist)
        return;
    const int64_t node = list[j];
    const int64_t k = node >> 6;
    const int n = (int)(node & 63);
    TESS_UNROLL
    for (int s = 0; s < NM; s++)
        dst[(k * NM + s) * 64 + n] = vals[(int64_t)j * NM + s];
}

#endif
