/* Waveforms: a periodic function of time given as a table of (time, value) rows, linearly interpolated, that
 * scales the prescribed value of an inlet or outlet (tess_inlet.h; docs/case-format.md, "Time-dependent inlets
 * and outlets"). The table is the user's rows themselves (core/case/tess_waveform_csv.c reads them), not a
 * resampling, so that the value at a row's time is that row's value exactly. The tables live in tess_params_t,
 * which a GPU backend keeps in constant memory: TESS_MAX_WAVEFORMS tables of at most TESS_WAVEFORM_ROWS rows.
 *
 * Periodicity: the period is T = t[n - 1] - t[0], and the last row closes it (its value equals the first row's,
 * which the reader checks); time s stands for t[0] + ((s - t[0]) mod T). Every node evaluates the same
 * expression with the same operations, so the CPU and the GPU compute the same bits. */
#ifndef TESS_WAVEFORM_H
#define TESS_WAVEFORM_H

#include "tess_config.h"
#include <math.h>
#include <stdint.h>

#define TESS_MAX_WAVEFORMS 4
#define TESS_WAVEFORM_ROWS 256

typedef struct {
    int32_t n;   /* rows, 2 .. TESS_WAVEFORM_ROWS; t strictly increasing */
    int32_t pad;
    double t[TESS_WAVEFORM_ROWS]; /* time in time steps */
    double v[TESS_WAVEFORM_ROWS]; /* the factor at that time */
} tess_waveform_t;

/* The waveform's value at time s (time steps): linear interpolation between the rows around s after folding s
 * into [t[0], t[0] + T). */
TESS_HD TESS_INLINE double tess_waveform_value(const tess_waveform_t *w, double s)
{
    const double t0 = w->t[0], period = w->t[w->n - 1] - t0;
    double r = s - t0;
    r -= period * floor(r / period);
    if (!(r >= 0.0 && r < period)) /* rounding at the ends of the period */
        r = 0.0;
    const double at = t0 + r;
    int lo = 0, hi = w->n - 1; /* invariant: t[lo] <= at < t[hi] */
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (w->t[mid] <= at)
            lo = mid;
        else
            hi = mid;
    }
    const double a = (at - w->t[lo]) / (w->t[hi] - w->t[lo]);
    return w->v[lo] + a * (w->v[hi] - w->v[lo]);
}

#endif
