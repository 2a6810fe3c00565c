/* The GPU analysis kernels (tile paper section 4.1) against exact expectations, in both precisions, after one step from a random state of the mixed-boundary case:
 *  - read/write only: every wet node holds exactly its previous populations;
 *  - propagation only: f_i(x) = f_i(x - c_i) where x - c_i is wet, else tess_bounce_back of the node's own
 *    f_opp(i) with the upstream material (the CPU reference's gather rule), with no collision.
 * Plain links move values without arithmetic, so they must match bitwise; a moving-wall link adds one product,
 * which a fused multiply-add may round once differently: 2 ulp of 1/3 is the bound there. */
#include "tess_layout.h"
#include "tess_physics.h"
#include "tess_state.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const tess_backend_ops_t TESS_TEST_GPU_OPS;

static double get(const void *a, tess_precision prec, int64_t j)
{
    return prec == TESS_PRECISION_SINGLE ? (double)((const float *)a)[j] : ((const double *)a)[j];
}

int main(void)
{
    static const int cx[19] = TESS_D3Q19_CX, cy[19] = TESS_D3Q19_CY, cz[19] = TESS_D3Q19_CZ;
    const tess_backend_ops_t *ops = &TESS_TEST_GPU_OPS;
    int first = 1;
    for (int prec_i = 0; prec_i < 2; prec_i++)
        {
            for (int variant = TESS_KERNEL_PROPAGATION_ONLY; variant <= TESS_KERNEL_READ_WRITE_ONLY; variant++) {
                const tess_precision prec = (tess_precision)prec_i;
                const double ulp = prec == TESS_PRECISION_SINGLE ? 2.98e-8 : 5.55e-17; /* ulp of 1/3 */
                tess_geometry_t g;
                tess_params_t p;
                tess_tiling_t t;
                tess_error_t err = {0};
                tess_test_mixed_case(&g, &p, TESS_COLLISION_LBGK, TESS_FLUID_INCOMPRESSIBLE, 3);
                if (tess_tiling_build(&t, &g, &p, &err) != TESS_OK) {
                    printf("FAIL %s\n", err.msg);
                    return 1;
                }
                void *in = tess_test_random_state(&t, &p, prec, 9);
                void *out = malloc(tess_state_count(&t) * tess_precision_size(prec));
                tess_backend_config_t cfg = {0};
                cfg.precision = prec;
                cfg.variant = (tess_kernel_variant)variant;
                tess_backend_t *be = NULL;
                tess_status s = ops->create(&cfg, &be, &err);
                if (s != TESS_OK && first && err.code == TESS_ERR_DEVICE) {
                    printf("SKIPPED: GPU backend unusable here: %s\n", err.msg);
                    return 77;
                }
                first = 0;
                if (s == TESS_OK)
                    s = ops->upload_geometry(be, &t, &err);
                if (s == TESS_OK)
                    s = ops->initialise(be, &p, in, &err);
                if (s == TESS_OK)
                    s = ops->step(be, 1, &err);
                if (s == TESS_OK)
                    s = ops->download_populations(be, out, &err);
                if (be)
                    ops->destroy(be);
                if (s != TESS_OK) {
                    printf("FAIL %s\n", err.msg);
                    return 1;
                }
                double worst_plain = 0.0, worst_wall = 0.0;
                for (int z = 0; z < t.nz; z++)
                    for (int y = 0; y < t.ny; y++)
                        for (int x = 0; x < t.nx; x++) {
                            if (!tess_kind_is_wet(p.mat[tess_tiling_node_type_at(&t, x, y, z)].kind))
                                continue;
                            for (int i = 0; i < 19; i++) {
                                const int64_t j = tess_test_pop_index(&t, x, y, z, i);
                                double want;
                                int wall = 0;
                                if (variant == TESS_KERNEL_READ_WRITE_ONLY) {
                                    want = get(in, prec, j);
                                } else {
                                    const uint8_t up = tess_tiling_node_type_at(&t, x - cx[i], y - cy[i], z - cz[i]);
                                    if (tess_kind_is_wet(p.mat[up].kind)) {
                                        want = get(in, prec, tess_test_pop_index(&t, x - cx[i], y - cy[i], z - cz[i], i));
                                    } else {
                                        const double own = get(in, prec, tess_test_pop_index(&t, x, y, z, TESS_D3Q19_OPP(i)));
                                        wall = p.mat[up].kind == TESS_NODE_WALL;
                                        want = prec == TESS_PRECISION_SINGLE
                                                   ? (double)tess_bounce_back_f32(i, (float)own, &p.mat[up])
                                                   : tess_bounce_back_f64(i, own, &p.mat[up]);
                                    }
                                }
                                const double d = fabs(get(out, prec, j) - want);
                                double *w = wall ? &worst_wall : &worst_plain;
                                if (!(d <= *w))
                                    *w = d;
                            }
                        }
                char what[200];
                snprintf(what, sizeof what, "%s %s: plain links", tess_precision_name(prec),
                         variant == TESS_KERNEL_READ_WRITE_ONLY ? "read/write only" : "propagation only");
                tess_test_close(what, worst_plain, 0.0, 0.0);
                if (variant == TESS_KERNEL_PROPAGATION_ONLY) {
                    snprintf(what, sizeof what, "%s propagation only: moving-wall links", tess_precision_name(prec));
                    tess_test_close(what, worst_wall, 0.0, 2 * ulp);
                }
                free(in);
                free(out);
                tess_tiling_free(&t);
                tess_geometry_free(&g);
            }
        }
    return tess_test_result("test_gpu_variants");
}
