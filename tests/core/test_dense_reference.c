/* The tiled CPU backend against the plain dense reference (tess_dense_reference.c) on a random sparse box
 * with moving walls, Zou-He inlet and outlet, periodic z and a body force: both precisions, LBGK and MRT,
 * both fluid models. Both run the same core per-node functions in the same order with contraction off, so
 * the tolerance is zero: every population of every wet node must be bitwise identical after 30 steps. */
#include "tess_dense_reference.h"
#include "tess_state.h"
#include "tess_test.h"
#include <stdio.h>
#include <stdlib.h>

#define STEPS 30

static void compare(int collision, int fluid, tess_precision prec)
{
    tess_geometry_t g;
    tess_params_t p;
    tess_test_mixed_case(&g, &p, collision, fluid, 17);
    tess_tiling_t t;
    tess_error_t err;
    if (!tess_test_true("mixed case tiles", tess_tiling_build(&t, &g, &p, &err) == TESS_OK))
        return;
    const size_t sz = tess_precision_size(prec), n = (size_t)g.nx * g.ny * g.nz;
    void *pops = tess_test_random_state(&t, &p, prec, 5);
    void *out = malloc(tess_state_count(&t) * sz);
    void *d0 = malloc(19 * n * sz), *d1 = malloc(19 * n * sz);
    tess_dense_from_canonical(&t, &p, prec, pops, d0);
    for (int s = 0; s < STEPS; s++) {
        if (prec == TESS_PRECISION_SINGLE)
            tess_dense_step_f32(&g, &p, d0, d1);
        else
            tess_dense_step_f64(&g, &p, d0, d1);
        void *tmp = d0;
        d0 = d1;
        d1 = tmp;
    }
    tess_status s = tess_test_run_cpu(&t, &p, prec, 2, pops, STEPS, out, &err);
    char what[400], first[200];
    if (s != TESS_OK)
        printf("     %s\n", err.msg);
    if (tess_test_true("cpu backend runs", s == TESS_OK)) {
        const long nd = tess_dense_compare(&t, &p, prec, out, d0, first, sizeof first);
        snprintf(what, sizeof what, "%s %s %s: %ld of %lld wet populations differ from the dense reference%s%s",
                 collision == TESS_COLLISION_MRT ? "MRT" : "LBGK",
                 fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? "quasi-compressible" : "incompressible",
                 tess_precision_name(prec), nd, 19 * (long long)t.n_wet, nd ? "; first: " : "", first);
        tess_test_true(what, nd == 0);
    }
    free(pops);
    free(out);
    free(d0);
    free(d1);
    tess_tiling_free(&t);
    tess_geometry_free(&g);
}

int main(void)
{
    for (int prec = 0; prec < 2; prec++)
        for (int collision = 0; collision < 2; collision++)
            for (int fluid = 0; fluid < 2; fluid++)
                compare(collision, fluid, (tess_precision)prec);
    return tess_test_result("test_dense_reference");
}
