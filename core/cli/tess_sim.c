#include "tess_sim.h"
#include "cpu_dist.h"
#include "tess_setup.h"
#include "tess_mpi.h"
#include "tess_lattice.h"
#include "tess_memory.h"
#include "tess_restart.h"
#include "tess_sim_dist.h"
#include "tess_state.h"
#include "tess_vti.h"
#include "tess_wall_q.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tess_sim {
    const tess_backend_ops_t *ops;
    tess_backend_t *be;
    tess_backend_config_t cfg;
    tess_params_t params;
    tess_tiling_t tiling;
    long step;
    void *pops;           /* host copy of the canonical populations, for fields and restarts: made when first
                           * needed (a GPU run that only steps never holds one, nor a distributed run's rank 0) */
    double *rho_t, *u_t;  /* per tile node, made when first needed */
    double *u_prev_t;     /* per tile node: the velocity of the previous monitor row (tess_sim_stats), or NULL */
    int have_prev;
    tess_force_links_t flinks; /* the forces' links over the global tiling (tess_sim_forces), found once */
    int have_flinks;
    int dist;             /* distributed (cpu_dist.h): reductions over every rank's own tiles (tess_sim_dist.h) */
    tess_setup_t setup;   /* the set-up's stages (tess_setup.h; the case's is the caller's) */
};

static tess_status nomem(tess_error_t *err, const char *what)
{
    return tess_fail(err, TESS_ERR_NOMEM, "out of memory for %s", what);
}

/* The host copy of the populations, allocated on first use (checked against the memory available first). */
static tess_status host_pops(tess_sim_t *s, tess_error_t *err)
{
    if (s->pops)
        return TESS_OK;
    const size_t bytes = (tess_state_count(&s->tiling) ? tess_state_count(&s->tiling) : 1) *
                         tess_precision_size(s->cfg.precision);
    char what[96];
    snprintf(what, sizeof what, "the host copy of the populations of %d tiles", s->tiling.ntiles);
    const tess_status st = tess_memory_check(bytes, what, err);
    if (st != TESS_OK)
        return st;
    s->pops = malloc(bytes);
    return s->pops ? TESS_OK : nomem(err, "the host copy of the populations");
}

/* Density and velocity per tile node, allocated on first use. */
static tess_status host_fields(tess_sim_t *s, tess_error_t *err)
{
    if (s->rho_t && s->u_t)
        return TESS_OK;
    const size_t nodes = 64 * (size_t)(s->tiling.ntiles ? s->tiling.ntiles : 1);
    char what[96];
    snprintf(what, sizeof what, "the per-node fields of %d tiles", s->tiling.ntiles);
    const tess_status st = tess_memory_check(4 * nodes * sizeof(double), what, err);
    if (st != TESS_OK)
        return st;
    if (!s->rho_t)
        s->rho_t = malloc(nodes * sizeof *s->rho_t);
    if (!s->u_t)
        s->u_t = malloc(3 * nodes * sizeof *s->u_t);
    return s->rho_t && s->u_t ? TESS_OK : nomem(err, "the per-node fields");
}

/* The initial state a range of tiles at a time (tess_state_fill_fn), for a backend's initialise_from. */
typedef struct {
    const tess_tiling_t *t;
    const tess_params_t *p;
    tess_precision prec;
    double rho0;
    const double *u0, *rho, *u;
} equilibrium_source_t;

static void equilibrium_fill(void *ctx, int32_t k0, int32_t k1, void *tiles)
{
    const equilibrium_source_t *e = (const equilibrium_source_t *)ctx;
    tess_state_equilibrium_tiles(e->t, e->p, e->prec, k0, k1, tiles, e->rho0, e->u0, e->rho, e->u);
}

/* An initial state that the divergence test would refuse at once is bad input, not divergence: every wet node
 * needs a finite density within the run's bounds and a finite speed within run.speed_max and below the speed of
 * sound (1/sqrt(3)), where the equilibrium has no meaning. */
static tess_status check_init_values(const tess_case_t *c, const double *rho, const double *u, tess_error_t *err)
{
    const tess_geometry_t *g = &c->geometry;
    const double cs = 0.57735026918962576;
    const tess_check_bounds_t b = {c->density_min, c->density_max, c->speed_max < cs ? c->speed_max : cs};
    const size_t n = (size_t)g->nx * g->ny * g->nz;
    for (size_t i = 0; i < n; i++) {
        if (!tess_kind_is_wet(c->params.mat[g->type[i]].kind) || !tess_check_node_bad(&b, rho[i], u + 3 * i))
            continue;
        const double *v = u + 3 * i;
        return tess_fail(err, TESS_ERR_INPUT,
                         "%s: [init] file %s: node (%zu,%zu,%zu) has density %g and |u| %g: expected finite values, "
                         "density in %g..%g (run.density_min/max) and |u| at most %g (run.speed_max, below the speed "
                         "of sound %.4f)",
                         c->path, c->init_file, i % (size_t)g->nx, i / (size_t)g->nx % (size_t)g->ny,
                         i / ((size_t)g->nx * g->ny), rho[i], sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), b.rho_min,
                         b.rho_max, c->speed_max, cs);
    }
    return TESS_OK;
}

/* Whether the [init] file is in physical units (the field data of a [units] run's output, tess_field_output.c):
 * *si 0 or 1. A physical file needs a [units] case of the same dx; one that lacks any of the
 * three values, or one read by a lattice case, is refused. */
static tess_status init_file_units(const tess_case_t *c, size_t nodes, int *si, tess_error_t *err)
{
    static const char *const names[3] = {TESS_VTI_UNITS_DX, TESS_VTI_UNITS_DT, TESS_VTI_UNITS_DENSITY};
    double v[3] = {0, 0, 0};
    int found[3], any = 0;
    for (int k = 0; k < 3; k++) {
        const tess_status st = tess_vti_read_field(c->init_file, names[k], nodes, &v[k], &found[k], err);
        if (st != TESS_OK)
            return st;
        any += found[k];
    }
    *si = any > 0;
    if (!any)
        return TESS_OK;
    if (any < 3 || !(v[0] > 0) || !(v[1] > 0) || !(v[2] > 0))
        return tess_fail(err, TESS_ERR_INPUT,
                         "%s: [init] file %s: expected the field data %s, %s and %s (all > 0) of a file in physical "
                         "units, got %d of them",
                         c->path, c->init_file, names[0], names[1], names[2], any);
    if (!c->units.active)
        return tess_fail(err, TESS_ERR_INPUT,
                         "%s: [init] file %s holds physical units (dx %g, dt %g, written by a case with [units]), but "
                         "this case is in lattice units: give it the same [units] section, or an [init] file in "
                         "lattice units",
                         c->path, c->init_file, v[0], v[1]);
    if (fabs(v[0] - c->units.dx) > 1e-9 * c->units.dx)
        return tess_fail(err, TESS_ERR_INPUT,
                         "%s: [init] file %s was written with dx %.17g, this case has dx %.17g: its nodes are not the "
                         "case's",
                         c->path, c->init_file, v[0], c->units.dx);
    return TESS_OK;
}

/* The [init] file's density and velocity, dense over the box, in lattice units: a file in physical units
 * (init_file_units) gives its velocity in length/time and its pressure p - p_ref, which become u dt / dx and the
 * lattice density 1 + 3 p / (rho0 (dx / dt)^2) with this case's dt and rho0 (tess_units.h, the inverse of the
 * output's conversion). */
static tess_status read_init_file(const tess_case_t *c, double **rho, double **u, tess_error_t *err)
{
    int d1[3], d2[3], si = 0;
    const size_t nodes = (size_t)c->geometry.nx * c->geometry.ny * c->geometry.nz; /* the reader's bound */
    tess_status st = init_file_units(c, nodes, &si, err);
    if (st != TESS_OK)
        return st;
    st = tess_vti_read(c->init_file, si ? "pressure" : "density", 1, nodes, d1, rho, NULL, err);
    if (st != TESS_OK)
        return st;
    st = tess_vti_read(c->init_file, "velocity", 3, nodes, d2, u, NULL, err);
    if (st != TESS_OK) {
        free(*rho);
        return st;
    }
    const tess_geometry_t *g = &c->geometry;
    if (d1[0] != g->nx || d1[1] != g->ny || d1[2] != g->nz || memcmp(d1, d2, sizeof d1) != 0) {
        free(*rho);
        free(*u);
        return tess_fail(err, TESS_ERR_INPUT, "%s: [init] file %s has %dx%dx%d nodes, expected the domain's %dx%dx%d",
                         c->path, c->init_file, d1[0], d1[1], d1[2], g->nx, g->ny, g->nz);
    }
    if (si) {
        const tess_units_t *un = &c->units;
        const double cu = un->dx / un->dt, to_lattice = un->dt / un->dx;
        const size_t n = (size_t)g->nx * g->ny * g->nz;
        for (size_t i = 0; i < n; i++) {
            (*rho)[i] = 1.0 + 3.0 * (*rho)[i] / (un->rho * cu * cu);
            for (int a = 0; a < 3; a++)
                (*u)[3 * i + a] *= to_lattice;
        }
    }
    if ((st = check_init_values(c, *rho, *u, err)) != TESS_OK) {
        free(*rho);
        free(*u);
    }
    return st;
}

tess_status tess_sim_create(const tess_case_t *c, const tess_backend_ops_t *ops, const tess_backend_config_t *cfg,
                            tess_sim_t **out, tess_error_t *err)
{
    *out = NULL;
    /* Under mpirun with several processes the backend's engine runs over the ranks (cpu_dist.h; docs/mpi.md). */
    if (tess_mpi_size() > 1) {
        const tess_backend_ops_t *dist = tess_cpu_dist_find(ops->name);
        if (!dist)
            return tess_fail(err, TESS_ERR_INPUT,
                             "backend %s does not run distributed in this build: use --backend cpu under mpirun with "
                             "several processes, or one process (docs/mpi.md)",
                             ops->name);
        ops = dist;
    }
    tess_sim_t *s = calloc(1, sizeof *s);
    if (!s)
        return nomem(err, "the simulation");
    s->ops = ops;
    s->dist = tess_cpu_dist_is(ops);
    s->cfg = *cfg;
    s->params = c->params;
    cfg = &s->cfg;
    double t0 = tess_setup_now();
    tess_status st = tess_tiling_build(&s->tiling, &c->geometry, &c->params, err);
    if (st != TESS_OK) {
        free(s);
        return st;
    }
    s->setup.seconds[TESS_SETUP_TILING] = tess_setup_now() - t0;
    t0 = tess_setup_now();
    if (c->params.wall != TESS_WALL_BOUNCE_BACK &&
        (st = tess_links_build(&s->tiling.links, &s->tiling, &c->params, tess_wall_q_case, (void *)c, err)) != TESS_OK) {
        tess_sim_free(s);
        return st;
    }
    s->setup.seconds[TESS_SETUP_LINKS] = tess_setup_now() - t0;
    const size_t n = tess_state_count(&s->tiling), nodes = 64 * (size_t)(s->tiling.ntiles ? s->tiling.ntiles : 1);
    /* Check the host memory before allocating: an oversized domain fails here with the figures, instead of
     * paging for minutes. A backend that initialises from a source (a GPU's, initialise_from) keeps its copies on
     * the device and needs no host copy of the state; the others get the host copy and the per-node fields that a
     * run's outputs use, and the CPU backend's own copies (AB two of 19 values, AA one, MR two of 10 moments).
     * Distributed, rank 0 holds its share of the engine and no global populations (but briefly, to scatter an
     * [init] file's state); the per-node fields come with the first output. */
    const size_t vsize = tess_precision_size(cfg->precision);
    const int global_pops = !s->dist || c->init_file[0];
    size_t need = ops->initialise_from || !global_pops ? 0 : n * vsize + 4 * nodes * sizeof(double);
    if (strcmp(ops->name, "cpu") == 0)
        need += (cfg->pattern == TESS_PATTERN_AA ? 1 : 2) * (size_t)tess_state_node_values(cfg->pattern, s->tiling.lattice, s->tiling.q) *
                nodes * vsize / (size_t)tess_mpi_size();
    char what[160];
    snprintf(what, sizeof what, "a run on %d tiles (%s backend, %s, pattern %s)", s->tiling.ntiles, ops->name,
             tess_precision_name(cfg->precision),
             cfg->pattern == TESS_PATTERN_AA ? "aa" : cfg->pattern == TESS_PATTERN_MR ? "mr" : "ab");
    if ((st = tess_memory_check(need, what, err)) != TESS_OK) {
        tess_sim_free(s);
        return st;
    }
    t0 = tess_setup_now();
    if ((st = ops->create(cfg, &s->be, err)) == TESS_OK)
        st = ops->upload_geometry(s->be, &s->tiling, err);
    s->setup.seconds[TESS_SETUP_BACKEND] = tess_setup_now() - t0;
    if (st != TESS_OK) {
        tess_sim_free(s);
        return st;
    }
    if (!global_pops) { /* every rank its own tiles' equilibrium (tess_sim_dist.h) */
        t0 = tess_setup_now();
        if ((st = tess_cpu_dist_plan(s->be, &s->params, err)) != TESS_OK ||
            (st = tess_sim_dist_equilibrium(s->be, &s->params, c->init_density, c->init_velocity, err)) != TESS_OK) {
            tess_sim_free(s);
            return st;
        }
        s->setup.seconds[TESS_SETUP_INITIALISE] = tess_setup_now() - t0;
        *out = s;
        return TESS_OK;
    }
    double *rho = NULL, *u = NULL;
    if (c->init_file[0] && (st = read_init_file(c, &rho, &u, err)) != TESS_OK) {
        tess_sim_free(s);
        return st;
    }
    t0 = tess_setup_now();
    if (ops->initialise_from) {
        equilibrium_source_t src = {&s->tiling, &s->params, cfg->precision, c->init_density, c->init_velocity, rho, u};
        st = ops->initialise_from(s->be, &s->params, equilibrium_fill, &src, err);
    } else if ((st = host_pops(s, err)) == TESS_OK && (st = host_fields(s, err)) == TESS_OK) {
        tess_state_equilibrium(&s->tiling, &s->params, cfg->precision, s->pops, c->init_density, c->init_velocity, rho,
                               u);
        st = ops->initialise(s->be, &s->params, s->pops, err);
    }
    s->setup.seconds[TESS_SETUP_INITIALISE] = tess_setup_now() - t0;
    free(rho);
    free(u);
    if (st != TESS_OK) {
        tess_sim_free(s);
        return st;
    }
    if (s->dist) { /* scattered: rank 0 keeps no global copy */
        free(s->pops);
        s->pops = NULL;
    }
    *out = s;
    return TESS_OK;
}

tess_status tess_sim_step(tess_sim_t *s, int n, tess_error_t *err)
{
    const tess_status st = s->ops->step(s->be, n, err);
    if (st == TESS_OK)
        s->step += n;
    return st;
}

/* Density and velocity per tile node into s->rho_t, s->u_t. */
static tess_status tile_fields(tess_sim_t *s, tess_error_t *err)
{
    tess_status st = host_fields(s, err);
    if (st != TESS_OK)
        return st;
    if (s->dist)
        return tess_sim_dist_fields(s->be, s->rho_t, s->u_t, err);
    if (s->ops->download_fields)
        return s->ops->download_fields(s->be, s->rho_t, s->u_t, err);
    if ((st = host_pops(s, err)) == TESS_OK)
        st = s->ops->download_populations(s->be, s->pops, err);
    if (st == TESS_OK)
        tess_state_fields(&s->tiling, &s->params, s->cfg.precision, s->pops, s->rho_t, s->u_t);
    return st;
}

tess_status tess_sim_check(tess_sim_t *s, tess_check_t *r, tess_error_t *err)
{
    if (s->dist)
        return tess_sim_dist_check(s->be, s->cfg.threads, r, err);
    if (s->ops->check_state)
        return s->ops->check_state(s->be, r, err);
    /* From the populations: no per-node fields to fill and read back (half the cost of tess_sim_fields). */
    tess_status st = host_pops(s, err);
    if (st == TESS_OK)
        st = s->ops->download_populations(s->be, s->pops, err);
    if (st == TESS_OK)
        tess_check_populations(&s->tiling, &s->params, s->cfg.precision == TESS_PRECISION_SINGLE, s->cfg.threads,
                               s->pops, r);
    return st;
}

tess_status tess_sim_stats(tess_sim_t *s, const tess_check_bounds_t *b, int row, tess_sim_stats_t *out,
                           tess_error_t *err)
{
    if (s->dist)
        return tess_sim_dist_stats(s->be, b, row, out, err);
    memset(out, 0, sizeof *out);
    tess_status st = tile_fields(s, err);
    if (st != TESS_OK)
        return st;
    const size_t nodes = 64 * (size_t)(s->tiling.ntiles ? s->tiling.ntiles : 1);
    double *part = malloc(TESS_TILE_STATS_N * (size_t)(s->tiling.ntiles ? s->tiling.ntiles : 1) * sizeof *part);
    if (!part || (row && !s->u_prev_t && !(s->u_prev_t = malloc(3 * nodes * sizeof *s->u_prev_t)))) {
        free(part);
        return nomem(err, "the monitor's reductions");
    }
    /* The same per-tile partials, combined in the same tile order, as every rank of a distributed run. */
    tess_tile_stats(&s->tiling, s->tiling.ntiles, &s->params, s->rho_t, s->u_t, s->have_prev ? s->u_prev_t : NULL,
                    part);
    tess_tile_stats_combine(part, s->tiling.ntiles, s->have_prev, &out->m);
    free(part);
    out->bad = tess_check_locate(&s->tiling, &s->params, s->rho_t, s->u_t, b, out->at, &out->bad_rho, &out->bad_u);
    if (row) {
        memcpy(s->u_prev_t, s->u_t, 3 * nodes * sizeof *s->u_t);
        s->have_prev = 1;
    }
    return TESS_OK;
}

tess_status tess_sim_check_locate(tess_sim_t *s, const tess_check_bounds_t *b, int at[3], double *rho, double *u,
                                  int *found, tess_error_t *err)
{
    tess_sim_stats_t r;
    const int prev = s->have_prev;
    const tess_status st = tess_sim_stats(s, b, 0, &r, err);
    s->have_prev = prev;
    *found = st == TESS_OK && r.bad;
    if (*found) {
        memcpy(at, r.at, sizeof r.at);
        *rho = r.bad_rho;
        *u = r.bad_u;
    }
    return st;
}

tess_status tess_sim_fields(tess_sim_t *s, double *rho_dense, double *u_dense, tess_error_t *err)
{
    const tess_status st = tile_fields(s, err);
    if (st != TESS_OK)
        return st;
    tess_state_to_dense(&s->tiling, s->rho_t, 1, 0.0, rho_dense);
    tess_state_to_dense(&s->tiling, s->u_t, 3, 0.0, u_dense);
    return TESS_OK;
}

tess_status tess_sim_tile_fields(tess_sim_t *s, int refresh, const double **rho, const double **u, tess_error_t *err)
{
    if (s->dist)
        return tess_fail(err, TESS_ERR_UNSUPPORTED, "the per-node fields of a distributed run stay on its ranks");
    const tess_status st = refresh || !s->rho_t || !s->u_t ? tile_fields(s, err) : TESS_OK;
    *rho = s->rho_t;
    *u = s->u_t;
    return st;
}

tess_status tess_sim_forces(tess_sim_t *s, const tess_case_t *c, double *force, tess_error_t *err)
{
    const tess_lattice_t *lat = tess_lattice_get(c->params.lattice);
    tess_status st;
    if (!s->have_flinks) {
        if ((st = tess_forces_links(lat, &s->tiling, &c->geometry, &s->params, &c->forces, &s->flinks, err)) != TESS_OK)
            return st;
        s->have_flinks = 1;
    }
    if (s->dist)
        return tess_sim_dist_forces(s->be, &s->flinks, c->forces.nbody, force, err);
    if ((st = host_pops(s, err)) != TESS_OK || (st = s->ops->download_populations(s->be, s->pops, err)) != TESS_OK)
        return st;
    return tess_forces_from_links(lat, &s->tiling, &s->params, c->forces.nbody, &s->flinks, s->cfg.precision, s->pops,
                                  force, err);
}

tess_status tess_sim_populations(tess_sim_t *s, const void **pops, tess_error_t *err)
{
    tess_status st = host_pops(s, err);
    if (st == TESS_OK)
        st = s->ops->download_populations(s->be, s->pops, err);
    *pops = st == TESS_OK ? s->pops : NULL;
    return st;
}

void tess_sim_free(tess_sim_t *s)
{
    if (!s)
        return;
    if (s->be)
        s->ops->destroy(s->be);
    tess_tiling_free(&s->tiling);
    free(s->pops);
    free(s->rho_t);
    free(s->u_t);
    free(s->u_prev_t);
    tess_forces_links_free(&s->flinks);
    free(s);
}

int tess_sim_distributed(const tess_sim_t *s)
{
    return s->dist;
}

tess_status tess_sim_field_pieces(tess_sim_t *s, tess_field_pieces_job_t *job, tess_error_t *err)
{
    if (!s->dist)
        return tess_fail(err, TESS_ERR_UNSUPPORTED, "field pieces per rank need a distributed run");
    job->tiling = &s->tiling;
    return tess_sim_dist_pieces(s->be, job, err);
}

tess_status tess_sim_average(tess_sim_t *s, tess_average_dist_job_t *job, tess_error_t *err)
{
    if (!s->dist)
        return tess_fail(err, TESS_ERR_UNSUPPORTED, "time averages per rank need a distributed run");
    job->corner = s->tiling.tile_corner;
    return tess_sim_dist_average(s->be, job, err);
}

tess_status tess_sim_node_values(tess_sim_t *s, const size_t *nodes, size_t n, double *vals, tess_error_t *err)
{
    if (!s->dist)
        return tess_fail(err, TESS_ERR_UNSUPPORTED, "node values per rank need a distributed run");
    int64_t *gn = malloc((n ? n : 1) * sizeof *gn); /* dense indices to the tiling's nodes */
    if (!gn)
        return nomem(err, "the listed nodes");
    const tess_tiling_t *t = &s->tiling;
    for (size_t j = 0; j < n; j++)
        gn[j] = tess_tiling_node_index(t, (int)(nodes[j] % (size_t)t->nx), (int)(nodes[j] / (size_t)t->nx % (size_t)t->ny),
                                       (int)(nodes[j] / ((size_t)t->nx * (size_t)t->ny)));
    const tess_status st = tess_sim_dist_nodes(s->be, gn, n, vals, err);
    free(gn);
    return st;
}

tess_status tess_sim_wss(tess_sim_t *s, const tess_wss_t *w, double *wss, tess_error_t *err)
{
    if (!s->dist) {
        const void *pops;
        const tess_status st = tess_sim_populations(s, &pops, err);
        return st == TESS_OK ? tess_wss_compute(w, &s->tiling, &s->params, s->cfg.precision, pops, wss, err) : st;
    }
    /* Every rank the stress of its WSS nodes and inward neighbours: no global copy of the populations. */
    const size_t n = (size_t)w->n;
    int64_t *nodes = malloc((2 * n + 1) * sizeof *nodes);
    double *sigma = malloc((12 * n + 1) * sizeof *sigma);
    tess_status st = nodes && sigma ? TESS_OK : nomem(err, "the wall shear stress's nodes");
    if (st == TESS_OK) {
        for (size_t m = 0; m < n; m++) {
            nodes[m] = w->node[m];
            nodes[n + m] = w->inner[m] >= 0 ? w->inner[m] : w->node[m]; /* unread where there is none */
        }
        if ((st = tess_sim_dist_stress(s->be, nodes, 2 * n, sigma, err)) == TESS_OK)
            tess_wss_finish(w, sigma, wss);
    }
    free(nodes);
    free(sigma);
    return st;
}

tess_status tess_sim_wss_pieces(tess_sim_t *s, const tess_wss_pieces_job_t *job, tess_error_t *err)
{
    if (!s->dist)
        return tess_fail(err, TESS_ERR_UNSUPPORTED, "wall-shear-stress pieces per rank need a distributed run");
    return tess_sim_dist_wss_pieces(s->be, job, err);
}

tess_status tess_sim_ranks(tess_sim_t *s, tess_halo_rank_t *out, double *imbalance, int *nranks, tess_error_t *err)
{
    *nranks = 0;
    *imbalance = 1.0;
    if (!tess_cpu_dist_is(s->ops))
        return TESS_OK;
    *nranks = tess_mpi_size();
    return tess_cpu_dist_stats(s->be, out, imbalance, err);
}

long tess_sim_step_count(const tess_sim_t *s)
{
    return s->step;
}

const tess_tiling_t *tess_sim_tiling(const tess_sim_t *s)
{
    return &s->tiling;
}

const tess_backend_ops_t *tess_sim_backend(const tess_sim_t *s)
{
    return s->ops;
}

const tess_setup_t *tess_sim_setup(const tess_sim_t *s)
{
    return &s->setup;
}

size_t tess_sim_bytes_allocated(const tess_sim_t *s)
{
    return s->ops->bytes_allocated ? s->ops->bytes_allocated(s->be) : 0;
}

void tess_sim_describe(const tess_sim_t *s, char *buf, size_t len)
{
    buf[0] = 0;
    if (s->ops->describe)
        s->ops->describe(s->be, buf, len);
}

static tess_restart_header_t header(const tess_sim_t *s)
{
    tess_restart_header_t h = {TESS_RESTART_VERSION,
                               (uint32_t)s->cfg.precision,
                               s->step,
                               s->tiling.nx,
                               s->tiling.ny,
                               s->tiling.nz,
                               s->tiling.ntiles,
                               tess_restart_hash(&s->tiling, &s->params),
                               (uint64_t)tess_state_count(&s->tiling)};
    return h;
}

tess_status tess_sim_save_restart(tess_sim_t *s, const char *path, tess_error_t *err)
{
    if (s->dist) {
        const tess_restart_header_t h = header(s);
        return tess_sim_dist_save(s->be, path, &h, err);
    }
    tess_status st = host_pops(s, err);
    if (st == TESS_OK)
        st = s->ops->download_populations(s->be, s->pops, err);
    if (st != TESS_OK)
        return st;
    const tess_restart_header_t h = header(s);
    return tess_restart_write(path, &h, s->pops, err);
}

tess_status tess_sim_load_restart(tess_sim_t *s, const char *path, tess_error_t *err)
{
    const tess_restart_header_t want = header(s);
    tess_restart_header_t got;
    if (s->dist) { /* every rank reads its own tiles and initialises its engine */
        const tess_status st = tess_sim_dist_load(s->be, path, &want, &got, err);
        if (st == TESS_OK)
            s->step = got.step;
        return st;
    }
    tess_status st = host_pops(s, err);
    if (st == TESS_OK)
        st = tess_restart_read(path, &want, &got, s->pops, err);
    if (st != TESS_OK)
        return st;
    /* The state is that of step got.step: time-dependent inlets go on from there (tess_params_t.step0); the
     * restart hash keeps s->params' step0 = 0. */
    tess_params_t p = s->params;
    p.step0 = got.step;
    st = s->ops->initialise(s->be, &p, s->pops, err);
    if (st == TESS_OK)
        s->step = got.step;
    return st;
}
