/* The divergence test's host reduction (core/tess_check.c) on a random sparse box with three planted bad nodes:
 * a NaN density, a density of 2.5 and a speed of 0.7. The reference is the dense fields the state was built
 * from: the equilibrium's moments return rho and u to a few roundings (19 terms of values below 1: 1e-13 is
 * over 400 eps), the counts are exact, and the node found must be the first bad one in z, y, x order. The
 * reduction straight from the populations (tess_check_populations) must equal the fields' bit for bit. */
#include "tess_check.h"
#include "tess_state.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    tess_geometry_t g;
    tess_params_t p;
    tess_test_mixed_case(&g, &p, TESS_COLLISION_LBGK, 0, 41);
    p.use_force = 0; /* the output velocity then equals the equilibrium's u (no half-force shift) */
    tess_tiling_t t;
    tess_error_t err;
    if (tess_tiling_build(&t, &g, &p, &err) != TESS_OK) {
        printf("FAIL tiling: %s\n", err.msg);
        return 1;
    }
    const size_t nn = (size_t)g.nx * g.ny * g.nz;
    double *rho = malloc(nn * sizeof *rho), *u = malloc(3 * nn * sizeof *u);
    void *pops = malloc(tess_state_count(&t) * sizeof(double));
    double *rho_t = malloc(64 * (size_t)t.ntiles * sizeof *rho_t), *u_t = malloc(3 * 64 * (size_t)t.ntiles * sizeof *u_t);
    tess_test_rng r;
    tess_test_rng_seed(&r, 5);
    for (size_t n = 0; n < nn; n++) {
        rho[n] = 1.0 + 0.04 * (tess_test_uniform(&r) - 0.5);
        for (int c = 0; c < 3; c++)
            u[3 * n + c] = 0.06 * (tess_test_uniform(&r) - 0.5);
    }
    /* Three fluid nodes, in increasing z, y, x order: NaN density, density 2.5, |u| = 0.7. */
    size_t planted[3], k = 0;
    for (size_t n = nn / 5; n < nn && k < 3; n += nn / 4)
        for (size_t m = n; m < nn; m++)
            if (g.type[m] == 1) {
                planted[k++] = m;
                break;
            }
    rho[planted[0]] = NAN;
    rho[planted[1]] = 2.5;
    u[3 * planted[2]] = 0.7;
    u[3 * planted[2] + 1] = u[3 * planted[2] + 2] = 0.0;
    const double u0[3] = {0, 0, 0};
    tess_state_equilibrium(&t, &p, TESS_PRECISION_DOUBLE, pops, 1.0, u0, rho, u);
    tess_state_fields(&t, &p, TESS_PRECISION_DOUBLE, pops, rho_t, u_t);
    tess_check_t res;
    tess_check_fields(&t, &p, rho_t, u_t, &res);

    double rmin = INFINITY, rmax = -INFINITY, umax = 0.0;
    long long wet = 0;
    for (size_t n = 0; n < nn; n++) {
        if (!tess_kind_is_wet(p.mat[g.type[n]].kind))
            continue;
        wet++;
        if (isnan(rho[n]))
            continue;
        rmin = fmin(rmin, rho[n]);
        rmax = fmax(rmax, rho[n]);
        umax = fmax(umax, sqrt(u[3 * n] * u[3 * n] + u[3 * n + 1] * u[3 * n + 1] + u[3 * n + 2] * u[3 * n + 2]));
    }
    /* The reduction straight from the populations calls the same moments: the same numbers, bit for bit. */
    tess_check_t rp;
    tess_check_populations(&t, &p, 0, 3, pops, &rp);
    tess_test_true("populations reduction = fields reduction (bitwise)",
                   rp.rho_min == res.rho_min && rp.rho_max == res.rho_max && rp.u_max == res.u_max &&
                       rp.nonfinite == res.nonfinite && rp.wet == res.wet);
    tess_test_close("wet nodes counted", (double)res.wet, (double)wet, 0.0);
    tess_test_close("nodes with NaN/Inf (one planted)", (double)res.nonfinite, 1.0, 0.0);
    tess_test_close("smallest density", res.rho_min, rmin, 1e-13);
    tess_test_close("largest density (2.5 planted)", res.rho_max, 2.5, 1e-13);
    tess_test_close("largest |u| (0.7 planted)", res.u_max, umax, 1e-13);
    const tess_check_bounds_t b = {0.5, 2.0, 0.5};
    tess_test_true("the state fails the bounds 0.5..2, |u| <= 0.5", tess_check_fails(&res, &b));

    int at[3];
    double br, bu;
    int found = tess_check_locate(&t, &p, rho_t, u_t, &b, at, &br, &bu);
    const size_t first = found ? (size_t)at[0] + (size_t)g.nx * ((size_t)at[1] + (size_t)g.ny * at[2]) : 0;
    tess_test_true("the first bad node is the NaN one (z, y, x order)", found && first == planted[0] && isnan(br));
    /* Without the NaN node the next in order is the density 2.5 one, then the fast one. */
    const tess_check_bounds_t loose = {0.5, 3.0, 0.5};
    rho[planted[0]] = 1.0;
    tess_state_equilibrium(&t, &p, TESS_PRECISION_DOUBLE, pops, 1.0, u0, rho, u);
    tess_state_fields(&t, &p, TESS_PRECISION_DOUBLE, pops, rho_t, u_t);
    found = tess_check_locate(&t, &p, rho_t, u_t, &b, at, &br, &bu);
    tess_test_true("then the density 2.5 node",
                   found && (size_t)at[0] + (size_t)g.nx * ((size_t)at[1] + (size_t)g.ny * at[2]) == planted[1]);
    found = tess_check_locate(&t, &p, rho_t, u_t, &loose, at, &br, &bu);
    tess_test_true("with density up to 3, the |u| = 0.7 node",
                   found && (size_t)at[0] + (size_t)g.nx * ((size_t)at[1] + (size_t)g.ny * at[2]) == planted[2]);
    tess_test_close("its reported |u|", bu, 0.7, 1e-13);
    const tess_check_bounds_t wide = {0.5, 3.0, 0.8};
    tess_check_fields(&t, &p, rho_t, u_t, &res);
    tess_test_true("with |u| up to 0.8 nothing fails", !tess_check_fails(&res, &wide) &&
                                                          !tess_check_locate(&t, &p, rho_t, u_t, &wide, at, &br, &bu));
    free(rho);
    free(u);
    free(pops);
    free(rho_t);
    free(u_t);
    tess_tiling_free(&t);
    tess_geometry_free(&g);
    return tess_test_result("test_check");
}
