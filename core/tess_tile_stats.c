#include "tess_tile_stats.h"
#include <math.h>

void tess_tile_stats(const tess_tiling_t *t, int32_t ntiles, const tess_params_t *p, const double *rho,
                     const double *u, const double *u_prev, double *part)
{
    for (int32_t k = 0; k < ntiles; k++) {
        double sum = 0.0, wet = 0.0, u2max = 0.0, num = 0.0, den = 0.0;
        for (int l = 0; l < 64; l++) {
            const size_t n = 64 * (size_t)k + (size_t)l;
            if (!tess_kind_is_wet(p->mat[t->node_type[n]].kind))
                continue;
            const double *v = u + 3 * n;
            const double u2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
            sum += rho[n];
            wet += 1.0;
            if (u2 > u2max)
                u2max = u2;
            for (int a = 0; a < 3 && u_prev; a++) {
                const double d = v[a] - u_prev[3 * n + (size_t)a];
                num += d * d;
                den += v[a] * v[a];
            }
        }
        double *o = part + (size_t)TESS_TILE_STATS_N * (size_t)k;
        o[0] = sum;
        o[1] = wet;
        o[2] = u2max;
        o[3] = num;
        o[4] = den;
    }
}

void tess_tile_stats_combine(const double *part, int32_t ntiles, int have_prev, tess_tile_stats_t *s)
{
    double sum = 0.0, wet = 0.0, u2max = 0.0, num = 0.0, den = 0.0;
    for (int32_t k = 0; k < ntiles; k++) {
        const double *o = part + (size_t)TESS_TILE_STATS_N * (size_t)k;
        sum += o[0];
        wet += o[1];
        if (o[2] > u2max)
            u2max = o[2];
        num += o[3];
        den += o[4];
    }
    s->mean_rho = wet > 0.0 ? sum / wet : 0.0;
    s->max_u = sqrt(u2max);
    s->du_rel = !have_prev ? NAN : den > 0.0 ? sqrt(num / den) : (num > 0.0 ? INFINITY : 0.0);
}
