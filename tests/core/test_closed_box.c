/* A closed box with halfway bounce-back walls and random solid obstacles conserves mass over 1,000 steps
 * on the CPU backend, run through its ops table (LBGK and MRT, with a body force, which adds no mass).
 * Streaming and bounce-back copy values exactly, so mass moves only in the collision, through
 * omega (sum_i feq_i - rho) plus the rounding of f - omega (f - feq). The first is systematic (the rounded
 * weights do not sum to exactly 1, so it has the same sign at every node and step) and test_equilibrium
 * measures it below 3 eps; allowing 4 eps per node and step gives a relative bound of S omega 4 eps after
 * S steps: 1.5e-12 in double, 7.9e-4 in single (a lost population at one wall node would change the mass
 * by about 1e-2 / 500 = 2e-5 per step, 2e-2 after 1,000 steps, and fail both). MRT conserves by construction
 * (rho is a moment it does not relax) and meets the same bound.
 */
#include "tess_state.h"
#include "tess_test.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define STEPS 1000

static double total_mass(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *pops)
{
    const size_t nn = 64 * (size_t)t->ntiles;
    double *rho = malloc(nn * sizeof *rho), *u = malloc(3 * nn * sizeof *u);
    tess_state_fields(t, p, prec, pops, rho, u);
    double m = 0;
    for (size_t n = 0; n < nn; n++)
        m += rho[n]; /* solid nodes report 0 */
    free(rho);
    free(u);
    return m;
}

static void run(int collision, tess_precision prec)
{
    tess_geometry_t g;
    tess_params_t p;
    tess_params_default(&p);
    p.collision = collision;
    tess_params_set_tau(&p, 0.6);
    p.use_force = 1;
    p.force[0] = 1e-5;
    p.force[2] = -2e-5;
    tess_geometry_init(&g, 10, 9, 7, 1);
    tess_test_rng r;
    tess_test_rng_seed(&r, 99);
    for (size_t n = 0; n < (size_t)10 * 9 * 7; n++)
        if (tess_test_uniform(&r) < 0.15)
            g.type[n] = 0;
    tess_tiling_t t;
    tess_error_t err;
    tess_tiling_build(&t, &g, &p, &err);
    void *pops = tess_test_random_state(&t, &p, prec, 3);
    void *out = malloc(tess_state_count(&t) * tess_precision_size(prec));
    const double m0 = total_mass(&t, &p, prec, pops);
    tess_status s = tess_test_run_cpu(&t, &p, prec, 1, pops, STEPS, out, &err);
    if (s != TESS_OK)
        printf("     %s\n", err.msg);
    if (tess_test_true("cpu backend runs 1000 steps", s == TESS_OK)) {
        const double m1 = total_mass(&t, &p, prec, out);
        const double eps = prec == TESS_PRECISION_SINGLE ? FLT_EPSILON : DBL_EPSILON;
        const double tol = STEPS * (1.0 / p.tau) * 4.0 * eps;
        char what[160];
        snprintf(what, sizeof what, "closed box %s %s, %lld wet nodes: relative mass change after %d steps",
                 collision ? "MRT" : "LBGK", tess_precision_name(prec), (long long)t.n_wet, STEPS);
        tess_test_close(what, (m1 - m0) / m0, 0.0, tol);
        /* the state must have evolved: the wet-node velocity field after 1,000 steps differs from the start */
        const size_t nn = 64 * (size_t)t.ntiles;
        double *rho0 = malloc(nn * sizeof *rho0), *u0 = malloc(3 * nn * sizeof *u0);
        double *rho1 = malloc(nn * sizeof *rho1), *u1 = malloc(3 * nn * sizeof *u1);
        tess_state_fields(&t, &p, prec, pops, rho0, u0);
        tess_state_fields(&t, &p, prec, out, rho1, u1);
        double du = 0;
        for (size_t n = 0; n < 3 * nn; n++)
            du = fmax(du, fabs(u1[n] - u0[n]));
        snprintf(what, sizeof what, "closed box %s %s: velocity field evolved (max |du| %.3g > 1e-3) and is finite",
                 collision ? "MRT" : "LBGK", tess_precision_name(prec), du);
        tess_test_true(what, du > 1e-3 && isfinite(m1));
        free(rho0);
        free(u0);
        free(rho1);
        free(u1);
    }
    free(pops);
    free(out);
    tess_tiling_free(&t);
    tess_geometry_free(&g);
}

int main(void)
{
    for (int prec = 0; prec < 2; prec++)
        for (int collision = 0; collision < 2; collision++)
            run(collision, (tess_precision)prec);
    return tess_test_result("test_closed_box");
}
