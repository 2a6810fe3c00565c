/* The GPU backend against the CPU reference backend, through the ops tables only: every collision model x
 * fluid model x precision on a case with every boundary kind (bounce-back, moving wall, Zou-He inlet and
 * outlet), with and without the body force, with one and two tiles per block (the engine's tile kernel,
 * backends/gpu/tess_gpu_tile_step.h).
 *
 * Built with TESSERA_REPRODUCIBLE (no FMA contraction on either side) the GPU must give the same bits as the
 * CPU for every wet node. Otherwise contraction changes roundings, and the tolerances below apply (docs/gpu.md
 * records the differences measured). Without a usable device the test exits 77 (ctest: skipped). */
#include "gpu_test.h"
#include "tess_state.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const tess_backend_ops_t TESS_TEST_GPU_OPS;

enum { NSTEPS = 40 };

/* Fast-mode tolerances, absolute on populations of size <= 1/3. A fused multiply-add changes one rounding of
 * an operation by at most one unit in the last place; the node update has a few dozen dependent operations and
 * the scheme is stable (tau 0.7), so per-step differences add rather than grow: NSTEPS * ~10 ulp(1/3) is
 * 40 * 10 * 5.6e-17 = 2e-14 in FP64 and 40 * 10 * 3e-8 = 1.2e-5 in FP32, the bounds used. Measured on an H100
 * (docs/gpu.md): 5.0e-16 and 2.4e-7, 40 and 50 times inside them; a wrong boundary link or a missed node
 * changes populations by ~1e-3, far outside. */
static const double tol_fast[2] = {2e-14, 1.2e-5};





int main(void)
{
    static const char *coll_name[] = {"lbgk", "mrt", "regularized"};
    static const char *fluid_name[] = {"incompressible", "quasi-compressible"};
    int first = 1;
    const int want_bits = gt_want_bits();
    for (int prec_i = 0; prec_i < 2; prec_i++)
        for (int coll = 0; coll < 3; coll++)
            for (int fluid = 0; fluid < 2; fluid++)
                for (int force = 0; force < 2; force++) {
                    const tess_precision prec = (tess_precision)prec_i;
                    tess_geometry_t g;
                    tess_params_t p;
                    tess_tiling_t t;
                    tess_error_t err = {0};
                    tess_test_mixed_case(&g, &p, coll, fluid, 11 + (uint64_t)coll * 2 + (uint64_t)fluid);
                    p.use_force = force;
                    if (tess_tiling_build(&t, &g, &p, &err) != TESS_OK)
                        return gt_skip_or_fail(&err, 0);
                    void *in = tess_test_random_state(&t, &p, prec, 5);
                    const size_t bytes = tess_state_count(&t) * tess_precision_size(prec);
                    void *ref = malloc(bytes), *got = malloc(bytes);
                    if (tess_test_run_cpu(&t, &p, prec, 0, in, NSTEPS, ref, &err) != TESS_OK)
                        return gt_skip_or_fail(&err, 0);
                    {
                        for (int tpb = 1; tpb <= 2; tpb++) {
                            tess_backend_config_t cfg = {0};
                            cfg.precision = prec;
                            cfg.pattern = TESS_PATTERN_AB;
                            cfg.variant = TESS_KERNEL_FULL;
                            cfg.tiles_per_block = tpb;
                            memset(got, 0, bytes);
                            if (tess_test_run_ops(&TESS_TEST_GPU_OPS, &cfg, &t, &p, in, NSTEPS, got, NULL, &err) != TESS_OK)
                                return gt_skip_or_fail(&err, first);
                            first = 0;
                            int bits;
                            const double d = gt_wet_diff(&t, &p, prec, got, ref, &bits, NULL);
                            char what[256];
                            snprintf(what, sizeof what, "%s %s %s force=%d tiles/block=%d: %d steps vs cpu",
                                     tess_precision_name(prec), coll_name[coll], fluid_name[fluid], force, tpb, NSTEPS);
                            gt_check(what, want_bits, bits, d, tol_fast[prec_i]);
                        }
                    }
                    free(in);
                    free(ref);
                    free(got);
                    tess_tiling_free(&t);
                    tess_geometry_free(&g);
                }
    return tess_test_result("test_gpu_vs_cpu");
}
