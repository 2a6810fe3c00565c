#include "lattice_test.h"
#include "cpu_q.h"
#include "tess_state.h"
#include "tess_test.h"
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const tess_backend_ops_t tess_backend_cpu;

int lt_mr_layer = 0;
int lt_engine_reference = 0;
int lt_mixed_nz = 0, lt_mixed_periodic_z = 1;

double lt_planes_q(void *ctx, const double x[3], const double c[3])
{
    const lt_planes_t *pl = ctx;
    double best = -1.0;
    for (int k = 0; k < pl->n; k++) {
        const double *n = pl->normal[k];
        const double nc = n[0] * c[0] + n[1] * c[1] + n[2] * c[2];
        if (nc >= 0.0)
            continue;
        const double q = (pl->d[k] - (n[0] * x[0] + n[1] * x[1] + n[2] * x[2])) / nc;
        if (q > 0.0 && q <= 1.0 + 1e-12 && (best < 0.0 || q < best))
            best = q > 1.0 ? 1.0 : q;
    }
    return best;
}

tess_status lt_start(lt_run_t *r, tess_geometry_t *g, const tess_params_t *p, tess_pattern pattern, int threads,
                     tess_precision prec, tess_wall_q_fn fn, void *ctx, tess_error_t *err)
{
    memset(r, 0, sizeof *r);
    r->g = g;
    r->p = *p;
    r->prec = prec;
    tess_status st = tess_tiling_build(&r->t, g, p, err);
    if (st != TESS_OK)
        return st;
    if (p->wall != TESS_WALL_BOUNCE_BACK && fn && (st = tess_links_build(&r->t.links, &r->t, p, fn, ctx, err)) != TESS_OK)
        return st;
    const size_t nn = (size_t)g->nx * g->ny * g->nz, nt = 64 * (size_t)(r->t.ntiles ? r->t.ntiles : 1);
    r->pops = malloc(tess_state_count(&r->t) * tess_precision_size(prec) + 64);
    r->rho = malloc(nn * sizeof *r->rho);
    r->u = malloc(3 * nn * sizeof *r->u);
    r->rho_t = malloc(nt * sizeof *r->rho_t);
    r->u_t = malloc(3 * nt * sizeof *r->u_t);
    if (!r->pops || !r->rho || !r->u || !r->rho_t || !r->u_t)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory");
    const double u0[3] = {0, 0, 0};
    tess_state_equilibrium(&r->t, p, prec, r->pops, 1.0, u0, NULL, NULL);
    tess_backend_config_t cfg = {0};
    cfg.precision = prec;
    cfg.pattern = pattern;
    cfg.threads = threads;
    cfg.mr_layer = lt_mr_layer;
    if ((st = tess_backend_cpu.create(&cfg, &r->be, err)) != TESS_OK)
        return st;
    if ((st = tess_backend_cpu.upload_geometry(r->be, &r->t, err)) != TESS_OK)
        return st;
    ((tess_cpu_q_t *)(void *)r->be)->reference = lt_engine_reference;
    return tess_backend_cpu.initialise(r->be, p, r->pops, err);
}

tess_status lt_step(lt_run_t *r, int n, tess_error_t *err)
{
    return tess_backend_cpu.step(r->be, n, err);
}

tess_status lt_fields(lt_run_t *r, tess_error_t *err)
{
    tess_status st = tess_backend_cpu.download_populations(r->be, r->pops, err);
    if (st != TESS_OK)
        return st;
    tess_state_fields(&r->t, &r->p, r->prec, r->pops, r->rho_t, r->u_t);
    tess_state_to_dense(&r->t, r->rho_t, 1, 0.0, r->rho);
    tess_state_to_dense(&r->t, r->u_t, 3, 0.0, r->u);
    return TESS_OK;
}

void lt_free(lt_run_t *r)
{
    if (r->be)
        tess_backend_cpu.destroy(r->be);
    tess_tiling_free(&r->t);
    free(r->pops);
    free(r->rho);
    free(r->u);
    free(r->rho_t);
    free(r->u_t);
    memset(r, 0, sizeof *r);
}

long lt_converge(lt_run_t *r, int chunk, double tol, long max_steps, tess_error_t *err)
{
    const size_t n3 = 3 * (size_t)r->g->nx * r->g->ny * r->g->nz;
    double *prev = calloc(n3, sizeof *prev);
    if (!prev)
        return -1;
    long steps = 0;
    while (steps < max_steps) {
        if (lt_step(r, chunk, err) != TESS_OK || lt_fields(r, err) != TESS_OK) {
            free(prev);
            return -1;
        }
        steps += chunk;
        double dmax = 0.0, umax = 0.0;
        for (size_t i = 0; i < n3; i++) {
            dmax = fmax(dmax, fabs(r->u[i] - prev[i]));
            umax = fmax(umax, fabs(r->u[i]));
            prev[i] = r->u[i];
        }
        if (!(umax == umax)) /* NaN */
            break;
        if (dmax <= tol * umax)
            break;
    }
    free(prev);
    return steps;
}

void lt_channel_y(tess_geometry_t *g, int nx, int ny, int nz)
{
    tess_geometry_init(g, nx, ny, nz, 1);
    for (int z = 0; z < nz; z++)
        for (int x = 0; x < nx; x++) {
            g->type[tess_geometry_index(g, x, 0, z)] = 0;
            g->type[tess_geometry_index(g, x, ny - 1, z)] = 0;
        }
}

void lt_mixed_case(tess_lattice_id lat, tess_geometry_t *g, tess_params_t *p, lt_planes_t *pl)
{
    const int d2 = lat == TESS_LATTICE_D2Q9;
    /* big enough for interior tiles whose whole neighbourhood is fluid (the engine's plain-tile path): the
     * obstacles stay in x < nx / 4 */
    const int nx = d2 ? 41 : 21, ny = d2 ? 35 : 18, nz = d2 ? 1 : lt_mixed_nz > 0 ? lt_mixed_nz : 8;
    tess_test_mixed_geometry(g, nx, ny, nz, 7 + (uint64_t)lat, 3, nx / 4, 0.2);
    if (!d2)
        g->periodic[2] = lt_mixed_periodic_z;
    tess_params_default(p);
    tess_params_set_lattice(p, lat);
    p->collision = lat == TESS_LATTICE_D3Q13 ? TESS_COLLISION_MRT : TESS_COLLISION_LBGK;
    tess_params_set_tau(p, 0.7);
    p->wall = TESS_WALL_BOUZIDI_QUADRATIC;
    p->use_force = 1;
    p->force[0] = 2e-5;
    p->force[1] = -1e-5;
    p->nmat = 5;
    p->mat[2].kind = TESS_NODE_WALL;
    p->mat[2].u[0] = 0.05;
    p->mat[3].kind = TESS_NODE_VELOCITY;
    p->mat[3].method = TESS_BC_NEE;
    p->mat[3].u[0] = 0.03;
    p->mat[3].u[1] = 0.01;
    p->mat[3].normal[0] = -0.9578;
    p->mat[3].normal[1] = 0.2873;
    p->mat[4].kind = TESS_NODE_PRESSURE;
    p->mat[4].method = TESS_BC_NEE;
    p->mat[4].rho = 1.0;
    p->mat[4].normal[0] = 1.0;
    /* the bottom wall surface at y = 0.7: q = 0.3 on the links from y = 1 */
    memset(pl, 0, sizeof *pl);
    pl->n = 1;
    pl->normal[0][1] = 1.0;
    pl->d[0] = 0.7;
}

void *lt_mixed_pops(tess_lattice_id lat, int collision, tess_pattern pat, int threads, tess_precision prec, int steps,
                    int64_t *nlinks, tess_tiling_t *keep)
{
    tess_geometry_t g;
    tess_params_t p;
    lt_planes_t pl;
    lt_mixed_case(lat, &g, &p, &pl);
    if (collision >= 0)
        p.collision = collision;
    lt_run_t r;
    tess_error_t err;
    tess_status st = lt_start(&r, &g, &p, pat, threads, prec, lt_planes_q, &pl, &err);
    if (st == TESS_OK)
        st = lt_step(&r, steps, &err);
    *nlinks = r.t.links.n;
    void *out = lt_finish(&r, st, &err, &g, &p, keep);
    tess_geometry_free(&g);
    return out;
}

void *lt_finish(lt_run_t *r, tess_status st, const tess_error_t *err, const tess_geometry_t *g,
                const tess_params_t *p, tess_tiling_t *keep)
{
    tess_error_t e = *err;
    void *out = NULL;
    if (st == TESS_OK)
        st = lt_fields(r, &e);
    if (st != TESS_OK) {
        printf("FAIL run: %s\n", e.msg);
        tess_test_failures++;
    } else {
        const size_t bytes = tess_state_count(&r->t) * tess_precision_size(r->prec);
        if ((out = malloc(bytes)))
            memcpy(out, r->pops, bytes);
        if (keep) { /* the comparison needs the node types: build the same tiling again */
            tess_error_t e2;
            tess_tiling_build(keep, g, p, &e2);
        }
    }
    lt_free(r);
    return out;
}

double lt_wet_relative(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *a,
                       const void *b)
{
    if (!a || !b)
        return 1.0;
    double scale = 0.0;
    int bits = 0, finite = 0;
    const double d = tess_test_wet_diff(t, p, prec, a, b, &bits, &finite, &scale);
    return finite && scale > 0.0 ? d / scale : 1.0;
}

void lt_each_mr_lattice(void (*fn)(tess_lattice_id lat, tess_precision prec))
{
    static const tess_lattice_id lats[] = {TESS_LATTICE_D2Q9, TESS_LATTICE_D3Q19, TESS_LATTICE_D3Q27};
    for (int l = 0; l < 3; l++) {
        fn(lats[l], TESS_PRECISION_DOUBLE);
        fn(lats[l], TESS_PRECISION_SINGLE);
    }
}
