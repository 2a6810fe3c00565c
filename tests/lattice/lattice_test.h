/* Helpers of the engine tests: a run of the CPU backend's engine on a geometry built
 * in the test, plane walls at arbitrary distances as the wall_q callback, and profile error norms. */
#ifndef LATTICE_TEST_H
#define LATTICE_TEST_H

#include "tess_backend.h"
#include "tess_geometry.h"
#include "tess_params.h"
#include "tess_tiling.h"

/* Plane walls: wall k is the plane n_k . x = d_k with fluid on the side n_k . x > d_k. */
typedef struct {
    int n;
    double normal[4][3], d[4];
} lt_planes_t;

/* wall_q callback: the smallest fraction q in (0, 1] at which the link x -> x + c enters the solid side of one
 * of the planes (ctx is an lt_planes_t), or -1. */
double lt_planes_q(void *ctx, const double x[3], const double c[3]);

typedef struct {
    tess_geometry_t *g; /* borrowed */
    tess_params_t p;
    tess_tiling_t t;
    tess_precision prec;
    tess_backend_t *be;
    void *pops;         /* canonical populations (host copy) */
    double *rho, *u;    /* dense fields after lt_fields: nx*ny*nz and 3*nx*ny*nz */
    double *rho_t, *u_t;
} lt_run_t;

/* Tiles g for p (p->lattice), builds the curved links from fn/ctx when p->wall asks for them (fn may be NULL),
 * starts the engine with the given pattern and threads at rest (rho 1) and initialises it. */
tess_status lt_start(lt_run_t *r, tess_geometry_t *g, const tess_params_t *p, tess_pattern pattern, int threads,
                     tess_precision prec, tess_wall_q_fn fn, void *ctx, tess_error_t *err);
tess_status lt_step(lt_run_t *r, int n, tess_error_t *err);
/* What lt_start asks of the engine besides its arguments: the MR pattern's layer (tess_backend_config_t.mr_layer;
 * 0: from the cache), and when set the per-node reference sweep (tess_cpu_q_t.reference). */
extern int lt_mr_layer, lt_engine_reference;
/* Calls fn for each lattice the MR pattern runs on (D2Q9, D3Q19, D3Q27), in double and then single precision. */
void lt_each_mr_lattice(void (*fn)(tess_lattice_id lat, tess_precision prec));
/* Downloads the populations (r->pops) and the dense fields (r->rho, r->u). */
tess_status lt_fields(lt_run_t *r, tess_error_t *err);
void lt_free(lt_run_t *r);

/* Steps until the largest velocity change over `chunk` steps falls below tol times the largest speed, or
 * max_steps; returns the steps taken (negative on error). */
long lt_converge(lt_run_t *r, int chunk, double tol, long max_steps, tess_error_t *err);

/* Walls y = 0 and y = ny - 1 solid, everything else fluid (material 1). */
void lt_channel_y(tess_geometry_t *g, int nx, int ny, int nz);

/* The mixed case of the matrix suite (tests/matrix): a small box (2D 41 x 35, 3D 21 x 18 x 8) with every boundary
 * kind: a curved bottom wall at q = 0.3 (Bouzidi quadratic), a moving lid, a tilted extrapolated velocity inlet and
 * a pressure outlet, random obstacles, a body force; LBGK (D3Q13: MRT), tau 0.7. pl receives the wall plane. */
void lt_mixed_case(tess_lattice_id lat, tess_geometry_t *g, tess_params_t *p, lt_planes_t *pl);
/* The mixed case's 3D extent along z (0: 8) and whether z is periodic (default 1). */
extern int lt_mixed_nz, lt_mixed_periodic_z;
/* Runs the mixed case (collision >= 0 replaces its model) for `steps` steps and returns a malloc'd copy of the
 * canonical populations (NULL, with a failure counted, when the run fails); nlinks receives the number of curved
 * links, keep (when not NULL) the case's tiling. */
/* Largest |a - b| over the wet nodes' canonical populations relative to b's largest |value| (tess_test_wet_diff);
 * 1 when a or b is NULL (a failed run) or b is not finite. */
double lt_wet_relative(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *a,
                       const void *b);
void *lt_mixed_pops(tess_lattice_id lat, int collision, tess_pattern pat, int threads, tess_precision prec, int steps,
                    int64_t *nlinks, tess_tiling_t *keep);
/* The end of a run started with lt_start and stepped (st: how that went, err its message): the canonical
 * populations (malloc'd; NULL and a FAIL line when st or the download failed), keep (when not NULL) the case's
 * tiling from g and p; frees r. */
void *lt_finish(lt_run_t *r, tess_status st, const tess_error_t *err, const tess_geometry_t *g,
                const tess_params_t *p, tess_tiling_t *keep);

#endif
