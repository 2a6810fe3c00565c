/* Waveform files of time-dependent inlets and outlets (docs/case-format.md, "Time-dependent inlets and
 * outlets"): a CSV of time and value rows read into a tess_waveform_t (core/tess_waveform.h). Internal to
 * core/case. */
#ifndef TESS_WAVEFORM_CSV_H
#define TESS_WAVEFORM_CSV_H

#include "tess_error.h"
#include "tess_waveform.h"

/* Reads path: one row per line, two numbers (time in time steps, value) separated by a comma, a semicolon or
 * blanks; `#` starts a comment; blank lines are skipped; the first row may be a header (a first field that is not
 * a number). Times must increase strictly, values be finite, 2..TESS_WAVEFORM_ROWS rows, and the last row must
 * close the period (its value equal to the first row's: the waveform repeats with period t_last - t_first).
 * Errors: TESS_ERR_INPUT (also for a file that cannot be opened; TESS_ERR_IO for a read error), with one line
 * "<origin>: <path>:<line>: what was expected, what was found" (origin names the case key, e.g.
 * "case.ini:14: key 'waveform' in [inlet.in]"). */
tess_status tess_waveform_csv_read(const char *path, const char *origin, tess_waveform_t *w, tess_error_t *err);

/* Largest |value| of the table (for the case's Mach warning). */
double tess_waveform_max_abs(const tess_waveform_t *w);

#endif
