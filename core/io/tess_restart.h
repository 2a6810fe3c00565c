/* Restart files (docs/outputs.md): a fixed header, then the canonical populations exactly as
 * download_populations returns them, so a restarted run continues bit for bit on any backend.
 *
 *   offset  bytes  field
 *   0       8      magic "TESSRST\0"
 *   8       4      version (uint32, 1)
 *   12      4      precision (uint32: 0 double, 1 single)
 *   16      8      step (int64)
 *   24      12     nx, ny, nz (int32)
 *   36      4      ntiles (int32)
 *   40      8      hash of geometry and physics (uint64, FNV-1a; tess_restart_hash)
 *   48      8      number of population values (uint64) = ntiles * 19 * 64
 *   56      ...    populations (double or float, native little-endian)                               */
#ifndef TESS_RESTART_H
#define TESS_RESTART_H

#include "tess_backend.h"
#include "tess_error.h"
#include "tess_params.h"
#include "tess_tiling.h"
#include <stdint.h>

#define TESS_RESTART_VERSION 1u

typedef struct {
    uint32_t version, precision;
    int64_t step;
    int32_t nx, ny, nz, ntiles;
    uint64_t hash, count;
} tess_restart_header_t;

/* FNV-1a over the tiling (sizes, periodicity, tile corners, node types) and the physics parameters. */
uint64_t tess_restart_hash(const tess_tiling_t *t, const tess_params_t *p);

/* Writes atomically. */
tess_status tess_restart_write(const char *path, const tess_restart_header_t *h, const void *pops, tess_error_t *err);
/* Reads the header and checks it against `expect` (precision, dims, ntiles, hash); then reads the
 * populations into pops (expect->count values). Mismatches are TESS_ERR_INPUT naming the field. */
tess_status tess_restart_read(const char *path, const tess_restart_header_t *expect, tess_restart_header_t *got,
                              void *pops, tess_error_t *err);

#endif
