/* Helpers of the pattern tests: run the CPU backend with a given pattern, compare canonical states on wet nodes. */
#ifndef TESS_PATTERN_TEST_H
#define TESS_PATTERN_TEST_H

#include "tess_test.h"

typedef struct {
    tess_pattern pattern;
    tess_precision precision;
    int threads;
    int mr_layer;
    size_t bytes;        /* out: bytes_allocated */
} tess_pattern_run_t;

/* Initialise from pops_in, advance nsteps, download into pops_out (canonical). */
tess_status tess_pattern_run(tess_pattern_run_t *r, const tess_tiling_t *t, const tess_params_t *p, const void *pops_in,
                             int nsteps, void *pops_out, tess_error_t *err);

/* Over the wet nodes: number of populations whose bits differ, and the largest relative difference. */
int64_t tess_pattern_compare(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *a,
                             const void *b, double *max_rel);

#endif
