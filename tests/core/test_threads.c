/* The CPU backend gives bitwise identical populations for 1, 2 and 3 threads (cfg.threads) after 25 steps on
 * a random sparse box with a moving wall, Zou-He inlet and outlet and a body force: every node is computed from
 * the previous copy alone with the same operations, so the schedule cannot change a bit. Tolerance: zero
 * (memcmp of the whole canonical state). */
#include "tess_state.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STEPS 25

static void run(int collision, int fluid, tess_precision prec)
{
    tess_geometry_t g;
    tess_params_t p;
    tess_test_mixed_case(&g, &p, collision, fluid, 23);
    tess_tiling_t t;
    tess_error_t err;
    tess_tiling_build(&t, &g, &p, &err);
    const size_t bytes = tess_state_count(&t) * tess_precision_size(prec);
    void *pops = tess_test_random_state(&t, &p, prec, 8);
    void *out[3] = {malloc(bytes), malloc(bytes), malloc(bytes)};
    int ok = 1;
    for (int th = 1; th <= 3; th++) {
        if (tess_test_run_cpu(&t, &p, prec, th, pops, STEPS, out[th - 1], &err) != TESS_OK) {
            printf("     %s\n", err.msg);
            ok = 0;
        }
    }
    const int same2 = ok && memcmp(out[0], out[1], bytes) == 0, same3 = ok && memcmp(out[0], out[2], bytes) == 0;
    const int moved = ok && memcmp(out[0], pops, bytes) != 0;
    char what[200];
    snprintf(what, sizeof what, "%s %s %s, %d tiles, %d steps: 2 threads %s, 3 threads %s to 1 thread",
             collision ? "MRT" : "LBGK", fluid ? "quasi-compressible" : "incompressible", tess_precision_name(prec),
             t.ntiles, STEPS, same2 ? "identical" : "DIFFERENT", same3 ? "identical" : "DIFFERENT");
    tess_test_true(what, same2 && same3 && moved);
    for (int k = 0; k < 3; k++)
        free(out[k]);
    free(pops);
    tess_tiling_free(&t);
    tess_geometry_free(&g);
}

int main(void)
{
    for (int prec = 0; prec < 2; prec++)
        for (int collision = 0; collision < 2; collision++)
            for (int fluid = 0; fluid < 2; fluid++)
                run(collision, fluid, (tess_precision)prec);
    return tess_test_result("test_threads");
}
