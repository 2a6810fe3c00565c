/* Running time averages of a run (docs/outputs.md, "average_<step>.vti"): sums of density, velocity and, when the
 * run computes it, the wall shear stress vector and magnitude, taken every `every` steps from step `start` on.
 * Means are sums over the sample count; the oscillatory shear index (Ku et al. 1985) is
 *     OSI = 0.5 (1 - |sum WSS| / sum |WSS|)     (0 where sum |WSS| = 0),
 * 0 for a steady shear, 0.5 for a purely oscillating one. The sums go into a companion file of the restart
 * checkpoint (average.restart) so that a restarted run continues them bit for bit. */
#ifndef TESS_AVERAGE_H
#define TESS_AVERAGE_H

#include "tess_error.h"
#include <stddef.h>
#include <stdint.h>

typedef struct {
    size_t n;          /* field nodes (dense box) */
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

/* The companion file (atomic; native little-endian):
 *   "TESSAVG\0", version (uint32, 1), reserved (uint32), step, start, every, samples, last (int64),
 *   n, nw (uint64), hash (uint64, the restart file's tess_restart_hash), the sums (double: rho, u, wss,
 *   wss_mag), then an FNV-1a checksum (uint64) of every byte before it. */
tess_status tess_average_save(const tess_average_t *a, const char *path, long step, uint64_t hash, tess_error_t *err);
/* Reads it into a (created with the same n, nw, start and every), checking the step and hash; mismatches are
 * TESS_ERR_INPUT naming the file and the field. */
tess_status tess_average_load(tess_average_t *a, const char *path, long step, uint64_t hash, tess_error_t *err);

#endif
