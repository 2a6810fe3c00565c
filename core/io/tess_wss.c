#include "tess_wss.h"
#include "tess_lattice.h"
#include "tess_physics_q.h"
#include "tess_q_step.h"
#include "tess_state.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The grid of the gather that gives the stress. The step reaches only an inlet or outlet node's own
 * reconstruction: with a waveform, the openings' wall-side nodes report the stress of the waveform's value at
 * step 0 (left as is: the wall shear stress of interest lies away from the openings). */
static tess_q_grid_t grid_of(const tess_tiling_t *t)
{
    const tess_q_grid_t g = {t->neighbors, t->node_type, t->tile_corner, t->ex, t->ey, t->ez, 0, {0}};
    return g;
}

/* The lattice direction closest to the inward normal n among the wet neighbours (the nee boundary's choice). */
static int inward(const tess_params_t *p, const tess_q_grid_t *g, int lattice, int32_t k, int x, int y, int z,
                  const double n[3])
{
    tess_material_t m;
    memset(&m, 0, sizeof m);
    for (int a = 0; a < 3; a++)
        m.normal[a] = -n[a]; /* tess_q_inward takes an outward normal */
    switch (lattice) {
    case TESS_LATTICE_D2Q9: return tess_q_inward_d2q9_f64(p, g, &m, k, x, y, z);
    case TESS_LATTICE_D3Q13: return tess_q_inward_d3q13_f64(p, g, &m, k, x, y, z);
    case TESS_LATTICE_D3Q27: return tess_q_inward_d3q27_f64(p, g, &m, k, x, y, z);
    default: return tess_q_inward_d3q19_f64(p, g, &m, k, x, y, z);
    }
}

/* Stress of a wet tile node (tile * 64 + local) from the engine-ordered populations f: the gather (walls,
 * curved walls, inlets and outlets as the engine sees them), then the core's tess_q_stress. */
static void node_stress(const tess_tiling_t *t, const tess_params_t *p, const tess_q_grid_t *g,
                        const int64_t *node_link, const uint8_t *node_nlink, const double *f, int64_t node,
                        double sigma[6])
{
    const int32_t k = (int32_t)(node / 64);
    int x, y, z;
    tess_tiling_local_xyz(t, (int)(node % 64), &x, &y, &z);
    const tess_link_t *lk = node_link ? t->links.link + node_link[node] : NULL;
    const int nlk = node_link ? node_nlink[node] : 0;
    double fin[TESS_MAX_Q];
    switch (t->lattice) {
    case TESS_LATTICE_D2Q9:
        tess_q_gather_d2q9_f64(p, g, f, TESS_Q_CANON, k, x, y, z, lk, nlk, fin);
        tess_q_stress_d2q9_f64(p, fin, sigma);
        break;
    case TESS_LATTICE_D3Q13:
        tess_q_gather_d3q13_f64(p, g, f, TESS_Q_CANON, k, x, y, z, lk, nlk, fin);
        tess_q_stress_d3q13_f64(p, fin, sigma);
        break;
    case TESS_LATTICE_D3Q27:
        tess_q_gather_d3q27_f64(p, g, f, TESS_Q_CANON, k, x, y, z, lk, nlk, fin);
        tess_q_stress_d3q27_f64(p, fin, sigma);
        break;
    default:
        tess_q_gather_d3q19_f64(p, g, f, TESS_Q_CANON, k, x, y, z, lk, nlk, fin);
        tess_q_stress_d3q19_f64(p, fin, sigma);
        break;
    }
}

/* Wall distance fraction of the link from node `local` of tile k along direction i: the curved-wall link's q,
 * or 1/2 (halfway bounce-back). */
static double link_q(const tess_tiling_t *t, const tess_params_t *p, const tess_wss_t *w, int64_t node, int i)
{
    if (p->wall == TESS_WALL_BOUNCE_BACK || !w->node_link)
        return 0.5;
    for (int l = 0; l < w->node_nlink[node]; l++)
        if (t->links.link[w->node_link[node] + l].dir == i)
            return t->links.link[w->node_link[node] + l].q;
    return 0.5;
}

void tess_wss_free(tess_wss_t *w)
{
    free(w->at);
    free(w->node);
    free(w->inner);
    free(w->normal);
    free(w->delta);
    free(w->h);
    free(w->node_link);
    free(w->node_nlink);
    memset(w, 0, sizeof *w);
}

static int grow(tess_wss_t *w, int64_t cap)
{
#define GROW(ptr, per)                                                                                             \
    do {                                                                                                           \
        void *q_ = realloc((ptr), (size_t)cap * (per) * sizeof *(ptr));                                            \
        if (!q_)                                                                                                   \
            return 0;                                                                                              \
        (ptr) = q_;                                                                                                \
    } while (0)
    GROW(w->at, 3);
    GROW(w->node, 1);
    GROW(w->inner, 1);
    GROW(w->normal, 3);
    GROW(w->delta, 1);
    GROW(w->h, 1);
#undef GROW
    return 1;
}

tess_status tess_wss_create(tess_wss_t *w, const tess_tiling_t *t, const tess_params_t *p, tess_wss_normal_fn normal_fn,
                            void *ctx, tess_error_t *err)
{
    memset(w, 0, sizeof *w);
    if (p->lattice == TESS_LATTICE_D3Q13)
        return tess_fail(err, TESS_ERR_UNSUPPORTED,
                         "wall shear stress: D3Q13's MRT relaxes the stress at two viscous rates, not 1/tau; not "
                         "supported (use D3Q19, D2Q9 or D3Q27)");
    const tess_lattice_t *lat = tess_lattice_get((tess_lattice_id)t->lattice);
    const tess_q_grid_t g = grid_of(t);
    if (t->links.n > 0) {
        w->node_link = malloc(64 * (size_t)t->ntiles * sizeof *w->node_link);
        w->node_nlink = malloc(64 * (size_t)t->ntiles);
        if (!w->node_link || !w->node_nlink) {
            tess_wss_free(w);
            return tess_fail(err, TESS_ERR_NOMEM, "wall shear stress: out of memory for the link ranges");
        }
        tess_links_node_ranges(t, w->node_link, w->node_nlink);
    }
    int64_t cap = 0;
    for (int32_t k = 0; k < t->ntiles; k++)
        for (int l = 0; l < 64; l++) {
            const int64_t node = 64 * (int64_t)k + l;
            if (p->mat[t->node_type[node]].kind != TESS_NODE_FLUID)
                continue;
            int x, y, z;
            tess_tiling_local_xyz(t, l, &x, &y, &z);
            double s[3] = {0.0, 0.0, 0.0}; /* sum of w_i c_i over the links into the wall */
            int walls = 0;
            for (int i = 1; i < lat->q; i++) {
                int x1 = x, y1 = y, z1 = z;
                const int32_t k1 = tess_q_grid_move(&g, k, &x1, &y1, &z1, lat->c[i][0], lat->c[i][1], lat->c[i][2]);
                if (tess_kind_is_wet(p->mat[tess_q_grid_type(&g, k1, x1, y1, z1)].kind))
                    continue;
                walls++;
                for (int a = 0; a < 3; a++)
                    s[a] += lat->w[i] * lat->c[i][a];
            }
            if (!walls)
                continue;
            double n[3] = {-s[0], -s[1], -s[2]};
            const double at[3] = {t->tile_corner[3 * k] + x, t->tile_corner[3 * k + 1] + y,
                                  t->tile_corner[3 * k + 2] + z};
            double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            if (!(len > 0.0))
                continue; /* walls on opposite sides in balance (a one-node gap): no direction to shear along */
            for (int a = 0; a < 3; a++)
                n[a] /= len;
            if (normal_fn && normal_fn(ctx, at, n)) {
                len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
                if (!(len > 0.0))
                    continue;
                for (int a = 0; a < 3; a++)
                    n[a] /= len;
            }
            double dsum = 0.0, wsum = 0.0;
            for (int i = 1; i < lat->q; i++) {
                int x1 = x, y1 = y, z1 = z;
                const int32_t k1 = tess_q_grid_move(&g, k, &x1, &y1, &z1, lat->c[i][0], lat->c[i][1], lat->c[i][2]);
                const double cn = -(lat->c[i][0] * n[0] + lat->c[i][1] * n[1] + lat->c[i][2] * n[2]);
                if (cn <= 0.0 || tess_kind_is_wet(p->mat[tess_q_grid_type(&g, k1, x1, y1, z1)].kind))
                    continue;
                dsum += lat->w[i] * link_q(t, p, w, node, i) * cn;
                wsum += lat->w[i];
            }
            if (w->n == cap) {
                cap = cap ? 2 * cap : 1024;
                if (!grow(w, cap)) {
                    tess_wss_free(w);
                    return tess_fail(err, TESS_ERR_NOMEM, "wall shear stress: out of memory for the wall nodes");
                }
            }
            const int64_t m = w->n++;
            for (int a = 0; a < 3; a++) {
                w->at[3 * m + a] = (int32_t)at[a];
                w->normal[3 * m + a] = n[a];
            }
            w->node[m] = node;
            w->delta[m] = wsum > 0.0 ? dsum / wsum : 0.5;
            w->inner[m] = -1;
            w->h[m] = 0.0;
            const int d = inward(p, &g, t->lattice, k, x, y, z, n);
            if (d >= 0) {
                int x2 = x, y2 = y, z2 = z;
                const int32_t k2 = tess_q_grid_move(&g, k, &x2, &y2, &z2, lat->c[d][0], lat->c[d][1], lat->c[d][2]);
                w->inner[m] = 64 * (int64_t)k2 + tess_tiling_local(t, x2, y2, z2);
                w->h[m] = lat->c[d][0] * n[0] + lat->c[d][1] * n[1] + lat->c[d][2] * n[2];
            }
        }
    return TESS_OK;
}

/* The populations as the engine's functions read them, (tile * q + i) * 64 + local in double: pops itself, or a
 * copy (*own) for D3Q19's canonical layouts and single precision. NULL when the copy fails. */
static const double *as_tiles(const tess_tiling_t *t, tess_precision prec, const void *pops, double **own)
{
    *own = NULL;
    if (t->lattice != TESS_LATTICE_D3Q19 && prec != TESS_PRECISION_SINGLE)
        return pops;
    *own = malloc((tess_state_count(t) ? tess_state_count(t) : 1) * sizeof **own);
    if (!*own)
        return NULL;
    for (int32_t k = 0; k < t->ntiles; k++)
        for (int i = 0; i < t->q; i++)
            for (int l = 0; l < 64; l++) {
                const size_t src = tess_state_index(t, k, i, l), dst = ((size_t)k * t->q + i) * 64 + l;
                (*own)[dst] = prec == TESS_PRECISION_SINGLE ? (double)((const float *)pops)[src]
                                                            : ((const double *)pops)[src];
            }
    return *own;
}

/* WSS node m from the stress at the node (s) and at its inward neighbour (s2, read only when it has one). */
static void finish(const tess_wss_t *w, int64_t m, double s[6], const double s2[6], double *wss)
{
    if (w->inner[m] >= 0 && w->h[m] > 0.0) {
        const double e = w->delta[m] / w->h[m];
        for (int c = 0; c < 6; c++)
            s[c] += e * (s[c] - s2[c]);
    }
    const double *n = w->normal + 3 * m;
    const double tr[3] = {s[0] * n[0] + s[3] * n[1] + s[4] * n[2], s[3] * n[0] + s[1] * n[1] + s[5] * n[2],
                          s[4] * n[0] + s[5] * n[1] + s[2] * n[2]};
    const double tn = tr[0] * n[0] + tr[1] * n[1] + tr[2] * n[2];
    for (int a = 0; a < 3; a++)
        wss[3 * m + a] = tr[a] - tn * n[a];
}

tess_status tess_wss_compute(const tess_wss_t *w, const tess_tiling_t *t, const tess_params_t *p, tess_precision prec,
                             const void *pops, double *wss, tess_error_t *err)
{
    double *own;
    const double *f = as_tiles(t, prec, pops, &own);
    if (!f)
        return tess_fail(err, TESS_ERR_NOMEM, "wall shear stress: out of memory for a copy of the populations");
    const tess_q_grid_t g = grid_of(t);
    for (int64_t m = 0; m < w->n; m++) {
        double s[6], s2[6] = {0, 0, 0, 0, 0, 0};
        node_stress(t, p, &g, w->node_link, w->node_nlink, f, w->node[m], s);
        if (w->inner[m] >= 0 && w->h[m] > 0.0)
            node_stress(t, p, &g, w->node_link, w->node_nlink, f, w->inner[m], s2);
        finish(w, m, s, s2, wss);
    }
    free(own);
    return TESS_OK;
}

tess_status tess_wss_stress(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *pops,
                            const int64_t *nodes, int64_t n, double *sigma, tess_error_t *err)
{
    int64_t *node_link = NULL;
    uint8_t *node_nlink = NULL;
    if (t->links.n > 0) {
        node_link = malloc(64 * (size_t)(t->ntiles ? t->ntiles : 1) * sizeof *node_link);
        node_nlink = malloc(64 * (size_t)(t->ntiles ? t->ntiles : 1));
        if (node_link && node_nlink)
            tess_links_node_ranges(t, node_link, node_nlink);
    }
    double *own = NULL;
    const double *f = (t->links.n > 0 && (!node_link || !node_nlink)) ? NULL : as_tiles(t, prec, pops, &own);
    if (f) {
        const tess_q_grid_t g = grid_of(t);
        for (int64_t j = 0; j < n; j++)
            node_stress(t, p, &g, node_link, node_nlink, f, nodes[j], sigma + 6 * j);
    }
    free(node_link);
    free(node_nlink);
    free(own);
    return f ? TESS_OK : tess_fail(err, TESS_ERR_NOMEM, "wall shear stress: out of memory for the stress of its nodes");
}

void tess_wss_finish(const tess_wss_t *w, const double *sigma, double *wss)
{
    for (int64_t m = 0; m < w->n; m++) {
        double s[6];
        memcpy(s, sigma + 6 * m, sizeof s);
        finish(w, m, s, sigma + 6 * (w->n + m), wss);
    }
}
