/* Sphere on the axis of a circular pipe (Toelke & Krafczyk 2008, section 6): drag coefficient at Re 1, 10, 50
 * with D3Q19 and D3Q13 (both MRT), against the paper's reference cd_W,Ref (cases/validation/
 * sphere_in_pipe_toelke2008.csv: Schiller-Naumann with the Haberman-Sayre wall correction, eqs. 14-18, at
 * lambda = d/D = 0.5). Full mode only.
 *
 * Case cases/validation/sphere_pipe.ini, scaled here to the sphere diameter d: pipe diameter D = 2 d (lambda 0.5,
 * the table's), (D + 4)^2 x 8 d nodes, sphere centre 2.5 d downstream of the inlet; sphere at rest, pipe wall and
 * inflow moving with u0 (Re 1: 0.02, Re 10: 0.04, Re 50: 0.05; Re 1 at d = 60: 0.01), starting from the plug flow
 * u0, run until the velocity field changes by less than 1e-5 (relative L2) per 500 steps (at d = 60 the interval
 * and the change grow in proportion to d / u0: the same rate per flow time). Drag by momentum exchange on the body
 * (tess_forces), C_d = 2 F_z / (rho u0^2 pi d^2 / 4).
 *
 * Two sizes, as the porous validation: on the CPU d = 16 (36 x 36 x 128, the shipped case; the paper's coarsest
 * grid had d = 14.88), on a GPU backend d = 60 (124 x 124 x 480; the paper's Re 10 and 50 runs had d = 60.96 on
 * 128^2 x 512). Tolerance: the paper's own D3Q13 error at the same resolution, where the paper has one: d = 60:
 * 0.6% (Re 1), 6.9% (Re 10), 4.6% (Re 50); d = 16: 5.3% at Re 1 (its 32^2 x 128 grid) and, for Re 10 and 50, which
 * the paper ran at d = 61 only, 7% (the larger of its two errors there; the reference formula itself is quoted at
 * +-5%). Each run twice: plain halfway bounce-back (staircase sphere and pipe) and Bouzidi linear interpolation
 * with the exact wall distances of the primitives. */
#include "tess_forces.h"
#include "tess_validate.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const group = "Sphere in a pipe (Toelke & Krafczyk 2008)";

/* Tolerance at Re res[k] for sphere diameter d (see the header). */
static double tolerance(double d, int k)
{
    static const double fine[3] = {0.006, 0.069, 0.046}, coarse[3] = {0.053, 0.07, 0.07};
    return d >= 60 ? fine[k] : coarse[k];
}

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

/* Whether the run (lattice, wall) belongs to PART of --only sphere:PART: every '+'-joined name of PART is its
 * lattice or its wall ("" selects every run). */
static int in_part(const char *part, const char *lattice, const char *wall)
{
    for (const char *t = part; *t;) {
        const char *plus = strchr(t, '+');
        const size_t n = plus ? (size_t)(plus - t) : strlen(t);
        if (!(strlen(lattice) == n && strncmp(t, lattice, n) == 0) && !(strlen(wall) == n && strncmp(t, wall, n) == 0))
            return 0;
        t += n + (plus ? 1 : 0);
    }
    return 1;
}

tess_status tess_validate_sphere_pipe(tess_vctx_t *v, tess_error_t *err)
{
    (void)err;
    static const char *const lattices[2] = {"D3Q19", "D3Q13"};
    static const double res[3] = {1, 10, 50}, speeds16[3] = {0.02, 0.04, 0.05};
    static const char *const walls[2] = {"bounce-back", "bouzidi-linear"};
    const int gpu = strncmp(v->backend_used, "cpu", 3) != 0;
    const double d = gpu ? 60 : 16, D = 2 * d, c = 0.5 * (D + 3); /* c: the pipe axis, centred in the box */
    const int nxy = (int)D + 4, nz = 8 * (int)d;

    FILE *dat = tess_v_open(v, "sphere.dat");
    if (dat)
        fprintf(dat, "# Re cd_ref cd_D3Q19 cd_D3Q13 (bounce-back), cd_D3Q19 cd_D3Q13 (Bouzidi linear) (NaN: not run)\n");
    double cd_all[2][2][3];
    for (int wl = 0; wl < 4; wl++) /* wall treatment (outer), lattice */
        for (int k = 0; k < 3; k++) {
            const int w = wl / 2, l = wl % 2;
            cd_all[w][l][k] = NAN;
            if (!in_part(v->part, lattices[l], walls[w]))
                continue; /* --only sphere:PART */
            /* At d = 60 and Re 1 the speed is halved: u0 = 0.02 gives tau 4.1, at which the D3Q19 inlet plane
             * diverged within 2000 steps; 0.01 gives tau 2.3. */
            const double re = res[k], u0 = d >= 60 && k == 0 ? 0.01 : speeds16[k], ref = reference(re);
            /* the times scale with d / u0: test and cap the steady state in proportion to the d = 16 runs */
            const double scale = d / 16 * speeds16[k] / u0;
            const long every = (long)(500 * scale), max_steps = (long)(40000 * scale);
            const double steady_tol = 1e-5 * scale;
            char ov[32][96];
            const char *p[32];
            int n = 0;
            snprintf(ov[n++], 96, "domain.nx=%d", nxy);
            snprintf(ov[n++], 96, "domain.ny=%d", nxy);
            snprintf(ov[n++], 96, "domain.nz=%d", nz);
            snprintf(ov[n++], 96, "wall.pipe.max=%d %d %d", nxy - 1, nxy - 1, nz - 1);
            snprintf(ov[n++], 96, "fluid.inside.p0=%g %g -1", c, c);
            snprintf(ov[n++], 96, "fluid.inside.p1=%g %g %d", c, c, nz);
            snprintf(ov[n++], 96, "fluid.inside.radius=%g", D / 2);
            snprintf(ov[n++], 96, "solid.sphere.center=%g %g %g", c, c, 2.5 * d);
            snprintf(ov[n++], 96, "solid.sphere.radius=%g", d / 2);
            snprintf(ov[n++], 96, "inlet.in.p0=%g %g -0.5", c, c);
            snprintf(ov[n++], 96, "inlet.in.p1=%g %g 0.5", c, c);
            snprintf(ov[n++], 96, "inlet.in.radius=%g", D / 2);
            snprintf(ov[n++], 96, "outlet.out.p0=%g %g %g", c, c, nz - 1.5);
            snprintf(ov[n++], 96, "outlet.out.p1=%g %g %g", c, c, nz - 0.5);
            snprintf(ov[n++], 96, "outlet.out.radius=%g", D / 2);
            snprintf(ov[n++], 96, "physics.length=%g", d);
            snprintf(ov[n++], 96, "forces.ref_area=%.8g", acos(-1.0) * d * d / 4);
            snprintf(ov[n++], 96, "lattice.model=%s", lattices[l]);
            snprintf(ov[n++], 96, "physics.re=%g", re);
            snprintf(ov[n++], 96, "physics.velocity=%g", u0);
            snprintf(ov[n++], 96, "wall.pipe.velocity=0 0 %g", u0);
            snprintf(ov[n++], 96, "inlet.in.velocity=0 0 %g", u0);
            snprintf(ov[n++], 96, "init.velocity=0 0 %g", u0);
            snprintf(ov[n++], 96, "forces.ref_velocity=%g", u0);
            snprintf(ov[n++], 96, "run.steps=%ld", max_steps);
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
                st = tess_vrun_steady(&r, every, steady_tol, max_steps, &change, &e);
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
            char q[200], refs[64], tol[32], steady[32];
            snprintf(q, sizeof q, "%s MRT, %s, Re %g (u0 %g, d %g, D %g, %dx%dx%d, %ld steps): drag coefficient",
                     lattices[l], walls[w], re, u0, d, D, nxy, nxy, nz, r.steps);
            snprintf(refs, sizeof refs, "%.5g (Toelke 2008, lambda 0.5)", ref);
            snprintf(tol, sizeof tol, "< %g", tolerance(d, k));
            const double rel = fabs(cd - ref) / ref;
            tess_v_check(v, group, q, cd, refs, rel, tol, rel < tolerance(d, k));
            if (!(change < steady_tol)) {
                snprintf(q, sizeof q, "%s, %s, Re %g: steady state (velocity change per %ld steps) within %ld steps",
                         lattices[l], walls[w], re, every, max_steps);
                snprintf(steady, sizeof steady, "< %g", steady_tol);
                tess_v_check(v, group, q, change, steady, NAN, steady, 0);
            }
            tess_v_note(v, "%s, %s, %s, Re %g: d %g, u0 %g, tau %.4f, %ld steps (velocity change %.1e per %ld steps), "
                           "lift coefficient %.2e; %.1f s stepping",
                        group, lattices[l], walls[w], re, d, u0, r.c.params.tau, r.steps, change, every, cl, r.seconds);
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
