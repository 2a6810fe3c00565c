#include "tess_forces.h"
#include "tess_layout.h"
#include "tess_physics.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Canonical index of f_i at local node (x, y, z) of stored tile k. The layout lives in tess_layout.h; D3Q19 is
 * the only lattice whose storage this build has. */
static size_t pop_index(const tess_lattice_t *lat, int32_t k, int i, unsigned x, unsigned y, unsigned z)
{
    return ((size_t)k * (size_t)lat->q + (size_t)i) * TESS_TILE_NODES + tess_layout_offset(i, x, y, z, 0);
}

/* What the boundary returns to the wet node along direction j = opp(i) in the next step, from the node's own
 * outgoing f_i*: the core's bounce-back rule (moving walls add their momentum there), never a second copy.
 * Hook for curved walls: a link of the tiling's link table (q != 1/2) returns the Bouzidi value of
 * core/tess_boundary_q.h instead, which also reads f_i* of the next node upstream. */
static double returning(const tess_lattice_t *lat, int j, double f_out, const tess_material_t *wall)
{
    (void)lat; /* D3Q19 only so far (tess_forces_compute refuses the rest) */
    return tess_bounce_back_f64(j, f_out, wall);
}

tess_status tess_forces_compute(const tess_lattice_t *lat, const tess_tiling_t *t, const tess_geometry_t *g,
                                const tess_params_t *p, const tess_case_forces_t *bodies, tess_precision prec,
                                const void *pops, double *force, tess_error_t *err)
{
    memset(force, 0, 3 * (size_t)bodies->nbody * sizeof *force);
    if (!lat || lat->id != TESS_LATTICE_D3Q19)
        return tess_fail(err, TESS_ERR_UNSUPPORTED, "forces on bodies: lattice %s is not supported yet (D3Q19 only)",
                         lat ? lat->name : "?");
    int body_of[256];
    for (int m = 0; m < 256; m++)
        body_of[m] = -1;
    for (int b = 0; b < bodies->nbody; b++)
        body_of[bodies->material[b]] = b;
    const int n[3] = {g->nx, g->ny, g->nz};
    for (int32_t k = 0; k < t->ntiles; k++)
        for (unsigned l = 0; l < TESS_TILE_NODES; l++) {
            if (!tess_kind_is_wet(p->mat[t->node_type[TESS_TILE_NODES * (size_t)k + l]].kind))
                continue;
            const unsigned x = l & 3u, y = (l >> 2) & 3u, z = l >> 4;
            const int at[3] = {t->tile_corner[3 * k] + (int)x, t->tile_corner[3 * k + 1] + (int)y,
                               t->tile_corner[3 * k + 2] + (int)z};
            for (int i = 0; i < lat->q; i++) {
                int nb[3], inside = 1;
                for (int a = 0; a < 3; a++) {
                    nb[a] = at[a] + lat->c[i][a];
                    if (nb[a] < 0 || nb[a] >= n[a]) {
                        if (g->periodic[a])
                            nb[a] = (nb[a] + n[a]) % n[a];
                        else
                            inside = 0;
                    }
                }
                if (!inside || (lat->c[i][0] == 0 && lat->c[i][1] == 0 && lat->c[i][2] == 0))
                    continue;
                const uint8_t mt = g->type[tess_geometry_index(g, nb[0], nb[1], nb[2])];
                const int b = body_of[mt];
                if (b < 0)
                    continue;
                const size_t idx = pop_index(lat, k, i, x, y, z);
                const double f_out =
                    prec == TESS_PRECISION_SINGLE ? (double)((const float *)pops)[idx] : ((const double *)pops)[idx];
                const double sum = f_out + returning(lat, lat->opp[i], f_out, &p->mat[mt]);
                for (int a = 0; a < 3; a++)
                    force[3 * b + a] += lat->c[i][a] * sum;
            }
        }
    return TESS_OK;
}

void tess_forces_coefficients(const tess_case_forces_t *bodies, const double force[3], double *cd, double *cl)
{
    if (!bodies->coefficients) {
        *cd = *cl = NAN;
        return;
    }
    const double scale = 2.0 / (bodies->ref_density * bodies->ref_velocity * bodies->ref_velocity * bodies->ref_area);
    *cd = force[bodies->drag_axis] * scale;
    *cl = force[bodies->lift_axis] * scale;
}

int tess_forces_columns(const tess_case_forces_t *bodies, char names[][80])
{
    static const char *const what[5] = {"Fx", "Fy", "Fz", "Cd", "Cl"};
    const int per = bodies->coefficients ? 5 : 3;
    int n = 0;
    for (int b = 0; b < bodies->nbody; b++)
        for (int k = 0; k < per; k++)
            snprintf(names[n++], 80, "%s_%s", what[k], bodies->name[b]);
    return n;
}

void tess_forces_values(const tess_case_forces_t *bodies, const double *force, double *values)
{
    int n = 0;
    for (int b = 0; b < bodies->nbody; b++) {
        for (int a = 0; a < 3; a++)
            values[n++] = force[3 * b + a];
        if (bodies->coefficients) {
            tess_forces_coefficients(bodies, force + 3 * b, &values[n], &values[n + 1]);
            n += 2;
        }
    }
}
