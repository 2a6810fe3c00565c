/* The halo exchange's transport (backends/cpu/cpu_dist_xfer.h) without MPI and without a GPU: two ranks' plans
 * of a periodic 32x16x16 fluid box cut into two slabs (2,560 crossing populations each way), every local slot
 * holding a value that names its global tile, direction and node. Each rank packs what it sends through the
 * engine's buffer, the transport makes it ready for MPI, the test moves the bytes from one rank's MPI send buffer
 * into the other's receive buffer (what MPI would do), the transport hands them to the engine and it unpacks:
 * every received slot must then hold the value its owner holds, exactly. Once with the CPU engine (host memory:
 * the engine's buffers are MPI's), once with a stand-in GPU engine whose "device" memory is host memory behind
 * its own allocator and copies (host staging: one copy per message each way, counted): without page-locked
 * memory, with it (the engine's host_alloc, counted), when it fails (pageable instead, not an error), and with
 * TESSERA_MPI_PAGEABLE_STAGING=1; then with an engine that can copy from the device on a stream of its own
 * (copy_async, as the GPU engines can): plain copies by default, and with TESSERA_MPI_ASYNC_STAGING=1 copies on that
 * stream, which the stand-in makes only when waited for (copies_wait), as a stream may, so that a message read
 * before tess_dist_xfer_ready would be missing. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "cpu_dist_xfer.h"
#include "tess_dist_engine.h"
#include "tess_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int copies, syncs, host_allocs, host_frees, host_fail, async_copies, waits;

/* The stand-in stream: copies queued, done when waited for. */
enum { PENDING_MAX = 8 };
static struct {
    void *dst;
    const void *src;
    size_t bytes;
} pending[PENDING_MAX];
static int npending;

static tess_status fake_copy_async(void *dst, const void *src, size_t bytes, tess_error_t *err)
{
    if (npending == PENDING_MAX)
        return tess_fail(err, TESS_ERR_INPUT, "more than %d copies pending", PENDING_MAX);
    pending[npending].dst = dst;
    pending[npending].src = src;
    pending[npending++].bytes = bytes;
    async_copies++;
    return TESS_OK;
}

static tess_status fake_copies_wait(tess_error_t *err)
{
    (void)err;
    for (int k = 0; k < npending; k++)
        memcpy(pending[k].dst, pending[k].src, pending[k].bytes);
    npending = 0;
    waits++;
    return TESS_OK;
}

static void *fake_host_alloc(size_t bytes)
{
    if (host_fail)
        return NULL;
    host_allocs++;
    return malloc(bytes ? bytes : 1);
}

static void fake_host_free(void *p)
{
    host_frees += p != NULL;
    free(p);
}

static void *fake_alloc(size_t bytes)
{
    return malloc(bytes ? bytes : 1);
}

static tess_status fake_copy(void *dst, const void *src, size_t bytes, int to_device, tess_error_t *err)
{
    (void)to_device, (void)err;
    memcpy(dst, src, bytes);
    copies++;
    return TESS_OK;
}

static tess_status fake_sync(tess_error_t *err)
{
    (void)err;
    syncs++;
    return TESS_OK;
}

/* The value of slot (local tile k, i, node) of a rank: its global identity. */
static double ident(const tess_halo_plan_t *pl, int64_t slot)
{
    const int q = pl->local.q;
    const int64_t k = slot / 64 / q, i = slot / 64 % q, n = slot % 64;
    return (double)(((int64_t)pl->global[k] * q + i) * 64 + n);
}

/* async: whether the staged messages must go through the engine's copy_async (one per message) */
static void exchange(const char *label, const tess_dist_engine_t *ex, int mode, int async)
{
    tess_params_t p;
    tess_params_default(&p);
    tess_tiling_t t;
    tess_test_periodic_fluid_box(&t, &p, 32, 16, 16);
    tess_partition_t part;
    tess_halo_plan_t pl[2];
    tess_error_t err;
    if (tess_partition_build(&part, &t, &p, NULL, 2, &err) != TESS_OK ||
        tess_halo_plan_build(pl, &t, &p, &part, 3, &err) != TESS_OK) {
        tess_test_true(err.msg, 0);
        return;
    }
    tess_dist_xfer_t x[2];
    double *f[2];
    for (int r = 0; r < 2; r++) {
        const int64_t n = (int64_t)pl[r].local.ntiles * pl[r].local.q * 64;
        f[r] = malloc((size_t)n * sizeof(double));
        for (int64_t s = 0; s < n; s++) /* owned tiles hold their identity, halo tiles a value nobody has */
            f[r][s] = s / 64 / pl[r].local.q < pl[r].nowned ? ident(&pl[r], s) : -1.0;
        const size_t bytes = (size_t)(pl[r].recv_a_start[1] > pl[r].send_a_start[1] ? pl[r].recv_a_start[1]
                                                                                      : pl[r].send_a_start[1]) *
                             sizeof(double);
        if (tess_dist_xfer_init(&x[r], ex, &pl[r], bytes, &err) != TESS_OK)
            tess_test_true(err.msg, 0);
    }
    char what[200];
    snprintf(what, sizeof what, "%s: transport %s", label, tess_dist_xfer_name(tess_dist_xfer_reported(&x[0])));
    tess_test_true(what, tess_dist_xfer_reported(&x[0]) == mode && tess_dist_xfer_reported(&x[1]) == mode);
    const int staged = mode == TESS_XFER_STAGED || mode == TESS_XFER_PINNED;
    copies = syncs = async_copies = waits = 0;
    for (int r = 0; r < 2; r++) { /* r sends its A slots to 1 - r (one neighbour each) */
        const int64_t n = pl[r].send_a_start[1];
        ex->pack(NULL, tess_dist_xfer_engine_buf(&x[r], 1), f[r], tess_dist_xfer_list(&x[r], &pl[r], pl[r].send_a), n,
                 sizeof(double), &err);
        tess_dist_xfer_sent(&x[r], 0, (size_t)n * sizeof(double), &err);
    }
    for (int r = 0; r < 2; r++) /* before the sends are posted */
        tess_dist_xfer_ready(&x[r], &err);
    for (int r = 0; r < 2; r++) { /* "MPI": the other rank's send buffer into this one's receive buffer */
        const int64_t n = pl[r].recv_a_start[1];
        memcpy(tess_dist_xfer_mpi_buf(&x[r], 0), tess_dist_xfer_mpi_buf(&x[1 - r], 1), (size_t)n * sizeof(double));
        tess_dist_xfer_received(&x[r], 0, (size_t)n * sizeof(double), &err);
        ex->unpack(NULL, f[r], tess_dist_xfer_engine_buf(&x[r], 0), tess_dist_xfer_list(&x[r], &pl[r], pl[r].recv_a), n,
                   sizeof(double), &err);
    }
    for (int r = 0; r < 2; r++) {
        int64_t wrong = 0;
        for (int64_t e = 0; e < pl[r].recv_a_start[1]; e++)
            wrong += f[r][pl[r].recv_a[e]] != ident(&pl[r], pl[r].recv_a[e]);
        snprintf(what, sizeof what, "%s: rank %d received %lld slots (2560), %lld differ from their owner's value (0)",
                 label, r, (long long)pl[r].recv_a_start[1], (long long)wrong);
        tess_test_true(what, wrong == 0 && pl[r].recv_a_start[1] == 2560);
    }
    snprintf(what, sizeof what, "%s: %d staging copies (%d: one per message each way), %d of them on the copy "
             "stream, waited for %d times (%d, %d)", label, copies + async_copies, staged ? 4 : 0, async_copies, waits,
             async ? 2 : 0, async ? 2 : 0);
    tess_test_true(what, copies + async_copies == (staged ? 4 : 0) && async_copies == (async ? 2 : 0) &&
                             waits == (async ? 2 : 0));
    for (int r = 0; r < 2; r++) {
        tess_dist_xfer_free(&x[r]);
        free(f[r]);
        tess_halo_plan_free(&pl[r]);
    }
    tess_partition_free(&part);
    tess_tiling_free(&t);
}

int main(void)
{
    exchange("CPU engine", &tess_dist_engine_cpu, TESS_XFER_HOST, 0);
    /* A GPU engine whose library is not GPU-aware, or with TESSERA_MPI_HOST_STAGING=1 (set here, so that the test
     * never asks an MPI library): host staging. */
    setenv("TESSERA_MPI_HOST_STAGING", "1", 1);
    tess_dist_engine_t gpu = tess_dist_engine_cpu; /* its pack and unpack, on the stand-in device memory */
    gpu.name = "fake-gpu";
    gpu.device = 1;
    gpu.gpu_aware = "yes (CUDA)";
    gpu.dev_alloc = fake_alloc;
    gpu.dev_free = free;
    gpu.copy = fake_copy;
    gpu.sync = fake_sync;
    exchange("stand-in GPU engine", &gpu, TESS_XFER_STAGED, 0);
    gpu.host_alloc = fake_host_alloc;
    gpu.host_free = fake_host_free;
    exchange("stand-in GPU engine, page-locked staging", &gpu, TESS_XFER_PINNED, 0);
    tess_test_true("page-locked staging: 4 buffers allocated (2 ranks x send, receive) and 4 freed",
                   host_allocs == 4 && host_frees == 4);
    host_fail = 1;
    exchange("stand-in GPU engine, page-locked memory refused", &gpu, TESS_XFER_STAGED, 0);
    host_fail = 0;
    setenv("TESSERA_MPI_PAGEABLE_STAGING", "1", 1);
    host_allocs = host_frees = 0;
    exchange("stand-in GPU engine, TESSERA_MPI_PAGEABLE_STAGING=1", &gpu, TESS_XFER_STAGED, 0);
    tess_test_true("TESSERA_MPI_PAGEABLE_STAGING=1: no page-locked buffer", host_allocs == 0);
    unsetenv("TESSERA_MPI_PAGEABLE_STAGING");
    /* copies from the device on the engine's own stream (the GPU engines' copy_async) */
    gpu.copy_async = fake_copy_async;
    gpu.copies_wait = fake_copies_wait;
    exchange("stand-in GPU engine with copy_async, page-locked staging, copies first (the default)", &gpu,
             TESS_XFER_PINNED, 0);
    setenv("TESSERA_MPI_ASYNC_STAGING", "1", 1);
    exchange("stand-in GPU engine, TESSERA_MPI_ASYNC_STAGING=1: copies on their own stream", &gpu, TESS_XFER_PINNED, 1);
    unsetenv("TESSERA_MPI_ASYNC_STAGING");
    return tess_test_result("test_dist_xfer");
}
