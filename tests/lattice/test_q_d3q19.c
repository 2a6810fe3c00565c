/* The engine on D3Q19 against the tests' plain dense per-node reference (tests/core/tess_dense_reference.c: nx*ny*nz
 * arrays, pull streaming, no tiles, tess_node_collide per node): the mixed case of tests/core (Zou-He inlet and
 * outlet, moving wall, random obstacles, periodic z, body force, padding) from a random state, 30 steps, for each
 * collision model (LBGK, MRT, regularized), with the AB and the AA pattern. Both paths call the same core
 * functions for the node (the pull, tess_q_bounce_back with the same rational weights, tess_zou_he, the
 * collision), so the populations must agree bitwise on every wet node: the check is exact equality (the largest
 * difference is printed). Until issue 11 this test held the engine against the D3Q19 AB kernel it replaced;
 * the dense reference is what that kernel was itself held to (core.test_dense_reference). */
#include "lattice_test.h"
#include "tess_dense_reference.h"
#include "tess_state.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const tess_backend_ops_t tess_backend_cpu;

int main(void)
{
    static const char *const names[] = {"lbgk", "mrt", "regularized"};
    for (int coll = 0; coll < 3; coll++) {
        tess_geometry_t g;
        tess_params_t p;
        tess_test_mixed_case(&g, &p, coll, TESS_FLUID_INCOMPRESSIBLE, 11);
        tess_tiling_t t;
        tess_error_t err;
        if (tess_tiling_build(&t, &g, &p, &err) != TESS_OK) {
            printf("FAIL tiling: %s\n", err.msg);
            return 1;
        }
        void *in = tess_test_random_state(&t, &p, TESS_PRECISION_DOUBLE, 5);
        const size_t n = tess_state_count(&t), nd = (size_t)g.nx * g.ny * g.nz;
        double *d0 = malloc(19 * nd * sizeof *d0), *d1 = malloc(19 * nd * sizeof *d1);
        tess_dense_from_canonical(&t, &p, TESS_PRECISION_DOUBLE, in, d0);
        for (int s = 0; s < 30; s++) {
            tess_dense_step_f64(&g, &p, d0, d1);
            double *tmp = d0;
            d0 = d1;
            d1 = tmp;
        }
        for (int pat = 0; pat < 2; pat++) {
            double *a = malloc(n * sizeof *a);
            tess_backend_config_t cfg = {0};
            cfg.precision = TESS_PRECISION_DOUBLE;
            cfg.pattern = pat ? TESS_PATTERN_AA : TESS_PATTERN_AB;
            cfg.threads = 2;
            if (tess_test_run_ops(&tess_backend_cpu, &cfg, &t, &p, in, 30, a, NULL, &err) != TESS_OK) {
                printf("FAIL run: %s\n", err.msg);
                return 1;
            }
            char first[200] = "", what[400];
            const long differ = tess_dense_compare(&t, &p, TESS_PRECISION_DOUBLE, a, d0, first, sizeof first);
            snprintf(what, sizeof what,
                     "D3Q19 %s, pattern %s, 30 steps: wet populations where the engine and the dense reference "
                     "differ%s%s",
                     names[coll], pat ? "aa" : "ab", differ ? "; first: " : "", first);
            tess_test_close(what, (double)differ, 0, 0);
            free(a);
        }
        free(d0);
        free(d1);
        free(in);
        tess_tiling_free(&t);
        tess_geometry_free(&g);
    }
    return tess_test_result("test_q_d3q19");
}
