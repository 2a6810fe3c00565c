/* Running one validation case: the case file from cases/validation/ with overrides, the command's backend,
 * precision and threads, stepped through tess_sim like `tessera run`. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "tess_cli.h"
#include "tess_fields.h"
#include "tess_validate.h"
#include "tess_vti.h"
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#ifndef TESS_SOURCE_CASES_DIR
#define TESS_SOURCE_CASES_DIR ""
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

tess_status tess_v_data_path(const char *file, char *path, size_t len, tess_error_t *err)
{
    const char *dirs[2] = {getenv("TESSERA_CASES"), TESS_SOURCE_CASES_DIR};
    struct stat st;
    for (int i = 0; i < 2; i++) {
        if (!dirs[i] || !dirs[i][0])
            continue;
        snprintf(path, len, "%s/validation/%s", dirs[i], file);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
            return TESS_OK;
    }
    return tess_fail(err, TESS_ERR_INPUT, "validation file %s not found in $TESSERA_CASES/validation or %s/validation",
                     file, TESS_SOURCE_CASES_DIR);
}

tess_status tess_v_case_path(const char *name, char *path, size_t len, tess_error_t *err)
{
    char file[256];
    snprintf(file, sizeof file, "%.250s.ini", name);
    return tess_v_data_path(file, path, len, err);
}

/* Case-file errors that mean "this build cannot read this case yet" (a lattice, section or key that another
 * part of the code adds) rather than a mistake. */
static int missing_feature(const char *msg)
{
    return strstr(msg, "unknown section") || strstr(msg, "unknown key") || strstr(msg, "in [lattice]") ||
           strstr(msg, "got 'nee'") || strstr(msg, "got 'bouzidi");
}

tess_status tess_vrun_open(tess_vctx_t *v, const char *case_name, const char *const *ov, int nov, tess_vrun_t *r,
                           tess_error_t *err)
{
    memset(r, 0, sizeof *r);
    char path[TESS_CASE_PATH_MAX];
    tess_status st = tess_v_case_path(case_name, path, sizeof path, err);
    if (st != TESS_OK)
        return st;
    enum { MAXOV = 64 };
    const char *all[MAXOV];
    char own[3][96];
    if (nov > MAXOV - 3)
        return tess_fail(err, TESS_ERR_INPUT, "validation %s: too many overrides", case_name);
    for (int i = 0; i < nov; i++)
        all[i] = ov[i];
    snprintf(own[0], sizeof own[0], "run.backend=%s", v->backend);
    snprintf(own[1], sizeof own[1], "run.precision=%s", v->precision);
    snprintf(own[2], sizeof own[2], "run.threads=%d", v->threads);
    for (int i = 0; i < 3; i++)
        all[nov + i] = own[i];
    st = tess_case_load(path, all, nov + 3, &r->c, err);
    if (st != TESS_OK)
        return st == TESS_ERR_INPUT && missing_feature(err->msg) ? (err->code = TESS_ERR_UNSUPPORTED) : st;
    r->loaded = 1;
    tess_backend_config_t cfg = {0};
    cfg.precision = r->c.precision;
    /* Small cases step faster on one thread than on a team that waits at every step's barrier (3x on two
     * busy cores); --threads overrides. */
    const size_t nodes = (size_t)r->c.geometry.nx * r->c.geometry.ny * r->c.geometry.nz;
    if (v->threads == 0 && nodes < 65536)
        r->c.threads = 1;
    cfg.threads = r->c.threads;
    cfg.mr_layer = r->c.mr_layer;
    cfg.mr_copies = r->c.mr_copies;
    const tess_backend_ops_t *ops = NULL;
    if ((st = tess_pattern_from_name(r->c.pattern, &cfg.pattern, err)) != TESS_OK ||
        (st = (ops = tess_backend_choose(r->c.backend, &cfg, err)) ? TESS_OK : TESS_ERR_INPUT) != TESS_OK ||
        (st = tess_sim_create(&r->c, ops, &cfg, &r->sim, err)) != TESS_OK) {
        tess_vrun_close(r);
        /* A lattice or boundary that the backend does not run yet: not run, rather than failed. */
        return st;
    }
    r->n = (size_t)r->c.geometry.nx * r->c.geometry.ny * r->c.geometry.nz;
    r->rho = malloc(r->n * sizeof *r->rho);
    r->u = malloc(3 * r->n * sizeof *r->u);
    if (!r->rho || !r->u) {
        tess_vrun_close(r);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the fields of %s", case_name);
    }
    return TESS_OK;
}

tess_status tess_v_init_state(tess_vctx_t *v, const char *name, const int dims[3], tess_v_init_fn fill, void *ctx,
                              char *path, size_t len, tess_error_t *err)
{
    char cwd[1024] = "";
    if (v->out[0] != '/' && !getcwd(cwd, sizeof cwd))
        return tess_fail(err, TESS_ERR_IO, "cannot read the current folder for the initial state %s", name);
    snprintf(path, len, "%s%s%s/%s.vti", cwd, cwd[0] ? "/" : "", v->out, name);
    const size_t n = (size_t)dims[0] * dims[1] * dims[2];
    double *rho = malloc(n * sizeof *rho), *u = calloc(3 * n, sizeof *u);
    if (!rho || !u) {
        free(rho);
        free(u);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the initial state %s", name);
    }
    for (size_t i = 0; i < n; i++) {
        const int x = (int)(i % (size_t)dims[0]), y = (int)(i / (size_t)dims[0] % (size_t)dims[1]),
                  z = (int)(i / ((size_t)dims[0] * dims[1]));
        fill(ctx, dims, x, y, z, &rho[i], &u[3 * i]);
    }
    const double origin[3] = {0, 0, 0};
    const tess_vti_array_t arrays[2] = {{"density", TESS_VTI_FLOAT64, 1, rho}, {"velocity", TESS_VTI_FLOAT64, 3, u}};
    const tess_status st = tess_vti_write(path, dims, origin, 1.0, arrays, 2, err);
    free(rho);
    free(u);
    return st;
}

/* At rest, density linear in x from rho[0] to rho[1]. */
static void linear_density(void *ctx, const int dims[3], int x, int y, int z, double *rho, double u[3])
{
    const double *r = ctx;
    (void)y, (void)z, (void)u;
    *rho = dims[0] > 1 ? r[0] + (r[1] - r[0]) * x / (double)(dims[0] - 1) : r[0];
}

tess_status tess_v_init_file(tess_vctx_t *v, const char *name, const int dims[3], double rho0, double rho1,
                             char *path, size_t len, tess_error_t *err)
{
    double r[2] = {rho0, rho1};
    return tess_v_init_state(v, name, dims, linear_density, r, path, len, err);
}

tess_status tess_vrun_step(tess_vrun_t *r, long n, tess_error_t *err)
{
    const double t = now();
    while (n > 0) {
        const int k = n > 1000000 ? 1000000 : (int)n;
        const tess_status st = tess_sim_step(r->sim, k, err);
        if (st != TESS_OK)
            return st;
        n -= k;
        r->steps += k;
    }
    r->seconds += now() - t;
    return TESS_OK;
}

tess_status tess_vrun_fields(tess_vrun_t *r, tess_error_t *err)
{
    const tess_status st = tess_sim_fields(r->sim, r->rho, r->u, err);
    if (st != TESS_OK)
        return st;
    tess_field_stats_t fs;
    tess_field_stats(&r->c, r->rho, r->u, &fs);
    if (fs.bad)
        return tess_fail(err, TESS_ERR_DIVERGED, "%s diverged by step %ld: density %g, |u| %g at node (%d,%d,%d)",
                         r->c.name, r->steps, fs.bad_rho, fs.bad_u, fs.at[0], fs.at[1], fs.at[2]);
    return TESS_OK;
}

tess_status tess_vrun_steady(tess_vrun_t *r, long every, double tol, long max_steps, double *change, tess_error_t *err)
{
    double *prev = malloc(3 * r->n * sizeof *prev);
    if (!prev)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the steady-state test of %s", r->c.name);
    tess_status st = tess_vrun_fields(r, err);
    double d = INFINITY;
    while (st == TESS_OK && r->steps < max_steps) {
        memcpy(prev, r->u, 3 * r->n * sizeof *prev);
        const long n = every < max_steps - r->steps ? every : max_steps - r->steps;
        if ((st = tess_vrun_step(r, n, err)) != TESS_OK || (st = tess_vrun_fields(r, err)) != TESS_OK)
            break;
        double num = 0.0, den = 0.0;
        for (size_t i = 0; i < 3 * r->n; i++) {
            num += (r->u[i] - prev[i]) * (r->u[i] - prev[i]);
            den += r->u[i] * r->u[i];
        }
        d = den > 0 ? sqrt(num / den) : 0.0;
        if (d < tol)
            break;
    }
    free(prev);
    if (change)
        *change = d;
    return st;
}

void tess_vrun_close(tess_vrun_t *r)
{
    tess_sim_free(r->sim);
    r->sim = NULL;
    if (r->loaded)
        tess_case_free(&r->c);
    free(r->rho);
    free(r->u);
    memset(r, 0, sizeof *r);
}
