/* Womersley inlet profile (docs/case-format.md, "Inlet velocity profiles"): the velocity across a circular opening
 * of a straight tube for a periodic flow, per Fourier mode of the waveform the exact solution of the pulsatile
 * pipe flow (Womersley 1955), scaled so that each mode's mean over the disc is that mode of the waveform.
 *
 * The host (core/tess_womersley_build.c) tabulates, for every mode n = 0 .. nmodes - 1, the complex amplitude
 * a_n(q) = c_n phi_n(sqrt(q)) at TESS_WOMERSLEY_POINTS values of q = (r / R)^2 in [0, 1] (q rather than r / R:
 * the profile is a power series in q, and the samples crowd towards the wall where the boundary layer is). A node
 * at distance r from the axis takes, at time t (steps),
 *     shape(q, t) = sum_n Re{ a_n(q) e^(i n 2 pi (t - t0) / T) },   0 for q >= 1,
 * with a_n(q) linear between the samples; the inlet velocity is shape times the material's u (the mean velocity:
 * tess_inlet.h). Only +, -, *, / and floor: e^(i theta) comes from tess_womersley_cis, not from libm, so that
 * every backend computes the same bits (given the same floating-point contraction, TESSERA_REPRODUCIBLE). */
#ifndef TESS_WOMERSLEY_H
#define TESS_WOMERSLEY_H

#include "tess_config.h"
#include <math.h>
#include <stdint.h>

#define TESS_MAX_WOMERSLEY 2     /* Womersley inlets a case may hold (the tables live in GPU constant memory) */
#define TESS_WOMERSLEY_MODES 12  /* the mean and 11 harmonics of the waveform */
#define TESS_WOMERSLEY_POINTS 49 /* samples over q = (r / R)^2 in [0, 1] */

typedef struct {
    int32_t nmodes; /* 1 (steady: Poiseuille) .. TESS_WOMERSLEY_MODES */
    int32_t pad;
    double centre[3]; /* a point of the tube's axis (box coordinates) */
    double normal[3]; /* unit vector along the axis */
    double inv_r2;    /* 1 / R^2 */
    double t0, period; /* the waveform's first time and period (steps); period 0 when steady */
    double a[TESS_WOMERSLEY_MODES][TESS_WOMERSLEY_POINTS][2]; /* Re, Im of a_n(q_j), q_j = j / (POINTS - 1) */
} tess_womersley_t;

/* cos and sin of 2 pi phi (phi in turns, any value): phi reduced to f in [-1/2, 1/2] and then to the quadrant's
 * r = f - q/4 in [-1/8, 1/8] (exact), the Taylor polynomials of degree 16 and 17 at x = 2 pi r (|x| <= pi/4,
 * truncation below 1e-17), turned by q quarter turns (exact): within a few ulps of libm. */
TESS_HD TESS_INLINE void tess_womersley_cis(double phi, double *c, double *s)
{
    const double f = phi - floor(phi + 0.5);  /* [-1/2, 1/2] */
    const double q = floor(4.0 * f + 0.5);    /* -2 .. 2 */
    const double x = 6.283185307179586 * (f - 0.25 * q);
    const double x2 = x * x;
    double cc = 1.0, ss = 1.0;
    for (int k = 8; k >= 1; k--) {
        cc = 1.0 - x2 / (double)((2 * k - 1) * (2 * k)) * cc;
        ss = 1.0 - x2 / (double)((2 * k) * (2 * k + 1)) * ss;
    }
    ss *= x;
    const int quarter = ((int)q + 4) % 4;
    *c = quarter == 0 ? cc : quarter == 1 ? -ss : quarter == 2 ? -cc : ss;
    *s = quarter == 0 ? ss : quarter == 1 ? cc : quarter == 2 ? -ss : -cc;
}

/* The profile factor at point (x, y, z) (box coordinates) and time t (steps). */
TESS_HD TESS_INLINE double tess_womersley_shape(const tess_womersley_t *w, double x, double y, double z, double t)
{
    const double d[3] = {x - w->centre[0], y - w->centre[1], z - w->centre[2]};
    const double ax = d[0] * w->normal[0] + d[1] * w->normal[1] + d[2] * w->normal[2];
    double q = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - ax * ax) * w->inv_r2;
    if (!(q < 1.0))
        return 0.0;
    q = q > 0.0 ? q : 0.0;
    const double pos = q * (double)(TESS_WOMERSLEY_POINTS - 1);
    int j = (int)pos;
    j = j < TESS_WOMERSLEY_POINTS - 2 ? j : TESS_WOMERSLEY_POINTS - 2;
    const double f = pos - (double)j;
    double v = w->a[0][j][0] + f * (w->a[0][j + 1][0] - w->a[0][j][0]);
    if (w->nmodes > 1) {
        const double turns = (t - w->t0) / w->period;
        double c1, s1;
        tess_womersley_cis(turns - floor(turns), &c1, &s1);
        double c = c1, s = s1;
        for (int n = 1; n < w->nmodes; n++) {
            const double re = w->a[n][j][0] + f * (w->a[n][j + 1][0] - w->a[n][j][0]);
            const double im = w->a[n][j][1] + f * (w->a[n][j + 1][1] - w->a[n][j][1]);
            v += re * c - im * s;
            const double cn = c * c1 - s * s1;
            s = s * c1 + c * s1;
            c = cn;
        }
    }
    return v;
}

#endif
