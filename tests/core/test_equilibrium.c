/* Equilibria (tile paper eqs. 3-4) reproduce their moments: sum f = rho, sum c f = rho u (quasi-compressible)
 * or u (incompressible, where u is the momentum), and sum c_a c_b f = rho/3 delta_ab + rho u_a u_b (or
 * rho/3 delta_ab + u_a u_b), for random states, both precisions. Each moment is a sum of at most 19 terms
 * no larger than 1/3 (times rho <= 1.1), so round-off is bounded by 19 roundings of values below 1:
 * tolerance 32 eps in the precision computed (2.2e-16 double, 1.19e-7 single). */
#include "tess_d3q19.h"
#include "tess_physics.h"
#include "tess_test.h"
#include <float.h>
#include <math.h>
#include <stdio.h>

static double max_err[2][2][3]; /* precision, fluid, moment order */

static void check_state(int fluid, int prec, double rho, const double u[3])
{
    static const int cx[19] = TESS_D3Q19_CX, cy[19] = TESS_D3Q19_CY, cz[19] = TESS_D3Q19_CZ;
    double f[19];
    if (prec) {
        float ff[19];
        tess_equilibrium_f32(fluid, (float)rho, (float)u[0], (float)u[1], (float)u[2], ff);
        for (int i = 0; i < 19; i++)
            f[i] = ff[i];
        rho = (float)rho; /* the reference uses the inputs the float code saw */
    } else {
        tess_equilibrium_f64(fluid, rho, u[0], u[1], u[2], f);
    }
    double uu[3];
    for (int a = 0; a < 3; a++)
        uu[a] = prec ? (double)(float)u[a] : u[a];
    const double rho_u = fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? rho : 1.0;
    double m0 = 0, m1[3] = {0, 0, 0}, m2[3][3] = {{0}};
    for (int i = 0; i < 19; i++) {
        const int c[3] = {cx[i], cy[i], cz[i]};
        m0 += f[i];
        for (int a = 0; a < 3; a++) {
            m1[a] += c[a] * f[i];
            for (int b = 0; b < 3; b++)
                m2[a][b] += c[a] * c[b] * f[i];
        }
    }
    double e0 = fabs(m0 - rho), e1 = 0, e2 = 0;
    for (int a = 0; a < 3; a++) {
        e1 = fmax(e1, fabs(m1[a] - rho_u * uu[a]));
        for (int b = 0; b < 3; b++)
            e2 = fmax(e2, fabs(m2[a][b] - (rho / 3.0 * (a == b) + rho_u * uu[a] * uu[b])));
    }
    max_err[prec][fluid][0] = fmax(max_err[prec][fluid][0], e0);
    max_err[prec][fluid][1] = fmax(max_err[prec][fluid][1], e1);
    max_err[prec][fluid][2] = fmax(max_err[prec][fluid][2], e2);
}

int main(void)
{
    tess_test_rng r;
    tess_test_rng_seed(&r, 42);
    for (int n = 0; n < 2000; n++) {
        const double rho = 0.9 + 0.2 * tess_test_uniform(&r);
        double u[3];
        for (int a = 0; a < 3; a++)
            u[a] = 0.2 * (tess_test_uniform(&r) - 0.5);
        for (int prec = 0; prec < 2; prec++)
            for (int fluid = 0; fluid < 2; fluid++)
                check_state(fluid, prec, rho, u);
    }
    static const char *order[3] = {"density", "momentum", "momentum flux"};
    for (int prec = 0; prec < 2; prec++)
        for (int fluid = 0; fluid < 2; fluid++)
            for (int k = 0; k < 3; k++) {
                char what[160];
                snprintf(what, sizeof what, "%s equilibrium, %s: max |moment - reference| over 2000 random states (%s)",
                         fluid ? "quasi-compressible" : "incompressible", order[k], prec ? "single" : "double");
                tess_test_close(what, max_err[prec][fluid][k], 0.0, 32.0 * (prec ? FLT_EPSILON : DBL_EPSILON));
            }
    return tess_test_result("test_equilibrium");
}
