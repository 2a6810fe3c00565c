/* Plane Poiseuille flow in 3D (D3Q19), body-force and pressure driven, against the analytic profile
 * (shared/reference/poiseuille_and_duct.md section 1), and its second-order convergence.
 *
 * Cases cases/validation/poiseuille3d_force.ini and poiseuille3d_pressure.ini at H = 8, 16, 32 (and 64 in
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

static const char *const group = "Poiseuille 3D (D3Q19)";

/* Runs one channel of width H; returns the relative L2 error of u_x, NaN on failure (row added). */
static double channel(tess_vctx_t *v, int H, int pressure, const char *collision, long *steps_out, double *secs)
{
    const double nu = (TAU - 0.5) / 3.0, G = 8.0 * nu * U_MAX / ((double)H * H);
    const long steps = 14L * H * H;
    char ov[8][1200];
    const char *p[8];
    int n = 0;
    tess_vrun_t r;
    tess_error_t err = {0};
    char what[96], init[1100] = "";
    snprintf(what, sizeof what, "%s %s H=%d", pressure ? "pressure-driven" : "body force", collision, H);
    snprintf(ov[n++], sizeof ov[0], "domain.nz=%d", H);
    snprintf(ov[n++], sizeof ov[0], "run.steps=%ld", steps);
    snprintf(ov[n++], sizeof ov[0], "physics.collision=%s", collision);
    if (pressure) {
        snprintf(ov[n++], sizeof ov[0], "domain.nx=%d", H + 1);
        /* p = rho / 3 and the planes are H apart: rho difference 3 G H */
        snprintf(ov[n++], sizeof ov[0], "outlet.high.density=%.17g", 1.0 + 1.5 * G * H);
        snprintf(ov[n++], sizeof ov[0], "outlet.low.density=%.17g", 1.0 - 1.5 * G * H);
        const int dims[3] = {H + 1, 4, H};
        if (tess_v_init_file(v, "poiseuille3d_init", dims, 1.0 + 1.5 * G * H, 1.0 - 1.5 * G * H, init, sizeof init,
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
    tess_status st = tess_vrun_open(v, pressure ? "poiseuille3d_pressure" : "poiseuille3d_force", p, n, &r, &err);
    if (st == TESS_OK)
        st = tess_vrun_step(&r, steps, &err);
    if (st == TESS_OK)
        st = tess_vrun_fields(&r, &err);
    if (init[0])
        remove(init);
    if (st != TESS_OK) {
        if (st == TESS_ERR_UNSUPPORTED)
            tess_v_not_run(v, group, err.msg);
        else
            tess_v_error(v, group, what, &err);
        tess_vrun_close(&r);
        return NAN;
    }
    const int nx = r.c.geometry.nx, ny = r.c.geometry.ny;
    const int x0 = pressure ? H / 2 : 0, x1 = pressure ? H / 2 : nx - 1;
    double num = 0.0, den = 0.0;
    for (int z = 0; z < H; z++)
        for (int y = 0; y < ny; y++)
            for (int x = x0; x <= x1; x++) {
                const double zeta = z + 0.5, ua = G / (2.0 * nu) * zeta * (H - zeta);
                const double un = r.u[3 * tess_vrun_index(&r, x, y, z)];
                num += (un - ua) * (un - ua);
                den += ua * ua;
            }
    *steps_out = r.steps;
    *secs += r.seconds;
    tess_vrun_close(&r);
    return sqrt(num / den);
}

static void series(tess_vctx_t *v, int pressure, const char *collision, int nres, double e[NRES])
{
    long steps[NRES] = {0};
    double secs = 0.0;
    const char *drive = pressure ? "pressure-driven (Zou-He planes)" : "body force (Guo)";
    for (int k = 0; k < nres; k++) {
        const int H = 8 << k;
        e[k] = channel(v, H, pressure, collision, &steps[k], &secs);
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
                group, drive, collision, 8 << (nres - 1), pressure ? "H + 1 nodes long, profile at mid-length" : "4x4 periodic",
                steps[nres - 1], 8 << (nres - 1), secs);
}

tess_status tess_validate_poiseuille3d(tess_vctx_t *v, tess_error_t *err)
{
    (void)err;
    const int nres = v->quick ? 3 : 4;
    double ef[NRES], ep[NRES], em[NRES];
    for (int k = 0; k < NRES; k++)
        ef[k] = ep[k] = em[k] = NAN;
    series(v, 0, "lbgk", nres, ef);
    series(v, 1, "lbgk", nres, ep);
    if (!v->quick)
        series(v, 0, "mrt", nres, em);
    FILE *f = tess_v_open(v, "poiseuille3d.dat");
    if (!f)
        return TESS_OK;
    fprintf(f, "# H  error_force_lbgk  error_pressure_lbgk  error_force_mrt (relative L2 of u_x; NaN: not run)\n");
    for (int k = 0; k < nres; k++)
        fprintf(f, "%d %.6e %.6e %.6e\n", 8 << k, ef[k], ep[k], em[k]);
    fclose(f);
    if (!(f = tess_v_open(v, "poiseuille3d.gp")))
        return TESS_OK;
    /* The slope-2 guide passes through the body-force error at H = 8. */
    fprintf(f, "set terminal pngcairo size 640,480 noenhanced\nset output 'poiseuille3d.png'\n"
               "set logscale xy\nset xlabel 'H (nodes across the channel)'\nset ylabel 'relative L2 error of u_x'\n"
               "set title 'Plane Poiseuille flow, D3Q19: second-order convergence'\nset key top right\n"
               "set xrange [6:%d]\nset xtics (8, 16, 32, 64)\nset format y '%%.0e'\n"
               "plot 'poiseuille3d.dat' u 1:2 w lp pt 7 t 'body force, LBGK', "
               "'' u 1:3 w lp pt 5 t 'pressure-driven, LBGK', %s"
               "%.6e*(8.0/x)**2 w l dt 2 lc rgb 'black' t 'slope -2'\n",
            (8 << (nres - 1)) + 16, v->quick ? "" : "'' u 1:4 w lp pt 9 t 'body force, MRT', ", ef[0]);
    fclose(f);
    tess_v_plot(v, "poiseuille3d");
    return TESS_OK;
}
