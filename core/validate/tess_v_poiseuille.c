/* Plane Poiseuille flow in 3D (D3Q19, plates normal to z) and 2D (D2Q9, walls normal to y), body-force and
 * pressure driven, against the analytic profile (shared/reference/poiseuille_and_duct.md section 1), and its
 * second-order convergence.
 *
 * Cases cases/validation/poiseuille{3d,2d}_{force,pressure}.ini at H = 8, 16, 32 (and 64 in
 * full mode), diffusive scaling (tau 0.8, u_max 0.05 at every H), 14 H^2 steps from rest (the slowest start-up
 * mode decays as exp(-pi^2 nu t / H^2): to 1e-6 of itself); the pressure-driven case starts from the linear
 * density between its planes (tess_v_init_file says why).
 * Checks, with the tolerances of tests/core/test_poiseuille.c:
 * - relative L2 error of u_x across the channel < 3% at every H: halfway bounce-back leaves a slip of order
 *   1/H^2 (1.1% at H = 8 with LBGK, tau 0.8), while a wall misplaced by half a node would be off by 2/H = 25%;
 * - convergence order log2(e(H) / e(2H)) = 2 +- 0.2 (error ratio 3.5..4.6; higher-order terms at H = 8). */
#include "tess_validate.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#define TAU 0.8
#define U_MAX 0.05
#define NRES 4

typedef struct {
    const char *group, *prefix; /* report group; case files <prefix>_force.ini, <prefix>_pressure.ini */
    int d;                      /* 3: across z, periodic length 4 in y; 2: across y, nz = 1 */
} geom_t;

static const geom_t g3 = {"Poiseuille 3D (D3Q19)", "poiseuille3d", 3}, g2 = {"Poiseuille 2D (D2Q9)", "poiseuille2d", 2};

/* Runs one channel of width H; returns the relative L2 error of u_x, NaN on failure (row added). */
static double channel(tess_vctx_t *v, const geom_t *gm, int H, int pressure, const char *collision, long *steps_out,
                      double *secs)
{
    const char *group = gm->group;
    const double nu = (TAU - 0.5) / 3.0, G = 8.0 * nu * U_MAX / ((double)H * H);
    const long steps = 14L * H * H;
    char ov[8][1200];
    const char *p[8];
    int n = 0;
    tess_vrun_t r;
    tess_error_t err = {0};
    char what[96], init[1100] = "";
    snprintf(what, sizeof what, "%s %s H=%d", pressure ? "pressure-driven" : "body force", collision, H);
    snprintf(ov[n++], sizeof ov[0], gm->d == 3 ? "domain.nz=%d" : "domain.ny=%d", H);
    snprintf(ov[n++], sizeof ov[0], "run.steps=%ld", steps);
    snprintf(ov[n++], sizeof ov[0], "physics.collision=%s", collision);
    if (pressure) {
        snprintf(ov[n++], sizeof ov[0], "domain.nx=%d", H + 1);
        /* p = rho / 3 and the planes are H apart: rho difference 3 G H */
        snprintf(ov[n++], sizeof ov[0], "outlet.high.density=%.17g", 1.0 + 1.5 * G * H);
        snprintf(ov[n++], sizeof ov[0], "outlet.low.density=%.17g", 1.0 - 1.5 * G * H);
        const int dims[3] = {H + 1, gm->d == 3 ? 4 : H, gm->d == 3 ? H : 1};
        if (tess_v_init_file(v, "poiseuille_init", dims, 1.0 + 1.5 * G * H, 1.0 - 1.5 * G * H, init, sizeof init,
                             &err) != TESS_OK) {
            tess_v_error(v, group, what, &err);
            return NAN;
        }
        snprintf(ov[n++], sizeof ov[0], "init.file=%s", init);
    } else {
        snprintf(ov[n++], sizeof ov[0], "physics.force=%.17g 0 0", G);
    }
    for (int i = 0; i < n; i++)
        p[i] = ov[i];
    char name[64];
    snprintf(name, sizeof name, "%s_%s", gm->prefix, pressure ? "pressure" : "force");
    tess_status st = tess_vrun_open(v, name, p, n, &r, &err);
    if (st == TESS_OK)
        st = tess_vrun_step(&r, steps, &err);
    if (st == TESS_OK)
        st = tess_vrun_fields(&r, &err);
    if (init[0])
        remove(init);
    if (st != TESS_OK) {
        tess_v_failed(v, group, what, st, &err);
        tess_vrun_close(&r);
        return NAN;
    }
    /* a: the wall-normal node index, b: the periodic transverse one (3D only) */
    const int nx = r.c.geometry.nx, nb = gm->d == 3 ? r.c.geometry.ny : 1;
    const int x0 = pressure ? H / 2 : 0, x1 = pressure ? H / 2 : nx - 1;
    double num = 0.0, den = 0.0;
    for (int a = 0; a < H; a++)
        for (int b = 0; b < nb; b++)
            for (int x = x0; x <= x1; x++) {
                const double zeta = a + 0.5, ua = G / (2.0 * nu) * zeta * (H - zeta);
                const double un = r.u[3 * (gm->d == 3 ? tess_vrun_index(&r, x, b, a) : tess_vrun_index(&r, x, a, 0))];
                num += (un - ua) * (un - ua);
                den += ua * ua;
            }
    *steps_out = r.steps;
    *secs += r.seconds;
    tess_vrun_close(&r);
    return sqrt(num / den);
}

static void series(tess_vctx_t *v, const geom_t *gm, int pressure, const char *collision, int nres, double e[NRES])
{
    const char *group = gm->group;
    long steps[NRES] = {0};
    double secs = 0.0;
    const char *drive = !pressure ? "body force (Guo)"
                        : gm->d == 3 ? "pressure-driven (Zou-He planes)"
                                     : "pressure-driven (extrapolation planes)";
    for (int k = 0; k < nres; k++) {
        const int H = 8 << k;
        e[k] = channel(v, gm, H, pressure, collision, &steps[k], &secs);
        if (isnan(e[k]))
            return;
        char q[160];
        snprintf(q, sizeof q, "%s, %s, H=%d: relative L2 error of u_x", drive, collision, H);
        tess_v_check(v, group, q, e[k], "analytic", e[k], "< 0.03", e[k] < 0.03);
    }
    for (int k = 0; k + 1 < nres; k++) {
        const double order = log2(e[k] / e[k + 1]);
        char q[160];
        snprintf(q, sizeof q, "%s, %s: convergence order H=%d->%d", drive, collision, 8 << k, 16 << k);
        tess_v_check(v, group, q, order, "2", fabs(order - 2.0), "+-0.2", fabs(order - 2.0) <= 0.2);
    }
    tess_v_note(v, "%s, %s, %s: H = 8..%d nodes across (%s), tau 0.8, u_max 0.05, 14 H^2 steps (%ld at H = %d); "
                   "%.1f s stepping",
                group, drive, collision, 8 << (nres - 1),
                pressure ? "H + 1 nodes long, profile at mid-length" : gm->d == 3 ? "4x4 periodic" : "8 periodic",
                steps[nres - 1], 8 << (nres - 1), secs);
}

static tess_status convergence(tess_vctx_t *v, const geom_t *gm)
{
    const int nres = v->quick ? 3 : 4;
    double ef[NRES], ep[NRES], em[NRES];
    for (int k = 0; k < NRES; k++)
        ef[k] = ep[k] = em[k] = NAN;
    series(v, gm, 0, "lbgk", nres, ef);
    if (isnan(ef[0]) && v->ncheck > 0 && v->check[v->ncheck - 1].status == TESS_V_NOT_RUN)
        return TESS_OK; /* this build cannot run the lattice: one "not run" row is enough */
    series(v, gm, 1, "lbgk", nres, ep);
    if (!v->quick)
        series(v, gm, 0, "mrt", nres, em);
    char name[64];
    snprintf(name, sizeof name, "%s.dat", gm->prefix);
    FILE *f = tess_v_open(v, name);
    if (!f)
        return TESS_OK;
    fprintf(f, "# H  error_force_lbgk  error_pressure_lbgk  error_force_mrt (relative L2 of u_x; NaN: not run)\n");
    for (int k = 0; k < nres; k++)
        fprintf(f, "%d %.6e %.6e %.6e\n", 8 << k, ef[k], ep[k], em[k]);
    fclose(f);
    snprintf(name, sizeof name, "%s.gp", gm->prefix);
    if (!(f = tess_v_open(v, name)))
        return TESS_OK;
    /* The slope-2 guide passes through the body-force error at H = 8. */
    fprintf(f, "set terminal pngcairo size 640,480 noenhanced\nset output '%s.png'\n"
               "set logscale xy\nset xlabel 'H (nodes across the channel)'\nset ylabel 'relative L2 error of u_x'\n"
               "set title 'Plane Poiseuille flow, %s: second-order convergence'\nset key top right\n"
               "set xrange [6:%d]\nset xtics (8, 16, 32, 64)\nset format y '%%.0e'\n"
               "plot '%s.dat' u 1:2 w lp pt 7 t 'body force, LBGK', "
               "'' u 1:3 w lp pt 5 t 'pressure-driven, LBGK', %s"
               "%.6e*(8.0/x)**2 w l dt 2 lc rgb 'black' t 'slope -2'\n",
            gm->prefix, gm->d == 3 ? "D3Q19" : "D2Q9", (8 << (nres - 1)) + 16, gm->prefix,
            v->quick ? "" : "'' u 1:4 w lp pt 9 t 'body force, MRT', ", ef[0]);
    fclose(f);
    tess_v_plot(v, gm->prefix);
    return TESS_OK;
}

tess_status tess_validate_poiseuille3d(tess_vctx_t *v, tess_error_t *err)
{
    (void)err;
    return convergence(v, &g3);
}

tess_status tess_validate_poiseuille2d(tess_vctx_t *v, tess_error_t *err)
{
    (void)err;
    return convergence(v, &g2);
}
