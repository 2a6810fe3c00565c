/* Time-dependent inlets and outlets (core/tess_waveform.h, core/tess_inlet.h; `waveform = FILE` of an
 * [inlet.NAME] or [outlet.NAME] section): channels read through the case loader, a velocity inlet and a pressure
 * outlet each scaled by its own periodic waveform (linear between the rows, period 100 steps), run on the
 * CPU engine. Checks:
 *  - the loader reads both tables (2 waveforms, the materials name them);
 *  - after every step n = 1 .. 130 (past the end of the period) every inlet node carries w_in(n) times the
 *    prescribed velocity (D2Q9: the parabola 4 Um s (1 - s), method nee; D3Q19: uniform, method zou-he) and every
 *    outlet node the density 1 + w_out(n) (rho - 1), w computed here from the rows by its own interpolation. Both
 *    boundary methods prescribe the node's momentum or density exactly, so only rounding remains: tolerance
 *    1e-12 of the velocity scale and of the density. A waveform read at the wrong step (one step late) is off by
 *    up to |dw/dt| Um = 0.04 Um; an ignored waveform by up to 1.5 Um;
 *  - AA equals AB bitwise after 100 steps (the AA pattern gathers the boundary nodes in a pre-pass at the same
 *    step), and a run restarted from the state of step 60 with tess_params_t.step0 = 60 equals the uninterrupted
 *    run after 100 steps bitwise (the waveform's time goes on from the restart's step). Exact equality is the
 *    claim, so the tolerance is zero. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "lattice_test.h"
#include "tess_case.h"
#include "tess_state.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const tess_backend_ops_t tess_backend_cpu;

static const double t_in[] = {0, 20, 55, 80, 100}, v_in[] = {0.2, 1.0, -0.5, 0.3, 0.2};
static const double t_out[] = {0, 50, 100}, v_out[] = {1.0, -1.0, 1.0};

/* The rows' linear interpolation at step n, the period being the last time minus the first. */
static double wave(const double *t, const double *v, int rows, long n)
{
    const double period = t[rows - 1] - t[0];
    const double s = t[0] + fmod((double)n - t[0], period);
    for (int i = 0; i + 1 < rows; i++)
        if (s >= t[i] && s <= t[i + 1])
            return v[i] + (s - t[i]) * (v[i + 1] - v[i]) / (t[i + 1] - t[i]);
    return NAN;
}

static void write_csv(const char *path, const double *t, const double *v, int rows)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "# a test waveform\ntime,value\n");
    for (int i = 0; i < rows; i++)
        fprintf(f, "%g, %g\n", t[i], v[i]);
    fclose(f);
}

/* Wet nodes whose populations differ in any bit. */
static long differing(const tess_tiling_t *t, const tess_params_t *p, const void *a, const void *b)
{
    long bad = 0;
    for (int32_t k = 0; k < t->ntiles; k++)
        for (int n = 0; n < 64; n++) {
            if (!tess_kind_is_wet(p->mat[t->node_type[64 * (size_t)k + n]].kind))
                continue;
            for (int i = 0; i < t->q; i++)
                if (memcmp((const double *)a + tess_state_index(t, k, i, n), (const double *)b + tess_state_index(t, k, i, n),
                           sizeof(double)) != 0) {
                    bad++;
                    break;
                }
        }
    return bad;
}

/* One channel: D2Q9 with a parabolic nee inlet (d3 = 0) or D3Q19 with uniform Zou-He planes (d3 = 1). */
static void channel(const char *dir, int d3)
{
    const char *name = d3 ? "D3Q19 zou-he uniform" : "D2Q9 nee parabolic";
    const int H = 12, nx = 20, nz = d3 ? 4 : 1;
    const double um = 0.04, rho_out = 1.002;
    char path[512], what[256];
    snprintf(path, sizeof path, "%s/case%d.ini", dir, d3);
    FILE *f = fopen(path, "w");
    if (!f) {
        tess_test_true("write the case file", 0);
        return;
    }
    fprintf(f, "[lattice]\nmodel = %s\n[domain]\nnx = %d\nny = %d\nnz = %d\n%s[physics]\ntau = 0.8\n"
               "[inlet.in]\nface = -x\nvelocity = %g 0 0\n%s\nwaveform = in.csv\n"
               "[outlet.out]\nface = +x\ndensity = %.17g\nmethod = %s\nwaveform = out.csv\n",
            d3 ? "D3Q19" : "D2Q9", nx, H, nz, d3 ? "periodic = z\n" : "", um,
            d3 ? "method = zou-he" : "method = nee\nprofile = parabolic", rho_out, d3 ? "zou-he" : "nee");
    fclose(f);
    tess_case_t c;
    tess_error_t err;
    if (tess_case_load(path, NULL, 0, &c, &err) != TESS_OK) {
        printf("FAIL load: %s\n", err.msg);
        tess_test_true("load the case", 0);
        return;
    }
    snprintf(what, sizeof what, "%s: waveform tables read", name);
    tess_test_close(what, c.params.nwave, 2, 0);
    snprintf(what, sizeof what, "%s: inlet and outlet name waveforms 1 and 2", name);
    tess_test_close(what, c.params.mat[2].waveform * 10 + c.params.mat[3].waveform, 12, 0);

    lt_run_t r;
    if (lt_start(&r, &c.geometry, &c.params, TESS_PATTERN_AB, 0, TESS_PRECISION_DOUBLE, NULL, NULL, &err) != TESS_OK) {
        printf("FAIL start: %s\n", err.msg);
        tess_test_true("start", 0);
        return;
    }
    double eu = 0.0, er = 0.0, wmin = 1e9, wmax = -1e9;
    void *at60 = NULL, *at100 = NULL;
    const size_t bytes = tess_state_count(&r.t) * sizeof(double);
    for (long n = 1; n <= 130; n++) {
        if (lt_step(&r, 1, &err) != TESS_OK || lt_fields(&r, &err) != TESS_OK) {
            printf("FAIL step %ld: %s\n", n, err.msg);
            tess_test_true("run", 0);
            break;
        }
        const double wi = wave(t_in, v_in, 5, n), wo = wave(t_out, v_out, 3, n);
        wmin = fmin(wmin, wi);
        wmax = fmax(wmax, wi);
        for (int z = 0; z < nz; z++)
            for (int y = 0; y < H; y++) {
                const double s = (y + 0.5) / H, shape = d3 ? 1.0 : 4.0 * s * (1.0 - s);
                const size_t i0 = tess_geometry_index(&c.geometry, 0, y, z);
                const size_t i1 = tess_geometry_index(&c.geometry, nx - 1, y, z);
                eu = fmax(eu, fabs(r.u[3 * i0] - wi * um * shape) + fabs(r.u[3 * i0 + 1]) + fabs(r.u[3 * i0 + 2]));
                er = fmax(er, fabs(r.rho[i1] - (1.0 + wo * (rho_out - 1.0))));
            }
        if (n == 60 || n == 100) {
            void *copy = malloc(bytes);
            if (copy)
                memcpy(copy, r.pops, bytes);
            if (n == 60)
                at60 = copy;
            else
                at100 = copy;
        }
    }
    printf("%s: waveform factor ranged over [%g, %g]; max inlet |u - w_in u_prescribed| %.3e, outlet |rho - "
           "rho_prescribed| %.3e\n",
           name, wmin, wmax, eu, er);
    snprintf(what, sizeof what, "%s: inlet nodes carry w_in(n) x the profile, steps 1..130 (max |error| / Um)", name);
    tess_test_close(what, eu / um, 0.0, 1e-12);
    snprintf(what, sizeof what, "%s: outlet nodes carry 1 + w_out(n) (rho - 1), steps 1..130 (max |error|)", name);
    tess_test_close(what, er, 0.0, 1e-12);

    /* AA against AB after 100 steps. */
    lt_run_t a;
    if (at100 && lt_start(&a, &c.geometry, &c.params, TESS_PATTERN_AA, 0, TESS_PRECISION_DOUBLE, NULL, NULL, &err) == TESS_OK &&
        lt_step(&a, 100, &err) == TESS_OK && lt_fields(&a, &err) == TESS_OK) {
        snprintf(what, sizeof what, "%s: AA vs AB after 100 steps with waveforms, wet nodes differing", name);
        tess_test_close(what, (double)differing(&r.t, &c.params, at100, a.pops), 0, 0);
    } else {
        printf("FAIL AA run: %s\n", err.msg);
        tess_test_true("AA run", 0);
    }
    lt_free(&a);

    /* A restart: the state of step 60 with step0 = 60, 40 more steps. */
    lt_run_t b;
    tess_params_t p60 = c.params;
    p60.step0 = 60;
    if (at60 && at100 && lt_start(&b, &c.geometry, &c.params, TESS_PATTERN_AB, 0, TESS_PRECISION_DOUBLE, NULL, NULL, &err) == TESS_OK &&
        tess_backend_cpu.initialise(b.be, &p60, at60, &err) == TESS_OK && lt_step(&b, 40, &err) == TESS_OK &&
        lt_fields(&b, &err) == TESS_OK) {
        snprintf(what, sizeof what, "%s: restarted at step 60 (step0 = 60) vs uninterrupted, after 100 steps, wet nodes differing",
                 name);
        tess_test_close(what, (double)differing(&r.t, &c.params, at100, b.pops), 0, 0);
    } else {
        printf("FAIL restart run: %s\n", err.msg);
        tess_test_true("restart run", 0);
    }
    lt_free(&b);
    free(at60);
    free(at100);
    lt_free(&r);
    tess_case_free(&c);
    unlink(path);
}

int main(void)
{
    char dir[] = "/tmp/tess_waveform_XXXXXX";
    if (!mkdtemp(dir)) {
        printf("FAIL: cannot make a temporary folder\n");
        return 1;
    }
    char p1[600], p2[600];
    snprintf(p1, sizeof p1, "%s/in.csv", dir);
    snprintf(p2, sizeof p2, "%s/out.csv", dir);
    write_csv(p1, t_in, v_in, 5);
    write_csv(p2, t_out, v_out, 3);
    channel(dir, 0);
    channel(dir, 1);
    unlink(p1);
    unlink(p2);
    rmdir(dir);
    return tess_test_result("test_q_waveform");
}
