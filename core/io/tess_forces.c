#include "tess_forces.h"
#include "tess_boundary_q.h"
#include "tess_physics.h"
#include "tess_state.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Moving-wall momentum 6 w_j rho_w (c_j . u_w) of the lattice, from the core's boundary rules. */
static double wall_term(int lattice, int j, const tess_material_t *wall)
{
    switch (lattice) {
    case TESS_LATTICE_D2Q9: return tess_q_wall_term_d2q9_f64(j, wall);
    case TESS_LATTICE_D3Q13: return tess_q_wall_term_d3q13_f64(j, wall);
    case TESS_LATTICE_D3Q27: return tess_q_wall_term_d3q27_f64(j, wall);
    default: return tess_bounce_back_f64(j, 0.0, wall); /* D3Q19: the older name of the same rule */
    }
}

/* f*_i of the box node (x, y, z) (periodic wrap), and whether that node is wet. */
static int wet_pop(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *pops, int x, int y,
                   int z, int i, double *f)
{
    const int64_t n = tess_tiling_node_index(t, x, y, z);
    if (n < 0 || !tess_kind_is_wet(p->mat[t->node_type[n]].kind))
        return 0;
    const size_t idx = tess_state_index(t, (int32_t)(n / 64), i, (int)(n % 64));
    *f = prec == TESS_PRECISION_SINGLE ? (double)((const float *)pops)[idx] : ((const double *)pops)[idx];
    return 1;
}

/* Wall distance of link (node `local` of tile k, direction i) from the tiling's curved-wall links; -1: none. */
static double link_q(const tess_tiling_t *t, const tess_params_t *p, int32_t k, int local, int i)
{
    const tess_links_t *l = &t->links;
    if (p->wall == TESS_WALL_BOUNCE_BACK || l->n == 0)
        return -1.0;
    for (int64_t s = l->start[k]; s < l->start[k + 1]; s++)
        if (l->link[s].node == local && l->link[s].dir == i)
            return l->link[s].q;
    return -1.0;
}

/* What the wall returns to wet node x = (x, y, z) along j = opp(i) in the next step, given the node's outgoing
 * f_i* towards the wall: halfway bounce-back (with the wall's momentum), or, on a curved-wall link of the
 * tiling, the core's Bouzidi rule with the same neighbours as the engine's pull (tess_q_step_t.h):
 * x - c_i and x - 2 c_i when wet. Never a second copy of either formula. */
static double returning(const tess_lattice_t *lat, const tess_tiling_t *t, const tess_params_t *p, tess_precision prec,
                        const void *pops, int32_t k, int local, const int at[3], int i, double f_out,
                        const tess_material_t *wall)
{
    const int j = lat->opp[i];
    const double w = wall_term(lat->id, j, wall);
    const double q = link_q(t, p, k, local, i);
    if (q < 0.0)
        return f_out + w; /* tess_bounce_back / tess_q_bounce_back: f*_opp(j) + the wall term */
    const int *c = lat->c[j]; /* x + c_j = x - c_i: away from the wall */
    double fi = 0, fb1 = 0, fi1 = 0, fb2 = 0;
    wet_pop(t, p, prec, pops, at[0], at[1], at[2], j, &fi);
    const int have1 = wet_pop(t, p, prec, pops, at[0] + c[0], at[1] + c[1], at[2] + c[2], i, &fb1);
    int have2 = 0;
    if (have1) {
        wet_pop(t, p, prec, pops, at[0] + c[0], at[1] + c[1], at[2] + c[2], j, &fi1);
        if (p->wall == TESS_WALL_BOUZIDI_QUADRATIC)
            have2 = wet_pop(t, p, prec, pops, at[0] + 2 * c[0], at[1] + 2 * c[1], at[2] + 2 * c[2], i, &fb2);
    }
    return tess_q_bouzidi_d3q19_f64(p->wall == TESS_WALL_BOUZIDI_QUADRATIC ? 2 : 1, q, f_out, fi, fb1, fb2, fi1, have1,
                                    have2, w);
}

tess_status tess_forces_compute(const tess_lattice_t *lat, const tess_tiling_t *t, const tess_geometry_t *g,
                                const tess_params_t *p, const tess_case_forces_t *bodies, tess_precision prec,
                                const void *pops, double *force, tess_error_t *err)
{
    memset(force, 0, 3 * (size_t)bodies->nbody * sizeof *force);
    if (!lat || (int)lat->id != t->lattice)
        return tess_fail(err, TESS_ERR_INPUT, "forces on bodies: the lattice does not match the tiling's");
    int body_of[256];
    for (int m = 0; m < 256; m++)
        body_of[m] = -1;
    for (int b = 0; b < bodies->nbody; b++)
        body_of[bodies->material[b]] = b;
    const int n[3] = {g->nx, g->ny, g->nz};
    for (int32_t k = 0; k < t->ntiles; k++)
        for (int l = 0; l < 64; l++) {
            if (!tess_kind_is_wet(p->mat[t->node_type[64 * (size_t)k + l]].kind))
                continue;
            int at[3];
            tess_tiling_local_xyz(t, l, &at[0], &at[1], &at[2]);
            for (int a = 0; a < 3; a++)
                at[a] += t->tile_corner[3 * k + a];
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
                const size_t idx = tess_state_index(t, k, i, l);
                const double f_out =
                    prec == TESS_PRECISION_SINGLE ? (double)((const float *)pops)[idx] : ((const double *)pops)[idx];
                const double sum = f_out + returning(lat, t, p, prec, pops, k, l, at, i, f_out, &p->mat[mt]);
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
