#include "tess_test.h"
#include "tess_layout.h"
#include "tess_state.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const tess_backend_ops_t tess_backend_cpu;

int tess_test_failures;

int tess_test_close(const char *what, double got, double ref, double tol)
{
    const double d = fabs(got - ref);
    const int ok = d <= tol; /* NaN fails */
    printf("%-4s %s: got %.17g, reference %.17g, |diff| %.3g, tolerance %.3g\n", ok ? "ok" : "FAIL", what, got, ref, d,
           tol);
    tess_test_failures += !ok;
    return ok;
}

int tess_test_true(const char *what, int cond)
{
    printf("%-4s %s\n", cond ? "ok" : "FAIL", what);
    tess_test_failures += !cond;
    return cond;
}

int tess_test_result(const char *name)
{
    if (tess_test_failures)
        printf("%s: %d check(s) FAILED\n", name, tess_test_failures);
    else
        printf("%s: all checks passed\n", name);
    return tess_test_failures ? 1 : 0;
}

void tess_test_rng_seed(tess_test_rng *r, uint64_t seed)
{
    r->s = seed * 0x9E3779B97F4A7C15ull + 1;
}

double tess_test_uniform(tess_test_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (double)((r->s * 0x2545F4914F6CDD1Dull) >> 11) * (1.0 / 9007199254740992.0);
}

int64_t tess_test_pop_index(const tess_tiling_t *t, int x, int y, int z, int i)
{
    const int64_t n = tess_tiling_node_index(t, x, y, z);
    if (n < 0)
        return -1;
    const int64_t k = n / 64, l = n % 64;
    const unsigned lx = (unsigned)(l & 3), ly = (unsigned)((l >> 2) & 3), lz = (unsigned)(l >> 4);
    return (k * 19 + i) * 64 + tess_layout_offset(i, lx, ly, lz, 0);
}

double tess_test_wet_diff(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *a,
                          const void *b, int *bits, int *finite, double *scale)
{
    const size_t vs = tess_precision_size(prec);
    double worst = 0.0, big = 0.0;
    int fin = 1;
    *bits = 1;
    for (int32_t k = 0; k < t->ntiles; k++)
        for (int n = 0; n < 64; n++) {
            if (!tess_kind_is_wet(p->mat[t->node_type[64 * (size_t)k + n]].kind))
                continue;
            for (int i = 0; i < t->q; i++) {
                const size_t j = tess_state_index(t, k, i, n);
                const double x = prec == TESS_PRECISION_SINGLE ? ((const float *)a)[j] : ((const double *)a)[j];
                const double y = prec == TESS_PRECISION_SINGLE ? ((const float *)b)[j] : ((const double *)b)[j];
                if (isnan(x) || isnan(y))
                    worst = NAN;
                else if (fabs(x - y) > worst)
                    worst = fabs(x - y); /* NaN, once found, stays */
                fin &= isfinite(y) != 0;
                big = fmax(big, fabs(y));
                if (memcmp((const char *)a + j * vs, (const char *)b + j * vs, vs) != 0)
                    *bits = 0;
            }
        }
    if (finite)
        *finite = fin;
    if (scale)
        *scale = big;
    return worst;
}

tess_status tess_test_run_ops(const tess_backend_ops_t *ops, const tess_backend_config_t *cfg, const tess_tiling_t *t,
                              const tess_params_t *p, const void *pops_in, int nsteps, void *pops_out, size_t *bytes,
                              tess_error_t *err)
{
    tess_backend_t *be = NULL;
    tess_status s = ops->create(cfg, &be, err);
    if (s == TESS_OK)
        s = ops->upload_geometry(be, t, err);
    if (s == TESS_OK)
        s = ops->initialise(be, p, pops_in, err);
    if (s == TESS_OK)
        s = ops->step(be, nsteps, err);
    if (s == TESS_OK && pops_out)
        s = ops->download_populations(be, pops_out, err);
    if (be) {
        if (bytes)
            *bytes = ops->bytes_allocated(be);
        ops->destroy(be);
    }
    return s;
}

tess_status tess_test_run_cpu(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, int threads,
                              const void *pops_in, int nsteps, void *pops_out, tess_error_t *err)
{
    tess_backend_config_t cfg = {0};
    cfg.precision = prec;
    cfg.pattern = TESS_PATTERN_AB;
    cfg.variant = TESS_KERNEL_FULL;
    cfg.threads = threads;
    return tess_test_run_ops(&tess_backend_cpu, &cfg, t, p, pops_in, nsteps, pops_out, NULL, err);
}

void tess_test_periodic_fluid_box(tess_tiling_t *t, const tess_params_t *p, int nx, int ny, int nz)
{
    tess_geometry_t g;
    tess_error_t err;
    tess_geometry_init(&g, nx, ny, nz, 1);
    g.periodic[0] = g.periodic[1] = g.periodic[2] = 1;
    if (tess_tiling_build(t, &g, p, &err) != TESS_OK)
        tess_test_true(err.msg, 0);
    tess_geometry_free(&g);
}

void tess_test_mixed_geometry(tess_geometry_t *g, int nx, int ny, int nz, uint64_t seed, int x_lo, int x_hi,
                              double solid)
{
    tess_geometry_init(g, nx, ny, nz, 1);
    g->periodic[2] = nz > 1;
    tess_test_rng r;
    tess_test_rng_seed(&r, seed);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                uint8_t m = 1;
                if (y == 0)
                    m = 0;
                else if (y == ny - 1)
                    m = 2;
                else if (x == 0)
                    m = 3;
                else if (x == nx - 1)
                    m = 4;
                else if (x >= x_lo && x < x_hi && tess_test_uniform(&r) < solid)
                    m = 0;
                g->type[tess_geometry_index(g, x, y, z)] = m;
            }
}

void tess_test_mixed_case(tess_geometry_t *g, tess_params_t *p, int collision, int fluid, uint64_t seed)
{
    tess_test_mixed_geometry(g, 18, 14, 8, seed, 3, 18 - 3, 0.25);
    tess_params_default(p);
    p->collision = collision;
    p->fluid = fluid;
    tess_params_set_tau(p, 0.7);
    p->use_force = 1;
    p->force[0] = 2e-5;
    p->force[1] = -1e-5;
    p->force[2] = 5e-6;
    p->nmat = 5;
    p->mat[2].kind = TESS_NODE_WALL;
    p->mat[2].u[0] = 0.05;
    p->mat[2].u[2] = -0.02;
    p->mat[3].kind = TESS_NODE_VELOCITY;
    p->mat[3].axis = 0;
    p->mat[3].sign = -1;
    p->mat[3].u[0] = 0.03;
    p->mat[3].u[1] = 0.004;
    p->mat[4].kind = TESS_NODE_PRESSURE;
    p->mat[4].axis = 0;
    p->mat[4].sign = 1;
    p->mat[4].rho = 0.995;
    for (int m = 0; m < p->nmat; m++)
        if (p->mat[m].rho == 0.0)
            p->mat[m].rho = 1.0;
}

void *tess_test_random_state(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, uint64_t seed)
{
    const size_t nn = (size_t)t->nx * t->ny * t->nz;
    double *rho = malloc(nn * sizeof *rho), *u = malloc(3 * nn * sizeof *u);
    void *pops = malloc(tess_state_count(t) * tess_precision_size(prec));
    if (!rho || !u || !pops) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    tess_test_rng r;
    tess_test_rng_seed(&r, seed);
    for (size_t n = 0; n < nn; n++) {
        rho[n] = 1.0 + 0.04 * (tess_test_uniform(&r) - 0.5);
        for (int c = 0; c < 3; c++)
            u[3 * n + c] = 0.06 * (tess_test_uniform(&r) - 0.5);
    }
    const double u0[3] = {0, 0, 0};
    tess_state_equilibrium(t, p, prec, pops, 1.0, u0, rho, u);
    free(rho);
    free(u);
    return pops;
}

int tess_test_poiseuille_state(const tess_geometry_t *g, const tess_tiling_t *t, const tess_params_t *p, int axis,
                               int H, double umax, double *pops)
{
    const double nu = (p->tau - 0.5) / 3.0, G = 8.0 * nu * umax / ((double)H * H);
    const int nx = g->nx, ny = g->ny, nz = g->nz, n_axis = axis == 0 ? nx : nz;
    const size_t nd = (size_t)nx * ny * nz;
    double *rd = malloc(nd * sizeof *rd), *ud = calloc(3 * nd, sizeof *ud);
    if (!rd || !ud) {
        free(rd);
        free(ud);
        return -1;
    }
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                const size_t i = tess_geometry_index(g, x, y, z);
                const double s = y - 0.5;
                rd[i] = 1.0 + 3.0 * G * (n_axis - 1 - (axis == 0 ? x : z));
                if (y >= 1 && y <= H)
                    ud[3 * i + axis] = 4.0 * umax * s * (H - s) / ((double)H * H);
            }
    const double u0[3] = {0, 0, 0};
    tess_state_equilibrium(t, p, TESS_PRECISION_DOUBLE, pops, 1.0, u0, rd, ud);
    free(rd);
    free(ud);
    return 0;
}

void tess_test_poiseuille_planes(tess_params_t *p, int axis, int H, double umax, int method)
{
    p->nmat = 3 + H;
    p->mat[2].kind = TESS_NODE_PRESSURE;
    p->mat[2].axis = axis;
    p->mat[2].sign = 1;
    p->mat[2].normal[axis] = 1.0;
    p->mat[2].rho = 1.0;
    p->mat[2].method = method;
    for (int y = 1; y <= H; y++) {
        tess_material_t *m = &p->mat[3 + y - 1];
        const double s = y - 0.5; /* distance from the wall at y = 0.5 */
        m->kind = TESS_NODE_VELOCITY;
        m->axis = axis;
        m->sign = -1;
        m->normal[axis] = -1.0;
        m->u[axis] = 4.0 * umax * s * (H - s) / ((double)H * H);
        m->rho = 1.0;
        m->method = method;
    }
}
