/* Inlets and outlets at any orientation: a pressure-driven 2D channel (D2Q9) rotated by 30 degrees. Fluid nodes
 * lie within |eta| < h of the axis (eta: distance across, s: distance along the axis from the inlet point A),
 * 0 <= s <= L; the staircase layer s < 1.5 is a pressure inlet (density 1.003, outward normal -a, method nee)
 * and s > L - 1.5 a pressure outlet (density 1, normal +a). The layers are 1.5 nodes thick because a link moves
 * up to cos(15 deg) sqrt(2) = 1.37 along the axis: with a one-node layer some fluid nodes would pull from the
 * solid beyond the inlet (bounce-back across the opening), which measurably throttles the flow (the gradient
 * in the channel then drops to 59 % of the imposed one). The channel walls are the planes eta = +-h with quadratic
 * Bouzidi links (the wall_q callback gives the exact distances), so the test sees the open boundaries rather
 * than a staircase wall.
 *
 * Checks, in the middle third of the channel (away from the staircase ends):
 *  - the density falls linearly along the axis; its fitted gradient G agrees with (rho_in - rho_out) / (L - 1.5)
 *    (the boundary layers' mean positions are s = 3/4 and L - 3/4) within 5 % (the staircase inlet and outlet
 *    impose their density on nodes spread over 1.5 nodes along the axis: an O(1.5/L) = 2.5 % uncertainty;
 *    measured 0.976);
 *  - the velocity is the Poiseuille profile of that gradient, u_s = -G / (3 * 2 nu) (h^2 - eta^2), with no
 *    transverse component: relative L2 error (transverse part included) below 1e-2 (measured 1.5e-3). With
 *    halfway walls of the
 *    same width the error is O(1/H^2) ~ 3e-3 (test_q_poiseuille); the tolerance adds the interpolation of
 *    tilted links and the pressure disturbance of the staircase ends, while an inlet that pushed the flow along
 *    a lattice axis instead of the channel axis would leave a transverse velocity of order u_s (error ~ 1). */
#include "lattice_test.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>

int main(void)
{
    const double deg = 30.0 * 3.14159265358979323846 / 180.0, a[3] = {cos(deg), sin(deg), 0}, b[3] = {-sin(deg), cos(deg), 0};
    const double A[3] = {5.0, 7.0, 0.0}, h = 6.0, L = 60.0, rho_in = 1.003, rho_out = 1.0;
    const int nx = 72, ny = 48;
    tess_geometry_t g;
    tess_geometry_init(&g, nx, ny, 1, 0);
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
            const double s = (x - A[0]) * a[0] + (y - A[1]) * a[1], e = (x - A[0]) * b[0] + (y - A[1]) * b[1];
            uint8_t m = 0;
            if (fabs(e) < h && s >= 0.0 && s <= L)
                m = s < 1.5 ? 2 : s > L - 1.5 ? 3 : 1;
            g.type[tess_geometry_index(&g, x, y, 0)] = m;
        }
    tess_params_t p;
    tess_params_default(&p);
    tess_params_set_lattice(&p, TESS_LATTICE_D2Q9);
    const double tau = 0.8, nu = (tau - 0.5) / 3.0;
    tess_params_set_tau(&p, tau);
    p.wall = TESS_WALL_BOUZIDI_QUADRATIC;
    p.nmat = 4;
    p.mat[2].kind = TESS_NODE_PRESSURE;
    p.mat[2].method = TESS_BC_NEE;
    p.mat[2].rho = rho_in;
    p.mat[3].kind = TESS_NODE_PRESSURE;
    p.mat[3].method = TESS_BC_NEE;
    p.mat[3].rho = rho_out;
    for (int c = 0; c < 3; c++) {
        p.mat[2].normal[c] = -a[c];
        p.mat[3].normal[c] = a[c];
    }
    const double bA = b[0] * A[0] + b[1] * A[1];
    lt_planes_t pl = {2, {{b[0], b[1], 0}, {-b[0], -b[1], 0}}, {bA - h, -(bA + h)}};
    tess_error_t err;
    lt_run_t r;
    if (lt_start(&r, &g, &p, TESS_PATTERN_AB, 0, TESS_PRECISION_DOUBLE, lt_planes_q, &pl, &err) != TESS_OK) {
        printf("FAIL start: %s\n", err.msg);
        return 1;
    }
    const long steps = lt_converge(&r, 500, 1e-9, 200000, &err);
    if (steps < 0) {
        printf("FAIL run: %s\n", err.msg);
        return 1;
    }
    printf("%lld curved links, steady after %ld steps\n", (long long)r.t.links.n, steps);
    /* least-squares slope of rho against s over the middle third */
    double n = 0, ss = 0, sr = 0, sss = 0, ssr = 0;
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
            const size_t d = tess_geometry_index(&g, x, y, 0);
            const double s = (x - A[0]) * a[0] + (y - A[1]) * a[1];
            if (g.type[d] != 1 || s < L / 3 || s > 2 * L / 3)
                continue;
            n++;
            ss += s;
            sr += r.rho[d];
            sss += s * s;
            ssr += s * r.rho[d];
        }
    const double G = (n * ssr - ss * sr) / (n * sss - ss * ss), G0 = -(rho_in - rho_out) / (L - 1.5);
    double num = 0, den = 0;
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
            const size_t d = tess_geometry_index(&g, x, y, 0);
            const double s = (x - A[0]) * a[0] + (y - A[1]) * a[1], e = (x - A[0]) * b[0] + (y - A[1]) * b[1];
            if (g.type[d] != 1 || s < L / 3 || s > 2 * L / 3)
                continue;
            const double ua = -G / (3.0 * 2.0 * nu) * (h * h - e * e);
            const double us = r.u[3 * d] * a[0] + r.u[3 * d + 1] * a[1], ue = r.u[3 * d] * b[0] + r.u[3 * d + 1] * b[1];
            num += (us - ua) * (us - ua) + ue * ue;
            den += ua * ua;
        }
    const double e2 = sqrt(num / den);
    printf("density gradient along the axis %.5e (imposed %.5e); profile relative L2 error %.3e over %.0f nodes\n", G, G0,
           e2, n);
    tess_test_close("fitted density gradient / imposed (rho_in - rho_out) / (L - 1.5)", G / G0, 1.0, 0.05);
    tess_test_close("tilted Poiseuille profile relative L2 error (transverse velocity included)", e2, 0.0, 1e-2);
    lt_free(&r);
    tess_geometry_free(&g);
    return tess_test_result("test_q_nee_tilted");
}
