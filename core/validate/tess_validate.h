/* `tessera validate`: the validation suite. Each validation (one file in core/validate/) runs cases through
 * tess_sim, the same path as `tessera run`, compares with a reference and adds rows to a report; the command
 * (core/cli/cmd_validate.c) writes the rows to report.md and turns the data files into plots with gnuplot.
 * docs/validation.md describes every check and its tolerance. */
#ifndef TESS_VALIDATE_H
#define TESS_VALIDATE_H

#include "tess_backend.h"
#include "tess_case.h"
#include "tess_error.h"
#include "tess_sim.h"
#include <stdio.h>

typedef enum { TESS_V_PASS = 0, TESS_V_FAIL, TESS_V_INFO, TESS_V_NOT_RUN } tess_vstatus;

typedef struct {
    char group[48];     /* the validation, e.g. "Poiseuille 3D" */
    char quantity[480]; /* what was measured, with its resolution */
    char value[48], reference[64], error[48], tolerance[48];
    tess_vstatus status;
} tess_vcheck_t;

#define TESS_V_MAX_CHECKS 256
#define TESS_V_MAX_NOTES 64
#define TESS_V_MAX_PLOTS 32

typedef struct {
    /* options */
    const char *backend; /* "auto", "cpu", ... (run.backend) */
    const char *precision; /* "double" or "single" (run.precision) */
    int quick;
    int threads;         /* 0: OpenMP's default */
    const char *out;     /* output folder (exists) */
    int verbose;
    char part[64];       /* --only NAME:PART: the part of this validation to run ("" for all of it) */
    /* results */
    tess_vcheck_t check[TESS_V_MAX_CHECKS];
    int ncheck;
    char note[TESS_V_MAX_NOTES][400]; /* "- Poiseuille 3D: H = 8..32, ..." lines under the table */
    int nnote;
    char plot[TESS_V_MAX_PLOTS][64];  /* gnuplot scripts in out (without .gp) */
    int nplot;
    char backend_used[64];            /* the backend name the runs resolved to, and its device */
    double t0;
} tess_vctx_t;

/* Rows. value/reference/error/tolerance are printed with %.4g unless given as text. */
void tess_v_check(tess_vctx_t *v, const char *group, const char *quantity, double value, const char *reference,
                  double error, const char *tolerance, int pass);
/* A value with no reference (reported only, never fails). */
void tess_v_info(tess_vctx_t *v, const char *group, const char *quantity, double value, const char *note);
/* A validation (or part of it) that could not run; why says what it needs. */
void tess_v_not_run(tess_vctx_t *v, const char *group, const char *why);
/* A failed run (diverged, backend error): a failing row with the message. */
void tess_v_error(tess_vctx_t *v, const char *group, const char *what, const tess_error_t *err);
/* A run that stopped with st: "not run" when this build lacks what it needs (TESS_ERR_UNSUPPORTED), else a failed
 * row (tess_v_error). */
void tess_v_failed(tess_vctx_t *v, const char *group, const char *what, tess_status st, const tess_error_t *err);
void tess_v_note(tess_vctx_t *v, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Progress line on stderr (unless quiet). */
void tess_v_log(tess_vctx_t *v, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Opens OUT/name for writing (a data file or a gnuplot script); NULL with a note on failure. */
FILE *tess_v_open(tess_vctx_t *v, const char *name);
/* Registers OUT/name.gp, which writes OUT/name.png. */
void tess_v_plot(tess_vctx_t *v, const char *name);

/* A case of cases/validation/ loaded with overrides (plus the command's backend, precision and threads),
 * running on its backend, with dense fields. */
typedef struct {
    tess_case_t c;
    tess_sim_t *sim;
    double *rho, *u; /* dense, after tess_vrun_fields */
    size_t n;
    long steps;      /* steps taken */
    double seconds;  /* stepping time */
    int loaded;      /* c needs tess_case_free */
} tess_vrun_t;

/* Path of cases/validation/FILE: $TESSERA_CASES/validation, else the source tree's; case NAME: NAME.ini. */
tess_status tess_v_data_path(const char *file, char *path, size_t len, tess_error_t *err);
tess_status tess_v_case_path(const char *name, char *path, size_t len, tess_error_t *err);
/* TESS_ERR_UNSUPPORTED when the case file cannot be read because this build lacks what it needs (an
 * unknown lattice, section or key): the caller reports "not run"; other errors are failures. */
tess_status tess_vrun_open(tess_vctx_t *v, const char *case_name, const char *const *ov, int nov, tess_vrun_t *r,
                           tess_error_t *err);
tess_status tess_vrun_step(tess_vrun_t *r, long n, tess_error_t *err);
/* Dense fields of the current state; TESS_ERR_DIVERGED on NaN or a density out of the case's bounds. */
tess_status tess_vrun_fields(tess_vrun_t *r, tess_error_t *err);
/* Steps until the relative L2 change of the velocity over `every` steps is below tol, or max_steps. */
tess_status tess_vrun_steady(tess_vrun_t *r, long every, double tol, long max_steps, double *change, tess_error_t *err);
void tess_vrun_close(tess_vrun_t *r);
/* Writes OUT/name.vti, an initial state at rest with the density linear in x from rho0 (x = 0) to rho1
 * (x = nx - 1), for pressure-driven cases (`init.file=path`; path receives the absolute name). Starting
 * pressure-driven flows from a uniform density instead excites the staggered (period-two in x) mode of
 * LBGK, which does not decay and spoils the profile by a few per cent. */
tess_status tess_v_init_file(tess_vctx_t *v, const char *name, const int dims[3], double rho0, double rho1,
                             char *path, size_t len, tess_error_t *err);
/* Writes OUT/name.vti with the density and velocity that fill gives node (x, y, z) (velocity zeroed before);
 * path receives the absolute name, for `init.file=path`. */
typedef void (*tess_v_init_fn)(void *ctx, const int dims[3], int x, int y, int z, double *rho, double u[3]);
tess_status tess_v_init_state(tess_vctx_t *v, const char *name, const int dims[3], tess_v_init_fn fill, void *ctx,
                              char *path, size_t len, tess_error_t *err);
/* Dense index of node (x, y, z). */
static inline size_t tess_vrun_index(const tess_vrun_t *r, int x, int y, int z)
{
    return (size_t)x + (size_t)r->c.geometry.nx * ((size_t)y + (size_t)r->c.geometry.ny * (size_t)z);
}

/* The validations: each adds its rows; a returned error is a failure of the suite itself (an output file
 * that cannot be written), failures of the physics are rows. */
tess_status tess_validate_poiseuille3d(tess_vctx_t *v, tess_error_t *err);
tess_status tess_validate_porous(tess_vctx_t *v, tess_error_t *err);
tess_status tess_validate_poiseuille2d(tess_vctx_t *v, tess_error_t *err);
tess_status tess_validate_cavity2d(tess_vctx_t *v, tess_error_t *err);
tess_status tess_validate_cylinder2d(tess_vctx_t *v, tess_error_t *err);
tess_status tess_validate_sphere_pipe(tess_vctx_t *v, tess_error_t *err);
tess_status tess_validate_womersley(tess_vctx_t *v, tess_error_t *err);
/* Whether the n characters at name are one of the names that --only sphere:PART joins with '+' (a lattice, a
 * wall or a Reynolds number of the sphere's runs). */
int tess_validate_sphere_part_known(const char *name, size_t n);

#endif
