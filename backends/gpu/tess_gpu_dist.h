/* The GPU backend as a distributed rank's engine (core/tess_dist_engine.h, docs/mpi.md "GPU ranks"), written once
 * for CUDA and HIP: the rank's device chosen by its local rank, a step over a range of tiles (the boundary tiles,
 * then the interior ones while the halo messages travel; MR as well, below), and the halo slots gathered into and
 * scattered from a contiguous device buffer by two small kernels over the plan's slot lists. A backend source
 * includes this after tess_gpu_ops.h and exports the engine with TESS_GPU_DEFINE_DIST.
 *
 * MR in parts: with two copies of the moments (a rank's usual case: its local tiling is not in tile-layer order,
 * so one copy is not offered, tess_gpu_mr_plan) the boundary tiles' new moments go into the next copy, which the
 * interior's blocks never read (they gather the current one): that copy is the side buffer, the exchange packs
 * from it (state(eng, 1)), and nothing is copied back. With one copy (run.mr_copies = 1 on a rank whose tiles
 * happen to be in layer order) the blocks' order spans every tile, so the first part steps every tile, halo
 * included, and the last part none: the exchange then follows the whole step, without the overlap. */
#ifndef TESS_GPU_DIST_H
#define TESS_GPU_DIST_H

#include "tess_gpu_ops.h"
extern "C" {
#include "tess_dist_engine.h"
#include "tess_mpi.h"
}

template <typename R>
__global__ void __launch_bounds__(256) tess_gpu_dist_pack(R *__restrict__ buf, const R *__restrict__ f,
                                                          const int64_t *__restrict__ idx, int64_t n)
{
    const int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        buf[k] = f[idx[k]];
}

template <typename R>
__global__ void __launch_bounds__(256) tess_gpu_dist_unpack(R *__restrict__ f, const R *__restrict__ buf,
                                                            const int64_t *__restrict__ idx, int64_t n)
{
    const int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        f[idx[k]] = buf[k];
}

/* One GPU per rank: the local rank (among the ranks of its node) modulo the node's devices, so that ranks
 * sharing a node spread over its GPUs and more ranks than GPUs share them. */
TESS_GPU_OP tess_status tess_gpu_dist_create(const tess_backend_config_t *cfg, tess_backend_t **out, tess_error_t *err)
{
    int count = 0;
    tess_backend_config_t c = *cfg;
    if (gpuGetDeviceCount(&count) == gpuSuccess && count > 0)
        c.device = tess_mpi_local_rank() % count;
    return tess_gpu_create(&c, out, err);
}

TESS_GPU_OP tess_status tess_gpu_dist_set_owned(tess_backend_t *be, int32_t nbound, int32_t nowned,
                                                int64_t nlinks_owned, tess_error_t *err)
{
    if (nbound < 0 || nbound > nowned || nowned > be->ntiles)
        return tess_fail(err, TESS_ERR_INPUT, "%d boundary and %d owned tiles of %d", nbound, nowned, be->ntiles);
    be->nbound = nbound;
    be->nowned = nowned;
    be->nlinks_owned = nlinks_owned;
    return be->cfg.pattern == TESS_PATTERN_MR ? tess_gpu_mr_parts(be, err) : TESS_OK;
}

TESS_GPU_OP tess_status tess_gpu_dist_step_tiles(tess_backend_t *be, int32_t k0, int32_t k1, int part,
                                                 tess_error_t *err)
{
    if (!be->f[0])
        return tess_fail(err, TESS_ERR_INPUT, "step called before upload_geometry and initialise");
    if (be->cfg.pattern == TESS_PATTERN_MR && be->mr_gap > 0) { /* one copy: the whole step with the first part */
        k0 = 0;
        k1 = part & TESS_DIST_FIRST ? be->ntiles : 0;
    } else if (be->cfg.pattern == TESS_PATTERN_MR && !(k0 == 0 && k1 == be->ntiles) &&
               !(k0 == 0 && k1 == be->nbound) && !(k0 == be->nbound && k1 == be->nowned)) {
        /* the parts' blocks are made once (tess_gpu_mr_parts) */
        return tess_fail(err, TESS_ERR_INPUT,
                         "the GPU's MR steps the boundary tiles [0, %d), the interior [%d, %d) or every tile, "
                         "not [%d, %d)", be->nbound, be->nbound, be->nowned, k0, k1);
    }
    tess_status st = TESS_OK;
    if ((part & TESS_DIST_FIRST) && be->ntiles > 0)
        st = tess_gpu_step_prepare(be, err);
    be->sweep_k0 = k0;
    be->sweep_k1 = k1;
    be->sweep_part = part;
    if (st == TESS_OK && be->ntiles > 0)
        st = be->cfg.precision == TESS_PRECISION_SINGLE ? tess_gpu_launch<float>(be, err)
                                                         : tess_gpu_launch<double>(be, err);
    be->sweep_k0 = 0;
    be->sweep_k1 = be->ntiles;
    be->sweep_part = TESS_DIST_FIRST | TESS_DIST_LAST;
    return st;
}

TESS_GPU_OP void *tess_gpu_dist_state(tess_backend_t *be, int next)
{
    if (be->cfg.pattern == TESS_PATTERN_AA)
        return be->f[0];
    if (be->cfg.pattern == TESS_PATTERN_MR) /* one copy or two (tess_gpu_mr_copy): the next is the side buffer */
        return tess_gpu_mr_copy(be, next ? 1 - be->cur : be->cur);
    return be->f[next ? 1 - be->cur : be->cur];
}

TESS_GPU_OP int64_t tess_gpu_dist_steps_done(const tess_backend_t *be)
{
    return be->nsteps_done;
}

/* pack: buf[k] = f[idx[k]]; else f[idx[k]] = buf[k]; on the kernels' stream. */
TESS_GPU_OP tess_status tess_gpu_dist_move(void *f, void *buf, const int64_t *idx, int64_t n, size_t vs, int pack,
                                           tess_error_t *err)
{
    const unsigned b = (unsigned)((n + 255) / 256);
    if (n <= 0)
        return TESS_OK;
    if (pack && vs == sizeof(float))
        tess_gpu_dist_pack<float><<<b, 256>>>((float *)buf, (const float *)f, idx, n);
    else if (pack)
        tess_gpu_dist_pack<double><<<b, 256>>>((double *)buf, (const double *)f, idx, n);
    else if (vs == sizeof(float))
        tess_gpu_dist_unpack<float><<<b, 256>>>((float *)f, (const float *)buf, idx, n);
    else
        tess_gpu_dist_unpack<double><<<b, 256>>>((double *)f, (const double *)buf, idx, n);
    TESS_GPU_TRY(gpuGetLastError(), err, pack ? "launching the halo pack kernel" : "launching the halo unpack kernel");
    return TESS_OK;
}

TESS_GPU_OP tess_status tess_gpu_dist_pack_op(tess_backend_t *be, void *buf, const void *f, const int64_t *idx,
                                              int64_t n, size_t vs, tess_error_t *err)
{
    (void)be;
    return tess_gpu_dist_move((void *)f, buf, idx, n, vs, 1, err);
}

TESS_GPU_OP tess_status tess_gpu_dist_unpack_op(tess_backend_t *be, void *f, const void *buf, const int64_t *idx,
                                                int64_t n, size_t vs, tess_error_t *err)
{
    (void)be;
    return tess_gpu_dist_move(f, (void *)buf, idx, n, vs, 0, err);
}

TESS_GPU_OP void *tess_gpu_dist_alloc(size_t bytes)
{
    void *p = NULL;
    if (gpuMalloc(&p, bytes ? bytes : 1) != gpuSuccess) {
        (void)gpuGetLastError();
        return NULL;
    }
    return p;
}

TESS_GPU_OP void tess_gpu_dist_free(void *p)
{
    if (p)
        (void)gpuFree(p);
}

TESS_GPU_OP void *tess_gpu_dist_host_alloc(size_t bytes)
{
    void *p = NULL;
    if (gpuMallocHost(&p, bytes ? bytes : 1) != gpuSuccess) {
        (void)gpuGetLastError();
        return NULL;
    }
    return p;
}

TESS_GPU_OP void tess_gpu_dist_host_free(void *p)
{
    if (p)
        (void)gpuFreeHost(p);
}

/* Ordered after every kernel launched before it (the default stream), so a copy from the device waits for the
 * packing, and one to it is seen by the unpacking launched after it. */
TESS_GPU_OP tess_status tess_gpu_dist_copy(void *dst, const void *src, size_t bytes, int to_device, tess_error_t *err)
{
    TESS_GPU_TRY(gpuMemcpy(dst, src, bytes, to_device ? gpuMemcpyHostToDevice : gpuMemcpyDeviceToHost), err,
                 to_device ? "copying halo data to the device" : "copying halo data from the device");
    return TESS_OK;
}

TESS_GPU_OP tess_status tess_gpu_dist_sync(tess_error_t *err)
{
    TESS_GPU_TRY(gpuDeviceSynchronize(), err, "running the step kernels");
    return TESS_OK;
}

/* The staging copies' stream and the event that orders a copy after the packing. The stream is non-blocking: the
 * kernels' stream (the legacy default one) would otherwise wait for its copies, and the interior tiles launched
 * after them would not run beside them. Made at the first copy, on the rank's device; kept for the process. */
static gpuStream_t tess_gpu_dist_stream = NULL;
static gpuEvent_t tess_gpu_dist_packed = NULL;

/* A copy from the device on the staging stream: after every kernel launched before it (the packing, through the
 * event), beside those launched after it (the interior tiles). tess_gpu_dist_copies_wait waits for them. */
TESS_GPU_OP tess_status tess_gpu_dist_copy_async(void *dst, const void *src, size_t bytes, tess_error_t *err)
{
    if (!tess_gpu_dist_stream) {
        TESS_GPU_TRY(gpuStreamCreateWithFlags(&tess_gpu_dist_stream, gpuStreamNonBlocking), err,
                     "creating the stream of the halo copies");
        TESS_GPU_TRY(gpuEventCreateWithFlags(&tess_gpu_dist_packed, gpuEventDisableTiming), err,
                     "creating the event of the halo copies");
    }
    TESS_GPU_TRY(gpuEventRecord(tess_gpu_dist_packed, 0), err, "ordering a halo copy after the packing");
    TESS_GPU_TRY(gpuStreamWaitEvent(tess_gpu_dist_stream, tess_gpu_dist_packed, 0), err,
                 "ordering a halo copy after the packing");
    TESS_GPU_TRY(gpuMemcpyAsync(dst, src, bytes, gpuMemcpyDeviceToHost, tess_gpu_dist_stream), err,
                 "copying halo data from the device");
    return TESS_OK;
}

TESS_GPU_OP tess_status tess_gpu_dist_copies_wait(tess_error_t *err)
{
    if (tess_gpu_dist_stream)
        TESS_GPU_TRY(gpuStreamSynchronize(tess_gpu_dist_stream), err, "copying halo data from the device");
    return TESS_OK;
}

static inline tess_dist_engine_t tess_gpu_make_dist(const tess_backend_ops_t *ops, const char *aware)
{
    tess_dist_engine_t e;
    memset(&e, 0, sizeof e);
    e.name = ops->name;
    e.create = tess_gpu_dist_create;
    e.ops = ops;
    e.set_owned = tess_gpu_dist_set_owned;
    e.step_tiles = tess_gpu_dist_step_tiles;
    e.state = tess_gpu_dist_state;
    e.steps_done = tess_gpu_dist_steps_done;
    e.pack = tess_gpu_dist_pack_op;
    e.unpack = tess_gpu_dist_unpack_op;
    e.device = 1;
    e.gpu_aware = aware;
    e.dev_alloc = tess_gpu_dist_alloc;
    e.dev_free = tess_gpu_dist_free;
    e.host_alloc = tess_gpu_dist_host_alloc;
    e.host_free = tess_gpu_dist_host_free;
    e.copy = tess_gpu_dist_copy;
    e.copy_async = tess_gpu_dist_copy_async;
    e.copies_wait = tess_gpu_dist_copies_wait;
    e.sync = tess_gpu_dist_sync;
    return e;
}

/* Exports the engine (core/cli/tess_dist_engines.c refers to it) beside the backend's table `ops`; aware: what
 * tess_mpi_gpu_aware() answers when MPI takes this runtime's device pointers. Host data, as the table. */
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define TESS_GPU_DEFINE_DIST(symbol, ops, aware) static_assert(true, "host-only table")
#else
#define TESS_GPU_DEFINE_DIST(symbol, ops, aware)                                                                   \
    extern "C" const tess_dist_engine_t symbol = tess_gpu_make_dist(&ops, aware)
#endif

#endif
