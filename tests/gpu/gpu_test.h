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

/* Largest difference over the wet nodes' populations of two canonical states, whether every one has the same
 * bits, and (finite, may be NULL) whether the reference b is finite (tess_test_wet_diff). */
static inline double gt_wet_diff(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *a,
                                 const void *b, int *bitwise, int *finite)
{
    return tess_test_wet_diff(t, p, prec, a, b, bitwise, finite, NULL);
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
