/* Prescribed velocity of an inlet node, for every backend: uniform (the material's u) or parabolic, u times
 * 4 s (1 - s) for each axis across the plane, s = (x - wall_lo) / (wall_hi - wall_lo) the node's position
 * between the two walls of that axis (the Schaefer-Turek inflow 4 Um y (H - y) / H^2 in 2D, and its 3D form
 * 16 Um y z (H - y) (H - z) / H^4 across a square duct). The case loader (core/case/tess_case_load.c) puts the
 * walls half a node outside the inlet's outermost nodes, where halfway bounce-back has them; axes with
 * wall_lo == wall_hi (the normal's, periodic and one-node-thick ones) do not shape the profile. Womersley: u is the
 * mean velocity over the circular opening and the node takes u times tess_womersley_shape (tess_womersley.h), which
 * carries the waveform itself (its Fourier modes), so the waveform factor below is not applied on top.
 *
 * Time-dependent inlets and outlets: a material with a waveform (tess_waveform.h) has its value scaled by the
 * waveform's value w at the step being computed: an inlet node takes w times the velocity above, an outlet the
 * density 1 + w (rho - 1), i.e. the pressure p - p_ref = (rho - 1) / 3 relative to the reference density 1
 * times w. Without a waveform the values are the material's own, bit for bit. */
#ifndef TESS_INLET_H
#define TESS_INLET_H

#include "tess_config.h"
#include "tess_params.h"

/* The waveform factor of material m at step (1 when m has none). */
TESS_HD TESS_INLINE double tess_inlet_factor(const tess_params_t *p, const tess_material_t *m, int64_t step)
{
    return m->waveform > 0 ? tess_waveform_value(&p->wave[m->waveform - 1], (double)step) : 1.0;
}

/* Velocity of inlet node (x, y, z) (box coordinates) of material m at step. */
TESS_HD TESS_INLINE void tess_inlet_velocity(const tess_params_t *p, const tess_material_t *m, int x, int y, int z,
                                             int64_t step, double u[3])
{
    double shape = 1.0;
    if (m->profile == TESS_PROFILE_WOMERSLEY && m->womersley > 0) {
        shape = tess_womersley_shape(&p->wom[m->womersley - 1], (double)x, (double)y, (double)z, (double)step);
        for (int a = 0; a < 3; a++)
            u[a] = shape * m->u[a];
        return;
    }
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
    if (m->waveform > 0) {
        const double w = tess_inlet_factor(p, m, step);
        for (int a = 0; a < 3; a++)
            u[a] *= w;
    }
}

/* Density of outlet material m at step. */
TESS_HD TESS_INLINE double tess_outlet_density(const tess_params_t *p, const tess_material_t *m, int64_t step)
{
    return m->waveform > 0 ? 1.0 + tess_inlet_factor(p, m, step) * (m->rho - 1.0) : m->rho;
}

#endif
