/* The analysis sections of a case file (docs/case-format.md, "Analysis"): [wss], [average], [probe.NAME] and
 * [line.NAME]. Internal to core/case; the values land in tess_case_t.analysis (tess_case.h). */
#ifndef TESS_CASE_ANALYSIS_H
#define TESS_CASE_ANALYSIS_H

#include "tess_case.h"
#include "tess_case_entries.h"

/* Whether a section name is one of these ("wss", "average", "probe.NAME", "line.NAME"). */
int tess_case_analysis_section(const char *section);

/* Reads them into c->analysis; c's domain and physics must be read. Errors name the key (TESS_ERR_INPUT). */
tess_status tess_case_analysis_read(tess_entries_t *es, tess_case_t *c, tess_error_t *err);

#endif
