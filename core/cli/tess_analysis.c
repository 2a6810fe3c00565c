#include "tess_analysis.h"
#include "cpu_dist.h"
#include "tess_average.h"
#include "tess_case_stl.h"
#include "tess_probes.h"
#include "tess_restart.h"
#include "tess_state.h"
#include "tess_vti.h"
#include "tess_vti_pieces.h"
#include "tess_wss.h"
#include "tess_wss_surface.h"
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tess_analysis {
    const tess_case_t *c;
    tess_sim_t *sim;
    char dir[1024];
    size_t n;          /* dense nodes */
    int wss_on, avg_on;
    int dist;          /* distributed: the ranks keep the sums of their own tiles (tess_average_dist.h) and rank 0
                          a.avg counts the samples only */
    tess_wss_t wss;
    tess_wss_surface_t surface; /* the STL surfaces' triangles (ntri 0 without STL) */
    double *wss_now;   /* 3 per WSS node, for the current step */
    long wss_step;     /* step of wss_now, -1 none */
    tess_average_t avg; /* per tile node of the whole tiling; distributed: the sample count alone (n = nw = 0) */
    tess_probes_t probes;
    double *dense;     /* scratch: 3 n for dense output arrays */
    double *dense2;    /* scratch: 3 n */
    uint8_t *mask;     /* n: 1 at WSS nodes */
    size_t *pnodes;    /* distributed: the probes' corner nodes, asked of the ranks that own them */
    size_t npnodes;
    double *pvals;     /* 4 per corner node */
    const int32_t (*ext)[6]; /* pieces per rank (tess_analysis_pieces), NULL: single files */
};

void tess_analysis_pieces(tess_analysis_t *a, const int32_t (*ext)[6])
{
    a->ext = ext;
    /* Distributed, the ranks make the WSS and average pieces (tess_wss_pieces.h, tess_average_dist.h): rank 0
     * needs no dense arrays. */
    if (ext && a->dist) {
        free(a->dense);
        free(a->dense2);
        free(a->mask);
        a->dense = a->dense2 = NULL;
        a->mask = NULL;
    }
}

int tess_analysis_dense(const tess_analysis_t *a)
{
    return !a->dist;
}

void tess_analysis_free(tess_analysis_t *a)
{
    if (!a)
        return;
    tess_wss_free(&a->wss);
    tess_wss_surface_free(&a->surface);
    tess_average_free(&a->avg);
    tess_probes_free(&a->probes);
    free(a->wss_now);
    free(a->dense);
    free(a->dense2);
    free(a->mask);
    free(a->pnodes);
    free(a->pvals);
    free(a);
}

static uint64_t case_hash(const tess_analysis_t *a)
{
    return tess_restart_hash(tess_sim_tiling(a->sim), &a->c->params);
}

static void average_path(char *buf, size_t len, const char *dir)
{
    snprintf(buf, len, "%s/average.restart", dir);
}

/* A job for the ranks' sums (tess_average_dist.h): op at step. */
static tess_average_dist_job_t average_job(const tess_analysis_t *a, tess_average_dist_op op, long step)
{
    tess_average_dist_job_t job;
    memset(&job, 0, sizeof job);
    tess_average_dist_head_t *h = &job.head;
    const tess_geometry_t *g = &a->c->geometry;
    h->op = (int32_t)op;
    h->wss = a->wss_on;
    h->start = a->avg.start;
    h->every = a->avg.every;
    h->step = step;
    h->ntiles = tess_sim_tiling(a->sim)->ntiles;
    h->nw = a->wss_on ? a->wss.n : 0;
    if (op == TESS_AVERAGE_DIST_SAVE || op == TESS_AVERAGE_DIST_LOAD) /* the file's: a pass over the tiling */
        h->hash = case_hash(a);
    tess_pieces_frame_set(&h->frame, a->c, a->dir, NULL);
    job.w = a->wss_on ? &a->wss : NULL;
    job.ext = a->ext;
    job.type = g->type;
    return job;
}

static tess_status average_load(tess_analysis_t *a, const char *path, tess_error_t *err)
{
    const long step = tess_sim_step_count(a->sim);
    if (!a->dist)
        return tess_average_load(&a->avg, path, step, case_hash(a), err);
    tess_average_dist_job_t job = average_job(a, TESS_AVERAGE_DIST_LOAD, step);
    if (snprintf(job.head.path, sizeof job.head.path, "%s", path) >= (int)sizeof job.head.path)
        return tess_fail(err, TESS_ERR_INPUT, "%s: path too long for the time averages", path);
    const tess_status st = tess_sim_average(a->sim, &job, err);
    a->avg.samples = job.samples;
    a->avg.last = job.last;
    return st;
}

tess_status tess_analysis_create(const tess_case_t *c, tess_sim_t *sim, const char *out_dir, const char *restart,
                                 tess_analysis_t **out, tess_error_t *err)
{
    *out = NULL;
    const tess_case_analysis_t *an = &c->analysis;
    if (!an->wss && !an->average && an->nprobe == 0)
        return TESS_OK;
    if (strcmp(c->pattern, "aa") == 0) {
        /* The AA pattern holds canonical populations after even steps only. */
        if (an->average && (an->average_start % 2 || an->average_every % 2))
            return tess_fail(err, TESS_ERR_INPUT,
                             "%s: [average] start and every: the AA pattern needs even steps, got %ld and %ld", c->path,
                             an->average_start, an->average_every);
        for (int i = 0; i < an->nprobe; i++)
            if (an->probe[i].every % 2)
                return tess_fail(err, TESS_ERR_INPUT,
                                 "%s: [%s.%s] every: the AA pattern needs an even interval, got %ld", c->path,
                                 an->probe[i].is_line ? "line" : "probe", an->probe[i].name, an->probe[i].every);
    }
    tess_analysis_t *a = calloc(1, sizeof *a);
    if (!a)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the analysis outputs");
    a->c = c;
    a->sim = sim;
    a->wss_step = -1;
    snprintf(a->dir, sizeof a->dir, "%s", out_dir);
    a->n = (size_t)c->geometry.nx * c->geometry.ny * c->geometry.nz;
    a->wss_on = an->wss;
    a->avg_on = an->average;
    a->dist = tess_sim_distributed(sim);
    tess_status st = TESS_OK;
    const tess_tiling_t *t = tess_sim_tiling(sim);
    if (a->wss_on) {
        /* STL geometry: the nearest triangle's normal, and the surface output. */
        tess_wss_normal_fn normal = c->stl ? tess_case_stl_normal : NULL;
        if ((st = tess_wss_create(&a->wss, t, &c->params, normal, c->stl, err)) != TESS_OK) {
            tess_analysis_free(a);
            return st;
        }
        double *tri = NULL;
        const long ntri = tess_case_stl_triangles(c->stl, &tri);
        if (ntri < 0 || (ntri > 0 && (st = tess_wss_surface_create(&a->surface, tri, ntri, &a->wss, &c->geometry,
                                                                    err)) != TESS_OK)) {
            tess_analysis_free(a);
            return ntri < 0 ? tess_fail(err, TESS_ERR_NOMEM, "out of memory for the STL surface") : st;
        }
        a->wss_now = calloc(3 * (size_t)(a->wss.n ? a->wss.n : 1), sizeof *a->wss_now);
        a->mask = calloc(a->n, 1);
        if (!a->wss_now || !a->mask) {
            tess_analysis_free(a);
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the wall shear stress");
        }
        for (int64_t m = 0; m < a->wss.n; m++) {
            const int32_t *at = a->wss.at + 3 * m;
            a->mask[tess_geometry_index(&c->geometry, at[0], at[1], at[2])] = 1;
        }
    }
    a->dense = malloc(3 * a->n * sizeof *a->dense);
    a->dense2 = malloc(3 * a->n * sizeof *a->dense2);
    if (!a->dense || !a->dense2) {
        tess_analysis_free(a);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the analysis outputs");
    }
    if (a->avg_on) {
        const size_t nodes = a->dist ? 0 : 64 * (size_t)t->ntiles;
        if ((st = tess_average_create(&a->avg, nodes, a->wss_on && !a->dist ? a->wss.n : 0, an->average_start,
                                      an->average_every, err)) != TESS_OK) {
            tess_analysis_free(a);
            return st;
        }
        if (restart && tess_sim_step_count(sim) >= an->average_start) {
            /* The sums live next to the restart file they belong to (before `start` there are none). */
            char dir[1024], path[1100];
            snprintf(dir, sizeof dir, "%s", restart);
            char *slash = strrchr(dir, '/');
            if (slash)
                *slash = 0;
            else
                snprintf(dir, sizeof dir, ".");
            average_path(path, sizeof path, dir);
            if ((st = average_load(a, path, err)) != TESS_OK) {
                tess_analysis_free(a);
                return st;
            }
        }
    }
    if ((st = tess_probes_create(&a->probes, c, out_dir, restart ? tess_sim_step_count(sim) : -1, err)) != TESS_OK) {
        tess_analysis_free(a);
        return st;
    }
    /* Distributed: the probes read only their corners' values, each from the rank that owns the node. */
    if (a->probes.n && tess_sim_distributed(sim)) {
        if ((st = tess_probes_nodes(&a->probes, &a->pnodes, &a->npnodes, err)) != TESS_OK ||
            !(a->pvals = malloc(4 * (a->npnodes + 1) * sizeof *a->pvals))) {
            tess_analysis_free(a);
            return st != TESS_OK ? st : tess_fail(err, TESS_ERR_NOMEM, "out of memory for the probes' values");
        }
    }
    *out = a;
    return TESS_OK;
}

long tess_analysis_next(const tess_analysis_t *a, long step)
{
    long next = tess_probes_next(&a->probes, step);
    if (a->avg_on) {
        const long s = tess_average_next(&a->avg, step);
        if (s < next)
            next = s;
    }
    return next;
}

static tess_status compute_wss(tess_analysis_t *a, long step, tess_error_t *err)
{
    if (a->wss_step == step)
        return TESS_OK;
    const tess_status st = tess_sim_wss(a->sim, &a->wss, a->wss_now, err);
    if (st == TESS_OK)
        a->wss_step = step;
    return st;
}

/* Per-WSS-node values (ncomp each) spread onto the dense box, 0 elsewhere. */
static void to_dense(const tess_analysis_t *a, const double *v, int ncomp, double *dense)
{
    memset(dense, 0, (size_t)ncomp * a->n * sizeof *dense);
    for (int64_t m = 0; m < a->wss.n; m++) {
        const size_t d =
            tess_geometry_index(&a->c->geometry, a->wss.at[3 * m], a->wss.at[3 * m + 1], a->wss.at[3 * m + 2]);
        for (int k = 0; k < ncomp; k++)
            dense[(size_t)ncomp * d + k] = v[(size_t)ncomp * m + k];
    }
}

/* DIR/STEM.vti, or in pieces DIR/STEM.pvti (tess_vti_pieces.h) under mpirun. */
static tess_status write_vti(const tess_analysis_t *a, const char *stem, const tess_vti_array_t *arrays, int n,
                             tess_error_t *err)
{
    const tess_geometry_t *g = &a->c->geometry;
    const int dims[3] = {g->nx, g->ny, g->nz};
    if (a->ext) {
        const tess_vti_pieces_t job = {a->dir, stem, {dims[0], dims[1], dims[2]}, a->c->origin, a->c->spacing,
                                       NULL, 0, arrays, n, a->ext};
        tess_cpu_dist_service(); /* the other ranks into tess_vti_pieces_serve */
        return tess_vti_pieces_write(&job, err);
    }
    char path[1200];
    snprintf(path, sizeof path, "%s/%s.vti", a->dir, stem);
    return tess_vti_write(path, dims, a->c->origin, a->c->spacing, arrays, n, err);
}

/* Every rank its piece of wss_<step>.pvti from the WSS vectors of rank 0 (tess_wss_pieces.h). */
static tess_status write_wss_ranks(tess_analysis_t *a, long step, tess_error_t *err)
{
    tess_wss_pieces_job_t job;
    memset(&job, 0, sizeof job);
    char stem[64];
    snprintf(stem, sizeof stem, "wss_%06ld", step);
    tess_pieces_frame_set(&job.head, a->c, a->dir, stem);
    job.ext = a->ext;
    job.w = &a->wss;
    job.wss = a->wss_now;
    return tess_sim_wss_pieces(a->sim, &job, err);
}

/* wss_<step>.vti from rank 0's dense arrays (one file, or pieces cut from them). */
static tess_status write_wss_dense(tess_analysis_t *a, long step, tess_error_t *err)
{
    const int64_t nw = a->wss.n;
    double *mag = malloc((size_t)(nw ? nw : 1) * sizeof *mag);
    double *mag_d = malloc(a->n * sizeof *mag_d);
    if (!mag || !mag_d) {
        free(mag);
        free(mag_d);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the wall shear stress output");
    }
    for (int64_t m = 0; m < nw; m++) {
        const double *w = a->wss_now + 3 * m;
        mag[m] = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    }
    to_dense(a, a->wss_now, 3, a->dense);
    to_dense(a, a->wss.normal, 3, a->dense2);
    to_dense(a, mag, 1, mag_d);
    const tess_vti_array_t arrays[4] = {{"wss_magnitude", TESS_VTI_FLOAT64, 1, mag_d},
                                        {"wss", TESS_VTI_FLOAT64, 3, a->dense},
                                        {"wall_normal", TESS_VTI_FLOAT64, 3, a->dense2},
                                        {"wall", TESS_VTI_UINT8, 1, a->mask}};
    char stem[64];
    snprintf(stem, sizeof stem, "wss_%06ld", step);
    const tess_status st = write_vti(a, stem, arrays, 4, err);
    free(mag);
    free(mag_d);
    return st;
}

static tess_status write_wss(tess_analysis_t *a, long step, tess_error_t *err)
{
    tess_status st = a->ext && tess_sim_distributed(a->sim) ? write_wss_ranks(a, step, err)
                                                            : write_wss_dense(a, step, err);
    if (st == TESS_OK && a->surface.ntri > 0) {
        char path[1200];
        snprintf(path, sizeof path, "%s/wss_%06ld.vtp", a->dir, step);
        st = tess_wss_surface_write(&a->surface, path, a->wss_now, a->c->spacing, a->c->origin, err);
    }
    return st;
}

/* average_<step>.vti from the means per tile node of the whole tiling (v: 1, 3, 3, 1, 1, 1 values a node; the
 * WSS ones only with WSS): the single process's, or gathered from the ranks. */
static tess_status write_average_tiles(tess_analysis_t *a, long step, double *const v[6], tess_error_t *err)
{
    const tess_tiling_t *t = tess_sim_tiling(a->sim);
    static const int ncomp[6] = {1, 3, 3, 1, 1, 1};
    const int narr = a->wss_on ? 6 : 2;
    double *d[6] = {0};
    uint8_t *wall = a->wss_on ? malloc(a->n + 1) : NULL;
    int ok = !a->wss_on || wall;
    for (int k = 0; k < narr; k++)
        ok = ok && (d[k] = malloc((size_t)ncomp[k] * a->n * sizeof *d[k] + 1));
    tess_status st = ok ? TESS_OK : tess_fail(err, TESS_ERR_NOMEM, "out of memory for the time-average output");
    if (st == TESS_OK) {
        for (int k = 0; k < narr; k++)
            tess_state_to_dense(t, v[k], ncomp[k], 0.0, d[k]);
        for (size_t i = 0; wall && i < a->n; i++)
            wall[i] = d[5][i] != 0.0;
        tess_vti_array_t arrays[6];
        const int na = tess_average_arrays(d[0], d[1], a->wss_on, d[2], d[3], d[4], wall, arrays);
        char stem[64];
        snprintf(stem, sizeof stem, "average_%06ld", step);
        st = write_vti(a, stem, arrays, na, err);
    }
    for (int k = 0; k < narr; k++)
        free(d[k]);
    free(wall);
    return st;
}

static tess_status write_average(tess_analysis_t *a, long step, tess_error_t *err)
{
    char stem[64];
    snprintf(stem, sizeof stem, "average_%06ld", step);
    if (a->dist && a->ext) { /* every rank its piece from its own sums */
        tess_average_dist_job_t job = average_job(a, TESS_AVERAGE_DIST_PIECES, step);
        snprintf(job.head.frame.stem, sizeof job.head.frame.stem, "%s", stem);
        return tess_sim_average(a->sim, &job, err);
    }
    /* One file: the means per tile node, the single process's own or the ranks' gathered at this step. */
    static const int ncomp[6] = {1, 3, 3, 1, 1, 1};
    const size_t tn = 64 * (size_t)tess_sim_tiling(a->sim)->ntiles;
    const int narr = a->wss_on ? 6 : 2;
    double *v[6] = {0};
    int ok = 1;
    for (int k = 0; k < narr; k++)
        ok = ok && (v[k] = malloc((size_t)ncomp[k] * tn * sizeof *v[k] + 1));
    tess_status st = ok ? TESS_OK : tess_fail(err, TESS_ERR_NOMEM, "out of memory for the time-average output");
    if (st == TESS_OK && a->dist) {
        tess_average_dist_job_t job = average_job(a, TESS_AVERAGE_DIST_GATHER, step);
        job.rho = v[0], job.u = v[1], job.wss_mean = v[2], job.tawss = v[3], job.osi = v[4], job.wall = v[5];
        st = tess_sim_average(a->sim, &job, err);
    } else if (st == TESS_OK) {
        st = tess_average_node_means(&a->avg, a->wss.node, v[0], v[1], v[2], v[3], v[4], v[5], err);
    }
    if (st == TESS_OK)
        st = write_average_tiles(a, step, v, err);
    for (int k = 0; k < narr; k++)
        free(v[k]);
    return st;
}

tess_status tess_analysis_event(tess_analysis_t *a, long step, int output, int checkpoint, int final, double *rho,
                                double *u, int have_fields, tess_error_t *err)
{
    tess_status st;
    const int avg_due = a->avg_on && tess_average_due(&a->avg, step);
    const int probe_due = tess_probes_due(&a->probes, step);
    const int probe_nodes = probe_due && a->pnodes; /* the probes' corners alone, from their ranks */
    if (probe_due && !probe_nodes && !have_fields) {
        if ((st = tess_sim_fields(a->sim, rho, u, err)) != TESS_OK)
            return st;
        have_fields = 1;
    }
    if (a->wss_on && (output || avg_due) && (st = compute_wss(a, step, err)) != TESS_OK)
        return st;
    if (avg_due && a->dist) { /* every rank adds its own tiles' values; rank 0 counts */
        tess_average_dist_job_t job = average_job(a, TESS_AVERAGE_DIST_ADD, step);
        job.wss = a->wss_now;
        if ((st = tess_sim_average(a->sim, &job, err)) != TESS_OK)
            return st;
        tess_average_add(&a->avg, step, NULL, NULL, NULL);
    } else if (avg_due) {
        const double *rt, *ut;
        if ((st = tess_sim_tile_fields(a->sim, !have_fields, &rt, &ut, err)) != TESS_OK)
            return st;
        tess_average_add(&a->avg, step, rt, ut, a->avg.nw ? a->wss_now : NULL);
    }
    if (probe_nodes && ((st = tess_sim_node_values(a->sim, a->pnodes, a->npnodes, a->pvals, err)) != TESS_OK ||
                        (st = tess_probes_sample_nodes(&a->probes, step, a->pnodes, a->npnodes, a->pvals, err)) != TESS_OK))
        return st;
    if (probe_due && !probe_nodes && (st = tess_probes_sample(&a->probes, step, rho, u, err)) != TESS_OK)
        return st;
    if (output && a->wss_on && (st = write_wss(a, step, err)) != TESS_OK)
        return st;
    if (output && a->avg_on && a->avg.samples > 0 && (st = write_average(a, step, err)) != TESS_OK)
        return st;
    if ((output || checkpoint || final) && (st = tess_probes_write(&a->probes, err)) != TESS_OK)
        return st;
    if (checkpoint && a->avg_on) {
        char path[1100];
        average_path(path, sizeof path, a->dir);
        if (a->dist) { /* every rank its own blocks, MPI-IO */
            tess_average_dist_job_t job = average_job(a, TESS_AVERAGE_DIST_SAVE, step);
            snprintf(job.head.path, sizeof job.head.path, "%s", path);
            st = tess_sim_average(a->sim, &job, err);
        } else {
            st = tess_average_save(&a->avg, path, step, case_hash(a), err);
        }
        if (st != TESS_OK)
            return st;
    }
    return TESS_OK;
}
