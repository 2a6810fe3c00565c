/* The analysis outputs of `tessera run` (docs/outputs.md): wall shear stress (wss_<step>.vti), time averages
 * (average_<step>.vti, average.restart next to restart.tsr) and probes (probe_NAME.csv, line_NAME.csv), from the
 * dense fields and the canonical populations of the stored state on the host, so they work on every backend.
 * The run calls tess_analysis_event at every step it stops at and stops at tess_analysis_next. */
#ifndef TESS_ANALYSIS_H
#define TESS_ANALYSIS_H

#include "tess_case.h"
#include "tess_sim.h"

typedef struct tess_analysis tess_analysis_t;

/* *out is NULL when the case asks for no analysis. restart: the restart file the run continues from, or NULL
 * (then the time averages continue from average.restart in its folder, and the probe files keep their earlier
 * rows). out_dir receives the files. The AA pattern needs even sampling steps (TESS_ERR_INPUT naming the key). */
tess_status tess_analysis_create(const tess_case_t *c, tess_sim_t *sim, const char *out_dir, const char *restart,
                                 tess_analysis_t **out, tess_error_t *err);
void tess_analysis_free(tess_analysis_t *a);
/* Writes wss_<step> and average_<step> in pieces per rank over these point extents, as the field files
 * (tess_field_output_pieces; the array stays the caller's), or as single files with NULL. */
void tess_analysis_pieces(tess_analysis_t *a, const int32_t (*ext)[6]);

/* Whether tess_analysis_event reads the dense fields it is given (0: a distributed run's analysis reads every
 * rank's own tiles, and rho and u may be NULL). */
int tess_analysis_dense(const tess_analysis_t *a);

/* The next step after `step` at which the analysis samples (LONG_MAX when never). */
long tess_analysis_next(const tess_analysis_t *a, long step);

/* Everything due at `step`: samples (averages, probes), and on output steps wss_<step>.vti and
 * average_<step>.vti, on output, checkpoint and final steps the probe files, on checkpoint steps
 * average.restart. rho and u are the run's dense field buffers (nx ny nz and 3 nx ny nz): have_fields says they
 * hold this step's fields already; otherwise they are filled when needed. */
tess_status tess_analysis_event(tess_analysis_t *a, long step, int output, int checkpoint, int final, double *rho,
                                double *u, int have_fields, tess_error_t *err);

#endif
