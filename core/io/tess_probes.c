#include "tess_probes.h"
#include "tess_file.h"
#include "tess_tiling.h"
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int append(tess_probe_file_t *f, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line)
        return 0;
    if (f->len + (size_t)n + 1 > f->cap) {
        const size_t cap = f->cap ? 2 * f->cap + (size_t)n : 4096;
        char *t = realloc(f->text, cap);
        if (!t)
            return 0;
        f->text = t;
        f->cap = cap;
    }
    memcpy(f->text + f->len, line, (size_t)n + 1);
    f->len += (size_t)n;
    return 1;
}

static const char header_lattice[] = "step,time,index,x,y,z,ux,uy,uz,density\n";
static const char header_physical[] =
    "step,time_s,index,x_m,y_m,z_m,ux_m_s,uy_m_s,uz_m_s,pressure_Pa,density_kg_m3\n";

static int physical(const tess_case_t *c)
{
    return c->units.active && c->units.physical_output;
}

/* The rows of an earlier file with step < before (its header checked), appended to f. */
static void keep_earlier(tess_probe_file_t *f, const char *header, long before)
{
    FILE *in = fopen(f->path, "r");
    if (!in)
        return;
    char line[1024];
    if (fgets(line, sizeof line, in) && strcmp(line, header) == 0)
        while (fgets(line, sizeof line, in)) {
            char *end;
            const long step = strtol(line, &end, 10);
            if (end == line || *end != ',' || step >= before || !strchr(line, '\n'))
                continue;
            append(f, "%s", line);
        }
    fclose(in);
}

tess_status tess_probes_create(tess_probes_t *p, const tess_case_t *c, const char *dir, long restart_step,
                               tess_error_t *err)
{
    memset(p, 0, sizeof *p);
    p->c = c;
    p->header = physical(c) ? header_physical : header_lattice;
    const tess_case_analysis_t *an = &c->analysis;
    if (an->nprobe == 0)
        return TESS_OK;
    p->f = calloc((size_t)an->nprobe, sizeof *p->f);
    if (!p->f)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the probes");
    p->n = an->nprobe;
    for (int i = 0; i < p->n; i++) {
        tess_probe_file_t *f = &p->f[i];
        f->def = &an->probe[i];
        snprintf(f->path, sizeof f->path, "%s/%s_%s.csv", dir, f->def->is_line ? "line" : "probe", f->def->name);
        if (!append(f, "%s", p->header)) {
            tess_probes_free(p);
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the probes");
        }
        if (restart_step >= 0)
            keep_earlier(f, p->header, restart_step);
    }
    return TESS_OK;
}

void tess_probes_free(tess_probes_t *p)
{
    for (int i = 0; i < p->n; i++)
        free(p->f[i].text);
    free(p->f);
    p->f = NULL;
    p->n = 0;
}

long tess_probes_next(const tess_probes_t *p, long step)
{
    long next = LONG_MAX;
    for (int i = 0; i < p->n; i++) {
        const long e = p->f[i].def->every, s = (step / e + 1) * e;
        if (s < next)
            next = s;
    }
    return next;
}

int tess_probes_due(const tess_probes_t *p, long step)
{
    for (int i = 0; i < p->n; i++)
        if (step % p->f[i].def->every == 0)
            return 1;
    return 0;
}

/* The wet corners of point x (at most 8: dense indices d, weights w > 0), in corner order; returns their count.
 * Corners that are not wet (solid, moving wall) are left out. */
static int corners(const tess_case_t *c, const double x[3], size_t d[8], double w[8])
{
    const tess_geometry_t *g = &c->geometry;
    const int n[3] = {g->nx, g->ny, g->nz};
    int i0[3];
    double t[3];
    for (int a = 0; a < 3; a++) {
        i0[a] = n[a] > 1 ? (int)floor(x[a]) : 0;
        if (i0[a] > n[a] - 2)
            i0[a] = n[a] > 1 ? n[a] - 2 : 0;
        if (i0[a] < 0)
            i0[a] = 0;
        t[a] = n[a] > 1 ? x[a] - i0[a] : 0.0;
    }
    int used = 0;
    for (int corner = 0; corner < 8; corner++) {
        int at[3];
        double wc = 1.0;
        for (int a = 0; a < 3; a++) {
            const int hi = (corner >> a) & 1;
            if (hi && n[a] == 1)
                wc = 0.0;
            at[a] = i0[a] + hi;
            wc *= hi ? t[a] : 1.0 - t[a];
        }
        if (wc <= 0.0)
            continue;
        const size_t dd = tess_geometry_index(g, at[0], at[1], at[2]);
        if (!tess_kind_is_wet(c->params.mat[g->type[dd]].kind))
            continue;
        d[used] = dd;
        w[used++] = wc;
    }
    return used;
}

/* Where a node's values come from: the dense fields, or a list of nodes with their values. */
typedef struct {
    const double *rho, *u;    /* dense */
    const size_t *nodes;      /* or: sorted dense indices */
    size_t n;
    const double *vals;       /* 4 per listed node: density, velocity */
} source_t;

static void node_values(const source_t *s, size_t d, double *rho, const double **u)
{
    if (!s->nodes) {
        *rho = s->rho[d];
        *u = s->u + 3 * d;
        return;
    }
    size_t lo = 0, hi = s->n; /* the node is listed (tess_probes_nodes) */
    while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        if (s->nodes[mid] <= d)
            lo = mid;
        else
            hi = mid;
    }
    *rho = s->vals[4 * lo];
    *u = s->vals + 4 * lo + 1;
}

static int interpolate(const tess_case_t *c, const double x[3], const source_t *src, double *rho_at, double u_at[3])
{
    size_t d[8];
    double w[8];
    const int used = corners(c, x, d, w);
    double wsum = 0.0, r = 0.0, v[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < used; k++) {
        double rho;
        const double *u;
        node_values(src, d[k], &rho, &u);
        wsum += w[k];
        r += w[k] * rho;
        for (int a = 0; a < 3; a++)
            v[a] += w[k] * u[a];
    }
    if (!(wsum > 0.0)) {
        *rho_at = u_at[0] = u_at[1] = u_at[2] = NAN;
        return 0;
    }
    *rho_at = r / wsum;
    for (int a = 0; a < 3; a++)
        u_at[a] = v[a] / wsum;
    return used;
}

int tess_probes_interpolate(const tess_case_t *c, const double x[3], const double *rho, const double *u, double *rho_at,
                            double u_at[3])
{
    const source_t src = {rho, u, NULL, 0, NULL};
    return interpolate(c, x, &src, rho_at, u_at);
}

/* Point k of probe f. */
static void point(const tess_probe_file_t *f, int k, double x[3])
{
    const double s = f->def->points > 1 ? (double)k / (f->def->points - 1) : 0.0;
    for (int a = 0; a < 3; a++)
        x[a] = f->def->a[a] + s * (f->def->b[a] - f->def->a[a]);
}

static int by_value(const void *a, const void *b)
{
    const size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

tess_status tess_probes_nodes(const tess_probes_t *p, size_t **nodes, size_t *n, tess_error_t *err)
{
    size_t cap = 8;
    for (int i = 0; i < p->n; i++)
        cap += 8 * (size_t)p->f[i].def->points;
    size_t *list = malloc(cap * sizeof *list), m = 0;
    if (!list)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the probes' nodes");
    for (int i = 0; i < p->n; i++)
        for (int k = 0; k < p->f[i].def->points; k++) {
            double x[3], w[8];
            point(&p->f[i], k, x);
            m += (size_t)corners(p->c, x, list + m, w);
        }
    qsort(list, m, sizeof *list, by_value);
    size_t u = 0;
    for (size_t j = 0; j < m; j++)
        if (u == 0 || list[u - 1] != list[j])
            list[u++] = list[j];
    *nodes = list;
    *n = u;
    return TESS_OK;
}

static tess_status sample(tess_probes_t *p, long step, const source_t *src, tess_error_t *err)
{
    const tess_case_t *c = p->c;
    const int si = physical(c);
    const double time = tess_units_time(&c->units, step), cu = tess_units_velocity_scale(&c->units);
    for (int i = 0; i < p->n; i++) {
        tess_probe_file_t *f = &p->f[i];
        if (step % f->def->every != 0)
            continue;
        for (int k = 0; k < f->def->points; k++) {
            double x[3], r, v[3];
            point(f, k, x);
            interpolate(c, x, src, &r, v);
            int ok;
            if (si) /* node coordinates to the case's: origin + dx x */
                ok = append(f, "%ld,%.17g,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", step, time, k,
                            c->origin[0] + c->spacing * x[0], c->origin[1] + c->spacing * x[1],
                            c->origin[2] + c->spacing * x[2], v[0] * cu, v[1] * cu, v[2] * cu,
                            tess_units_pressure(&c->units, r), tess_units_density(&c->units, r));
            else
                ok = append(f, "%ld,%.17g,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", step, time, k, x[0], x[1],
                            x[2], v[0], v[1], v[2], r);
            if (!ok)
                return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the rows of %s", f->path);
        }
    }
    return TESS_OK;
}

tess_status tess_probes_sample(tess_probes_t *p, long step, const double *rho, const double *u, tess_error_t *err)
{
    const source_t src = {rho, u, NULL, 0, NULL};
    return sample(p, step, &src, err);
}

tess_status tess_probes_sample_nodes(tess_probes_t *p, long step, const size_t *nodes, size_t n, const double *vals,
                                     tess_error_t *err)
{
    const source_t src = {NULL, NULL, nodes, n, vals};
    return sample(p, step, &src, err);
}

tess_status tess_probes_write(const tess_probes_t *p, tess_error_t *err)
{
    for (int i = 0; i < p->n; i++) {
        tess_file_t w;
        tess_status st = tess_file_begin(&w, p->f[i].path, err);
        if (st != TESS_OK)
            return st;
        fwrite(p->f[i].text, 1, p->f[i].len, w.f);
        if ((st = tess_file_commit(&w, err)) != TESS_OK)
            return st;
    }
    return TESS_OK;
}
