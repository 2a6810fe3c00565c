/* Flow past a cylinder in a channel, Schaefer & Turek (1996): 2D-1 (Re 20, steady: cD, cL, La, dp) and 2D-2
 * (Re 100, periodic: St, cD max, cL max, dp half a period after the lift maximum), against the reference
 * intervals of cases/validation/schaefer_turek_1996.csv. Full mode only.
 *
 * Case cases/validation/cylinder2d.ini (D2Q9, MRT, Bouzidi quadratic walls on the cylinder, parabolic
 * extrapolation inlet, density outlet): the cylinder diameter D in nodes is the case's [forces] ref_area (per
 * unit depth), the peak inflow Um the inlet's velocity; spacing h = 0.1 / D, node (x, y) at
 * X = x h, Y = (y + 1/2) h. Both runs start from the inflow parabola in every node (density 1). Units: the
 * benchmark's Ubar is 0.2 (2D-1) or 1 (2D-2) against the lattice Ubar = 2 Um / 3, so a lattice time step is
 * h Ubar_lat / Ubar and a lattice pressure rho c_s^2 is (Ubar / Ubar_lat)^2 benchmark pressure units.
 *
 * 2D-1: run until the velocity changes by less than 1e-5 (relative L2) over 1000 steps; cD, cL from the
 * momentum-exchange force (tess_forces) with C = 2 F / (Ubar_lat^2 D); dp = c_s^2 (rho(front) - rho(rear)) at
 * (0.15, 0.2) and (0.25, 0.2), each the mean of the two node rows around Y = 0.2; La = X_r - 0.25 with X_r the
 * first sign change of u_x from negative to positive behind the cylinder on that line (linear between nodes).
 * 2D-2: cD, cL and dp sampled every 1/100 of the expected period; the shedding is developed when the lift's
 * range over one expected period changes by less than 0.2% from the period before; then four more periods are
 * recorded: St = D f / Ubar from the mean spacing of the upward zero crossings of cL - mean(cL), the maxima
 * refined by a parabola through the largest sample and its neighbours.
 *
 * Tolerances (docs/validation.md, fixed before the first full run): the check is the distance of the value from
 * the benchmark's interval, relative to the interval's midpoint; the tolerance is that distance allowed at this
 * resolution: cD 2%, dp 2%, La 5%, cL (2D-1) 30%, St 3%, cD max 2%, cL max 5%, dp (2D-2) 5%. */
#include "tess_forces.h"
#include "tess_state.h"
#include "tess_validate.h"
#include "tess_vti.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const group = "Cylinder 2D (Schaefer-Turek 1996)";

/* The benchmark's reference interval of (case, quantity); 0 when the table lacks it. */
static int reference(const char *which, const char *quantity, double *lo, double *hi)
{
    char path[1100];
    tess_error_t e;
    if (tess_v_data_path("schaefer_turek_1996.csv", path, sizeof path, &e) != TESS_OK)
        return 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[512], c[32], q[32];
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = line[0] != '#' && sscanf(line, "%31[^,],%31[^,],%lf,%lf", c, q, lo, hi) == 4 && strcmp(c, which) == 0 &&
                strcmp(q, quantity) == 0;
    fclose(f);
    return found;
}

/* One row: the value against the benchmark interval widened by tol (relative to its midpoint). */
static void check(tess_vctx_t *v, const char *which, const char *quantity, const char *what, double value, double tol)
{
    double lo, hi;
    char q[300], ref[64], ts[48];
    snprintf(q, sizeof q, "%s: %s", which, what);
    if (!reference(which, quantity, &lo, &hi)) {
        tess_v_info(v, group, q, value, "no reference row");
        return;
    }
    const double mid = 0.5 * (lo + hi);
    const double dist = value < lo ? lo - value : value > hi ? value - hi : 0.0;
    const double err = fabs(dist / mid);
    snprintf(ref, sizeof ref, "[%.4g, %.4g] (Schaefer-Turek 1996)", lo, hi);
    snprintf(ts, sizeof ts, "< %g outside", tol);
    tess_v_check(v, group, q, value, ref, err, ts, err <= tol);
}

typedef struct {
    double D, um;        /* cylinder diameter (nodes), peak inflow (lattice) */
    int ny;              /* fluid rows = H */
    double ubar_lat;     /* 2 um / 3 */
} geom_t;

static int geom_of(const tess_case_t *c, geom_t *g)
{
    g->D = c->forces.ref_area;
    g->um = 0.0;
    for (int m = 0; m < c->params.nmat; m++)
        if (c->params.mat[m].kind == TESS_NODE_VELOCITY)
            g->um = c->params.mat[m].u[0];
    g->ny = c->geometry.ny;
    g->ubar_lat = 2.0 * g->um / 3.0;
    return g->D > 0 && g->um > 0 && c->forces.nbody == 1;
}

/* The initial state: the inflow parabola in every node, density 1 (OUT/cylinder2d_init.vti). */
static void parabola(void *ctx, const int dims[3], int x, int y, int z, double *rho, double u[3])
{
    const double um = *(const double *)ctx, s = ((double)y + 0.5) / dims[1];
    (void)x, (void)z;
    *rho = 1.0;
    u[0] = 4.0 * um * s * (1.0 - s);
}

/* Density of node (x, y): the sum of its stored populations (collision conserves it). */
static double density(const tess_vrun_t *r, const void *pops, int x, int y)
{
    const tess_tiling_t *t = tess_sim_tiling(r->sim);
    const int64_t node = tess_tiling_node_index(t, x, y, 0);
    if (node < 0)
        return NAN;
    double s = 0.0;
    for (int i = 0; i < t->q; i++) {
        const size_t idx = tess_state_index(t, (int32_t)(node / 64), i, (int)(node % 64));
        s += r->c.precision == TESS_PRECISION_SINGLE ? (double)((const float *)pops)[idx] : ((const double *)pops)[idx];
    }
    return s;
}

/* Force coefficients and the lattice density difference front - rear on the line Y = 0.2. */
static tess_status sample(tess_vrun_t *r, const geom_t *g, double *cd, double *cl, double *drho, tess_error_t *err)
{
    const void *pops = NULL;
    double force[3 * TESS_MAX_MATERIALS] = {0};
    tess_status st = tess_sim_populations(r->sim, &pops, err);
    if (st == TESS_OK)
        st = tess_forces_compute(tess_lattice_by_name(r->c.lattice), tess_sim_tiling(r->sim), &r->c.geometry,
                                 &r->c.params, &r->c.forces, r->c.precision, pops, force, err);
    if (st != TESS_OK)
        return st;
    tess_forces_coefficients(&r->c.forces, force, cd, cl);
    /* Y = 0.2 is y = 2 D - 1/2, between rows 2 D - 1 and 2 D; X = 0.15 and 0.25 are x = 1.5 D and 2.5 D. */
    const int y0 = (int)lround(2.0 * g->D) - 1, xf = (int)lround(1.5 * g->D), xr = (int)lround(2.5 * g->D);
    const double front = 0.5 * (density(r, pops, xf, y0) + density(r, pops, xf, y0 + 1));
    const double rear = 0.5 * (density(r, pops, xr, y0) + density(r, pops, xr, y0 + 1));
    *drho = front - rear;
    if (!isfinite(*cd) || !isfinite(*drho))
        return tess_fail(err, TESS_ERR_DIVERGED, "%s diverged by step %ld", r->c.name, r->steps);
    return TESS_OK;
}

static tess_status open_case(tess_vctx_t *v, double re, const char *init, long max_steps, tess_vrun_t *r,
                             tess_error_t *err)
{
    char ov[4][1400];
    const char *p[4];
    int n = 0;
    snprintf(ov[n++], sizeof ov[0], "physics.re=%g", re);
    snprintf(ov[n++], sizeof ov[0], "run.steps=%ld", max_steps);
    if (init)
        snprintf(ov[n++], sizeof ov[0], "init.file=%.1300s", init);
    for (int i = 0; i < n; i++)
        p[i] = ov[i];
    return tess_vrun_open(v, "cylinder2d", p, n, r, err);
}

/* 2D-1: the steady state at Re 20. */
static void steady(tess_vctx_t *v, const geom_t *g, const char *init)
{
    const long max_steps = 200000;
    tess_vrun_t r;
    tess_error_t e = {0};
    double change = NAN, cd = NAN, cl = NAN, drho = NAN;
    tess_status st = open_case(v, 20, init, max_steps, &r, &e);
    if (st == TESS_OK)
        st = tess_vrun_steady(&r, 1000, 1e-5, max_steps, &change, &e);
    if (st == TESS_OK)
        st = sample(&r, g, &cd, &cl, &drho, &e);
    if (st != TESS_OK) {
        tess_v_failed(v, group, "2D-1 (Re 20)", st, &e);
        tess_vrun_close(&r);
        return;
    }
    const double ubar = 0.2, pscale = (ubar / g->ubar_lat) * (ubar / g->ubar_lat), h = 0.1 / g->D;
    const double dp = drho / 3.0 * pscale;
    /* Recirculation: u_x on Y = 0.2 (mean of the two rows) from the rear point x = 2.5 D on. */
    const int y0 = (int)lround(2.0 * g->D) - 1, xr = (int)lround(2.5 * g->D);
    double la = NAN, prev = NAN;
    for (int x = xr + 1; x < r.c.geometry.nx; x++) {
        const double ux =
            0.5 * (r.u[3 * tess_vrun_index(&r, x, y0, 0)] + r.u[3 * tess_vrun_index(&r, x, y0 + 1, 0)]);
        if (x > xr + 1 && prev < 0.0 && ux >= 0.0) {
            la = (x - 1 + prev / (prev - ux)) * h - 0.25;
            break;
        }
        prev = ux;
    }
    char what[160];
    snprintf(what, sizeof what, "drag coefficient cD (D = %g, %ld steps)", g->D, r.steps);
    check(v, "2D-1", "cD", what, cd, 0.02);
    check(v, "2D-1", "cL", "lift coefficient cL", cl, 0.30);
    check(v, "2D-1", "La", "recirculation length La", la, 0.05);
    check(v, "2D-1", "dp", "pressure difference dp", dp, 0.02);
    if (!(change < 1e-5)) {
        snprintf(what, sizeof what, "2D-1: steady state (velocity change per 1000 steps) within %ld steps", max_steps);
        tess_v_check(v, group, what, change, "< 1e-5", NAN, "< 1e-5", 0);
    }
    tess_v_note(v, "%s, 2D-1 (Re 20): %dx%d nodes, D = %g, Um = %g, MRT, tau %.4f, Bouzidi quadratic; %ld steps (t = %.2f) "
                   "to a velocity change of %.1e per 1000 steps; %.1f s stepping",
                group, r.c.geometry.nx, r.c.geometry.ny, g->D, g->um, r.c.params.tau, r.steps,
                r.steps * h * g->ubar_lat / ubar, change, r.seconds);
    tess_vrun_close(&r);
}

/* Value of series y (n samples, spacing 1) at its largest sample, refined by a parabola; *at gets the position. */
static double peak(const double *y, int n, double *at)
{
    int k = 0;
    for (int i = 1; i < n; i++)
        if (y[i] > y[k])
            k = i;
    *at = k;
    if (k == 0 || k == n - 1)
        return y[k];
    const double a = y[k - 1], b = y[k], c = y[k + 1], den = a - 2.0 * b + c;
    if (den >= 0.0)
        return b;
    const double d = 0.5 * (a - c) / den;
    *at = k + d;
    return b - 0.25 * (a - c) * d;
}

/* 2D-2: the periodic state at Re 100. */
static void periodic(tess_vctx_t *v, const geom_t *g, const char *init)
{
    const double ubar = 1.0, h = 0.1 / g->D, dt = h * g->ubar_lat / ubar;
    /* The expected period D / (St Ubar) with St about 0.3, in steps; 100 samples a period. */
    const long every = (long)fmax(1.0, floor(g->D / (0.3 * g->ubar_lat) / 100.0));
    const int per = 100, measure = 4 * per, max_periods = 80;
    const long max_steps = (long)max_periods * per * every + 10;
    tess_vrun_t r;
    tess_error_t e = {0};
    double *cd = malloc((size_t)max_periods * per * sizeof *cd), *cl = malloc((size_t)max_periods * per * sizeof *cl),
           *dr = malloc((size_t)max_periods * per * sizeof *dr);
    tess_status st = cd && cl && dr ? open_case(v, 100, init, max_steps, &r, &e)
                                    : tess_fail(&e, TESS_ERR_NOMEM, "out of memory for the force history");
    int n = 0, developed = -1;
    double range_prev = NAN;
    while (st == TESS_OK && n < max_periods * per) {
        if ((st = tess_vrun_step(&r, every, &e)) != TESS_OK ||
            (st = sample(&r, g, &cd[n], &cl[n], &dr[n], &e)) != TESS_OK)
            break;
        n++;
        if (developed < 0 && n % per == 0) {
            double lo = INFINITY, hi = -INFINITY;
            for (int i = n - per; i < n; i++) {
                lo = fmin(lo, cl[i]);
                hi = fmax(hi, cl[i]);
            }
            const double range = hi - lo;
            if (range > 0.5 && fabs(range - range_prev) < 0.002 * range)
                developed = n;
            range_prev = range;
        }
        if (developed >= 0 && n >= developed + measure)
            break;
    }
    if (st == TESS_OK && developed < 0)
        st = tess_fail(&e, TESS_ERR_INPUT, "no developed periodic shedding within %ld steps", r.steps);
    if (st != TESS_OK) {
        tess_v_failed(v, group, "2D-2 (Re 100)", st, &e);
        tess_vrun_close(&r);
        free(cd);
        free(cl);
        free(dr);
        return;
    }
    /* The recorded window [w0, n): period from the upward zero crossings of the lift about its mean. */
    const int w0 = n - measure;
    double mean = 0.0;
    for (int i = w0; i < n; i++)
        mean += cl[i] / measure;
    double first = NAN, last = NAN;
    int crossings = 0;
    for (int i = w0 + 1; i < n; i++)
        if (cl[i - 1] - mean < 0.0 && cl[i] - mean >= 0.0) {
            const double at = i - 1 + (mean - cl[i - 1]) / (cl[i] - cl[i - 1]);
            if (crossings == 0)
                first = at;
            last = at;
            crossings++;
        }
    const double period_samples = crossings > 1 ? (last - first) / (crossings - 1) : NAN;
    const double period = period_samples * every * dt;
    const double st_num = 0.1 / (period * ubar);
    double at_cd, at_cl;
    const double cdmax = peak(cd + w0, measure, &at_cd), clmax = peak(cl + w0, measure, &at_cl);
    /* dp half a period after a lift maximum: the last maximum that leaves half a period in the window. */
    double dp = NAN;
    const int half = (int)ceil(0.5 * period_samples);
    for (int k = n - 2 - half; k > w0 && isfinite(period_samples); k--)
        if (cl[k] >= cl[k - 1] && cl[k] > cl[k + 1]) {
            double t0;
            peak(cl + k - 1, 3, &t0);
            const double t = k - 1 + t0 + 0.5 * period_samples;
            const int i = (int)floor(t);
            if (i + 1 < n)
                dp = (dr[i] + (t - i) * (dr[i + 1] - dr[i])) / 3.0 * (ubar / g->ubar_lat) * (ubar / g->ubar_lat);
            break;
        }
    char what[160];
    snprintf(what, sizeof what, "Strouhal number St (D = %g, %d periods, %d crossings)", g->D, measure / per, crossings);
    check(v, "2D-2", "St", what, st_num, 0.03);
    check(v, "2D-2", "cDmax", "maximum drag coefficient cD max", cdmax, 0.02);
    check(v, "2D-2", "cLmax", "maximum lift coefficient cL max", clmax, 0.05);
    check(v, "2D-2", "dp", "pressure difference dp half a period after the lift maximum", dp, 0.05);
    tess_v_note(v, "%s, 2D-2 (Re 100): %dx%d nodes, D = %g, Um = %g, MRT, tau %.4f, Bouzidi quadratic; forces every %ld "
                   "steps; shedding developed by step %ld (t = %.2f), then %d periods recorded (%ld steps in all); "
                   "period %.1f steps; %.1f s stepping",
                group, r.c.geometry.nx, r.c.geometry.ny, g->D, g->um, r.c.params.tau, every, (long)developed * every,
                developed * every * dt, measure / per, r.steps, period_samples * every, r.seconds);
    FILE *f = tess_v_open(v, "cylinder2d_re100.dat");
    if (f) {
        fprintf(f, "# Schaefer-Turek 2D-2 (Re 100), D = %g: t (benchmark units) cD cL dp (front - rear); the last %d "
                   "samples are the recorded periods\n", g->D, measure);
        for (int i = 0; i < n; i++)
            fprintf(f, "%.5f %.6f %.6f %.6f\n", (i + 1) * every * dt, cd[i], cl[i],
                    dr[i] / 3.0 * (ubar / g->ubar_lat) * (ubar / g->ubar_lat));
        fclose(f);
        double lo, hi, llo, lhi;
        const int have = reference("2D-2", "cDmax", &lo, &hi) && reference("2D-2", "cLmax", &llo, &lhi);
        if ((f = tess_v_open(v, "cylinder2d_re100.gp"))) {
            fprintf(f, "set terminal pngcairo size 800,640 noenhanced\nset output 'cylinder2d_re100.png'\n"
                       "set multiplot layout 2,1 title 'Cylinder in a channel, Schaefer-Turek 2D-2 (Re 100), D = %g'\n"
                       "set grid\nset xlabel 't'\nset key bottom right\nset ylabel 'cD'\n", g->D);
            if (have)
                fprintf(f, "set yrange [%g:%g]\n", lo - 0.15, hi + 0.1);
            fprintf(f, "plot 'cylinder2d_re100.dat' u 1:2 w l t 'drag coefficient'");
            if (have)
                fprintf(f, ", %g w l dt 2 lc rgb 'black' t 'benchmark cD max'", 0.5 * (lo + hi));
            fprintf(f, "\n");
            fprintf(f, "set autoscale y\nset ylabel 'cL'\nplot 'cylinder2d_re100.dat' u 1:3 w l t 'lift coefficient'");
            if (have)
                fprintf(f, ", %g w l dt 2 lc rgb 'black' t 'benchmark cL max'", 0.5 * (llo + lhi));
            fprintf(f, "\nunset multiplot\n");
            fclose(f);
            tess_v_plot(v, "cylinder2d_re100");
        }
    }
    tess_vrun_close(&r);
    free(cd);
    free(cl);
    free(dr);
}

tess_status tess_validate_cylinder2d(tess_vctx_t *v, tess_error_t *err)
{
    (void)err; /* full mode only: cmd_validate.c leaves it out of --quick */
    /* The case as shipped, for its geometry and the initial state's size. */
    tess_vrun_t r;
    tess_error_t e = {0};
    geom_t g;
    char init[1300];
    tess_status st = tess_vrun_open(v, "cylinder2d", NULL, 0, &r, &e);
    if (st == TESS_OK && !geom_of(&r.c, &g))
        st = tess_fail(&e, TESS_ERR_INPUT, "cylinder2d.ini: expected one body, [forces] ref_area = D and an inlet");
    if (st == TESS_OK) {
        const int dims[3] = {r.c.geometry.nx, r.c.geometry.ny, 1};
        st = tess_v_init_state(v, "cylinder2d_init", dims, parabola, &g.um, init, sizeof init, &e);
    }
    tess_vrun_close(&r);
    if (st != TESS_OK) {
        tess_v_failed(v, group, "set-up", st, &e);
        return TESS_OK;
    }
    steady(v, &g, init);
    periodic(v, &g, init);
    return TESS_OK;
}
