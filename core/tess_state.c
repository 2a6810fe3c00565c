#include "tess_state.h"
#include "tess_layout.h"
#include "tess_physics.h"
#include <string.h>

size_t tess_state_count(const tess_tiling_t *t)
{
    return (size_t)t->ntiles * 19 * 64;
}

void tess_state_equilibrium(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, void *pops,
                            double rho0, const double u0[3], const double *rho, const double *u)
{
    for (int32_t k = 0; k < t->ntiles; k++)
        for (unsigned z = 0; z < 4; z++)
            for (unsigned y = 0; y < 4; y++)
                for (unsigned x = 0; x < 4; x++) {
                    const int gx = t->tile_corner[3 * k] + (int)x, gy = t->tile_corner[3 * k + 1] + (int)y,
                              gz = t->tile_corner[3 * k + 2] + (int)z;
                    const uint8_t ty = t->node_type[64 * (size_t)k + tess_layout_xyz(x, y, z)];
                    double r = rho0, v[3] = {u0[0], u0[1], u0[2]};
                    if (!tess_kind_is_wet(p->mat[ty].kind)) {
                        r = 1.0;
                        v[0] = v[1] = v[2] = 0.0;
                    } else if (rho && u && gx < t->nx && gy < t->ny && gz < t->nz) {
                        const size_t d = (size_t)gx + (size_t)t->nx * ((size_t)gy + (size_t)t->ny * gz);
                        r = rho[d];
                        v[0] = u[3 * d];
                        v[1] = u[3 * d + 1];
                        v[2] = u[3 * d + 2];
                    }
                    for (int i = 0; i < 19; i++) {
                        const size_t at = ((size_t)k * 19 + i) * 64 + tess_layout_offset(i, x, y, z, 0);
                        if (prec == TESS_PRECISION_SINGLE) {
                            float feq[19];
                            tess_equilibrium_f32(p->fluid, (float)r, (float)v[0], (float)v[1], (float)v[2], feq);
                            ((float *)pops)[at] = feq[i];
                        } else {
                            double feq[19];
                            tess_equilibrium_f64(p->fluid, r, v[0], v[1], v[2], feq);
                            ((double *)pops)[at] = feq[i];
                        }
                    }
                }
}

void tess_state_fields(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *pops,
                       double *rho, double *u)
{
    for (int32_t k = 0; k < t->ntiles; k++)
        for (unsigned z = 0; z < 4; z++)
            for (unsigned y = 0; y < 4; y++)
                for (unsigned x = 0; x < 4; x++) {
                    const size_t n = 64 * (size_t)k + tess_layout_xyz(x, y, z);
                    if (!tess_kind_is_wet(p->mat[t->node_type[n]].kind)) {
                        rho[n] = 0.0;
                        u[3 * n] = u[3 * n + 1] = u[3 * n + 2] = 0.0;
                        continue;
                    }
                    if (prec == TESS_PRECISION_SINGLE) {
                        float f[19], r, v[3];
                        for (int i = 0; i < 19; i++)
                            f[i] = ((const float *)pops)[((size_t)k * 19 + i) * 64 + tess_layout_offset(i, x, y, z, 0)];
                        tess_macroscopic_f32(p, f, &r, v);
                        rho[n] = r;
                        u[3 * n] = v[0];
                        u[3 * n + 1] = v[1];
                        u[3 * n + 2] = v[2];
                    } else {
                        double f[19];
                        for (int i = 0; i < 19; i++)
                            f[i] = ((const double *)pops)[((size_t)k * 19 + i) * 64 + tess_layout_offset(i, x, y, z, 0)];
                        tess_macroscopic_f64(p, f, &rho[n], &u[3 * n]);
                    }
                }
}

void tess_state_to_dense(const tess_tiling_t *t, const double *tiled, int ncomp, double empty, double *dense)
{
    for (int z = 0; z < t->nz; z++)
        for (int y = 0; y < t->ny; y++)
            for (int x = 0; x < t->nx; x++) {
                const size_t d = (size_t)x + (size_t)t->nx * ((size_t)y + (size_t)t->ny * z);
                const int64_t n = tess_tiling_node_index(t, x, y, z);
                for (int c = 0; c < ncomp; c++)
                    dense[ncomp * d + c] = n < 0 ? empty : tiled[ncomp * (size_t)n + c];
            }
}
