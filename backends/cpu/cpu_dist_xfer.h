/* The halo exchange's transport (docs/mpi.md, "GPU ranks"): where a rank's engine packs its outgoing slots, what
 * MPI sends from and receives into, and where the engine unpacks from. A CPU engine packs into host buffers that
 * MPI reads directly. A GPU engine packs on the device (its pack kernel over the plan's slot lists, copied to the
 * device once); with a GPU-aware MPI (tess_mpi_gpu_aware() says so for the engine's runtime) MPI then takes the
 * device buffers, otherwise each message is staged through host memory (one copy each way). */
#ifndef TESS_CPU_DIST_XFER_H
#define TESS_CPU_DIST_XFER_H

#include "tess_dist_engine.h"
#include "tess_halo_plan.h"

/* How messages travel; tess_dist_xfer_name: "host memory" (a CPU engine), "host staging" (a GPU engine through host
 * buffers), "device buffers" (a GPU engine with a GPU-aware MPI), as summary.json's mpi block and the bench say. */
enum { TESS_XFER_HOST = 0, TESS_XFER_STAGED = 1, TESS_XFER_DEVICE = 2, TESS_XFER_PINNED = 3 };

typedef struct {
    const tess_dist_engine_t *ex;
    int mode;             /* TESS_XFER_* */
    size_t bytes;         /* of each buffer */
    char *sbuf, *rbuf;    /* host buffers (every mode: the staging copies of a GPU engine) */
    int pinned;           /* sbuf and rbuf page-locked (the engine's host_alloc), else malloc'ed */
    int async;            /* staged through the engine's copy_async: a message is ready after tess_dist_xfer_ready */
    char *dsbuf, *drbuf;  /* device buffers (GPU engines) */
    int64_t *dlist[4];    /* device copies of the plan's send_a, send_b, recv_a, recv_b (GPU engines) */
    int64_t nlist[4];
} tess_dist_xfer_t;

/* Buffers of `bytes` bytes for the plan's lists (after the MR pattern replaced them). Errors: NOMEM, DEVICE. */
tess_status tess_dist_xfer_init(tess_dist_xfer_t *x, const tess_dist_engine_t *ex, const tess_halo_plan_t *pl,
                                size_t bytes, tess_error_t *err);
void tess_dist_xfer_free(tess_dist_xfer_t *x);

/* The list the engine's pack and unpack take for a plan list (one of its send_a, send_b, recv_a, recv_b). */
const int64_t *tess_dist_xfer_list(const tess_dist_xfer_t *x, const tess_halo_plan_t *pl, const int64_t *list);
/* Where the engine packs (send = 1) or unpacks from (send = 0), and where MPI sends from and receives into. */
char *tess_dist_xfer_engine_buf(const tess_dist_xfer_t *x, int send);
char *tess_dist_xfer_mpi_buf(const tess_dist_xfer_t *x, int send);
/* After packing, before the sends are posted: the packed [off, off + n) bytes ready for MPI (staged: copied to
 * the host, or with async that copy started; device: the kernels waited for). */
tess_status tess_dist_xfer_sent(tess_dist_xfer_t *x, size_t off, size_t n, tess_error_t *err);
/* With async, after tess_dist_xfer_sent of every message and before any is posted: waits for their copies, which
 * ran beside the kernels launched in between (the interior tiles). Nothing otherwise. */
tess_status tess_dist_xfer_ready(tess_dist_xfer_t *x, tess_error_t *err);
/* After the receives completed, before unpacking: the received [off, off + n) bytes where the engine unpacks. */
tess_status tess_dist_xfer_received(tess_dist_xfer_t *x, size_t off, size_t n, tess_error_t *err);

const char *tess_dist_xfer_name(int mode);
/* The mode to report (summary.json, the bench): TESS_XFER_PINNED for staging through page-locked buffers. */
int tess_dist_xfer_reported(const tess_dist_xfer_t *x);

#endif
