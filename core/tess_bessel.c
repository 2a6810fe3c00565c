#include "tess_bessel.h"
#include <math.h>

#define BESSEL_SERIES_MAX 17.0
#define BESSEL_PI 3.14159265358979323846

/* sum_k (-z^2/4)^k / (k! (k + nu)!), nu = 0 or 1. */
static double complex series(int nu, double complex z)
{
    const double complex q = -z * z / 4.0;
    double complex term = 1.0, sum = 1.0;
    for (int k = 1; k < 200; k++) {
        term *= q / ((double)k * (double)(k + nu));
        sum += term;
        if (cabs(term) <= 1e-17 * cabs(sum))
            break;
    }
    return sum;
}

/* J_nu(z) e^(i z) from Hankel's expansion: cos chi e^(i z) and sin chi e^(i z) written with e^(2 i z), which is
 * small for Im z > 0. */
static double complex asymptotic(int nu, double complex z)
{
    const double mu = 4.0 * nu * nu;
    double complex p = 0.0, q = 0.0, term = 1.0;
    double last = INFINITY;
    for (int k = 0; k < 200; k++) {
        /* term_k = prod_{j=1..k} (mu - (2j - 1)^2) / (k! (8 z)^k) */
        if (k > 0)
            term *= (mu - (2.0 * k - 1.0) * (2.0 * k - 1.0)) / ((double)k * 8.0 * z);
        const double size = cabs(term);
        if (size > last || size < 1e-18)
            break; /* the series diverges past its smallest term */
        last = size;
        const int sgn = (k / 2) % 2 ? -1 : 1;
        if (k % 2 == 0)
            p += sgn * term;
        else
            q += sgn * term;
    }
    const double complex chi0 = (nu / 2.0 + 0.25) * BESSEL_PI; /* chi = z - chi0 */
    const double complex e2 = cexp(2.0 * I * z - I * chi0), em = cexp(I * chi0);
    /* cos chi e^(iz) = (e^(2iz - i chi0) + e^(i chi0)) / 2, sin chi e^(iz) = (e^(2iz - i chi0) - e^(i chi0)) / (2i) */
    const double complex c = 0.5 * (e2 + em), s = (e2 - em) / (2.0 * I);
    return csqrt(2.0 / (BESSEL_PI * z)) * (p * c - q * s);
}

double complex tess_bessel_j0s(double complex z)
{
    if (cabs(z) <= BESSEL_SERIES_MAX)
        return series(0, z) * cexp(I * z);
    return asymptotic(0, z);
}

double complex tess_bessel_j1s(double complex z)
{
    if (cabs(z) <= BESSEL_SERIES_MAX)
        return 0.5 * z * series(1, z) * cexp(I * z);
    return asymptotic(1, z);
}
