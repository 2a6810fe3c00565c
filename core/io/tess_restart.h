/* Restart files (docs/outputs.md, docs/reliability.md): a fixed header, then the canonical populations
 * exactly as download_populations returns them, so a restarted run continues bit for bit on any backend.
 *
 *   offset  bytes  field
 *   0       8      magic "TESSRST\0"
 *   8       4      version (uint32, 2)
 *   12      4      precision (uint32: 0 double, 1 single)
 *   16      8      step (int64, >= 0)
 *   24      12     nx, ny, nz (int32, > 0)
 *   36      4      ntiles (int32, >= 0)
 *   40      8      hash of geometry and physics (uint64, FNV-1a; tess_restart_hash)
 *   48      8      number of population values (uint64) = ntiles * Q * 64
 *   56      4      value size in bytes (uint32: 8 double, 4 single)
 *   60      4      CRC-32 (zlib's crc32) of the whole file with these four bytes read as zero
 *   64      ...    populations (double or float, native little-endian); the file ends right after them
 * Version 1 files (no value size, no checksum, 56-byte header) are refused with a message.           */
#ifndef TESS_RESTART_H
#define TESS_RESTART_H

#include "tess_backend.h"
#include "tess_error.h"
#include "tess_params.h"
#include "tess_tiling.h"
#include <stdint.h>

#define TESS_RESTART_VERSION 2u
#define TESS_RESTART_HEADER_BYTES 64

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
/* Checks the file (regular file, header fields, size = header + count values exactly, CRC-32 of the whole
 * file), then that it matches `expect` (precision, dims, ntiles, count, hash), reading the populations into
 * pops (expect->count values; pops may be overwritten also when the file is refused; NULL: none read, for a
 * file already known not to match). Any failure is one
 * TESS_ERR_INPUT line naming the file and the field. */
tess_status tess_restart_read(const char *path, const tess_restart_header_t *expect, tess_restart_header_t *got,
                              void *pops, tess_error_t *err);

/* The same in parts, for a distributed run whose ranks each hold part of the tiles (docs/mpi.md): the header's
 * checks alone (the file's own fields and size, not its checksum; raw: its 64 bytes; *crc: the CRC it gives);
 * whether a header matches the case; the CRC-32 of one block of values; the header's bytes (CRC field 0); and
 * the whole file's CRC-32 from the header's bytes and the CRC-32s of the n population blocks of `block` bytes
 * that follow it, in file order (zlib's crc32_combine: the same value as the CRC over the whole file), with the
 * header's bytes carrying it into out (may be NULL). */
tess_status tess_restart_read_header(const char *path, tess_restart_header_t *h, uint32_t *crc,
                                     unsigned char raw[TESS_RESTART_HEADER_BYTES], tess_error_t *err);
tess_status tess_restart_match(const char *path, const tess_restart_header_t *h, const tess_restart_header_t *expect,
                               tess_error_t *err);
uint32_t tess_restart_block_crc(const void *data, size_t bytes);
void tess_restart_header_bytes(const tess_restart_header_t *h, unsigned char b[TESS_RESTART_HEADER_BYTES]);
uint32_t tess_restart_crc_blocks(const unsigned char header[TESS_RESTART_HEADER_BYTES], const uint32_t *block_crc,
                                 int64_t n, size_t block, unsigned char out[TESS_RESTART_HEADER_BYTES]);

#endif
