/* MR against AB with the regularized collision after 1,000 steps: on the mixed case (random sparse obstacles,
 * bounce-back, moving wall, Zou-He inlet and outlet, body force, periodic z of two tile layers) and on a
 * channel with inlet and outlet along z (periodic x). Both patterns call the same core functions, but MR starts
 * from the moments of the initial populations and rebuilds populations from moments, so round-off enters at
 * the start and may grow: the brief's tolerances are 1e-12 relative (FP64) and 1e-5 (FP32). MR must not
 * depend on how the domain is cut into blocks: one tile column per block (every link crosses an interface)
 * and the cache-sized default give the same bits. MR refuses a collision model other than regularized. */
#include "pattern_cases.h"
#include "pattern_test.h"
#include "tess_state.h"
#include <stdio.h>
#include <stdlib.h>

/* One thread for the long runs (small boxes; the test machine is shared), two for the blocking check. */
static void compare_case(const char *name, const tess_tiling_t *t, const tess_params_t *p, int steps)
{
    for (int prec = 0; prec < 2; prec++) {
        tess_error_t err;
        void *in = tess_test_random_state(t, p, (tess_precision)prec, 5);
        const size_t bytes = tess_state_count(t) * tess_precision_size((tess_precision)prec);
        void *ab = malloc(bytes), *mr = malloc(bytes), *mr1 = malloc(bytes);
        tess_pattern_run_t rab = {TESS_PATTERN_AB, (tess_precision)prec, 1, 0, 0};
        tess_pattern_run_t rmr = {TESS_PATTERN_MR, (tess_precision)prec, 1, 0, 0};
        tess_pattern_run_t rmr1 = {TESS_PATTERN_MR, (tess_precision)prec, 2, 16, 0};
        tess_status s = tess_pattern_run(&rab, t, p, in, steps, ab, &err);
        if (s == TESS_OK)
            s = tess_pattern_run(&rmr, t, p, in, steps, mr, &err);
        if (s == TESS_OK)
            s = tess_pattern_run(&rmr1, t, p, in, steps, mr1, &err);
        char what[200];
        if (s != TESS_OK) {
            printf("FAIL %s: %s\n", name, err.msg);
            tess_test_failures++;
        } else {
            double rel, rel1;
            tess_pattern_compare(t, p, (tess_precision)prec, mr, ab, &rel);
            const double tol = prec ? 1e-5 : 1e-12;
            snprintf(what, sizeof what, "%s, %s, %d steps: largest relative difference MR - AB", name,
                     prec ? "fp32" : "fp64", steps);
            tess_test_close(what, rel, 0.0, tol);
            const int64_t d1 = tess_pattern_compare(t, p, (tess_precision)prec, mr1, mr, &rel1);
            snprintf(what, sizeof what, "%s, %s: MR with 1 tile column per block == MR with the default layer, bitwise (%lld differ)",
                     name, prec ? "fp32" : "fp64", (long long)d1);
            tess_test_true(what, d1 == 0);
        }
        free(in);
        free(ab);
        free(mr);
        free(mr1);
    }
}

int main(void)
{
    tess_geometry_t g;
    tess_params_t p;
    tess_tiling_t t;
    tess_error_t err;
    for (int fluid = 0; fluid < 2; fluid++) {
        tess_test_mixed_case(&g, &p, TESS_COLLISION_REGULARIZED, fluid, 3);
        if (tess_tiling_build(&t, &g, &p, &err) != TESS_OK) {
            printf("FAIL tiling: %s\n", err.msg);
            return 1;
        }
        compare_case(fluid ? "mixed case, quasi-compressible" : "mixed case, incompressible", &t, &p, 1000);
        if (fluid == 0) {
            /* a model MR cannot run */
            p.collision = TESS_COLLISION_LBGK;
            tess_pattern_run_t r = {TESS_PATTERN_MR, TESS_PRECISION_DOUBLE, 1, 0, 0};
            void *in = tess_test_random_state(&t, &p, TESS_PRECISION_DOUBLE, 5);
            const tess_status s = tess_pattern_run(&r, &t, &p, in, 1, NULL, &err);
            printf("     MR with lbgk: %s\n", err.msg);
            tess_test_true("MR refuses LBGK with TESS_ERR_INPUT", s == TESS_ERR_INPUT);
            free(in);
        }
        tess_tiling_free(&t);
        tess_geometry_free(&g);

        tess_pattern_channel(&g, &p, 16, 12, 26, 0.04, 0, fluid, 1);
        if (tess_tiling_build(&t, &g, &p, &err) != TESS_OK) {
            printf("FAIL tiling: %s\n", err.msg);
            return 1;
        }
        compare_case(fluid ? "channel along z, quasi-compressible" : "channel along z, incompressible", &t, &p, 1000);
        tess_tiling_free(&t);
        tess_geometry_free(&g);
    }
    return tess_test_result("test_mr_equals_ab");
}
