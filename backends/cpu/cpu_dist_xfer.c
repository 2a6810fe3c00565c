/* The halo exchange's transport (cpu_dist_xfer.h). */
#include "cpu_dist_xfer.h"
#include "tess_mpi.h"
#include <stdlib.h>
#include <string.h>

/* TESSERA_MPI_PAGEABLE_STAGING=1 stages through malloc'ed memory instead of page-locked (to compare the two). */
static int want_pinned(const tess_dist_engine_t *ex)
{
    const char *force = getenv("TESSERA_MPI_PAGEABLE_STAGING");
    return ex->host_alloc && !(force && strcmp(force, "1") == 0);
}

/* TESSERA_MPI_ASYNC_STAGING=1 copies the staged messages from the device on a stream of their own, beside the
 * interior tiles. Not the default: 2 ranks on one H100, MR FP64 256^3, ran 5,100-5,600 MLUPS that way against
 * 5,860-5,920 copying first (docs/mpi.md, "GPU ranks"). */
static int want_async(const tess_dist_engine_t *ex)
{
    const char *force = getenv("TESSERA_MPI_ASYNC_STAGING");
    return ex->copy_async && ex->copies_wait && force && strcmp(force, "1") == 0;
}

static int gpu_direct(const tess_dist_engine_t *ex)
{
    /* TESSERA_MPI_HOST_STAGING=1 stages even through a GPU-aware library (to compare the two). */
    const char *force = getenv("TESSERA_MPI_HOST_STAGING");
    if (force && strcmp(force, "1") == 0)
        return 0;
    return ex->gpu_aware && strcmp(tess_mpi_gpu_aware(), ex->gpu_aware) == 0;
}

tess_status tess_dist_xfer_init(tess_dist_xfer_t *x, const tess_dist_engine_t *ex, const tess_halo_plan_t *pl,
                                size_t bytes, tess_error_t *err)
{
    memset(x, 0, sizeof *x);
    x->ex = ex;
    x->bytes = bytes ? bytes : 1;
    x->mode = !ex->device ? TESS_XFER_HOST : gpu_direct(ex) ? TESS_XFER_DEVICE : TESS_XFER_STAGED;
    x->async = x->mode == TESS_XFER_STAGED && want_async(ex);
    if (x->mode == TESS_XFER_STAGED && want_pinned(ex)) {
        x->sbuf = ex->host_alloc(x->bytes);
        x->rbuf = ex->host_alloc(x->bytes);
        x->pinned = x->sbuf && x->rbuf;
        if (!x->pinned) { /* page-locked memory is a limited resource: fall back to pageable rather than fail */
            ex->host_free(x->sbuf);
            ex->host_free(x->rbuf);
            x->sbuf = x->rbuf = NULL;
        }
    }
    if (x->mode != TESS_XFER_DEVICE && !x->pinned) {
        x->sbuf = malloc(x->bytes);
        x->rbuf = malloc(x->bytes);
        if (!x->sbuf || !x->rbuf)
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the halo buffers (%zu bytes)", 2 * x->bytes);
    }
    if (!ex->device)
        return TESS_OK;
    x->dsbuf = ex->dev_alloc(x->bytes);
    x->drbuf = ex->dev_alloc(x->bytes);
    const int64_t *lists[4] = {pl->send_a, pl->send_b, pl->recv_a, pl->recv_b};
    const int64_t *starts[4] = {pl->send_a_start, pl->send_b_start, pl->recv_a_start, pl->recv_b_start};
    int ok = x->dsbuf && x->drbuf;
    tess_status st = TESS_OK;
    for (int k = 0; k < 4 && ok && st == TESS_OK; k++) {
        x->nlist[k] = starts[k][pl->nnb];
        const size_t b = (size_t)(x->nlist[k] ? x->nlist[k] : 1) * sizeof(int64_t);
        if (!(x->dlist[k] = ex->dev_alloc(b)))
            ok = 0;
        else if (x->nlist[k])
            st = ex->copy(x->dlist[k], lists[k], (size_t)x->nlist[k] * sizeof(int64_t), 1, err);
    }
    if (!ok)
        return tess_fail(err, TESS_ERR_NOMEM, "out of device memory for the halo buffers and lists");
    return st;
}

void tess_dist_xfer_free(tess_dist_xfer_t *x)
{
    if (x->pinned) {
        x->ex->host_free(x->sbuf);
        x->ex->host_free(x->rbuf);
    } else {
        free(x->sbuf);
        free(x->rbuf);
    }
    if (x->ex && x->ex->device) {
        x->ex->dev_free(x->dsbuf);
        x->ex->dev_free(x->drbuf);
        for (int k = 0; k < 4; k++)
            x->ex->dev_free(x->dlist[k]);
    }
    memset(x, 0, sizeof *x);
}

const int64_t *tess_dist_xfer_list(const tess_dist_xfer_t *x, const tess_halo_plan_t *pl, const int64_t *list)
{
    if (!x->ex->device || !list)
        return list;
    const int64_t *lists[4] = {pl->send_a, pl->send_b, pl->recv_a, pl->recv_b};
    for (int k = 0; k < 4; k++)
        if (list == lists[k])
            return x->dlist[k];
    return NULL; /* not a list of this plan: a programming error, which the engine's kernel would show */
}

char *tess_dist_xfer_engine_buf(const tess_dist_xfer_t *x, int send)
{
    if (x->mode == TESS_XFER_HOST)
        return send ? x->sbuf : x->rbuf;
    return send ? x->dsbuf : x->drbuf;
}

char *tess_dist_xfer_mpi_buf(const tess_dist_xfer_t *x, int send)
{
    if (x->mode == TESS_XFER_DEVICE)
        return send ? x->dsbuf : x->drbuf;
    return send ? x->sbuf : x->rbuf;
}

tess_status tess_dist_xfer_sent(tess_dist_xfer_t *x, size_t off, size_t n, tess_error_t *err)
{
    if (x->async) /* on the engine's copy stream, after the packing: the interior may be launched meanwhile */
        return x->ex->copy_async(x->sbuf + off, x->dsbuf + off, n, err);
    if (x->mode == TESS_XFER_STAGED) /* a copy on the kernels' stream: it waits for the packing */
        return x->ex->copy(x->sbuf + off, x->dsbuf + off, n, 0, err);
    if (x->mode == TESS_XFER_DEVICE) /* MPI knows nothing of the stream: the packing must be complete */
        return x->ex->sync(err);
    return TESS_OK;
}

tess_status tess_dist_xfer_ready(tess_dist_xfer_t *x, tess_error_t *err)
{
    return x->async ? x->ex->copies_wait(err) : TESS_OK;
}

tess_status tess_dist_xfer_received(tess_dist_xfer_t *x, size_t off, size_t n, tess_error_t *err)
{
    if (x->mode == TESS_XFER_STAGED)
        return x->ex->copy(x->drbuf + off, x->rbuf + off, n, 1, err);
    return TESS_OK;
}

const char *tess_dist_xfer_name(int mode)
{
    return mode == TESS_XFER_DEVICE   ? "device buffers"
           : mode == TESS_XFER_PINNED ? "host staging (pinned)"
           : mode == TESS_XFER_STAGED ? "host staging"
                                      : "host memory";
}

int tess_dist_xfer_reported(const tess_dist_xfer_t *x)
{
    return x->mode == TESS_XFER_STAGED && x->pinned ? TESS_XFER_PINNED : x->mode;
}
