/* Curved-wall links: body-force Poiseuille flow (D2Q9, periodic in x) between plane walls that do not sit
 * halfway between nodes. Rows y = 0 and y = ny - 1 are solid; the wall_q callback places the surfaces at
 * y = 1 - q and y = ny - 2 + q, so every link from the first fluid row into a wall has fraction q (0.25 and
 * 0.75 test both branches of the Bouzidi rules). Reference: u(y) = F / (2 nu) (y - y0) (y1 - y) with the true
 * walls y0, y1. Plain bounce-back puts the walls at 1/2 instead, a width error of 2 |q - 1/2| = 0.5 nodes over
 * H = 16 (relative L2 error ~ 9e-2, measured 8.8e-2); Bouzidi sees the true walls and keeps only the O(1/H^2) slip of the
 * LBGK rules (a few 1e-3, like halfway bounce-back on a halfway wall: test_q_poiseuille). Tolerances: bounce-back
 * must show its error (> 2e-2, so the test is sensitive to the wall position), and both Bouzidi rules must be
 * below 1e-2 and at least 5 times more accurate than bounce-back. */
#include "lattice_test.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>

static double run(int wall, double q, int H)
{
    const int nx = 8, ny = H + 2;
    tess_geometry_t g;
    lt_channel_y(&g, nx, ny, 1);
    g.periodic[0] = 1;
    tess_params_t p;
    tess_params_default(&p);
    tess_params_set_lattice(&p, TESS_LATTICE_D2Q9);
    const double tau = 0.8, nu = (tau - 0.5) / 3.0;
    tess_params_set_tau(&p, tau);
    p.wall = wall;
    p.use_force = 1;
    p.force[0] = 1e-6;
    const double y0 = 1.0 - q, y1 = ny - 2 + q;
    lt_planes_t pl = {2, {{0, 1, 0}, {0, -1, 0}}, {y0, -y1}};
    tess_error_t err;
    lt_run_t r;
    double e = INFINITY;
    if (lt_start(&r, &g, &p, TESS_PATTERN_AB, 0, TESS_PRECISION_DOUBLE, lt_planes_q, &pl, &err) != TESS_OK ||
        lt_converge(&r, 500, 1e-10, 400000, &err) < 0) {
        printf("FAIL run: %s\n", err.msg);
        tess_test_failures++;
    } else {
        double num = 0, den = 0;
        for (int y = 1; y < ny - 1; y++)
            for (int x = 0; x < nx; x++) {
                const double ua = p.force[0] / (2 * nu) * (y - y0) * (y1 - y);
                const size_t d = tess_geometry_index(&g, x, y, 0);
                num += (r.u[3 * d] - ua) * (r.u[3 * d] - ua) + r.u[3 * d + 1] * r.u[3 * d + 1];
                den += ua * ua;
            }
        e = sqrt(num / den);
    }
    lt_free(&r);
    tess_geometry_free(&g);
    return e;
}

int main(void)
{
    static const double qs[2] = {0.25, 0.75};
    for (int k = 0; k < 2; k++) {
        const double q = qs[k];
        const double bb = run(TESS_WALL_BOUNCE_BACK, q, 16), lin = run(TESS_WALL_BOUZIDI_LINEAR, q, 16),
                     quad = run(TESS_WALL_BOUZIDI_QUADRATIC, q, 16);
        printf("q = %.2f, H = 16: relative L2 error bounce-back %.3e, Bouzidi linear %.3e, quadratic %.3e\n", q, bb, lin,
               quad);
        char what[128];
        snprintf(what, sizeof what, "q = %.2f: bounce-back shows its wall-position error (> 2e-2)", q);
        tess_test_true(what, bb > 2e-2);
        snprintf(what, sizeof what, "q = %.2f: Bouzidi linear relative L2 error", q);
        tess_test_close(what, lin, 0.0, fmin(1e-2, bb / 5));
        snprintf(what, sizeof what, "q = %.2f: Bouzidi quadratic relative L2 error", q);
        tess_test_close(what, quad, 0.0, fmin(1e-2, bb / 5));
    }
    return tess_test_result("test_q_bouzidi");
}
