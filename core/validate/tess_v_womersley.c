/* Womersley flow: pulsatile flow in a straight circular pipe driven by an oscillating pressure difference,
 * against the analytic solution of Womersley (1955), through time-dependent pressure planes (waveforms,
 * core/tess_waveform.h) on the engine.
 *
 * Case cases/validation/womersley.ini: D3Q19, LBGK, tau 0.8 (nu = 0.1), an STL tube of radius R (written here, 128
 * flat sides, so the polygon lies within R (1 - cos(pi / 128)) = 3e-4 R of the circle) with quadratic Bouzidi
 * walls, nz = R + 1 nodes long. Zou-He pressure discs on the first and last layers hold the densities
 * 1 +- (delta / 2) cos(omega t) (one waveform of 256 rows, linear between them: within (2 pi / 255)^2 / 8 = 8e-5
 * of the cosine); the antisymmetric drive keeps the mean density fixed. With p = rho / 3 the pressure gradient is
 * -dp/dz = A cos(omega t), A = delta / (3 R) (the planes are R apart). Womersley number alpha = R sqrt(omega / nu)
 * = 4 at every R (diffusive scaling: the period T = 2 pi R^2 / (alpha^2 nu) steps, rounded to a multiple of 4: 252
 * at R = 8); delta gives a centre-line amplitude of 0.04 (8 / R). The run starts from the analytic solution at
 * t = 0 (the density linear along the pipe), runs two periods (a start-up error decays by
 * exp(-2 pi 2.405^2 / alpha^2) = 0.1 per period) and compares u_z over every node of the mid-plane z = R / 2 with
 * the analytic profile at the four phases omega t = 0, pi/2, pi, 3 pi/2 of the third period.
 *
 * Analytic solution (Womersley 1955, J. Physiol. 127, 553, eq. 8 with density 1):
 *   u(r, t) = Re{ A / (i omega) [1 - J0(i^(3/2) alpha r / R) / J0(i^(3/2) alpha)] e^(i omega t) },
 * J0 of complex argument from its power series J0(z) = sum_k (-z^2 / 4)^k / (k!)^2 (Abramowitz & Stegun 1964,
 * eq. 9.1.10), summed to round-off (the terms for |z| <= 4 peak at 4 and fall below 1e-17 of the sum by k = 25).
 *
 * Error per phase: sqrt(sum (u_z - u_a)^2 / sum |U_a|^2) over the mid-plane nodes, U_a the complex amplitude, so
 * the measure does not blow up where the profile passes through zero. Measured (CPU, FP64): R = 8: 1.5%, 0.38%,
 * 1.5%, 0.40%; R = 16: 0.39%, 0.07%, 0.39%, 0.07%: second order (log2 of the RMS ratio 1.99), the profile 0.7%
 * too large and 0.013 rad early at R = 8, uniformly across the pipe. Second-order sources of that size: the
 * pressure waves of the weakly compressible fluid, which make the gradient at mid-length exceed the end-to-end one
 * by (k R)^2 / 24 |1 / (1 - F10)|, k = omega / c_s (0.7% at R = 8), the Bouzidi walls and the time step (omega dt =
 * 0.025 at R = 8). Tolerances: 3% at R = 8, 1% at R = 16 (twice to three times the measured), and the order
 * 2 +- 0.3 (full mode). A waveform ignored or read a quarter period late is off by about 100%.
 *
 * The same pipe with extrapolated (nee) pressure planes is reported, not checked: 5.6% at R = 8. Their density is
 * exact at the plane nodes, but the neighbouring layer lags it by about three steps (a jump of 0.07 delta / 2 sin
 * (omega t) between the plane and the next layer, measured), so the gradient inside lags by 0.08 rad; a longer
 * pipe does not remove it (docs/validation.md). */
#include "tess_validate.h"
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define W_PI 3.14159265358979323846
#define W_NU 0.1 /* tau 0.8 */
#define W_ALPHA 4.0
#define W_SIDES 128
#define W_ROWS 256
#define W_MAXRES 2

static const char *const group = "Womersley pipe (D3Q19)";

/* J0(z) = sum_k (-z^2/4)^k / (k!)^2 (Abramowitz & Stegun 1964, eq. 9.1.10). */
static double complex bessel_j0(double complex z)
{
    const double complex q = -z * z / 4.0;
    double complex term = 1.0, sum = 1.0;
    for (int k = 1; k < 400; k++) {
        term *= q / ((double)k * (double)k);
        sum += term;
        if (cabs(term) <= 1e-17 * cabs(sum))
            break;
    }
    return sum;
}

typedef struct {
    double R, cx, cy, A, omega, alpha, delta;
    int nz;
    double complex j0_wall; /* J0(i^(3/2) alpha) */
} pipe_t;

/* The complex amplitude U(r) of u_z = Re{U e^(i omega t)} (Womersley 1955, eq. 8). */
static double complex amplitude(const pipe_t *p, double r)
{
    const double complex i32 = (-1.0 + I) / sqrt(2.0); /* i^(3/2) = e^(3 i pi / 4) */
    return p->A / (I * p->omega) * (1.0 - bessel_j0(i32 * p->alpha * r / p->R) / p->j0_wall);
}

static double velocity(const pipe_t *p, double r, double t)
{
    return creal(amplitude(p, r) * cexp(I * p->omega * t));
}

/* Initial state: the analytic velocity at t = 0, the density linear from 1 + delta (z = 0) to 1 (z = nz - 1). */
static void fill(void *ctx, const int dims[3], int x, int y, int z, double *rho, double u[3])
{
    const pipe_t *p = ctx;
    (void)dims;
    const double r = hypot(x - p->cx, y - p->cy);
    *rho = 1.0 + p->delta * (0.5 - z / (double)(p->nz - 1));
    u[2] = r < p->R ? velocity(p, r, 0.0) : 0.0;
}

/* The tube as an ASCII STL: W_SIDES flat sides of two triangles, open at both ends, outward normals. */
static int write_tube(const char *path, const pipe_t *p)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    const double z0 = -0.5, z1 = p->nz - 0.5;
    fprintf(f, "solid tube\n");
    for (int s = 0; s < W_SIDES; s++) {
        /* the last side ends at the first vertex itself, so that the edges match bit for bit */
        const double a0 = 2.0 * W_PI * s / W_SIDES, a1 = 2.0 * W_PI * ((s + 1) % W_SIDES) / W_SIDES;
        const double am = 2.0 * W_PI * (s + 0.5) / W_SIDES;
        const double x0 = p->cx + p->R * cos(a0), y0 = p->cy + p->R * sin(a0);
        const double x1 = p->cx + p->R * cos(a1), y1 = p->cy + p->R * sin(a1);
        const double v[2][3][3] = {{{x0, y0, z0}, {x1, y1, z0}, {x1, y1, z1}}, {{x0, y0, z0}, {x1, y1, z1}, {x0, y0, z1}}};
        for (int t = 0; t < 2; t++) {
            fprintf(f, "facet normal %.17g %.17g 0\nouter loop\n", cos(am), sin(am));
            for (int k = 0; k < 3; k++)
                fprintf(f, "vertex %.17g %.17g %.17g\n", v[t][k][0], v[t][k][1], v[t][k][2]);
            fprintf(f, "endloop\nendfacet\n");
        }
    }
    fprintf(f, "endsolid tube\n");
    return fclose(f) == 0;
}

/* One period of cos(omega t) in W_ROWS rows (the last closes the period). */
static int write_waveform(const char *path, long period)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fprintf(f, "# cos(2 pi t / %ld)\ntime,value\n", period);
    for (int j = 0; j < W_ROWS; j++)
        fprintf(f, "%.17g,%.17g\n", (double)period * j / (W_ROWS - 1), j == W_ROWS - 1 ? 1.0 : cos(2.0 * W_PI * j / (W_ROWS - 1)));
    return fclose(f) == 0;
}

/* Absolute path of OUT/name. */
static void out_path(const tess_vctx_t *v, const char *name, char *path, size_t len)
{
    char cwd[1024] = "";
    if (v->out[0] != '/' && !getcwd(cwd, sizeof cwd))
        cwd[0] = 0;
    snprintf(path, len, "%s%s%s/%s", cwd, cwd[0] ? "/" : "", v->out, name);
}

/* Runs the pipe of radius R; e[4] receives the error per phase (NaN on failure, with a row). plot: write the
 * profiles across the axis to womersley.dat. */
static void pipe_run(tess_vctx_t *v, int R, const char *method, double e[4], int plot)
{
    for (int k = 0; k < 4; k++)
        e[k] = NAN;
    pipe_t p;
    memset(&p, 0, sizeof p);
    p.R = R;
    p.nz = R + 1;
    p.cx = p.cy = R + 1.5;
    const int nxy = 2 * R + 4;
    long T = lround(2.0 * W_PI * R * R / (W_ALPHA * W_ALPHA * W_NU) / 4.0) * 4;
    p.omega = 2.0 * W_PI / (double)T;
    p.alpha = R * sqrt(p.omega / W_NU);
    p.j0_wall = bessel_j0((-1.0 + I) / sqrt(2.0) * p.alpha);
    p.A = 1.0;
    p.A = 0.04 * 8.0 / R / cabs(amplitude(&p, 0.0)); /* centre-line amplitude 0.04 (8 / R) */
    p.delta = 3.0 * R * p.A;
    char what[96], stl[1200], csv[1200], init[1200] = "";
    snprintf(what, sizeof what, "R=%d, %s planes", R, method);
    out_path(v, "womersley_pipe.stl", stl, sizeof stl);
    out_path(v, "womersley_in.csv", csv, sizeof csv);
    tess_error_t err = {0};
    const int dims[3] = {nxy, nxy, p.nz};
    if (!write_tube(stl, &p) || !write_waveform(csv, T) ||
        tess_v_init_state(v, "womersley_init", dims, fill, &p, init, sizeof init, &err) != TESS_OK) {
        if (!err.msg[0])
            snprintf(err.msg, sizeof err.msg, "cannot write womersley_pipe.stl or womersley_in.csv in %.900s", v->out);
        tess_v_error(v, group, what, &err);
        remove(stl);
        remove(csv);
        return;
    }
    char ov[20][1400];
    const char *po[20];
    int n = 0;
    snprintf(ov[n++], sizeof ov[0], "domain.nx=%d", nxy);
    snprintf(ov[n++], sizeof ov[0], "domain.ny=%d", nxy);
    snprintf(ov[n++], sizeof ov[0], "domain.nz=%d", p.nz);
    snprintf(ov[n++], sizeof ov[0], "stl.pipe.file=%s", stl);
    snprintf(ov[n++], sizeof ov[0], "outlet.in.p0=%.17g %.17g -0.5", p.cx, p.cy);
    snprintf(ov[n++], sizeof ov[0], "outlet.in.p1=%.17g %.17g 0.5", p.cx, p.cy);
    snprintf(ov[n++], sizeof ov[0], "outlet.in.radius=%.17g", R - 0.01);
    snprintf(ov[n++], sizeof ov[0], "outlet.out.p0=%.17g %.17g %.17g", p.cx, p.cy, p.nz - 1.5);
    snprintf(ov[n++], sizeof ov[0], "outlet.out.p1=%.17g %.17g %.17g", p.cx, p.cy, p.nz - 0.5);
    snprintf(ov[n++], sizeof ov[0], "outlet.out.radius=%.17g", R - 0.01);
    snprintf(ov[n++], sizeof ov[0], "outlet.in.method=%s", method);
    snprintf(ov[n++], sizeof ov[0], "outlet.out.method=%s", method);
    snprintf(ov[n++], sizeof ov[0], "outlet.in.waveform=%s", csv);
    snprintf(ov[n++], sizeof ov[0], "outlet.in.density=%.17g", 1.0 + 0.5 * p.delta);
    snprintf(ov[n++], sizeof ov[0], "outlet.out.waveform=%s", csv);
    snprintf(ov[n++], sizeof ov[0], "outlet.out.density=%.17g", 1.0 - 0.5 * p.delta);
    snprintf(ov[n++], sizeof ov[0], "init.file=%s", init);
    snprintf(ov[n++], sizeof ov[0], "run.steps=%ld", 3 * T);
    for (int i = 0; i < n; i++)
        po[i] = ov[i];
    tess_vrun_t r;
    tess_status st = tess_vrun_open(v, "womersley", po, n, &r, &err);
    remove(stl);
    remove(csv);
    remove(init);
    if (st == TESS_OK)
        st = tess_vrun_step(&r, 2 * T, &err);
    const int zm = R / 2;
    FILE *dat = NULL;
    double prof[4][64];
    for (int k = 0; k < 4 && st == TESS_OK; k++) {
        if (k > 0)
            st = tess_vrun_step(&r, T / 4, &err);
        if (st == TESS_OK)
            st = tess_vrun_fields(&r, &err);
        if (st != TESS_OK)
            break;
        const double t = (double)r.steps;
        double num = 0.0, den = 0.0;
        for (int y = 0; y < nxy; y++)
            for (int x = 0; x < nxy; x++) {
                const size_t i = tess_vrun_index(&r, x, y, zm);
                if (r.c.geometry.type[i] != 1)
                    continue;
                const double rr = hypot(x - p.cx, y - p.cy), ua = velocity(&p, rr, t);
                const double du = r.u[3 * i + 2] - ua, ca = cabs(amplitude(&p, rr));
                num += du * du;
                den += ca * ca;
                if (y == R + 1 && x < 64)
                    prof[k][x] = r.u[3 * i + 2];
            }
        e[k] = sqrt(num / den);
    }
    if (st != TESS_OK) {
        tess_v_failed(v, group, what, st, &err);
        tess_vrun_close(&r);
        for (int k = 0; k < 4; k++)
            e[k] = NAN;
        return;
    }
    tess_v_note(v, "%s, R = %d, %s planes: %dx%dx%d nodes, tube of %d sides, alpha = %.4f, period %ld steps, "
                   "delta = %.4g (A = %.4g), centre-line amplitude %.4g; %ld steps, %.1f s stepping",
                group, R, method, nxy, nxy, p.nz, W_SIDES, p.alpha, T, p.delta, p.A, cabs(amplitude(&p, 0.0)),
                r.steps, r.seconds);
    if (plot && (dat = tess_v_open(v, "womersley.dat")) != NULL) {
        /* the row y = R + 1, half a node beside the axis: r = sqrt((x - cx)^2 + 1/4) */
        fprintf(dat, "# R = %d, row y = %d (half a node off the axis), mid-plane z = %d; x - cx, then u_z and the "
                     "analytic u_z at omega t = 0, pi/2, pi, 3 pi/2 (both / centre-line amplitude)\n",
                R, R + 1, zm);
        const double u0 = cabs(amplitude(&p, 0.0));
        for (int x = 0; x < nxy && x < 64; x++) {
            const double rr = hypot(x - p.cx, R + 1 - p.cy);
            if (rr >= p.R || r.c.geometry.type[tess_vrun_index(&r, x, R + 1, zm)] != 1)
                continue;
            fprintf(dat, "%.4f", x - p.cx);
            for (int k = 0; k < 4; k++)
                fprintf(dat, " %.6e %.6e", prof[k][x] / u0, velocity(&p, rr, (double)(2 * T + k * T / 4)) / u0);
            fprintf(dat, "\n");
        }
        fclose(dat);
    }
    tess_vrun_close(&r);
}

tess_status tess_validate_womersley(tess_vctx_t *v, tess_error_t *err)
{
    (void)err;
    const int nres = v->quick ? 1 : W_MAXRES;
    static const char *const phase[4] = {"0", "pi/2", "pi", "3 pi/2"};
    static const double tol[W_MAXRES] = {0.03, 0.01};
    double e[W_MAXRES][4], rms[W_MAXRES];
    for (int m = 0; m < nres; m++) {
        const int R = 8 << m;
        pipe_run(v, R, "zou-he", e[m], m == 0);
        if (isnan(e[m][0]))
            return TESS_OK;
        rms[m] = 0.0;
        for (int k = 0; k < 4; k++) {
            char q[200], ts[16];
            snprintf(q, sizeof q, "R=%d, alpha 4, Zou-He planes, omega t = %s: relative L2 error of u_z (mid-plane, / "
                                  "amplitude)",
                     R, phase[k]);
            snprintf(ts, sizeof ts, "< %g", tol[m]);
            tess_v_check(v, group, q, e[m][k], "Womersley 1955", e[m][k], ts, e[m][k] < tol[m]);
            rms[m] += 0.25 * e[m][k] * e[m][k];
        }
        rms[m] = sqrt(rms[m]);
    }
    if (nres > 1) {
        const double order = log2(rms[0] / rms[1]);
        tess_v_check(v, group, "convergence order R=8->16 (RMS error over the four phases)", order, "2",
                     fabs(order - 2.0), "+-0.3", fabs(order - 2.0) <= 0.3);
    }
    /* The same pipe with extrapolated (nee) planes: reported, not checked (docs/validation.md: their pressure lags). */
    double en[4];
    pipe_run(v, 8, "nee", en, 0);
    if (!isnan(en[0])) {
        double worst = 0.0;
        for (int k = 0; k < 4; k++)
            worst = fmax(worst, en[k]);
        tess_v_info(v, group, "R=8, alpha 4, nee planes: largest relative L2 error of u_z over the four phases", worst,
                    "pressure lags at nee planes");
    }
    FILE *f = tess_v_open(v, "womersley.gp");
    if (!f)
        return TESS_OK;
    fprintf(f, "set terminal pngcairo size 800,480 noenhanced\nset output 'womersley.png'\n"
               "set xlabel 'x - x_axis (nodes), the row half a node beside the axis'\n"
               "set ylabel 'u_z / centre-line amplitude'\n"
               "set title 'Womersley flow, alpha = 4, R = 8: tessera (points), Womersley 1955 (lines)'\n"
               "set key outside right\n"
               "plot for [k=0:3] 'womersley.dat' u 1:2*k+2 w p pt 7 lc k+1 t sprintf('omega t = %%d pi/2', k), "
               "for [k=0:3] '' u 1:2*k+3 w l lc k+1 notitle\n");
    fclose(f);
    tess_v_plot(v, "womersley");
    return TESS_OK;
}
