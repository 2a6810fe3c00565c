/* Bessel functions J0 and J1 of complex argument, for the Womersley profile (host only). Scaled by e^(i z), which
 * keeps them finite where |J(z)| grows like e^(Im z): the ratios the profile needs, J0(z s) / J0(z), follow as
 * tess_bessel_j0s(z s) / tess_bessel_j0s(z) times e^(i z (1 - s)), and no overflow occurs however large z is.
 *
 * |z| <= 17: the power series J0(z) = sum_k (-z^2/4)^k / (k!)^2 and J1(z) = (z/2) sum_k (-z^2/4)^k / (k! (k+1)!)
 * (Abramowitz & Stegun 1964, eq. 9.1.10), summed until a term is below 1e-17 of the sum; beyond, Hankel's
 * asymptotic expansion (A&S 9.2.5-9.2.10) J_nu(z) = sqrt(2 / (pi z)) (P cos chi - Q sin chi), chi = z - (nu/2 + 1/4)
 * pi, summed to its smallest term (e^(-2|z|), 2e-15 at |z| = 17); at arg z = 3 pi / 4, past the expansion's
 * Stokes line, the exponentially small part e^(-2 Im z) relative (5e-13 at |z| = 20) is beyond what it determines,
 * so the relative error there is about 1e-12. For Im z >= 0 (the Womersley argument i^(3/2) alpha r / R has arg
 * 3 pi / 4); on the real axis near |z| = 17 the series loses up to 7 digits. */
#ifndef TESS_BESSEL_H
#define TESS_BESSEL_H

#include <complex.h>

/* J0(z) e^(i z) and J1(z) e^(i z), Im z >= 0. */
double complex tess_bessel_j0s(double complex z);
double complex tess_bessel_j1s(double complex z);

#endif
