#include "tess_forces.h"
#include "tess_boundary_q.h"
#include "tess_physics.h"
#include "tess_state.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* The node at offset d (|d| <= 2 per axis) from node `local` of tile k, through the tile's neighbour list (so
 * it works on a rank's local tiling, which has no tile map; the list wraps periodic axes): its index tile * 64 +
 * local, or -1 when its tile is not held (empty, outside the box, or not on this rank). */
static int64_t node_near(const tess_tiling_t *t, int32_t k, int local, const int d[3])
{
    int c[3], o[3];
    const int e[3] = {t->ex, t->ey, t->ez};
    tess_tiling_local_xyz(t, local, &c[0], &c[1], &c[2]);
    for (int a = 0; a < 3; a++) {
        c[a] += d[a];
        o[a] = c[a] < 0 ? -1 : c[a] >= e[a] ? 1 : 0;
        c[a] -= o[a] * e[a];
    }
    const int32_t n = t->neighbors[27 * (size_t)k + (size_t)tess_tiling_slot(o[0], o[1], o[2])];
    return n < 0 ? -1 : 64 * (int64_t)n + tess_tiling_local(t, c[0], c[1], c[2]);
}

/* f*_i of the node at offset d from node `local` of tile k, and whether that node is wet. */
static int wet_pop(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *pops, int32_t k,
                   int local, const int d[3], int i, double *f)
{
    const int64_t n = node_near(t, k, local, d);
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

/* What the wall returns to wet node x (node `local` of tile k) along j = opp(i) in the next step, given the
 * node's outgoing f_i* towards the wall: halfway bounce-back (with the wall's momentum), or, on a curved-wall
 * link of the tiling, the core's Bouzidi rule with the same neighbours as the engine's pull (tess_q_step_t.h):
 * x - c_i and x - 2 c_i when wet. Never a second copy of either formula. */
static double returning(const tess_lattice_t *lat, const tess_tiling_t *t, const tess_params_t *p, tess_precision prec,
                        const void *pops, int32_t k, int local, int i, double f_out, const tess_material_t *wall)
{
    const int j = lat->opp[i];
    const double w = wall_term(lat->id, j, wall);
    const double q = link_q(t, p, k, local, i);
    if (q < 0.0)
        return f_out + w; /* tess_bounce_back / tess_q_bounce_back: f*_opp(j) + the wall term */
    const int *c = lat->c[j]; /* x + c_j = x - c_i: away from the wall */
    const int d0[3] = {0, 0, 0}, d1[3] = {c[0], c[1], c[2]}, d2[3] = {2 * c[0], 2 * c[1], 2 * c[2]};
    double fi = 0, fb1 = 0, fi1 = 0, fb2 = 0;
    wet_pop(t, p, prec, pops, k, local, d0, j, &fi);
    const int have1 = wet_pop(t, p, prec, pops, k, local, d1, i, &fb1);
    int have2 = 0;
    if (have1) {
        wet_pop(t, p, prec, pops, k, local, d1, j, &fi1);
        if (p->wall == TESS_WALL_BOUZIDI_QUADRATIC)
            have2 = wet_pop(t, p, prec, pops, k, local, d2, i, &fb2);
    }
    return tess_q_bouzidi_d3q19_f64(p->wall == TESS_WALL_BOUZIDI_QUADRATIC ? 2 : 1, q, f_out, fi, fb1, fb2, fi1, have1,
                                    have2, w);
}

tess_status tess_forces_links(const tess_lattice_t *lat, const tess_tiling_t *t, const tess_geometry_t *g,
                              const tess_params_t *p, const tess_case_forces_t *bodies, tess_force_links_t *out,
                              tess_error_t *err)
{
    memset(out, 0, sizeof *out);
    if (!lat || (int)lat->id != t->lattice)
        return tess_fail(err, TESS_ERR_INPUT, "forces on bodies: the lattice does not match the tiling's");
    int body_of[256];
    for (int m = 0; m < 256; m++)
        body_of[m] = -1;
    for (int b = 0; b < bodies->nbody; b++)
        body_of[bodies->material[b]] = b;
    const int n[3] = {g->nx, g->ny, g->nz};
    out->ntiles = t->ntiles;
    out->start = calloc((size_t)t->ntiles + 1, sizeof *out->start);
    if (!out->start)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the forces' links");
    size_t cap = 0;
    for (int32_t k = 0; k < t->ntiles; k++) {
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
                const size_t m = (size_t)out->start[k + 1];
                if (m == cap) {
                    cap = cap ? 2 * cap : 256;
                    tess_force_link_t *grown = realloc(out->link, cap * sizeof *grown);
                    if (!grown) {
                        tess_forces_links_free(out);
                        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the forces' links");
                    }
                    out->link = grown;
                }
                out->link[m] = (tess_force_link_t){(uint8_t)l, (uint8_t)i, (uint8_t)b, mt};
                out->start[k + 1]++;
            }
        }
        if (k + 1 < t->ntiles)
            out->start[k + 2] = out->start[k + 1];
    }
    return TESS_OK;
}

void tess_forces_links_free(tess_force_links_t *fl)
{
    free(fl->start);
    free(fl->link);
    memset(fl, 0, sizeof *fl);
}

void tess_forces_tile(const tess_lattice_t *lat, const tess_tiling_t *t, const tess_params_t *p, int nbody, int32_t k,
                      const tess_force_link_t *link, int64_t nlink, tess_precision prec, const void *pops, double *f)
{
    memset(f, 0, 3 * (size_t)nbody * sizeof *f);
    for (int64_t e = 0; e < nlink; e++) {
        const tess_force_link_t *L = &link[e];
        const size_t idx = tess_state_index(t, k, L->dir, L->node);
        const double f_out =
            prec == TESS_PRECISION_SINGLE ? (double)((const float *)pops)[idx] : ((const double *)pops)[idx];
        const double sum = f_out + returning(lat, t, p, prec, pops, k, L->node, L->dir, f_out, &p->mat[L->mat]);
        for (int a = 0; a < 3; a++)
            f[3 * L->body + a] += lat->c[L->dir][a] * sum;
    }
}

void tess_forces_combine(const double *part, int64_t nparts, int nbody, double *force)
{
    memset(force, 0, 3 * (size_t)nbody * sizeof *force);
    for (int64_t k = 0; k < nparts; k++)
        for (int m = 0; m < 3 * nbody; m++)
            force[m] += part[3 * (size_t)nbody * (size_t)k + (size_t)m];
}

tess_status tess_forces_compute(const tess_lattice_t *lat, const tess_tiling_t *t, const tess_geometry_t *g,
                                const tess_params_t *p, const tess_case_forces_t *bodies, tess_precision prec,
                                const void *pops, double *force, tess_error_t *err)
{
    memset(force, 0, 3 * (size_t)bodies->nbody * sizeof *force);
    tess_force_links_t fl;
    tess_status st = tess_forces_links(lat, t, g, p, bodies, &fl, err);
    if (st != TESS_OK)
        return st;
    st = tess_forces_from_links(lat, t, p, bodies->nbody, &fl, prec, pops, force, err);
    tess_forces_links_free(&fl);
    return st;
}

tess_status tess_forces_from_links(const tess_lattice_t *lat, const tess_tiling_t *t, const tess_params_t *p, int nbody,
                                   const tess_force_links_t *fl, tess_precision prec, const void *pops, double *force,
                                   tess_error_t *err)
{
    /* Only the tiles with links contribute: their partials, in tile order. */
    int64_t nparts = 0;
    for (int32_t k = 0; k < fl->ntiles; k++)
        nparts += fl->start[k + 1] > fl->start[k];
    double *part = malloc(3 * (size_t)(nbody ? nbody : 1) * (size_t)(nparts ? nparts : 1) * sizeof *part);
    if (!part)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the forces on bodies");
    int64_t m = 0;
    for (int32_t k = 0; k < fl->ntiles; k++)
        if (fl->start[k + 1] > fl->start[k])
            tess_forces_tile(lat, t, p, nbody, k, fl->link + fl->start[k], fl->start[k + 1] - fl->start[k], prec, pops,
                             part + 3 * (size_t)nbody * (size_t)m++);
    tess_forces_combine(part, nparts, nbody, force);
    free(part);
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
