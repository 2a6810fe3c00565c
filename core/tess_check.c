#include "tess_check.h"
#include <math.h>

int tess_check_fails(const tess_check_t *r, const tess_check_bounds_t *b)
{
    return r->nonfinite > 0 ||
           (r->wet > 0 && !(r->rho_min >= b->rho_min && r->rho_max <= b->rho_max && r->u_max <= b->u_max));
}

void tess_check_fields(const tess_tiling_t *t, const tess_params_t *p, const double *rho, const double *u,
                       tess_check_t *r)
{
    r->rho_min = INFINITY;
    r->rho_max = -INFINITY;
    r->nonfinite = r->wet = 0;
    double u2max = 0.0;
    const size_t n = 64 * (size_t)t->ntiles;
    for (size_t i = 0; i < n; i++) {
        if (!tess_kind_is_wet(p->mat[t->node_type[i]].kind))
            continue;
        r->wet++;
        const double *v = u + 3 * i, u2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        if (!isfinite(rho[i]) || !isfinite(u2)) {
            r->nonfinite++;
            continue;
        }
        r->rho_min = fmin(r->rho_min, rho[i]);
        r->rho_max = fmax(r->rho_max, rho[i]);
        u2max = fmax(u2max, u2);
    }
    r->u_max = sqrt(u2max);
}

int tess_check_locate(const tess_tiling_t *t, const tess_params_t *p, const double *rho, const double *u,
                      const tess_check_bounds_t *b, int at[3], double *bad_rho, double *bad_u)
{
    size_t best = (size_t)-1, best_i = 0;
    const size_t n = 64 * (size_t)t->ntiles;
    for (size_t i = 0; i < n; i++) {
        if (!tess_kind_is_wet(p->mat[t->node_type[i]].kind) || !tess_check_node_bad(b, rho[i], u + 3 * i))
            continue;
        int x, y, z;
        const size_t k = i / 64;
        tess_tiling_local_xyz(t, (int)(i % 64), &x, &y, &z);
        x += t->tile_corner[3 * k];
        y += t->tile_corner[3 * k + 1];
        z += t->tile_corner[3 * k + 2];
        const size_t d = (size_t)x + (size_t)t->nx * ((size_t)y + (size_t)t->ny * z);
        if (d < best) {
            best = d;
            best_i = i;
            at[0] = x;
            at[1] = y;
            at[2] = z;
        }
    }
    if (best == (size_t)-1)
        return 0;
    const double *v = u + 3 * best_i;
    *bad_rho = rho[best_i];
    *bad_u = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    return 1;
}
