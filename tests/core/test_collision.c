/* Collisions conserve mass and momentum, and MRT reduces to LBGK.
 *
 * 1. LBGK and MRT (d'Humieres' rates), both fluid models, both precisions, on random non-equilibrium
 *    states: after tess_node_collide the density is unchanged and the momentum is unchanged without force
 *    and changed by exactly F with Guo forcing (j' = j + F). The moments are summed in double here, so only
 *    the collision's own round-off counts: every f passes through at most two 19-term sums whose partial
 *    sums stay below 12 in magnitude (the moment E = -11 rho), i.e. 2 x 19 roundings of values of order 1
 *    (about 40 eps) for the 19 f's summed again: tolerance 128 eps.
 * 2. MRT with every rate equal to 1/tau and d'Humieres' (2002) LBGK-equivalent equilibrium parameters
 *    w_e = 3, w_ej = -11/2, w_xx = -1/2 equals LBGK population by population, with and without force, both
 *    fluid models: the two differ only by the rounding of the moment transform and its inverse, same bound
 *    per population: tolerance 64 eps of the population size (f < 1). A wrong parameter would show as a
 *    difference of order 1e-4 (u ~ 0.1). */
#include "tess_physics.h"
#include "tess_test.h"
#include <float.h>
#include <math.h>
#include <stdio.h>

static const int cx[19] = TESS_D3Q19_CX, cy[19] = TESS_D3Q19_CY, cz[19] = TESS_D3Q19_CZ;

/* A random state: equilibrium of a random (rho, u) plus a random non-equilibrium part of 1% of w_i. */
static void random_state(tess_test_rng *r, int fluid, double *f)
{
    const double rho = 0.9 + 0.2 * tess_test_uniform(r);
    double u[3];
    for (int a = 0; a < 3; a++)
        u[a] = 0.2 * (tess_test_uniform(r) - 0.5);
    tess_equilibrium_f64(fluid, rho, u[0], u[1], u[2], f);
    static const int w36[19] = TESS_D3Q19_W36;
    for (int i = 0; i < 19; i++)
        f[i] += 0.01 * (w36[i] / 36.0) * (tess_test_uniform(r) - 0.5);
}

static void moments(const double *f, double *m)
{
    m[0] = m[1] = m[2] = m[3] = 0;
    for (int i = 0; i < 19; i++) {
        m[0] += f[i];
        m[1] += cx[i] * f[i];
        m[2] += cy[i] * f[i];
        m[3] += cz[i] * f[i];
    }
}

static void collide(const tess_params_t *p, int prec, const double *in, double *out)
{
    if (prec) {
        float ff[19];
        for (int i = 0; i < 19; i++)
            ff[i] = (float)in[i];
        tess_node_collide_f32(p, &p->mat[1], ff);
        for (int i = 0; i < 19; i++)
            out[i] = ff[i];
    } else {
        for (int i = 0; i < 19; i++)
            out[i] = in[i];
        tess_node_collide_f64(p, &p->mat[1], out);
    }
}

static void test_conservation(void)
{
    for (int prec = 0; prec < 2; prec++)
        for (int collision = 0; collision < 2; collision++)
            for (int fluid = 0; fluid < 2; fluid++)
                for (int force = 0; force < 2; force++) {
                    tess_params_t p;
                    tess_params_default(&p);
                    p.collision = collision;
                    p.fluid = fluid;
                    tess_params_set_tau(&p, 0.56);
                    p.use_force = force;
                    p.force[0] = 1e-3;
                    p.force[1] = -2e-3;
                    p.force[2] = 5e-4;
                    tess_test_rng r;
                    tess_test_rng_seed(&r, 7);
                    double err_mass = 0, err_mom = 0;
                    for (int n = 0; n < 1000; n++) {
                        double f[19], g[19], m0[4], m1[4];
                        random_state(&r, fluid, f);
                        if (prec)
                            for (int i = 0; i < 19; i++)
                                f[i] = (float)f[i]; /* the reference sees what the float code sees */
                        collide(&p, prec, f, g);
                        moments(f, m0);
                        moments(g, m1);
                        err_mass = fmax(err_mass, fabs(m1[0] - m0[0]));
                        for (int a = 0; a < 3; a++) {
                            const double dF = force ? (prec ? (double)(float)p.force[a] : p.force[a]) : 0.0;
                            err_mom = fmax(err_mom, fabs(m1[1 + a] - (m0[1 + a] + dF)));
                        }
                    }
                    const double eps = prec ? FLT_EPSILON : DBL_EPSILON;
                    char what[160];
                    snprintf(what, sizeof what, "%s %s %s%s: max mass change over 1000 states",
                             collision ? "MRT" : "LBGK", fluid ? "quasi-compressible" : "incompressible",
                             prec ? "single" : "double", force ? " with force" : "");
                    tess_test_close(what, err_mass, 0.0, 128 * eps);
                    snprintf(what, sizeof what, "%s %s %s%s: max |j' - j - F| over 1000 states",
                             collision ? "MRT" : "LBGK", fluid ? "quasi-compressible" : "incompressible",
                             prec ? "single" : "double", force ? " with force" : "");
                    tess_test_close(what, err_mom, 0.0, 128 * eps);
                }
}

static void test_mrt_equals_lbgk(void)
{
    for (int prec = 0; prec < 2; prec++)
        for (int fluid = 0; fluid < 2; fluid++)
            for (int force = 0; force < 2; force++) {
                tess_params_t lbgk, mrt;
                tess_params_default(&lbgk);
                lbgk.fluid = fluid;
                tess_params_set_tau(&lbgk, 0.8);
                lbgk.use_force = force;
                lbgk.force[0] = 1e-3;
                lbgk.force[1] = 2e-4;
                lbgk.force[2] = -7e-4;
                mrt = lbgk;
                mrt.collision = TESS_COLLISION_MRT;
                for (int k = 0; k < 19; k++)
                    mrt.s[k] = 1.0 / 0.8;
                mrt.we = 3.0;
                mrt.wej = -11.0 / 2.0;
                mrt.wxx = -1.0 / 2.0;
                tess_test_rng r;
                tess_test_rng_seed(&r, 11);
                double err = 0;
                for (int n = 0; n < 1000; n++) {
                    double f[19], a[19], b[19];
                    random_state(&r, fluid, f);
                    collide(&lbgk, prec, f, a);
                    collide(&mrt, prec, f, b);
                    for (int i = 0; i < 19; i++)
                        err = fmax(err, fabs(a[i] - b[i]));
                }
                char what[160];
                snprintf(what, sizeof what, "MRT(all rates 1/tau, w_e=3, w_ej=-11/2, w_xx=-1/2) vs LBGK, %s %s%s: max |df|",
                         fluid ? "quasi-compressible" : "incompressible", prec ? "single" : "double",
                         force ? " with force" : "");
                tess_test_close(what, err, 0.0, 64 * (prec ? FLT_EPSILON : DBL_EPSILON));
            }
}

int main(void)
{
    test_conservation();
    test_mrt_equals_lbgk();
    return tess_test_result("test_collision");
}
