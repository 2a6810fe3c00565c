/* A backend is a table of operations plus opaque content (the SUNDIALS N_Vector pattern). The core and the
 * command-line program call only these; backends/cpu, backends/cuda and backends/hip each fill one table.
 *
 * Populations cross this interface in the canonical tile storage of tess_layout.h (one copy, the run's
 * precision, ntiles * q * 64 values), so initial states, checkpoints and cross-checks are the same bytes
 * for every backend. Every operation returns TESS_OK or an error code with a one-line message in err. */
#ifndef TESS_BACKEND_H
#define TESS_BACKEND_H

#include "tess_check.h"
#include "tess_error.h"
#include "tess_params.h"
#include "tess_tiling.h"
#include <stddef.h>
#include <stdint.h>

typedef enum { TESS_PRECISION_DOUBLE = 0, TESS_PRECISION_SINGLE = 1 } tess_precision;
/* Propagation patterns: AB two copies; AA one copy, alternating even and odd steps; MR the moment
 * representation of regularized LBM (ten moments per node, sliding window; docs/patterns.md). */
typedef enum { TESS_PATTERN_AB = 0, TESS_PATTERN_AA = 1, TESS_PATTERN_MR = 2 } tess_pattern;
/* Kernel variants of the tile paper's section 4.1, for performance analysis only. */
typedef enum { TESS_KERNEL_FULL = 0, TESS_KERNEL_PROPAGATION_ONLY = 1, TESS_KERNEL_READ_WRITE_ONLY = 2 } tess_kernel_variant;

typedef struct {
    tess_precision precision;
    tess_pattern pattern;
    tess_kernel_variant variant;
    int threads;       /* CPU threads; 0 = OpenMP's default */
    int device;        /* GPU ordinal */
    int plain_xyz;     /* 1: L_XYZ for every direction (layout study) */
    int tiles_per_block; /* GPU: 1 or 2 tiles per thread block; 0 = backend's choice */
    int mr_layer;      /* MR pattern: nodes per layer of a block (cross-section); 0 = from the cache size */
    int mr_copies;     /* MR pattern on a GPU: 1 one copy of the moments, 2 two; 0 = two where they fit */
} tess_backend_config_t;

typedef struct tess_backend tess_backend_t; /* defined by each backend */

/* A source of the state for initialise_from: writes the canonical populations of tiles [k0, k1) in tile-major
 * order into `tiles` (direction i of node `local` of tile k at ((k - k0) * q + i) * 64 + local, the order of
 * tess_state_convert's `tiles`). */
typedef void (*tess_state_fill_fn)(void *ctx, int32_t k0, int32_t k1, void *tiles);

typedef struct tess_backend_ops {
    const char *name;
    tess_status (*create)(const tess_backend_config_t *cfg, tess_backend_t **out, tess_error_t *err);
    /* Copies the tiling (tile map, neighbour lists, node types) to the backend. */
    tess_status (*upload_geometry)(tess_backend_t *be, const tess_tiling_t *tiling, tess_error_t *err);
    /* Sets the physics and the state (canonical populations, as tess_state_* prepare them). */
    tess_status (*initialise)(tess_backend_t *be, const tess_params_t *p, const void *populations, tess_error_t *err);
    /* Optional (may be NULL; the core then builds the whole state on the host and calls initialise): as
     * initialise, with the state asked of `fill` a range of tiles at a time, so that the host never holds a whole
     * copy of a device's state (a billion-node box's would not fit beside the rest; docs/performance.md). */
    tess_status (*initialise_from)(tess_backend_t *be, const tess_params_t *p, tess_state_fill_fn fill, void *ctx,
                                   tess_error_t *err);
    /* Advances nsteps time steps; returns when they are complete (GPU backends synchronise). */
    tess_status (*step)(tess_backend_t *be, int nsteps, tess_error_t *err);
    /* Writes the current state as canonical populations. */
    tess_status (*download_populations)(tess_backend_t *be, void *populations, tess_error_t *err);
    /* Optional (may be NULL; the core then derives the fields from download_populations): density and
     * velocity per tile node (tile * 64 + L_XYZ). */
    tess_status (*download_fields)(tess_backend_t *be, double *rho, double *u, tess_error_t *err);
    /* Optional (may be NULL; the core then reduces the fields on the host): the divergence test's reduction of
     * the current state over wet nodes (tess_check.h), done where the state lives, so that only a few numbers
     * cross to the host. */
    tess_status (*check_state)(tess_backend_t *be, tess_check_t *result, tess_error_t *err);
    size_t (*bytes_allocated)(const tess_backend_t *be);
    /* Optional: measured copy bandwidth of the backend's memory in GB/s (bytes read + written), from a
     * copy of about `bytes` bytes; the benchmark's reference for bandwidth utilisation. */
    double (*copy_bandwidth)(tess_backend_t *be, size_t bytes, tess_error_t *err);
    /* Optional: theoretical peak memory bandwidth in GB/s (0 when unknown). */
    double (*peak_bandwidth)(const tess_backend_t *be);
    /* Optional: one line describing the device (GPU name, memory; CPU threads). */
    void (*describe)(const tess_backend_t *be, char *buf, size_t len);
    void (*destroy)(tess_backend_t *be);
} tess_backend_ops_t;

/* The backends this build contains, and lookup by name. tess_backend_find fills err with the list of
 * built backends when the name is unknown. */
const tess_backend_ops_t *const *tess_backend_list(int *count);
const tess_backend_ops_t *tess_backend_find(const char *name, tess_error_t *err);

static inline size_t tess_precision_size(tess_precision p)
{
    return p == TESS_PRECISION_SINGLE ? sizeof(float) : sizeof(double);
}

static inline const char *tess_precision_name(tess_precision p)
{
    return p == TESS_PRECISION_SINGLE ? "single" : "double";
}

#endif
