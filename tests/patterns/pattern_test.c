#include "pattern_test.h"
#include "tess_layout.h"
#include <math.h>
#include <string.h>

extern const tess_backend_ops_t tess_backend_cpu;

tess_status tess_pattern_run(tess_pattern_run_t *r, const tess_tiling_t *t, const tess_params_t *p, const void *pops_in,
                             int nsteps, void *pops_out, tess_error_t *err)
{
    tess_backend_config_t cfg = {0};
    cfg.precision = r->precision;
    cfg.pattern = r->pattern;
    cfg.variant = TESS_KERNEL_FULL;
    cfg.threads = r->threads;
    cfg.mr_layer = r->mr_layer;
    return tess_test_run_ops(&tess_backend_cpu, &cfg, t, p, pops_in, nsteps, pops_out, &r->bytes, err);
}

int64_t tess_pattern_compare(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *a,
                             const void *b, double *max_rel)
{
    int64_t differ = 0;
    double worst = 0.0;
    for (int32_t k = 0; k < t->ntiles; k++)
        for (unsigned z = 0; z < 4; z++)
            for (unsigned y = 0; y < 4; y++)
                for (unsigned x = 0; x < 4; x++) {
                    if (!tess_kind_is_wet(p->mat[t->node_type[64 * (size_t)k + tess_layout_xyz(x, y, z)]].kind))
                        continue;
                    for (int i = 0; i < 19; i++) {
                        const size_t at = ((size_t)k * 19 + i) * 64 + tess_layout_offset(i, x, y, z, 0);
                        double va, vb;
                        if (prec == TESS_PRECISION_SINGLE) {
                            va = ((const float *)a)[at];
                            vb = ((const float *)b)[at];
                            differ += memcmp((const float *)a + at, (const float *)b + at, sizeof(float)) != 0;
                        } else {
                            va = ((const double *)a)[at];
                            vb = ((const double *)b)[at];
                            differ += memcmp((const double *)a + at, (const double *)b + at, sizeof(double)) != 0;
                        }
                        const double rel = fabs(va - vb) / fmax(fabs(vb), 1e-300);
                        if (!(rel <= worst)) /* NaN propagates as the worst */
                            worst = isnan(rel) ? INFINITY : rel;
                    }
                }
    *max_rel = worst;
    return differ;
}
