/* The generic engine on D3Q19 against the tuned D3Q19 kernels (backends/cpu/cpu_ab.c): the mixed case of
 * tests/core (Zou-He inlet and outlet, moving wall, random obstacles, periodic z, body force, padding) from a
 * random state, 30 steps, for each collision model. Both paths call the same core functions for the node
 * (gather, tess_bounce_back / tess_q_bounce_back with the same rational weights, tess_zou_he, the collision that
 * tess_physics_q.h maps to tess_collide_model), so the populations must agree bitwise on every wet node: the
 * check is exact equality (the largest difference is printed). This is what makes the generic engine a safe
 * fallback for D3Q19 cases with curved walls. */
#include "lattice_test.h"
#include "tess_state.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const tess_backend_ops_t tess_backend_cpu;

static tess_status run_generic(const tess_tiling_t *t, const tess_params_t *p, const void *in, int steps, void *out,
                               tess_error_t *err)
{
    tess_backend_config_t cfg = {0};
    cfg.precision = TESS_PRECISION_DOUBLE;
    cfg.pattern = TESS_PATTERN_AB;
    cfg.generic = 1;
    tess_backend_t *be = NULL;
    tess_status s = tess_backend_cpu.create(&cfg, &be, err);
    if (s == TESS_OK)
        s = tess_backend_cpu.upload_geometry(be, t, err);
    if (s == TESS_OK)
        s = tess_backend_cpu.initialise(be, p, in, err);
    if (s == TESS_OK)
        s = tess_backend_cpu.step(be, steps, err);
    if (s == TESS_OK)
        s = tess_backend_cpu.download_populations(be, out, err);
    if (be)
        tess_backend_cpu.destroy(be);
    return s;
}

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
        const size_t n = tess_state_count(&t);
        double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        if (tess_test_run_cpu(&t, &p, TESS_PRECISION_DOUBLE, 0, in, 30, a, &err) != TESS_OK ||
            run_generic(&t, &p, in, 30, b, &err) != TESS_OK) {
            printf("FAIL run: %s\n", err.msg);
            return 1;
        }
        long differ = 0;
        double dmax = 0;
        for (int32_t k = 0; k < t.ntiles; k++)
            for (int node = 0; node < 64; node++) {
                if (!tess_kind_is_wet(p.mat[t.node_type[64 * (size_t)k + node]].kind))
                    continue;
                int bad = 0;
                for (int i = 0; i < 19; i++) {
                    const size_t at = tess_state_index(&t, k, i, node);
                    bad |= memcmp(&a[at], &b[at], sizeof a[at]) != 0;
                    dmax = fmax(dmax, fabs(a[at] - b[at]));
                }
                differ += bad;
            }
        char what[160];
        snprintf(what, sizeof what, "D3Q19 %s, 30 steps: wet nodes where generic and tuned AB differ (largest |diff| %.3g)",
                 names[coll], dmax);
        tess_test_close(what, (double)differ, 0, 0);
        free(a);
        free(b);
        free(in);
        tess_tiling_free(&t);
        tess_geometry_free(&g);
    }
    return tess_test_result("test_q_d3q19");
}
