/* Running time averages of a run (docs/outputs.md, "average_<step>.vti"): sums of density, velocity and, when the
 * run computes it, the wall shear stress vector and magnitude, taken every `every` steps from step `start` on.
 * The sums are kept per tile node (64 a tile, in the tiling's node order), over the whole tiling in one process
 * and over each rank's own tiles in a distributed run (docs/mpi.md), so both add the same values node by node.
 * Means are sums over the sample count; the oscillatory shear index (Ku et al. 1985) is
 *     OSI = 0.5 (1 - |sum WSS| / sum |WSS|)     (0 where sum |WSS| = 0),
 * 0 for a steady shear, 0.5 for a purely oscillating one. The sums go into a companion file of the restart
 * checkpoint (average.restart) so that a restarted run continues them bit for bit. */
#ifndef TESS_AVERAGE_H
#define TESS_AVERAGE_H

#include "tess_error.h"
#include "tess_vti.h"
#include <stddef.h>
#include <stdint.h>

typedef struct {
    size_t n;          /* tile nodes: 64 per tile */
    int64_t nw;        /* WSS nodes (0: no WSS) */
    long start, every;
    long samples;      /* samples taken */
    long last;         /* step of the last sample, -1 before the first */
    double *rho, *u;   /* sums: n and 3 n */
    double *wss, *wss_mag; /* sums: 3 nw and nw */
} tess_average_t;

tess_status tess_average_create(tess_average_t *a, size_t n, int64_t nw, long start, long every, tess_error_t *err);
void tess_average_free(tess_average_t *a);

/* Whether step takes a sample: step >= start, (step - start) a multiple of every, and not taken yet. */
int tess_average_due(const tess_average_t *a, long step);
/* The next step after `step` that takes a sample. */
long tess_average_next(const tess_average_t *a, long step);
/* Adds a sample: rho (n), u (3 n), wss (3 nw; NULL when nw = 0). */
void tess_average_add(tess_average_t *a, long step, const double *rho, const double *u, const double *wss);
/* The means (any output may be NULL): rho (n), u (3 n), wss (3 nw), wss_mag (nw, the time-averaged magnitude,
 * TAWSS) and osi (nw). Zero before the first sample. */
void tess_average_means(const tess_average_t *a, double *rho, double *u, double *wss, double *wss_mag, double *osi);

/* The means per tile node, the output's values: rho (n), u (3 n) and, when wss is not NULL, the WSS means of WSS
 * node m at tile node wnode[m] (wss 3 n, tawss n, osi n, wall n: 1 there), 0 at the other nodes. */
tess_status tess_average_node_means(const tess_average_t *a, const int64_t *wnode, double *rho, double *u,
                                    double *wss, double *tawss, double *osi, double *wall, tess_error_t *err);
/* The arrays of average_<step>.vti over per-node values (docs/outputs.md): density_mean, velocity_mean and, with
 * wss (wall shear stress on), wss_mean, tawss, osi and wall. Returns their count. */
int tess_average_arrays(const double *rho, const double *u, int wss, const double *wss_mean, const double *tawss,
                        const double *osi, const uint8_t *wall, tess_vti_array_t arrays[6]);

/* The companion file, version 2 (atomic; native little-endian):
 *   offset 0: "TESSAVG\0", version (uint32, 2), reserved (uint32), step, start, every, samples, last (int64),
 *             ntiles, nw (uint64), hash (uint64, the restart file's tess_restart_hash): 80 bytes;
 *   then per tile of the global tiling, in order, its 64 density sums and its 3 x 64 velocity sums (2,048 bytes);
 *   then per WSS node, in order, its WSS vector sum and magnitude sum (4 doubles);
 *   then the CRC-32 (uint32, zlib's crc32, tess_crc.h) of every byte before it.
 * Blocks of fixed size at fixed offsets, so that the ranks of a distributed run write and read their own tiles'
 * and WSS nodes' blocks at once and the file's CRC-32 combines from theirs: the same file at any rank count.
 * Version 1 (dense sums, FNV-1a) is refused with a message. */
#define TESS_AVERAGE_VERSION 2u
#define TESS_AVERAGE_HEADER_BYTES 80
#define TESS_AVERAGE_TILE_BYTES (4 * 64 * sizeof(double))
#define TESS_AVERAGE_WSS_BYTES (4 * sizeof(double))

/* What a file must say to continue a run's sums, and what else it says. */
typedef struct {
    int64_t step, start, every, ntiles, nw;
    uint64_t hash;
} tess_average_expect_t;

tess_status tess_average_save(const tess_average_t *a, const char *path, long step, uint64_t hash, tess_error_t *err);
/* Reads it into a (created with the same n, nw, start and every), checking the step and hash; mismatches are
 * TESS_ERR_INPUT naming the file and the field. */
tess_status tess_average_load(tess_average_t *a, const char *path, long step, uint64_t hash, tess_error_t *err);

/* The parts, for a distributed run (docs/mpi.md): the header's bytes; the file's checks without its sums (magic,
 * version, the expected fields, its size), giving the sample count, last step, the stored CRC-32 and the
 * header's bytes; a tile's
 * block packed from / unpacked into the sums (k: its tile among a's tiles) and a WSS node's; the file's CRC-32
 * from the header's and the blocks' CRC-32s in file order. */
void tess_average_header(const tess_average_t *a, const tess_average_expect_t *e, unsigned char out[TESS_AVERAGE_HEADER_BYTES]);
tess_status tess_average_check(const char *path, const tess_average_expect_t *e, long *samples, long *last,
                               uint32_t *crc, unsigned char header[TESS_AVERAGE_HEADER_BYTES], tess_error_t *err);
void tess_average_pack(const tess_average_t *a, int64_t k, int wss, void *block);
void tess_average_unpack(tess_average_t *a, int64_t k, int wss, const void *block);
uint32_t tess_average_crc(const unsigned char header[TESS_AVERAGE_HEADER_BYTES], const uint32_t *tile_crc, int64_t ntiles,
                          const uint32_t *wss_crc, int64_t nw);
/* The one line of a damaged file. */
tess_status tess_average_bad_crc(const char *path, uint32_t got, uint32_t stored, tess_error_t *err);

#endif
