/* The host side of the Womersley inlet (tess_womersley.h): the Fourier modes of a waveform table and the profile
 * tables built from them at case load (docs/case-format.md, "Inlet velocity profiles", has the formulas). */
#ifndef TESS_WOMERSLEY_BUILD_H
#define TESS_WOMERSLEY_BUILD_H

#include "tess_waveform.h"
#include "tess_womersley.h"
#include <complex.h>

/* The modes c_0 .. c_{n-1} of waveform w (its linear interpolation, exactly): w(t) = sum_n Re{c_n e^(i n 2 pi
 * (t - t0) / T)} over all n, c_0 the mean, c_n = (2 / T) int_0^T w(t0 + s) e^(-i n 2 pi s / T) ds. */
void tess_womersley_fourier(const tess_waveform_t *w, int n, double complex *c);

/* The profile of one mode with unit mean over the disc, at s = r / R, Womersley number alpha = R sqrt(omega / nu):
 * phi(s) = [1 - J0(L s) / J0(L)] / [1 - 2 J1(L) / (L J0(L))], L = i^(3/2) alpha; alpha 0: 2 (1 - s^2). */
double complex tess_womersley_mode(double alpha, double s);

/* dphi/ds at the wall (s = 1) of the same profile (the wall shear stress is -mu (U / R) dphi/ds); alpha 0: -4. */
double complex tess_womersley_mode_slope(double alpha);

/* The mean of 1 - J0(L s) / J0(L) over the disc, 1 - 2 J1(L) / (L J0(L)): the pressure gradient A cos(omega t)
 * drives the mean velocity Re{A / (i omega) D e^(i omega t)} and the profile Re{A / (i omega) D phi(s) e^(i omega
 * t)} (Womersley 1955, eq. 8). */
double complex tess_womersley_mean_factor(double alpha);

/* Fills t for the opening of centre `centre`, axis `normal` (unit), radius R (lattice units), the lattice viscosity
 * nu and the waveform `wave` (NULL: steady, the Poiseuille profile of mean 1). Returns the largest difference
 * between the waveform and its first TESS_WOMERSLEY_MODES modes at the table's rows and between them, relative to
 * the largest |value| (0 when steady): how far the inlet's flow rate departs from the file. */
double tess_womersley_build(tess_womersley_t *t, const double centre[3], const double normal[3], double radius,
                            double nu, const tess_waveform_t *wave);

/* The largest |shape| over the table's samples and 256 phases of the period (for the case's Mach warning). */
double tess_womersley_peak(const tess_womersley_t *t);

#endif
