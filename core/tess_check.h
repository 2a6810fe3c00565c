/* The divergence test (docs/reliability.md): density range, NaN/Inf and the largest speed over the wet nodes
 * (fluid, inlets, outlets). A backend may reduce its state on the device (tess_backend_ops_t.check_state);
 * otherwise, and to find the node when the test fails, the host reduces the fields per tile node. */
#ifndef TESS_CHECK_H
#define TESS_CHECK_H

#include "tess_params.h"
#include "tess_tiling.h"

/* The state's extremes over wet nodes. NaN and Inf nodes are counted and left out of the extremes. */
typedef struct {
    double rho_min, rho_max, u_max; /* u_max: largest |u|, lattice units */
    long long nonfinite;            /* wet nodes with a NaN or Inf density or velocity component */
    long long wet;                  /* wet nodes looked at */
} tess_check_t;

/* What a run tolerates: density in [rho_min, rho_max] and |u| <= u_max, finite everywhere. */
typedef struct {
    double rho_min, rho_max, u_max;
} tess_check_bounds_t;

/* The largest lattice Mach number |u| / c_s (c_s = 1/sqrt(3)) above which a run warns once: compressibility
 * errors grow as Ma^2. */
#define TESS_CHECK_MACH_WARN 0.3

static inline double tess_check_mach(double u)
{
    return u * 1.7320508075688772; /* sqrt(3) */
}

/* 1 when one node's values break the bounds (written so that NaN breaks them). */
static inline int tess_check_node_bad(const tess_check_bounds_t *b, double rho, const double u[3])
{
    const double u2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    return !(rho >= b->rho_min && rho <= b->rho_max && u2 <= b->u_max * b->u_max);
}

/* 1 when the reduced state breaks the bounds. */
int tess_check_fails(const tess_check_t *r, const tess_check_bounds_t *b);

/* Reduces density and velocity per tile node (tile * 64 + local, as tess_state_fields gives them). */
void tess_check_fields(const tess_tiling_t *t, const tess_params_t *p, const double *rho, const double *u,
                       tess_check_t *r);

/* The same reduction straight from canonical populations (tess_state.h; single: float, else double), without
 * the per-node fields, on `threads` OpenMP threads (0: OpenMP's default): the host's check for backends without
 * check_state. */
void tess_check_populations(const tess_tiling_t *t, const tess_params_t *p, int single, int threads,
                            const void *pops, tess_check_t *r);

/* The first wet node (z, then y, then x order over the box) whose values break the bounds: returns 1 and its box
 * coordinates, density and |u|; 0 when none does. */
int tess_check_locate(const tess_tiling_t *t, const tess_params_t *p, const double *rho, const double *u,
                      const tess_check_bounds_t *b, int at[3], double *bad_rho, double *bad_u);

#endif
