/* Womersley inlet profile (core/tess_womersley.h, core/tess_womersley_build.c, core/tess_bessel.c; `profile =
 * womersley` of an [inlet.NAME] section). Checks:
 *  - tess_womersley_cis (the libm-free cos/sin every backend evaluates) against libm at the reduced angle over
 *    20001 phases: Taylor truncation below 1e-17 and an exact quadrant turn, so a few ulps: tolerance 1e-15;
 *  - J0 and J1 of i^(3/2) x (ber x + i bei x) at x = 1, 5 (series) and 20, 40 (Hankel's expansion) against
 *    mpmath 1.x (mp.dps 20: besselj(0, x e^(3 i pi / 4))): tolerance 1e-14 relative for the series (at x <= 5 it
 *    loses under 5x of its 16 digits to cancellation), 1e-11 for the expansion (past its Stokes line the
 *    exponentially small part e^(-2 Im z), 5e-13 at x = 20, is not determined by it; measured 2.5e-12 at x = 20);
 *  - the mode profile phi(alpha, s) has mean 1 over the disc (Simpson over s, 2000 intervals: 1e-9) and 0 at the
 *    wall, its wall slope (tess_womersley_mode_slope, the WSS) matches a central difference of phi (h = 1e-4:
 *    h^2 alpha^2 / 6 below 2e-5 relative at alpha 100; tolerance 1e-4), and it is continuous across the switch from the series to the asymptotic form at alpha = 17 (1e-9
 *    between alpha 17 -+ 1e-9);
 *  - the Fourier modes of a 3-row triangle wave (0, 1, 0 over T) equal the analytic c_0 = 1/2,
 *    c_n = -4 / (pi n)^2 for odd n and 0 for even n (2e-15: a few roundings);
 *  - through the case loader (a cylinder inlet of radius 6, method nee, the waveform 0.6 + 0.4 cos(2 pi t / 240)
 *    in 241 rows): every inlet node's velocity (tess_inlet_velocity, what the engines call) at 8 phases
 *    against the analytic U [0.6 phi(0, s) + 0.4 Re{phi(alpha, s) e^(i omega t)}], alpha = 6 sqrt(omega / nu).
 *    The table's linear interpolation over q = s^2 in steps of 1/48 (about (1/48)^2 / 8 |d2 phi / dq2| < 1e-4
 *    of U here), the linear waveform's departure from the cosine ((2 pi / 240)^2 / 8 x 0.4 = 3.4e-5) and the
 *    other modes of the sampled cosine (below 1e-5): tolerance 5e-4 U. A profile read a quarter period late is
 *    off by 0.4 U; a plain parabola (no Womersley phase lag) by up to 0.15 U at alpha = 3.07;
 *  - the table's mean over the disc (the integral of the shape over q, exact for the linear interpolation) is the
 *    waveform at every phase (1e-4: the departure of the cosine's rows above), i.e. the flow rate is the file's;
 *  - the CPU engine (AB and AA) runs the case: the inlet nodes carry the prescribed velocity of the step, AA = AB
 *    bitwise (engine_run says why);
 *  - errors: womersley on a box inlet or with method = zou-he is refused (status TESS_ERR_INPUT, the message
 *    names the key). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "tess_bessel.h"
#include "tess_case.h"
#include "tess_inlet.h"
#include "tess_sim.h"
#include "tess_test.h"
#include "tess_womersley_build.h"
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PI 3.14159265358979323846

extern const tess_backend_ops_t tess_backend_cpu;

static void check_cis(void)
{
    double worst = 0.0;
    for (int k = -10000; k <= 10000; k++) {
        const double phi = k / 3333.0, f = phi - floor(phi + 0.5); /* libm at the reduced angle (|2 pi f| <= pi) */
        double c, s;
        tess_womersley_cis(phi, &c, &s);
        worst = fmax(worst, fmax(fabs(c - cos(2.0 * PI * f)), fabs(s - sin(2.0 * PI * f))));
    }
    tess_test_close("cis: largest |difference| from libm cos/sin over 20001 phases", worst, 0.0, 1e-15);
}

static void check_bessel(void)
{
    static const struct {
        double x, j0[2], j1[2];
    } ref[] = {
        {1, {0.98438178121308688397, 0.24956604003665972142}, {-0.39586826101971139132, 0.30755663137553655438}},
        {5, {-6.2300824786663577332, 0.11603438155020037808}, {0.35977666677667280476, -5.797907901792625232}},
        {20, {47489.370265061760144, 114775.19736006622162}, {-113602.51898665044967, 44584.37470400381994}},
        {40, {-112596696872.07407499, 45628130285.641257759}, {-44220722032.267615579, -112008564758.73024138}},
    };
    for (size_t i = 0; i < sizeof ref / sizeof ref[0]; i++) {
        const double complex z = ref[i].x * (-1.0 + I) / sqrt(2.0);
        const double complex j0 = tess_bessel_j0s(z) * cexp(-I * z), j1 = tess_bessel_j1s(z) * cexp(-I * z);
        const double complex r0 = ref[i].j0[0] + I * ref[i].j0[1], r1 = ref[i].j1[0] + I * ref[i].j1[1];
        char what[128];
        snprintf(what, sizeof what, "J0(i^(3/2) %g) relative to mpmath", ref[i].x);
        const double tol = ref[i].x <= 17 ? 1e-14 : 1e-11;
        tess_test_close(what, cabs(j0 - r0) / cabs(r0), 0.0, tol);
        snprintf(what, sizeof what, "J1(i^(3/2) %g) relative to mpmath", ref[i].x);
        tess_test_close(what, cabs(j1 - r1) / cabs(r1), 0.0, tol);
    }
}

static void check_modes(void)
{
    static const double alphas[] = {0.0, 0.5, 4.0, 12.0, 30.0, 100.0};
    for (size_t i = 0; i < sizeof alphas / sizeof alphas[0]; i++) {
        const int n = 2000;
        double complex mean = 0.0;
        for (int k = 0; k <= n; k++) {
            const double s = k / (double)n, w = k == 0 || k == n ? 1.0 : k % 2 ? 4.0 : 2.0;
            mean += w * tess_womersley_mode(alphas[i], s) * 2.0 * s;
        }
        mean /= 3.0 * n;
        char what[128];
        snprintf(what, sizeof what, "mode alpha %g: |mean over the disc - 1|", alphas[i]);
        tess_test_close(what, cabs(mean - 1.0), 0.0, alphas[i] >= 30 ? 1e-6 : 1e-9);
        snprintf(what, sizeof what, "mode alpha %g: |phi at the wall|", alphas[i]);
        tess_test_close(what, cabs(tess_womersley_mode(alphas[i], 1.0)), 0.0, 1e-12);
        const double h = 1e-4;
        const double complex fd = (tess_womersley_mode(alphas[i], 1.0 + h) - tess_womersley_mode(alphas[i], 1.0 - h)) / (2 * h);
        const double complex slope = tess_womersley_mode_slope(alphas[i]);
        snprintf(what, sizeof what, "mode alpha %g: wall slope against a central difference (h 1e-4), relative", alphas[i]);
        tess_test_close(what, cabs(slope - fd) / cabs(slope), 0.0, 1e-4);
    }
    double jump = 0.0;
    for (int k = 0; k <= 10; k++)
        jump = fmax(jump, cabs(tess_womersley_mode(17.0 - 1e-9, k / 10.0) - tess_womersley_mode(17.0 + 1e-9, k / 10.0)));
    tess_test_close("mode: largest jump across alpha = 17 (series -> asymptotic)", jump, 0.0, 1e-9);
}

static void check_fourier(void)
{
    tess_waveform_t w;
    memset(&w, 0, sizeof w);
    w.n = 3;
    w.t[0] = 10.0, w.t[1] = 60.0, w.t[2] = 110.0;
    w.v[0] = 0.0, w.v[1] = 1.0, w.v[2] = 0.0;
    double complex c[8];
    tess_womersley_fourier(&w, 8, c);
    double worst = cabs(c[0] - 0.5);
    for (int n = 1; n < 8; n++)
        worst = fmax(worst, cabs(c[n] - (n % 2 ? -4.0 / (PI * PI * n * n) : 0.0)));
    tess_test_close("Fourier modes of a triangle wave: largest |c_n - analytic|", worst, 0.0, 2e-15);
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fputs(text, f);
    return fclose(f) == 0;
}

/* Loads dir/name.ini with an inlet section `inlet`; returns the status (message in err). */
static tess_status load(const char *dir, const char *inlet, tess_case_t *c, tess_error_t *err)
{
    char text[2048], path[512];
    snprintf(text, sizeof text,
             "[domain]\nnx = 16\nny = 16\nnz = 10\n[physics]\ntau = 0.8\n"
             "[solid.all]\nshape = box\nmin = 0 0 0\nmax = 15 15 9\n"
             "[fluid.tube]\nshape = cylinder\np0 = 7.5 7.5 0\np1 = 7.5 7.5 9\nradius = 6\n"
             "%s\n[outlet.out]\nshape = cylinder\np0 = 7.5 7.5 8.5\np1 = 7.5 7.5 9.5\nradius = 6\nnormal = +z\n"
             "density = 1\nmethod = nee\n[run]\nsteps = 1\n",
             inlet);
    snprintf(path, sizeof path, "%s/pipe.ini", dir);
    if (!write_file(path, text))
        return tess_fail(err, TESS_ERR_IO, "cannot write %s", path);
    return tess_case_load(path, NULL, 0, c, err);
}

/* The case on the CPU engine (AB and AA), 12 steps from rest: every inlet node's velocity is the prescribed one of
 * step 12 (extrapolation rebuilds the node from the equilibrium of that velocity plus the neighbour's
 * non-equilibrium part, which carries no momentum: only rounding remains, tolerance 1e-12 U; one step late is off
 * by up to |du/dt| = 2 pi / 240 x 0.4 x 2 U = 0.02 U), and AA equals AB bitwise (both patterns call the same core
 * function at the same step; exact equality is the claim). */
static void engine_run(const tess_case_t *c, int mat, double U)
{
    const tess_geometry_t *g = &c->geometry;
    const size_t n = (size_t)g->nx * g->ny * g->nz;
    double *rho[2], *u[2];
    int ok = 1;
    for (int pat = 0; pat < 2; pat++) {
        rho[pat] = malloc(n * sizeof *rho[pat]);
        u[pat] = malloc(3 * n * sizeof *u[pat]);
        tess_backend_config_t cfg = {0};
        cfg.precision = TESS_PRECISION_DOUBLE;
        cfg.pattern = pat ? TESS_PATTERN_AA : TESS_PATTERN_AB;
        cfg.threads = 1;
        tess_sim_t *sim = NULL;
        tess_error_t err = {0};
        if (!rho[pat] || !u[pat] || tess_sim_create(c, &tess_backend_cpu, &cfg, &sim, &err) != TESS_OK ||
            tess_sim_step(sim, 12, &err) != TESS_OK || tess_sim_fields(sim, rho[pat], u[pat], &err) != TESS_OK) {
            printf("FAIL engine run (%s): %s\n", pat ? "aa" : "ab", err.msg);
            ok = 0;
        }
        tess_sim_free(sim);
    }
    if (ok) {
        double worst = 0.0;
        for (int y = 0; y < g->ny; y++)
            for (int x = 0; x < g->nx; x++) {
                const size_t i = tess_geometry_index(g, x, y, 0);
                if (g->type[i] != mat)
                    continue;
                double want[3];
                tess_inlet_velocity(&c->params, &c->params.mat[mat], x, y, 0, 12, want);
                for (int a = 0; a < 3; a++)
                    worst = fmax(worst, fabs(u[0][3 * i + a] - want[a]));
            }
        tess_test_close("engine (AB), step 12: largest |u - prescribed| at the inlet nodes, / U", worst / U, 0.0, 1e-12);
        tess_test_true("engine: AA equals AB bitwise after 12 steps",
                       memcmp(rho[0], rho[1], n * sizeof *rho[0]) == 0 && memcmp(u[0], u[1], 3 * n * sizeof *u[0]) == 0);
    } else {
        tess_test_true("engine runs", 0);
    }
    for (int pat = 0; pat < 2; pat++) {
        free(rho[pat]);
        free(u[pat]);
    }
}

static void check_loader(const char *dir)
{
    char csv[512], rows[256 * 48] = "time,value\n";
    const int T = 240, nrow = 241;
    for (int j = 0; j < nrow; j++)
        snprintf(rows + strlen(rows), sizeof rows - strlen(rows), "%d,%.17g\n", j,
                 j == nrow - 1 ? 1.0 : 0.6 + 0.4 * cos(2.0 * PI * j / T));
    snprintf(csv, sizeof csv, "%s/wave.csv", dir);
    if (!write_file(csv, rows)) {
        tess_test_true("write the waveform file", 0);
        return;
    }
    tess_case_t c;
    tess_error_t err = {0};
    const double U = 0.02;
    char inlet[512];
    snprintf(inlet, sizeof inlet,
             "[inlet.in]\nshape = cylinder\np0 = 7.5 7.5 -0.5\np1 = 7.5 7.5 0.5\nradius = 6\nnormal = -z\nvelocity = 0 0 "
             "%g\nmethod = nee\nprofile = womersley\nwaveform = wave.csv\n",
             U);
    if (load(dir, inlet, &c, &err) != TESS_OK) {
        printf("FAIL load: %s\n", err.msg);
        tess_test_true("load the Womersley case", 0);
        return;
    }
    const tess_params_t *p = &c.params;
    int mat = -1;
    for (int k = 0; k < p->nmat; k++)
        if (p->mat[k].kind == TESS_NODE_VELOCITY)
            mat = k;
    tess_test_true("the inlet is womersley with table 1 of 1",
                   mat >= 0 && p->mat[mat].profile == TESS_PROFILE_WOMERSLEY && p->mat[mat].womersley == 1 && p->nwom == 1);
    if (mat < 0 || p->nwom != 1) {
        tess_case_free(&c);
        return;
    }
    const double nu = (0.8 - 0.5) / 3.0, omega = 2.0 * PI / T, alpha = 6.0 * sqrt(omega / nu);
    double worst = 0.0, worst_mean = 0.0;
    int nodes = 0;
    for (int ph = 0; ph < 8; ph++) {
        const long step = 1000 + ph * T / 8;
        for (int y = 0; y < 16; y++)
            for (int x = 0; x < 16; x++) {
                if (c.geometry.type[tess_geometry_index(&c.geometry, x, y, 0)] != mat)
                    continue;
                double u[3];
                tess_inlet_velocity(p, &p->mat[mat], x, y, 0, step, u);
                const double s = hypot(x - 7.5, y - 7.5) / 6.0;
                const double ua = U * (0.6 * 2.0 * (1.0 - s * s) +
                                       0.4 * creal(tess_womersley_mode(alpha, s) * cexp(I * omega * (double)step)));
                worst = fmax(worst, fmax(fabs(u[2] - ua), fabs(u[0]) + fabs(u[1])));
                nodes += ph == 0;
            }
        /* the mean over the disc: the integral over q of the linear interpolation (trapezoids) */
        const tess_womersley_t *w = &p->wom[0];
        const double turns = (double)step / T;
        double mean = 0.0;
        for (int j = 0; j < TESS_WOMERSLEY_POINTS; j++) {
            double v = 0.0;
            for (int n = 0; n < w->nmodes; n++)
                v += w->a[n][j][0] * cos(2 * PI * n * turns) - w->a[n][j][1] * sin(2 * PI * n * turns);
            mean += (j == 0 || j == TESS_WOMERSLEY_POINTS - 1 ? 0.5 : 1.0) * v / (TESS_WOMERSLEY_POINTS - 1);
        }
        worst_mean = fmax(worst_mean, fabs(mean - (0.6 + 0.4 * cos(2.0 * PI * turns))));
    }
    printf("womersley inlet: %d nodes, alpha %.4f\n", nodes, alpha);
    tess_test_true("the inlet disc holds nodes", nodes > 50);
    tess_test_close("largest |u - analytic Womersley| over the inlet nodes and 8 phases, / U", worst / U, 0.0, 5e-4);
    tess_test_close("largest |mean of the table over the disc - waveform| over 8 phases", worst_mean, 0.0, 1e-4);
    engine_run(&c, mat, U);
    tess_case_free(&c);

    /* refusals */
    static const struct {
        const char *extra, *expect;
    } bad[] = {
        {"[inlet.in]\nshape = box\nmin = 2 2 0\nmax = 13 13 0\nnormal = -z\nvelocity = 0 0 0.02\nmethod = nee\n"
         "profile = womersley\n",
         "womersley needs a circular opening"},
        {"[inlet.in]\nshape = cylinder\np0 = 7.5 7.5 -0.5\np1 = 7.5 7.5 0.5\nradius = 6\nnormal = -z\nvelocity = 0 0 0.02\n"
         "method = zou-he\nprofile = womersley\n",
         "womersley needs method = nee"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tess_error_t e2 = {0};
        tess_case_t c2;
        const tess_status st = load(dir, bad[i].extra, &c2, &e2);
        printf("refusal %zu: %s\n", i, e2.msg);
        tess_test_true(bad[i].expect, st == TESS_ERR_INPUT && strstr(e2.msg, bad[i].expect) != NULL);
        if (st == TESS_OK)
            tess_case_free(&c2);
    }
}

int main(void)
{
    check_cis();
    check_bessel();
    check_modes();
    check_fourier();
    char dir[] = "/tmp/tess_womersley_XXXXXX";
    if (!mkdtemp(dir)) {
        tess_test_true("mkdtemp", 0);
        return tess_test_result("test_womersley_inlet");
    }
    check_loader(dir);
    char path[600];
    snprintf(path, sizeof path, "%s/pipe.ini", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/wave.csv", dir);
    remove(path);
    rmdir(dir);
    return tess_test_result("test_womersley_inlet");
}
