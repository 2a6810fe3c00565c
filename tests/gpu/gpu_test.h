/* Helpers of the GPU tests (runs through a backend go through tess_test_run_ops): the largest difference of two
 * canonical states over the wet nodes, and the skip rule. Each test defines TESS_TEST_GPU_OPS (the backend under test). */
#ifndef GPU_TEST_H
#define GPU_TEST_H

#include "tess_backend.h"
#include "tess_state.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GT_STR2(x) #x
#define GT_STR(x) GT_STR2(x)

static inline double gt_pop(const void *a, tess_precision prec, size_t j)
{
    return prec == TESS_PRECISION_SINGLE ? (double)((const float *)a)[j] : ((const double *)a)[j];
}

/* Largest difference over the wet nodes' populations of two canonical states, whether every one has the same
 * bits, and (finite, may be NULL) whether the reference b is finite: a diverged reference would make equal NaNs
 * look like agreement. */
static inline double gt_wet_diff(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *a,
                                 const void *b, int *bitwise, int *finite)
{
    const size_t sz = tess_precision_size(prec);
    double worst = 0.0;
    *bitwise = 1;
    if (finite)
        *finite = 1;
    for (int32_t k = 0; k < t->ntiles; k++)
        for (int n = 0; n < 64; n++) {
            if (!tess_kind_is_wet(p->mat[t->node_type[64 * (size_t)k + n]].kind))
                continue;
            for (int i = 0; i < t->q; i++) {
                const size_t j = tess_state_index(t, k, i, n);
                const double d = fabs(gt_pop(a, prec, j) - gt_pop(b, prec, j));
                if (!(d <= worst))
                    worst = d; /* NaN propagates as a failure */
                if (finite && !isfinite(gt_pop(b, prec, j)))
                    *finite = 0;
                if (memcmp((const char *)a + j * sz, (const char *)b + j * sz, sz) != 0)
                    *bitwise = 0;
            }
        }
    return worst;
}

/* A device error on the first GPU run means no usable device: exit 77 (ctest: skipped, never passed). Anything
 * else is a failure. */
static inline int gt_skip_or_fail(const tess_error_t *err, int first)
{
    if (first && err->code == TESS_ERR_DEVICE) {
        printf("SKIPPED: %s backend unusable here: %s\n", GT_STR(TESS_TEST_GPU_OPS), err->msg);
        exit(77);
    }
    printf("FAIL %s\n", err->msg);
    return 1;
}

/* The comparison mode of the build: bitwise in the reproducible build (no FMA contraction on either side), within
 * a tolerance in the fast one. Prints the mode once. */
static inline int gt_want_bits(void)
{
#ifdef TESS_GPU_REPRODUCIBLE
    const int want_bits = 1;
#else
    const int want_bits = 0;
#endif
    printf("mode: %s\n", want_bits ? "reproducible (bitwise)" : "fast (tolerance)");
    return want_bits;
}

/* One GPU-against-CPU check in that mode: bits says whether the states were identical, diff is their largest
 * difference, tol the fast build's tolerance. */
static inline void gt_check(const char *what, int want_bits, int bits, double diff, double tol)
{
    if (want_bits)
        tess_test_true(what, bits);
    else
        tess_test_close(what, diff, 0.0, tol);
}

#endif
