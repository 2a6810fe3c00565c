/* CRC-32 (zlib's crc32) of Tessera's checkpoint files, whole or assembled from blocks that different MPI ranks
 * checksum on their own (docs/mpi.md): zlib's crc32_combine gives exactly the CRC of the concatenation, so a file
 * written by many ranks carries the single process's checksum. restart.tsr and average.restart use it. */
#ifndef TESS_CRC_H
#define TESS_CRC_H

#include <stddef.h>
#include <stdint.h>

/* The CRC-32 of data continued from crc (0 to start), any length (zlib's crc32 takes 32-bit lengths). */
uint32_t tess_crc32(uint32_t crc, const void *data, size_t bytes);
/* The CRC-32 of what gave crc followed by n blocks of `block` bytes each, from the blocks' own CRC-32s
 * (tess_crc32(0, block k)), in order. */
uint32_t tess_crc32_blocks(uint32_t crc, const uint32_t *block_crc, int64_t n, size_t block);

#endif
