/* What the distributed driver (backends/cpu/cpu_dist.c, docs/mpi.md) needs from the engine a rank runs on its
 * local tiling, besides the engine's backend table: stepping a range of tiles (boundary tiles first, interior
 * tiles while the halo messages travel), the state arrays the exchange reads and writes, and, for an engine whose
 * state lives in GPU memory, the memory, copies and the pack/unpack kernels over the plan's slot lists. One
 * instance per engine: tess_dist_engine_cpu (backends/cpu/cpu_dist_engine.c), tess_dist_engine_cuda and
 * tess_dist_engine_hip (backends/gpu/tess_gpu_dist.h); core/cli/tess_dist_engines.c lists those built. */
#ifndef TESS_DIST_ENGINE_H
#define TESS_DIST_ENGINE_H

#include "tess_backend.h"
#include <stddef.h>
#include <stdint.h>

/* Parts of one step (tess_dist_engine_t.step_tiles): FIRST runs the step's pre-passes, LAST completes it. */
enum { TESS_DIST_FIRST = 1, TESS_DIST_LAST = 2 };

typedef struct tess_dist_engine {
    const char *name;               /* the backend's name ("cpu", "cuda", "hip"): what --backend names */
    /* The single-rank operations the rank runs on its local tiling. create chooses the rank's device (GPU: by
     * the local rank, tess_mpi_local_rank). */
    tess_status (*create)(const tess_backend_config_t *cfg, tess_backend_t **out, tess_error_t *err);
    const tess_backend_ops_t *ops;  /* everything else: upload, initialise, download, bytes, describe, destroy */
    /* Tiles [0, nbound) are the boundary, [nbound, nowned) the interior, the rest halo (never stepped); the
     * curved-wall links of the owned tiles are the first nlinks_owned. After upload_geometry. May be NULL. */
    tess_status (*set_owned)(tess_backend_t *eng, int32_t nbound, int32_t nowned, int64_t nlinks_owned,
                             tess_error_t *err);
    /* One step over the local tiles [k0, k1) (the boundary or the interior range above), every pattern (MR too:
     * the boundary tiles' new moments kept aside until the interior has read their old ones, state below); part:
     * TESS_DIST_FIRST and/or TESS_DIST_LAST. May return before the device finished (sync waits). */
    tess_status (*step_tiles)(tess_backend_t *eng, int32_t k0, int32_t k1, int part, tess_error_t *err);
    /* The state array the exchange reads and writes: next = 0 the current state, next = 1 the array the step in
     * progress writes (AB: the other copy; AA: the one copy; MR: where the boundary tiles' new moments wait
     * between the parts, in the moments' layout: the CPU's side buffer, the GPU's next copy). Device memory where
     * device is set. */
    void *(*state)(tess_backend_t *eng, int next);
    int64_t (*steps_done)(const tess_backend_t *eng); /* AA: odd means the next step is an even one */
    /* The plan's slot indices (tile-major, tess_pop_layout.h) as the engine's state indices, in place over n of
     * them; called once on each of the plan's lists after upload. NULL: the engine's state is tile-major. */
    void (*state_slots)(const tess_backend_t *eng, int64_t *idx, int64_t n);
    /* buf[k] = f[idx[k]] and f[idx[k]] = buf[k] for k < n, values of vs bytes; idx from lists (below). */
    tess_status (*pack)(tess_backend_t *eng, void *buf, const void *f, const int64_t *idx, int64_t n, size_t vs,
                        tess_error_t *err);
    tess_status (*unpack)(tess_backend_t *eng, void *f, const void *buf, const int64_t *idx, int64_t n, size_t vs,
                          tess_error_t *err);
    /* GPU engines only (device 1; NULL for the CPU): memory the kernels reach, copies to and from it (to_device),
     * and waiting for every kernel launched. */
    int device;
    const char *gpu_aware;          /* what tess_mpi_gpu_aware() answers when MPI takes this engine's pointers */
    void *(*dev_alloc)(size_t bytes);
    void (*dev_free)(void *p);
    /* Page-locked host memory for the staging buffers (a copy from or to it runs at the link's speed, without the
     * driver's own bounce buffer); NULL return: the caller falls back to malloc. */
    void *(*host_alloc)(size_t bytes);
    void (*host_free)(void *p);
    tess_status (*copy)(void *dst, const void *src, size_t bytes, int to_device, tess_error_t *err);
    /* A copy from the device on a stream of its own: after every kernel launched before it (the packing), beside
     * those launched after it (the interior tiles); copies_wait waits for every such copy. NULL: copy only. */
    tess_status (*copy_async)(void *dst, const void *src, size_t bytes, tess_error_t *err);
    tess_status (*copies_wait)(tess_error_t *err);
    tess_status (*sync)(tess_error_t *err);
} tess_dist_engine_t;

extern const tess_dist_engine_t tess_dist_engine_cpu;

#endif
