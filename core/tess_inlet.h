/* Prescribed velocity of an inlet node, for every backend: uniform (the material's u) or parabolic, u times
 * 4 s (1 - s) for each axis across the plane, s = (x - wall_lo) / (wall_hi - wall_lo) the node's position
 * between the two walls of that axis (the Schaefer-Turek inflow 4 Um y (H - y) / H^2 in 2D, and its 3D form
 * 16 Um y z (H - y) (H - z) / H^4 across a square duct). The case loader (core/case/tess_case_load.c) puts the
 * walls half a node outside the inlet's outermost nodes, where halfway bounce-back has them; axes with
 * wall_lo == wall_hi (the normal's, periodic and one-node-thick ones) do not shape the profile. */
#ifndef TESS_INLET_H
#define TESS_INLET_H

#include "tess_config.h"
#include "tess_params.h"

TESS_HD TESS_INLINE void tess_inlet_velocity(const tess_material_t *m, int x, int y, int z, double u[3])
{
    double shape = 1.0;
    if (m->profile == TESS_PROFILE_PARABOLIC) {
        const double at[3] = {(double)x, (double)y, (double)z};
        for (int a = 0; a < 3; a++) {
            const double span = m->wall_hi[a] - m->wall_lo[a];
            if (span > 0.0) {
                const double s = (at[a] - m->wall_lo[a]) / span;
                shape *= s > 0.0 && s < 1.0 ? 4.0 * s * (1.0 - s) : 0.0;
            }
        }
    }
    for (int a = 0; a < 3; a++)
        u[a] = shape * m->u[a];
}

#endif
