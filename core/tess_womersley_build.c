#include "tess_womersley_build.h"
#include "tess_bessel.h"
#include <math.h>
#include <string.h>

#define WB_PI 3.14159265358979323846
#define WB_SERIES_MAX 17.0

void tess_womersley_fourier(const tess_waveform_t *w, int n, double complex *c)
{
    const double t0 = w->t[0], T = w->t[w->n - 1] - t0;
    double mean = 0.0;
    for (int j = 0; j + 1 < w->n; j++)
        mean += 0.5 * (w->v[j] + w->v[j + 1]) * (w->t[j + 1] - w->t[j]);
    c[0] = mean / T;
    /* Per segment of slope g: int v e^(-iks) ds = [v e^(-iks) / (-ik)] + (g / k^2) [e^(-iks)]; the first terms
     * cancel around the closed period (the last value is the first, e^(-ikT) = 1). */
    for (int m = 1; m < n; m++) {
        const double k = 2.0 * WB_PI * m / T;
        double complex sum = 0.0;
        for (int j = 0; j + 1 < w->n; j++) {
            const double g = (w->v[j + 1] - w->v[j]) / (w->t[j + 1] - w->t[j]);
            sum += g * (cexp(-I * k * (w->t[j + 1] - t0)) - cexp(-I * k * (w->t[j] - t0)));
        }
        c[m] = 2.0 / T * sum / (k * k);
    }
}

double complex tess_womersley_mode(double alpha, double s)
{
    const double complex L = alpha * (-1.0 + I) / sqrt(2.0); /* i^(3/2) alpha */
    if (alpha <= WB_SERIES_MAX) {
        /* Numerator and denominator as series without their leading 1, so that nothing cancels at small alpha:
         * J0(L) - J0(L s) = sum_{k>=1} x^k (1 - s^(2k)) / (k!)^2, J0(L) - 2 J1(L) / L = sum_{k>=1} x^k k / (k! (k+1)!),
         * x = -L^2 / 4. */
        const double complex x = -L * L / 4.0;
        double complex xk = 1.0, num = 0.0, den = 0.0;
        double fk = 1.0, s2k = 1.0; /* k!, s^(2k) */
        for (int k = 1; k < 200; k++) {
            xk *= x;
            fk *= k;
            s2k *= s * s;
            const double complex tn = xk * (1.0 - s2k) / (fk * fk), td = xk * (double)k / (fk * fk * (k + 1));
            num += tn;
            den += td;
            if (cabs(td) <= 1e-17 * cabs(den) && cabs(tn) <= 1e-17 * cabs(num))
                break;
        }
        return alpha > 0.0 ? num / den : 2.0 * (1.0 - s * s);
    }
    /* Large alpha: the scaled functions (tess_bessel.h); |e^(i L (1 - s))| <= 1. */
    const double complex j0 = tess_bessel_j0s(L);
    const double complex ratio = tess_bessel_j0s(L * s) / j0 * cexp(I * L * (1.0 - s));
    return (1.0 - ratio) / (1.0 - 2.0 * tess_bessel_j1s(L) / (L * j0));
}

double complex tess_womersley_mode_slope(double alpha)
{
    if (alpha <= 0.0)
        return -4.0;
    const double complex L = alpha * (-1.0 + I) / sqrt(2.0);
    if (alpha <= WB_SERIES_MAX) {
        /* d/ds of the numerator series at s = 1: sum_{k>=1} x^k (-2k) / (k!)^2 */
        const double complex x = -L * L / 4.0;
        double complex xk = 1.0, num = 0.0, den = 0.0;
        double fk = 1.0;
        for (int k = 1; k < 200; k++) {
            xk *= x;
            fk *= k;
            const double complex tn = xk * (-2.0 * k) / (fk * fk), td = xk * (double)k / (fk * fk * (k + 1));
            num += tn;
            den += td;
            if (cabs(td) <= 1e-17 * cabs(den) && cabs(tn) <= 1e-17 * cabs(num))
                break;
        }
        return num / den;
    }
    const double complex j0 = tess_bessel_j0s(L), j1 = tess_bessel_j1s(L);
    /* d/ds [1 - J0(L s) / J0(L)] = L J1(L s) / J0(L) */
    return L * j1 / j0 / (1.0 - 2.0 * j1 / (L * j0));
}

double complex tess_womersley_mean_factor(double alpha)
{
    const double complex L = alpha * (-1.0 + I) / sqrt(2.0);
    return alpha > 0.0 ? 1.0 - 2.0 * tess_bessel_j1s(L) / (L * tess_bessel_j0s(L)) : 0.0;
}

double tess_womersley_build(tess_womersley_t *t, const double centre[3], const double normal[3], double radius,
                            double nu, const tess_waveform_t *wave)
{
    memset(t, 0, sizeof *t);
    memcpy(t->centre, centre, sizeof t->centre);
    memcpy(t->normal, normal, sizeof t->normal);
    t->inv_r2 = 1.0 / (radius * radius);
    double complex c[TESS_WOMERSLEY_MODES] = {1.0};
    t->nmodes = 1;
    if (wave) {
        t->nmodes = TESS_WOMERSLEY_MODES;
        t->t0 = wave->t[0];
        t->period = wave->t[wave->n - 1] - wave->t[0];
        tess_womersley_fourier(wave, t->nmodes, c);
    }
    for (int n = 0; n < t->nmodes; n++) {
        const double alpha = n ? radius * sqrt(2.0 * WB_PI * n / (t->period * nu)) : 0.0;
        for (int j = 0; j < TESS_WOMERSLEY_POINTS; j++) {
            const double complex a = c[n] * tess_womersley_mode(alpha, sqrt(j / (double)(TESS_WOMERSLEY_POINTS - 1)));
            t->a[n][j][0] = creal(a);
            t->a[n][j][1] = cimag(a);
        }
    }
    if (!wave)
        return 0.0;
    double worst = 0.0, peak = 0.0;
    for (int j = 0; j + 1 < wave->n; j++)
        for (int h = 0; h < 2; h++) {
            const double at = h ? 0.5 * (wave->t[j] + wave->t[j + 1]) : wave->t[j];
            double v = 0.0;
            for (int n = 0; n < t->nmodes; n++)
                v += creal(c[n] * cexp(2.0 * WB_PI * I * n * (at - t->t0) / t->period));
            worst = fmax(worst, fabs(v - tess_waveform_value(wave, at)));
            peak = fmax(peak, fabs(wave->v[j]));
        }
    return peak > 0.0 ? worst / peak : 0.0;
}

double tess_womersley_peak(const tess_womersley_t *t)
{
    double peak = 0.0;
    const int phases = t->nmodes > 1 ? 256 : 1;
    for (int k = 0; k < phases; k++)
        for (int j = 0; j < TESS_WOMERSLEY_POINTS; j++) {
            double v = 0.0;
            for (int n = 0; n < t->nmodes; n++) {
                const double th = 2.0 * WB_PI * n * k / phases;
                v += t->a[n][j][0] * cos(th) - t->a[n][j][1] * sin(th);
            }
            peak = fmax(peak, fabs(v));
        }
    return peak;
}
