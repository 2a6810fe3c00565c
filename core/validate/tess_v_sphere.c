/* Sphere on the axis of a circular pipe (Toelke & Krafczyk 2008, section 6): drag coefficient at Re 1, 10, 50
 * with D3Q19 and D3Q13 (both MRT), against the paper's reference cd_W,Ref (cases/validation/
 * sphere_in_pipe_toelke2008.csv: Schiller-Naumann with the Haberman-Sayre wall correction, eqs. 14-18, at
 * lambda = d/D = 0.5). Full mode only.
 *
 * Case cases/validation/sphere_pipe.ini: pipe diameter D = 32, sphere diameter d = 16 (lambda = 0.5, the
 * table's), 36 x 36 x 128 nodes; sphere at rest, pipe wall and inflow moving with u0 (Re 1: 0.02, Re 10: 0.04,
 * Re 50: 0.05), starting from the plug flow u0, run until the velocity field changes by less than 1e-5 (relative
 * L2) over 500 steps. Drag by momentum exchange on the body (tess_forces), C_d = 2 F_z / (rho u0^2 pi d^2 / 4).
 *
 * Tolerance 7%: the paper's own D3Q13 results miss the same references by 0.6% (Re 1, 128^2 x 512), 5.3% (Re 1 at
 * its coarsest grid, 32^2 x 128, d = 14.88, the size of ours), 6.9% (Re 10) and 4.6% (Re 50, both 128^2 x 512);
 * the reference formula itself is quoted at +-5%. Each run twice: plain halfway bounce-back (staircase sphere
 * and pipe) and Bouzidi linear interpolation with the exact wall distances of the primitives. */
#include "tess_forces.h"
#include "tess_validate.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const group = "Sphere in a pipe (Toelke & Krafczyk 2008)";

#define D_SPHERE 16.0
#define TOL 0.07

/* The paper's reference drag at Re from the table (lambda 0.5); NaN when absent. */
static double reference(double re)
{
    char path[1100];
    tess_error_t e;
    if (tess_v_data_path("sphere_in_pipe_toelke2008.csv", path, sizeof path, &e) != TESS_OK)
        return NAN;
    FILE *f = fopen(path, "r");
    if (!f)
        return NAN;
    char line[512];
    double out = NAN;
    while (fgets(line, sizeof line, f)) {
        double r, lam, cd;
        if (line[0] != '#' && sscanf(line, "%lf,%lf,%lf", &r, &lam, &cd) == 3 && r == re && lam == 0.5)
            out = cd;
    }
    fclose(f);
    return out;
}

tess_status tess_validate_sphere_pipe(tess_vctx_t *v, tess_error_t *err)
{
    (void)err;
    static const char *const lattices[2] = {"D3Q19", "D3Q13"};
    static const double res[3] = {1, 10, 50}, speeds[3] = {0.02, 0.04, 0.05};
    static const char *const walls[2] = {"bounce-back", "bouzidi-linear"};
    FILE *dat = tess_v_open(v, "sphere.dat");
    if (dat)
        fprintf(dat, "# Re cd_ref cd_D3Q19 cd_D3Q13 (bounce-back), cd_D3Q19 cd_D3Q13 (Bouzidi linear) (NaN: not run)\n");
    double cd_all[2][2][3];
    for (int wl = 0; wl < 4; wl++) /* wall treatment (outer), lattice */
        for (int k = 0; k < 3; k++) {
            const int w = wl / 2, l = wl % 2;
            cd_all[w][l][k] = NAN;
            const double re = res[k], u0 = speeds[k], ref = reference(re);
            char ov[12][96];
            const char *p[12];
            int n = 0;
            snprintf(ov[n++], 96, "lattice.model=%s", lattices[l]);
            snprintf(ov[n++], 96, "physics.re=%g", re);
            snprintf(ov[n++], 96, "physics.velocity=%g", u0);
            snprintf(ov[n++], 96, "wall.pipe.velocity=0 0 %g", u0);
            snprintf(ov[n++], 96, "inlet.in.velocity=0 0 %g", u0);
            snprintf(ov[n++], 96, "init.velocity=0 0 %g", u0);
            snprintf(ov[n++], 96, "forces.ref_velocity=%g", u0);
            snprintf(ov[n++], 96, "run.steps=40000");
            snprintf(ov[n++], 96, "physics.wall=%s", walls[w]);
            /* Extrapolation ends for both lattices: the Zou-He planes are D3Q19's only, and on these discs, whose
             * rim nodes border the moving wall, they diverged within 500 steps at Re 10 and 50. */
            snprintf(ov[n++], 96, "inlet.in.method=nee");
            snprintf(ov[n++], 96, "outlet.out.method=nee");
            for (int i = 0; i < n; i++)
                p[i] = ov[i];
            tess_vrun_t r;
            memset(&r, 0, sizeof r);
            tess_error_t e = {0};
            char what[64];
            snprintf(what, sizeof what, "%s, %s, Re %g", lattices[l], walls[w], re);
            double change = NAN, force[3 * TESS_MAX_MATERIALS] = {0};
            const void *pops = NULL;
            tess_status st = tess_vrun_open(v, "sphere_pipe", p, n, &r, &e);
            if (st == TESS_OK)
                st = tess_vrun_steady(&r, 500, 1e-5, 40000, &change, &e);
            if (st == TESS_OK)
                st = tess_sim_populations(r.sim, &pops, &e);
            if (st == TESS_OK)
                st = tess_forces_compute(tess_lattice_by_name(r.c.lattice), tess_sim_tiling(r.sim), &r.c.geometry,
                                         &r.c.params, &r.c.forces, r.c.precision, pops, force, &e);
            if (st != TESS_OK) {
                if (st == TESS_ERR_UNSUPPORTED)
                    tess_v_not_run(v, group, e.msg);
                else
                    tess_v_error(v, group, what, &e);
                tess_vrun_close(&r);
                continue;
            }
            double cd, cl;
            tess_forces_coefficients(&r.c.forces, force, &cd, &cl);
            cd_all[w][l][k] = cd;
            char q[200], refs[64];
            snprintf(q, sizeof q, "%s MRT, %s, Re %g (u0 %g, d 16, D 32, 36x36x128, %ld steps): drag coefficient",
                     lattices[l], walls[w], re, u0, r.steps);
            snprintf(refs, sizeof refs, "%.5g (Toelke 2008, lambda 0.5)", ref);
            const double rel = fabs(cd - ref) / ref;
            tess_v_check(v, group, q, cd, refs, rel, "< 0.07", rel < TOL);
            if (!(change < 1e-5)) {
                snprintf(q, sizeof q, "%s, %s, Re %g: steady state (velocity change per 500 steps) within 40000 steps",
                         lattices[l], walls[w], re);
                tess_v_check(v, group, q, change, "< 1e-5", NAN, "< 1e-5", 0);
            }
            tess_v_note(v, "%s, %s, %s, Re %g: u0 %g, tau %.4f, %ld steps (velocity change %.1e per 500 steps), lift "
                           "coefficient %.2e; %.1f s stepping",
                        group, lattices[l], walls[w], re, u0, r.c.params.tau, r.steps, change, cl, r.seconds);
            tess_vrun_close(&r);
        }
    if (!dat)
        return TESS_OK;
    for (int k = 0; k < 3; k++)
        fprintf(dat, "%g %.6g %.6g %.6g %.6g %.6g\n", res[k], reference(res[k]), cd_all[0][0][k], cd_all[0][1][k],
                cd_all[1][0][k], cd_all[1][1][k]);
    fclose(dat);
    FILE *f = tess_v_open(v, "sphere.gp");
    if (!f)
        return TESS_OK;
    fprintf(f, "set terminal pngcairo size 640,480 noenhanced\nset output 'sphere.png'\nset logscale xy\n"
               "set xlabel 'Re = u0 d / nu'\nset ylabel 'drag coefficient'\nset xrange [0.7:70]\n"
               "set title 'Sphere in a pipe, d/D = 0.5: drag against Reynolds number'\nset key top right\n"
               "plot 'sphere.dat' u 1:2 w lp pt 4 lc rgb 'black' t 'Toelke & Krafczyk (2008) reference', "
               "'' u 1:3 w p pt 7 ps 1.5 t 'D3Q19, bounce-back', '' u 1:4 w p pt 5 ps 1.5 t 'D3Q13, bounce-back', "
               "'' u 1:5 w p pt 6 ps 1.5 t 'D3Q19, Bouzidi linear', '' u 1:6 w p pt 4 ps 1.5 t 'D3Q13, Bouzidi linear'\n");
    fclose(f);
    tess_v_plot(v, "sphere");
    return TESS_OK;
}
