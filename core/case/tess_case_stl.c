#include "tess_case_stl.h"
#include "tess_stl.h"
#include "tess_stl_openings.h"
#include "tess_stl_wall.h"
#include "tess_voxelize.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char name[96];               /* NAME of [stl.NAME] */
    int inside_fluid;
    char path[2100];             /* the STL file, for messages */
    tess_stl_opening_t *open;    /* in lattice coordinates */
    int nopen;
    int *used;                   /* per opening: an inlet or outlet sits on it */
    uint8_t *inside;             /* the voxelized mask, for the cap layers of opening sections */
    tess_stl_wall_t *wall;
} entry_t;

struct tess_case_stl {
    entry_t *e;
    int n;
};

#define TRY(expr)                                                                                                  \
    do {                                                                                                           \
        tess_status st_ = (expr);                                                                                  \
        if (st_ != TESS_OK)                                                                                        \
            return st_;                                                                                            \
    } while (0)

/* Prefixes err's message with the case-file origin of the `file` key. */
static tess_status with_origin(tess_error_t *err, tess_status st, const char *origin, const char *section)
{
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "%s", err->msg);
    return tess_fail(err, st, "%s: [%s]: %s", origin, section, msg);
}

static tess_status load_surface(tess_entries_t *es, const char *s, const char *dir, tess_geometry_t *g, entry_t *en,
                                tess_error_t *err)
{
    char file[1024] = "", origin[1200];
    char *path = en->path;
    TRY(tess_get_string(es, s, "file", 1, file, sizeof file, err));
    tess_entry_origin(es, tess_entry_find(es, s, "file"), origin, sizeof origin);
    if (file[0] == '/' || !dir[0])
        snprintf(path, sizeof en->path, "%s", file);
    else
        snprintf(path, sizeof en->path, "%s/%s", dir, file);
    tess_stl_transform_t t;
    tess_stl_transform_identity(&t);
    TRY(tess_get_double(es, s, "scale", 0.0, INFINITY, 1, 0, &t.scale, NULL, err));
    TRY(tess_get_vec3(es, s, "rotate", 0, t.rotate, NULL, err));
    TRY(tess_get_vec3(es, s, "translate", 0, t.translate, NULL, err));
    static const char *const insides[] = {"fluid", "solid", NULL};
    int in = 0;
    TRY(tess_get_choice(es, s, "inside", insides, &in, NULL, err));
    en->inside_fluid = in == 0;

    tess_stl_mesh_t m;
    tess_status st = tess_stl_read(path, &m, err);
    if (st != TESS_OK)
        return with_origin(err, st, origin, s);
    /* Openings are found and numbered in the file's coordinates, so that turning the surface in the case file
     * does not rename them. */
    st = tess_stl_openings(&m, path, &en->open, &en->nopen, err);
    if (st != TESS_OK) {
        tess_stl_free(&m);
        return with_origin(err, st, origin, s);
    }
    if (en->nopen > 0 && !(en->used = calloc((size_t)en->nopen, sizeof *en->used))) {
        tess_stl_free(&m);
        return tess_fail(err, TESS_ERR_NOMEM, "%s: [%s]: out of memory for the openings", origin, s);
    }
    for (int k = 0; k < en->nopen; k++)
        tess_stl_opening_transform(&en->open[k], &t);
    tess_stl_mesh_transform(&m, &t);
    const size_t nn = (size_t)g->nx * g->ny * g->nz;
    en->inside = malloc(nn);
    if (!en->inside) {
        tess_stl_free(&m);
        return tess_fail(err, TESS_ERR_NOMEM, "%s: [%s]: out of memory for the voxelized surface", origin, s);
    }
    long count = 0;
    st = tess_voxelize(&m, g->nx, g->ny, g->nz, en->inside, &count, err);
    if (st == TESS_OK)
        st = tess_stl_wall_create(&m, &en->wall, err);
    tess_stl_free(&m);
    if (st != TESS_OK) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return tess_fail(err, st, "%s: [%s]: STL file %s: %s", origin, s, path, msg);
    }
    if (count == 0)
        return tess_fail(err, TESS_ERR_INPUT,
                         "%s: [%s]: the surface of %s encloses no node of the %dx%dx%d domain (check scale and "
                         "translate: node (i, j, k) sits at the point (i, j, k))",
                         origin, s, path, g->nx, g->ny, g->nz);
    for (size_t i = 0; i < nn; i++) {
        if (en->inside_fluid)
            g->type[i] = en->inside[i] ? 1 : 0;
        else if (en->inside[i])
            g->type[i] = 0;
    }
    return TESS_OK;
}

tess_status tess_case_stl_section(tess_entries_t *es, const char *section, const char *dir, tess_geometry_t *g,
                                  tess_case_stl_t **list, tess_error_t *err)
{
    if (!*list) {
        *list = calloc(1, sizeof **list);
        if (!*list)
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory for STL sections");
    }
    tess_case_stl_t *l = *list;
    entry_t *ne = realloc(l->e, (size_t)(l->n + 1) * sizeof *ne);
    if (!ne)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for STL sections");
    l->e = ne;
    entry_t *en = &l->e[l->n++];
    memset(en, 0, sizeof *en);
    snprintf(en->name, sizeof en->name, "%s", strchr(section, '.') + 1);
    return load_surface(es, section, dir, g, en, err);
}

/* `opening = NAME.openingK`, `openingK` or `K` (the last two when the case has one STL section). */
static tess_status find_opening(tess_entries_t *es, const char *s, const tess_case_stl_t *l, const entry_t **en,
                                int *k, tess_error_t *err)
{
    tess_entry_t *e = tess_entry_find(es, s, "opening");
    char v[512];
    snprintf(v, sizeof v, "%s", e->value);
    const char *idx = v;
    *en = NULL;
    char *dot = strrchr(v, '.');
    if (dot) {
        *dot = 0;
        idx = dot + 1;
        for (int i = 0; l && i < l->n; i++)
            if (strcmp(l->e[i].name, v) == 0)
                *en = &l->e[i];
        if (!*en)
            return tess_entry_fail(es, e, err, "NAME.openingK naming an [stl.NAME] section above this one");
    } else {
        if (!l || l->n != 1)
            return tess_entry_fail(es, e, err, "NAME.openingK (with %s STL sections above, the STL name is needed)",
                                   l ? "several" : "no");
        *en = &l->e[0];
    }
    if (strncmp(idx, "opening", 7) == 0)
        idx += 7;
    char *end;
    const long kk = strtol(idx, &end, 10);
    if (end == idx || *end || kk < 0 || kk >= (*en)->nopen) {
        if ((*en)->nopen == 0)
            return tess_entry_fail(es, e, err, "an opening of [stl.%s], which has none (its surface is closed)",
                                   (*en)->name);
        return tess_entry_fail(es, e, err, "%s.opening0 .. %s.opening%d", (*en)->name, (*en)->name, (*en)->nopen - 1);
    }
    if (!(*en)->inside_fluid)
        return tess_entry_fail(es, e, err, "an opening of a vessel: [stl.%s] has inside = solid", (*en)->name);
    *k = (int)kk;
    return TESS_OK;
}

tess_status tess_case_stl_opening(tess_entries_t *es, const char *s, int inlet, const tess_case_stl_t *list,
                                  const tess_lattice_t *lattice, tess_geometry_t *g, uint8_t value, tess_material_t *m,
                                  double circle[4], tess_error_t *err)
{
    const entry_t *en = NULL;
    int k = 0;
    TRY(find_opening(es, s, list, &en, &k, err));
    const tess_stl_opening_t *o = &en->open[k];
    en->used[k] = 1;
    memcpy(m->normal, o->normal, sizeof m->normal);
    memcpy(circle, o->centroid, 3 * sizeof *circle);
    circle[3] = o->radius;
    int ax = 0;
    for (int a = 1; a < 3; a++)
        if (fabs(o->normal[a]) > fabs(o->normal[ax]))
            ax = a;
    m->axis = ax;
    m->sign = o->normal[ax] > 0 ? 1 : -1;
    static const char *const methods[] = {"nee", NULL};
    int method = 0;
    TRY(tess_get_choice(es, s, "method", methods, &method, NULL, err));
    m->method = TESS_BC_NEE; /* any orientation: Zou-He needs a plane normal to an axis */
    if (inlet) {
        tess_entry_t *e = tess_entry_find(es, s, "velocity");
        double v[3];
        char extra;
        const int nv = e ? sscanf(e->value, "%lf %lf %lf %c", &v[0], &v[1], &v[2], &extra) : 0;
        if (!e)
            return tess_fail(err, TESS_ERR_INPUT, "%s: [%s]: missing key 'velocity' (a speed into the opening, or ux uy uz)",
                             es->file, s);
        if (strpbrk(e->value, "xX")) /* sscanf reads hexadecimal floats: only decimal numbers are accepted */
            return tess_entry_fail(es, e, err, "one number (the speed into the opening) or three (ux uy uz)");
        if (nv == 1 && isfinite(v[0]))
            for (int a = 0; a < 3; a++)
                m->u[a] = -v[0] * o->normal[a]; /* along the inward normal */
        else if (nv == 3 && isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]))
            memcpy(m->u, v, sizeof v);
        else
            return tess_entry_fail(es, e, err, "one number (the speed into the opening) or three (ux uy uz)");
    } else {
        TRY(tess_get_double(es, s, "density", 0.0, INFINITY, 1, 1, &m->rho, NULL, err));
    }
    /* Cap layer: inside the vessel, at depth 0 <= d < max_i c_i . n behind the cap plane, and within the cap. */
    double dmax = 0;
    for (int i = 0; i < lattice->q; i++)
        dmax = fmax(dmax, lattice->c[i][0] * o->normal[0] + lattice->c[i][1] * o->normal[1] + lattice->c[i][2] * o->normal[2]);
    const double reach = o->rmax + 1.0;
    const int n[3] = {g->nx, g->ny, g->nz};
    int lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = (int)fmax(0, floor(o->centroid[a] - reach - dmax));
        hi[a] = (int)fmin(n[a] - 1, ceil(o->centroid[a] + reach + dmax));
    }
    long count = 0;
    for (int z = lo[2]; z <= hi[2]; z++)
        for (int y = lo[1]; y <= hi[1]; y++)
            for (int x = lo[0]; x <= hi[0]; x++) {
                const size_t i = tess_geometry_index(g, x, y, z);
                if (!en->inside[i])
                    continue;
                const double r[3] = {x - o->centroid[0], y - o->centroid[1], z - o->centroid[2]};
                const double d = -(r[0] * o->normal[0] + r[1] * o->normal[1] + r[2] * o->normal[2]);
                const double lat2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] - d * d;
                if (d >= 0 && d < dmax && lat2 <= reach * reach) {
                    g->type[i] = value;
                    count++;
                }
            }
    if (count == 0)
        return tess_fail(err, TESS_ERR_INPUT,
                         "%s: [%s]: %s.opening%d (centre %.3g %.3g %.3g, radius %.3g nodes) covers no node of the domain",
                         es->file, s, en->name, k, o->centroid[0], o->centroid[1], o->centroid[2], o->radius);
    return TESS_OK;
}

double tess_case_stl_wall_q(void *ctx, const double x[3], const double c[3])
{
    const tess_case_stl_t *l = ctx;
    double best = -1;
    for (int i = 0; l && i < l->n; i++) {
        const double q = l->e[i].wall ? tess_stl_wall_q(l->e[i].wall, x, c) : -1;
        if (q > 0 && (best < 0 || q < best))
            best = q;
    }
    return best;
}

int tess_case_stl_normal(void *ctx, const double x[3], double n[3])
{
    const tess_case_stl_t *l = ctx;
    double best = INFINITY, bn[3] = {0, 0, 0};
    for (int i = 0; l && i < l->n; i++) {
        double d2, tn[3];
        if (l->e[i].wall && tess_stl_wall_nearest(l->e[i].wall, x, &d2, tn) >= 0 && d2 < best) {
            best = d2;
            memcpy(bn, tn, sizeof bn);
        }
    }
    /* A node whose wall is the STL surface has a link crossing it, so the surface is within the longest link,
     * sqrt(3); farther away the wall is another one (a box face, a shape) and keeps the lattice normal. */
    if (!(best <= 3.0 + 1e-9))
        return 0;
    const double s = bn[0] * n[0] + bn[1] * n[1] + bn[2] * n[2] < 0 ? -1.0 : 1.0;
    for (int a = 0; a < 3; a++)
        n[a] = s * bn[a];
    return 1;
}

long tess_case_stl_triangles(const tess_case_stl_t *l, double **v)
{
    *v = NULL;
    size_t total = 0;
    for (int i = 0; l && i < l->n; i++) {
        const double *tv;
        total += l->e[i].wall ? tess_stl_wall_triangles(l->e[i].wall, &tv) : 0;
    }
    if (total == 0)
        return 0;
    *v = malloc(total * 9 * sizeof **v);
    if (!*v)
        return -1;
    size_t at = 0;
    for (int i = 0; i < l->n; i++) {
        const double *tv;
        const size_t nt = l->e[i].wall ? tess_stl_wall_triangles(l->e[i].wall, &tv) : 0;
        memcpy(*v + 9 * at, tv, nt * 9 * sizeof **v);
        at += nt;
    }
    return (long)total;
}

void tess_case_stl_free(tess_case_stl_t *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->n; i++) {
        free(l->e[i].open);
        free(l->e[i].used);
        free(l->e[i].inside);
        tess_stl_wall_destroy(l->e[i].wall);
    }
    free(l->e);
    free(l);
}

int tess_case_stl_unused_openings(const tess_case_stl_t *list, char *buf, size_t len)
{
    for (int i = 0; list && i < list->n; i++) {
        const entry_t *en = &list->e[i];
        int n = 0, edges = 0, first = -1;
        for (int k = 0; k < en->nopen; k++)
            if (!en->used[k]) {
                n++;
                edges += en->open[k].nedges;
                first = first < 0 ? k : first;
            }
        if (n) {
            const double *c = en->open[first].centroid;
            snprintf(buf, len,
                     "%s: %d opening%s with %d open edge%s capped as wall, no inlet or outlet on %s (%s.opening%d "
                     "around (%.4g, %.4g, %.4g)): a missing facet?",
                     en->path, n, n > 1 ? "s" : "", edges, edges > 1 ? "s" : "", n > 1 ? "them" : "it", en->name,
                     first, c[0], c[1], c[2]);
            return 1;
        }
    }
    return 0;
}
