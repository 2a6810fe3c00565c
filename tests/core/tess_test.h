/* Helpers shared by the core tests: reporting checks against references, a reproducible random stream,
 * canonical population addressing, and running the CPU backend through its ops table. */
#ifndef TESS_TEST_H
#define TESS_TEST_H

#include "tess_backend.h"
#include "tess_geometry.h"
#include "tess_params.h"
#include "tess_tiling.h"
#include <stdint.h>

/* Number of failed checks so far; main() returns tess_test_result(). */
extern int tess_test_failures;

/* Prints one line per check: what was compared, the value, the reference and the tolerance. */
int tess_test_close(const char *what, double got, double ref, double tol);
int tess_test_true(const char *what, int cond);
int tess_test_result(const char *name);

/* xorshift64*: the same sequence on every machine, so a failure can be reproduced. */
typedef struct {
    uint64_t s;
} tess_test_rng;
void tess_test_rng_seed(tess_test_rng *r, uint64_t seed);
double tess_test_uniform(tess_test_rng *r); /* [0, 1) */

/* Canonical index of f_i at box node (x, y, z) (periodic wrap applied), or -1 when its tile is empty. */
int64_t tess_test_pop_index(const tess_tiling_t *t, int x, int y, int z, int i);

/* Compares two canonical states over the wet nodes' populations (materials of p): returns the largest |a - b| (NaN
 * when either holds a NaN), sets *bits to whether every value has the same bits, and (each may be NULL) *finite to
 * whether b is finite (a diverged reference would make equal NaNs look like agreement) and *scale to b's largest
 * |value|. */
double tess_test_wet_diff(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *a,
                          const void *b, int *bits, int *finite, double *scale);

/* Runs a backend through its ops table: create with cfg, upload, initialise from pops_in, advance nsteps,
 * download into pops_out (unless NULL), report the bytes allocated (unless bytes is NULL), destroy. */
tess_status tess_test_run_ops(const tess_backend_ops_t *ops, const tess_backend_config_t *cfg, const tess_tiling_t *t,
                              const tess_params_t *p, const void *pops_in, int nsteps, void *pops_out, size_t *bytes,
                              tess_error_t *err);

/* Runs the CPU backend (AB) through its ops table: initialise from pops_in, advance nsteps, download into pops_out. */
tess_status tess_test_run_cpu(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, int threads,
                              const void *pops_in, int nsteps, void *pops_out, tess_error_t *err);

/* The tiling of an nx x ny x nz box of fluid, periodic along every axis, on p's lattice (p: tess_params_default
 * with the lattice set); a failure is reported as a failed check (t then holds nothing). */
void tess_test_periodic_fluid_box(tess_tiling_t *t, const tess_params_t *p, int nx, int ny, int nz);

/* A small random sparse box exercising every boundary kind: Zou-He velocity inlet at x = 0, Zou-He pressure
 * outlet at x = nx-1, a moving wall at y = ny-1, plain solid at y = 0, random solid obstacles, periodic z, and
 * a body force. nx, ny are not multiples of 4 so that padding is exercised. Fills g (caller frees) and p. */
/* The geometry of the mixed cases: an nx x ny x nz box (periodic in z when nz > 1), solid wall y = 0 (material 0),
 * lid y = ny - 1 (2), inlet x = 0 (3), outlet x = nx - 1 (4), fluid (1) elsewhere with random solid obstacles
 * (probability `solid`) for x_lo <= x < x_hi. */
void tess_test_mixed_geometry(tess_geometry_t *g, int nx, int ny, int nz, uint64_t seed, int x_lo, int x_hi,
                              double solid);
void tess_test_mixed_case(tess_geometry_t *g, tess_params_t *p, int collision, int fluid, uint64_t seed);

/* Random equilibrium state of the tiling (density 1 +- 0.02, velocity components +- 0.03) in precision prec;
 * returns malloc'd canonical populations. */
void *tess_test_random_state(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, uint64_t seed);

/* The analytic plane Poiseuille state of a channel with walls at y = 0 and y = H + 1 (halfway walls at y = 1/2 and
 * H + 1/2), flow along axis (0: x, 2: z) with peak speed umax and the linear pressure that drives it (G = 8 nu umax
 * / H^2, p = rho / 3, rho 1 at the last node along the axis), as FP64 equilibrium populations of tiling t into pops:
 * a start that reaches the steady state in a few viscous times of the error rather than of the whole flow.
 * Returns 0, or -1 when out of memory. */
int tess_test_poiseuille_state(const tess_geometry_t *g, const tess_tiling_t *t, const tess_params_t *p, int axis,
                               int H, double umax, double *pops);

/* The materials of that channel's open ends, method fd (or another): 0 solid, 1 fluid, 2 the pressure outlet at the
 * + end of axis (rho 1), 3 + (y - 1) the velocity inlet node of row y at the - end, carrying the parabola. */
void tess_test_poiseuille_planes(tess_params_t *p, int axis, int H, double umax, int method);

#endif
