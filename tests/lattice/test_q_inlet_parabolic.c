/* The parabolic velocity inlet (core/tess_inlet.h, `profile = parabolic` of an [inlet.NAME] section): a D2Q9
 * channel read through the case loader, H = 16 fluid rows between the box's y faces (halfway bounce-back
 * walls at y = -1/2 and y = H - 1/2), 3 H + 1 nodes long, parabolic extrapolation inlet (peak Um = 0.05) on
 * x = 0 and a density outlet on x = 3 H, LBGK tau 0.8, run to a steady state. Checks:
 *  - the loader puts the parabola's walls at -1/2 and H - 1/2 (exact);
 *  - every inlet node carries its prescribed velocity 4 Um s (1 - s), s = (y + 1/2) / H: extrapolation
 *    prescribes the node's momentum exactly, so only rounding remains (tolerance 1e-12 of Um);
 *  - at mid-length the profile is the same parabola: relative L2 error below 1% (the body-force channel of the
 *    same H leaves 0.28% by the halfway walls' slip, test_q_poiseuille; the open ends add their own small
 *    error). A parabola spanning the outermost nodes instead of the walls carries 7% less flux (about 7% at
 *    mid-length, and the wall checks above catch it exactly); a uniform inlet of speed Um carries 1.5 times the
 *    flux (50%). */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include "lattice_test.h"
#include "tess_case.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void)
{
    const int H = 16, nx = 3 * H + 1;
    const double um = 0.05;
    char path[] = "/tmp/tess_inlet_parabolic_XXXXXX";
    const int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        printf("FAIL: cannot write a temporary case file\n");
        return 1;
    }
    fprintf(f, "[lattice]\nmodel = D2Q9\n[domain]\nnx = %d\nny = %d\nnz = 1\n[physics]\ntau = 0.8\n"
               "[inlet.in]\nface = -x\nvelocity = %g 0 0\nprofile = parabolic\nmethod = nee\n"
               "[outlet.out]\nface = +x\ndensity = 1\nmethod = nee\n",
            nx, H, um);
    fclose(f);
    tess_case_t c;
    tess_error_t err;
    const tess_status st = tess_case_load(path, NULL, 0, &c, &err);
    unlink(path);
    if (st != TESS_OK) {
        printf("FAIL load: %s\n", err.msg);
        return 1;
    }
    const tess_material_t *in = &c.params.mat[2];
    tess_test_close("inlet wall below (y)", in->wall_lo[1], -0.5, 0.0);
    tess_test_close("inlet wall above (y)", in->wall_hi[1], H - 0.5, 0.0);
    tess_test_close("no walls across x (the normal) and z (one node thick)",
                    fabs(in->wall_hi[0] - in->wall_lo[0]) + fabs(in->wall_hi[2] - in->wall_lo[2]), 0.0, 0.0);
    lt_run_t r;
    if (lt_start(&r, &c.geometry, &c.params, TESS_PATTERN_AB, 0, TESS_PRECISION_DOUBLE, NULL, NULL, &err) != TESS_OK) {
        printf("FAIL start: %s\n", err.msg);
        return 1;
    }
    const long steps = lt_converge(&r, 500, 1e-9, 60000, &err);
    if (steps < 0 || lt_fields(&r, &err) != TESS_OK) {
        printf("FAIL run: %s\n", err.msg);
        return 1;
    }
    double inlet_err = 0.0, num = 0.0, den = 0.0;
    for (int y = 0; y < H; y++) {
        const double s = (y + 0.5) / H, ua = 4.0 * um * s * (1.0 - s);
        const size_t i0 = tess_geometry_index(&c.geometry, 0, y, 0), im = tess_geometry_index(&c.geometry, nx / 2, y, 0);
        inlet_err = fmax(inlet_err, fabs(r.u[3 * i0] - ua) + fabs(r.u[3 * i0 + 1]));
        num += (r.u[3 * im] - ua) * (r.u[3 * im] - ua) + r.u[3 * im + 1] * r.u[3 * im + 1];
        den += ua * ua;
    }
    const double e2 = sqrt(num / den);
    printf("steady after %ld steps; inlet max |u - u_prescribed| %.3e; mid-length relative L2 error %.3e\n", steps,
           inlet_err, e2);
    tess_test_close("inlet nodes carry the prescribed parabola (max |error| / Um)", inlet_err / um, 0.0, 1e-12);
    tess_test_close("mid-length profile: relative L2 error against 4 Um s (1 - s)", e2, 0.0, 0.01);
    lt_free(&r);
    tess_case_free(&c);
    return tess_test_result("test_q_inlet_parabolic");
}
