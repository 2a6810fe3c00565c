#include "tess_stl_openings.h"
#include "tess_voxelize.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    double p[3];
    size_t corner; /* 3 * triangle + corner */
} corner_t;

static int cmp_corner(const void *pa, const void *pb)
{
    const corner_t *a = pa, *b = pb;
    for (int k = 0; k < 3; k++)
        if (a->p[k] != b->p[k])
            return a->p[k] < b->p[k] ? -1 : 1;
    return a->corner < b->corner ? -1 : a->corner > b->corner;
}

typedef struct {
    size_t a, b; /* vertex ids, a < b */
    int fwd;     /* the triangle runs a -> b */
} edge_t;

static int cmp_edge(const void *pa, const void *pb)
{
    const edge_t *x = pa, *y = pb;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    return x->b < y->b ? -1 : x->b > y->b;
}

static int cmp_opening(const void *pa, const void *pb)
{
    const tess_stl_opening_t *a = pa, *b = pb;
    for (int k = 0; k < 3; k++)
        if (a->centroid[k] != b->centroid[k])
            return a->centroid[k] < b->centroid[k] ? -1 : 1;
    return 0;
}

typedef struct {
    size_t nv;
    double *pos;     /* 3 per vertex */
    size_t *id;      /* vertex id of each corner (3 per triangle) */
    edge_t *bnd;     /* boundary edges */
    size_t nbnd;
    size_t *loops;   /* vertex ids of all loops, one after the other */
    size_t *loop_at; /* start of loop l in loops; loop_at[nloops] = end */
    unsigned char *along; /* loop l runs the way its triangles run (the cap must run the other way) */
    int nloops;
} work_t;

static void work_free(work_t *w)
{
    free(w->pos);
    free(w->id);
    free(w->bnd);
    free(w->loops);
    free(w->loop_at);
    free(w->along);
}

#define NOMEM(file) tess_fail(err, TESS_ERR_NOMEM, "%s: out of memory finding the openings", file)

/* Exact coordinate matching: the same corner written twice in an STL file has the same numbers. */
static tess_status weld(const tess_stl_mesh_t *m, const char *file, work_t *w, tess_error_t *err)
{
    const size_t nc = 3 * m->ntri;
    corner_t *c = malloc(nc * sizeof *c);
    w->id = malloc(nc * sizeof *w->id);
    w->pos = malloc(3 * nc * sizeof *w->pos);
    if (!c || !w->id || !w->pos) {
        free(c);
        return NOMEM(file);
    }
    for (size_t i = 0; i < nc; i++) {
        for (int k = 0; k < 3; k++)
            c[i].p[k] = m->v[3 * i + k] + 0.0; /* -0 + 0 = +0: the compare below is bitwise */
        c[i].corner = i;
    }
    qsort(c, nc, sizeof *c, cmp_corner);
    w->nv = 0;
    for (size_t i = 0; i < nc; i++) {
        if (i == 0 || memcmp(c[i].p, c[i - 1].p, sizeof c[i].p) != 0) {
            memcpy(w->pos + 3 * w->nv, c[i].p, sizeof c[i].p);
            w->nv++;
        }
        w->id[c[i].corner] = w->nv - 1;
    }
    free(c);
    return TESS_OK;
}

static tess_status find_boundary(const tess_stl_mesh_t *m, const char *file, work_t *w, tess_error_t *err)
{
    edge_t *e = malloc(3 * m->ntri * sizeof *e);
    if (!e)
        return NOMEM(file);
    size_t ne = 0;
    for (size_t t = 0; t < m->ntri; t++) {
        const size_t *v = w->id + 3 * t;
        if (v[0] == v[1] || v[1] == v[2] || v[2] == v[0])
            continue; /* a triangle with a repeated corner encloses nothing */
        for (int k = 0; k < 3; k++) {
            const size_t a = v[k], b = v[(k + 1) % 3];
            e[ne].a = a < b ? a : b;
            e[ne].b = a < b ? b : a;
            e[ne].fwd = a < b;
            ne++;
        }
    }
    qsort(e, ne, sizeof *e, cmp_edge);
    w->bnd = malloc((ne ? ne : 1) * sizeof *w->bnd);
    if (!w->bnd) {
        free(e);
        return NOMEM(file);
    }
    w->nbnd = 0;
    for (size_t i = 0; i < ne;) {
        size_t j = i;
        while (j < ne && e[j].a == e[i].a && e[j].b == e[i].b)
            j++;
        if (j - i >= 3) {
            const double *p = w->pos + 3 * e[i].a, *q = w->pos + 3 * e[i].b;
            const size_t uses = j - i;
            free(e);
            return tess_fail(err, TESS_ERR_INPUT,
                             "%s: non-manifold edge (%g, %g, %g) - (%g, %g, %g): %zu triangles share it (expected 1 "
                             "on an opening or 2 inside the surface)",
                             file, p[0], p[1], p[2], q[0], q[1], q[2], uses);
        }
        if (j - i == 1)
            w->bnd[w->nbnd++] = e[i];
        i = j;
    }
    free(e);
    return TESS_OK;
}

/* Chains the boundary edges into loops; every boundary corner must have exactly two boundary edges. */
static tess_status chain(const char *file, work_t *w, tess_error_t *err)
{
    size_t *deg = calloc(w->nv, sizeof *deg), *nb = malloc(2 * w->nv * sizeof *nb);
    w->loops = malloc((w->nbnd + 1) * sizeof *w->loops);
    w->loop_at = malloc((w->nbnd + 1) * sizeof *w->loop_at);
    w->along = malloc(w->nbnd + 1);
    unsigned char *used = calloc(w->nbnd + 1, 1);
    if (!deg || !nb || !w->loops || !w->loop_at || !w->along || !used) {
        free(deg);
        free(nb);
        free(used);
        return NOMEM(file);
    }
    tess_status st = TESS_OK;
    for (size_t i = 0; i < w->nbnd && st == TESS_OK; i++) {
        const size_t v[2] = {w->bnd[i].a, w->bnd[i].b};
        for (int k = 0; k < 2; k++) {
            if (deg[v[k]] >= 2) {
                /* Count them all for the message. */
                size_t n = 0;
                for (size_t j = 0; j < w->nbnd; j++)
                    n += w->bnd[j].a == v[k] || w->bnd[j].b == v[k];
                const double *p = w->pos + 3 * v[k];
                st = tess_fail(err, TESS_ERR_INPUT,
                               "%s: the surface has a hole that is not a simple closed loop: %zu boundary edges meet "
                               "at the corner (%g, %g, %g) (expected 2)",
                               file, n, p[0], p[1], p[2]);
                break;
            }
            nb[2 * v[k] + deg[v[k]]++] = i; /* edge index */
        }
    }
    /* Walk the loops: from an unused edge, follow the other edge at each corner until back at the start. */
    size_t n = 0;
    w->nloops = 0;
    for (size_t s = 0; s < w->nbnd && st == TESS_OK; s++) {
        if (used[s])
            continue;
        w->along[w->nloops] = (unsigned char)w->bnd[s].fwd; /* the walk starts a -> b */
        w->loop_at[w->nloops++] = n;
        size_t e = s, v = w->bnd[s].a;
        for (;;) {
            used[e] = 1;
            w->loops[n++] = v;
            const size_t next_v = w->bnd[e].a == v ? w->bnd[e].b : w->bnd[e].a;
            if (deg[next_v] != 2) { /* cannot happen after the degree check; kept as a guard */
                const double *p = w->pos + 3 * next_v;
                st = tess_fail(err, TESS_ERR_INPUT,
                               "%s: the surface has a hole that is not a simple closed loop: the boundary ends at "
                               "(%g, %g, %g)",
                               file, p[0], p[1], p[2]);
                break;
            }
            const size_t next_e = nb[2 * next_v] == e ? nb[2 * next_v + 1] : nb[2 * next_v];
            v = next_v;
            e = next_e;
            if (used[e])
                break;
        }
    }
    w->loop_at[w->nloops] = n;
    free(deg);
    free(nb);
    free(used);
    return st;
}

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static void describe_loop(const work_t *w, int l, tess_stl_opening_t *o)
{
    const size_t *L = w->loops + w->loop_at[l];
    const size_t n = w->loop_at[l + 1] - w->loop_at[l];
    memset(o, 0, sizeof *o);
    o->nedges = (int)n;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            o->fan[k] += w->pos[3 * L[i] + k] / (double)n;
    double va[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        double a[3], b[3], c[3];
        for (int k = 0; k < 3; k++) {
            a[k] = w->pos[3 * L[i] + k] - o->fan[k];
            b[k] = w->pos[3 * L[(i + 1) % n] + k] - o->fan[k];
        }
        cross(a, b, c);
        for (int k = 0; k < 3; k++)
            va[k] += 0.5 * c[k];
        /* The fan's unsigned area: a loop that runs back over itself (the two ends of a tube joined along a seam
         * whose corners differ by a rounding error) has a vector area far below it, and no plane to cap. */
        o->fan_area += 0.5 * sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    }
    o->area = sqrt(va[0] * va[0] + va[1] * va[1] + va[2] * va[2]);
    for (int k = 0; k < 3; k++)
        o->normal[k] = o->area > 0 ? va[k] / o->area : 0.0;
    /* Centroid: the fan triangles' centroids weighted by their areas projected on the normal. */
    double wsum = 0.0, cen[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        double a[3], b[3], c[3];
        for (int k = 0; k < 3; k++) {
            a[k] = w->pos[3 * L[i] + k] - o->fan[k];
            b[k] = w->pos[3 * L[(i + 1) % n] + k] - o->fan[k];
        }
        cross(a, b, c);
        const double wt = 0.5 * (c[0] * o->normal[0] + c[1] * o->normal[1] + c[2] * o->normal[2]);
        for (int k = 0; k < 3; k++)
            cen[k] += wt * (a[k] + b[k]) / 3.0;
        wsum += wt;
    }
    for (int k = 0; k < 3; k++)
        o->centroid[k] = o->fan[k] + (wsum != 0.0 ? cen[k] / wsum : 0.0);
    for (size_t i = 0; i < n; i++) {
        double d2 = 0;
        for (int k = 0; k < 3; k++)
            d2 += (w->pos[3 * L[i] + k] - o->centroid[k]) * (w->pos[3 * L[i] + k] - o->centroid[k]);
        o->radius += sqrt(d2) / (double)n;
        o->rmax = fmax(o->rmax, sqrt(d2));
    }
}

typedef struct {
    tess_stl_opening_t o;
    int loop;
} ranked_t;

static int cmp_ranked(const void *a, const void *b)
{
    return cmp_opening(&((const ranked_t *)a)->o, &((const ranked_t *)b)->o);
}

tess_status tess_stl_openings(tess_stl_mesh_t *m, const char *file, tess_stl_opening_t **out, int *nout,
                              tess_error_t *err)
{
    *out = NULL;
    *nout = 0;
    work_t w;
    memset(&w, 0, sizeof w);
    tess_status st = weld(m, file, &w, err);
    if (st == TESS_OK)
        st = find_boundary(m, file, &w, err);
    if (st == TESS_OK)
        st = chain(file, &w, err);
    if (st != TESS_OK || w.nloops == 0) {
        work_free(&w);
        return st;
    }
    ranked_t *r = malloc((size_t)w.nloops * sizeof *r);
    tess_stl_opening_t *o = malloc((size_t)w.nloops * sizeof *o);
    if (!r || !o) {
        free(r);
        free(o);
        work_free(&w);
        return NOMEM(file);
    }
    for (int l = 0; l < w.nloops; l++) {
        describe_loop(&w, l, &r[l].o);
        r[l].loop = l;
        /* Below 1% of the fan's unsigned area the centroid is a quotient of rounding errors (it was reported at
         * -2.7e14 for a tube with a seam off by 1e-16): name the corner average instead, which lies on the loop's
         * hull. A plane or gently bent loop has a ratio near 1 (exactly 1 when star-shaped about its average). */
        if (!(r[l].o.area > TESS_STL_OPENING_MIN_FLAT * r[l].o.fan_area)) {
            const double *c = r[l].o.fan;
            st = tess_fail(err, TESS_ERR_INPUT,
                           "%s: the hole around (%g, %g, %g) (%d boundary edges) encloses %s: expected an open end whose "
                           "boundary is a closed loop (corners that triangles share must have identical coordinates; "
                           "a seam whose corners differ slightly opens the surface along it)",
                           file, c[0], c[1], c[2], r[l].o.nedges, r[l].o.area > 0 ? "almost no area" : "no area");
            break;
        }
    }
    if (st == TESS_OK) {
        qsort(r, (size_t)w.nloops, sizeof *r, cmp_ranked);
        /* Caps: a fan from the corner average over each boundary edge, run against the surface's own
         * triangles on that edge so that a consistently wound surface stays consistently wound. */
        for (int k = 0; k < w.nloops && st == TESS_OK; k++) {
            o[k] = r[k].o;
            const int l = r[k].loop;
            const size_t *L = w.loops + w.loop_at[l];
            const size_t n = w.loop_at[l + 1] - w.loop_at[l];
            const int rev = w.along[l];
            for (size_t i = 0; i < n; i++)
                if (tess_stl_add(m, o[k].fan, w.pos + 3 * L[rev ? (i + 1) % n : i], w.pos + 3 * L[rev ? i : (i + 1) % n],
                                 k) != 0) {
                    st = NOMEM(file);
                    break;
                }
        }
    }
    /* Outward normal: of the two points just off the cap along +-normal, the one outside the capped surface.
     * The test runs on a copy scaled to a bounding box of about 1000 (whatever the file's unit), because the
     * inside test rounds coordinates to 2^-24. */
    tess_stl_mesh_t u;
    memset(&u, 0, sizeof u);
    tess_stl_transform_t fit;
    tess_stl_transform_identity(&fit);
    if (st == TESS_OK) {
        double lo[3], hi[3];
        tess_stl_bounds(m, lo, hi);
        const double d = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
        fit.scale = d > 0 ? 1000.0 / d : 1.0;
        for (int a = 0; a < 3; a++)
            fit.translate[a] = -fit.scale * lo[a];
        u.ntri = u.cap = m->ntri;
        u.v = malloc(9 * m->ntri * sizeof *u.v);
        if (!u.v)
            st = NOMEM(file);
        else {
            memcpy(u.v, m->v, 9 * m->ntri * sizeof *u.v);
            tess_stl_mesh_transform(&u, &fit);
        }
    }
    for (int k = 0; k < w.nloops && st == TESS_OK; k++) {
        const double h = 1e-3 * fmax(o[k].radius, 1e-300);
        double p[3], q[3];
        for (int a = 0; a < 3; a++) {
            p[a] = o[k].fan[a] + h * o[k].normal[a];
            q[a] = o[k].fan[a] - h * o[k].normal[a];
        }
        tess_stl_transform_point(&fit, p, p);
        tess_stl_transform_point(&fit, q, q);
        const int ip = tess_voxelize_contains(&u, p), iq = tess_voxelize_contains(&u, q);
        if (ip == iq) {
            st = tess_fail(err, TESS_ERR_INPUT,
                           "%s: cannot tell inside from outside at the opening around (%g, %g, %g): both sides of its "
                           "cap are %s the capped surface",
                           file, o[k].centroid[0], o[k].centroid[1], o[k].centroid[2], ip ? "inside" : "outside");
            break;
        }
        if (ip)
            for (int a = 0; a < 3; a++)
                o[k].normal[a] = -o[k].normal[a];
    }
    free(r);
    free(u.v);
    if (st != TESS_OK) {
        free(o);
        work_free(&w);
        return st;
    }
    *out = o;
    *nout = w.nloops;
    work_free(&w);
    return TESS_OK;
}

void tess_stl_opening_transform(tess_stl_opening_t *o, const tess_stl_transform_t *t)
{
    tess_stl_transform_point(t, o->centroid, o->centroid);
    tess_stl_transform_point(t, o->fan, o->fan);
    tess_stl_transform_direction(t, o->normal, o->normal);
    o->area *= t->scale * t->scale;
    o->radius *= t->scale;
    o->rmax *= t->scale;
}
