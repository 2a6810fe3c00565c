/* Case files: libinih reads the entries, this file gives them meaning (docs/case-format.md). Geometry
 * sections are applied in the order they first appear, each painting over what came before. */
#include "tess_case.h"
#include "tess_backend.h"
#include "tess_case_analysis.h"
#include "tess_case_entries.h"
#include "tess_case_stl.h"
#include "tess_memory.h"
#include "tess_physics_q.h"
#include "tess_shapes.h"
#include "tess_units.h"
#include "tess_voxels.h"
#include "tess_waveform_csv.h"
#include "tess_womersley_build.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const fixed_sections[] = {"case", "lattice", "domain", "physics", "init", "run", "forces", "units", NULL};
static const char *const geo_kinds[] = {"solid", "fluid", "wall", "inlet", "outlet", "voxels", "spheres", "stl", NULL};
enum { GEO_SOLID, GEO_FLUID, GEO_WALL, GEO_INLET, GEO_OUTLET, GEO_VOXELS, GEO_SPHERES, GEO_STL };

typedef struct {
    tess_entries_t es;
    tess_case_t *c;
    char dir[TESS_CASE_PATH_MAX]; /* folder of the case file: relative paths inside it start there */
    tess_error_t *err;
    char voxels[2 * TESS_CASE_PATH_MAX + 1300]; /* "<case line>: voxel file <path>" of the last voxel file read */
    double wom_radius[TESS_MAX_WOMERSLEY];      /* radius of each Womersley inlet's opening (womersley_tables) */
    char wom_origin[TESS_MAX_WOMERSLEY][1300];  /* "<case line>: key 'profile' in [inlet.NAME]" */
} ctx_t;

#define TRY(expr)                                                                                                  \
    do {                                                                                                           \
        tess_status st_ = (expr);                                                                                  \
        if (st_ != TESS_OK)                                                                                        \
            return st_;                                                                                            \
    } while (0)

tess_status tess_pattern_from_name(const char *name, tess_pattern *out, tess_error_t *err)
{
    static const struct {
        const char *name;
        tess_pattern value;
    } table[] = {{"ab", TESS_PATTERN_AB}, {"aa", TESS_PATTERN_AA}, {"mr", TESS_PATTERN_MR}};
    char names[128] = "";
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(name, table[i].name) == 0) {
            *out = table[i].value;
            return TESS_OK;
        }
        strncat(names, i ? ", " : "", sizeof names - strlen(names) - 1);
        strncat(names, table[i].name, sizeof names - strlen(names) - 1);
    }
    return tess_fail(err, TESS_ERR_INPUT, "unknown pattern '%s': this build has %s", name, names);
}

static const char *geo_kind_of(const char *section, int *kind)
{
    const char *dot = strchr(section, '.');
    if (!dot || !dot[1])
        return NULL;
    for (int k = 0; geo_kinds[k]; k++)
        if (strlen(geo_kinds[k]) == (size_t)(dot - section) && strncmp(section, geo_kinds[k], (size_t)(dot - section)) == 0) {
            *kind = k;
            return dot + 1;
        }
    return NULL;
}

static tess_status check_sections(ctx_t *x)
{
    for (int i = 0; i < x->es.n; i++) {
        const tess_entry_t *e = &x->es.e[i];
        int known = 0, kind;
        for (int k = 0; fixed_sections[k]; k++)
            known |= strcmp(e->section, fixed_sections[k]) == 0;
        if (known || geo_kind_of(e->section, &kind) || tess_case_analysis_section(e->section))
            continue;
        char origin[1200];
        return tess_fail(x->err, TESS_ERR_INPUT,
                         "%s: unknown section [%s]: expected case, lattice, domain, physics, init, run, forces, units, "
                         "wss, average or solid.NAME, fluid.NAME, wall.NAME, inlet.NAME, outlet.NAME, voxels.NAME, "
                         "spheres.NAME, stl.NAME, probe.NAME, line.NAME",
                         tess_entry_origin(&x->es, e, origin, sizeof origin), e->section);
    }
    return TESS_OK;
}

static tess_status check_unused(ctx_t *x)
{
    for (int i = 0; i < x->es.n; i++) {
        const tess_entry_t *e = &x->es.e[i];
        if (e->used)
            continue;
        char origin[1200];
        tess_entry_origin(&x->es, e, origin, sizeof origin);
        if (e->line > 0)
            return tess_fail(x->err, TESS_ERR_INPUT, "%s: unknown key '%s' in [%s] (docs/case-format.md lists the keys)",
                             origin, e->key, e->section);
        return tess_fail(x->err, TESS_ERR_INPUT, "%s: unknown key '%s' in [%s] (docs/case-format.md lists the keys)",
                         origin, e->key, e->section);
    }
    return TESS_OK;
}

/* A path from the case file: absolute, or relative to the case file's folder. */
static void resolve(const ctx_t *x, const char *p, char *out, size_t len)
{
    int n;
    if (p[0] == '/' || !x->dir[0])
        n = snprintf(out, len, "%s", p);
    else
        n = snprintf(out, len, "%s/%s", x->dir, p);
    if (n >= (int)len)
        out[len - 1] = 0; /* over-long paths then fail to open, with their name in the message */
}

static tess_status read_domain(ctx_t *x)
{
    tess_case_t *c = x->c;
    long n[3] = {0, 0, 0};
    static const char *const keys[3] = {"nx", "ny", "nz"};
    for (int a = 0; a < 3; a++)
        TRY(tess_get_long(&x->es, "domain", keys[a], 1, 4096, 1, &n[a], x->err));
    int periodic[3] = {0, 0, 0};
    tess_entry_t *e = tess_entry_find(&x->es, "domain", "periodic");
    if (e && strcmp(e->value, "none") != 0) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", e->value);
        for (char *tok = strtok(buf, " ,\t"); tok; tok = strtok(NULL, " ,\t")) {
            if (strlen(tok) != 1 || tok[0] < 'x' || tok[0] > 'z')
                return tess_entry_fail(&x->es, e, x->err, "a list of axes from x, y, z (or none)");
            periodic[tok[0] - 'x'] = 1;
        }
    }
    c->spacing = 1.0;
    TRY(tess_get_double(&x->es, "domain", "spacing", 0.0, INFINITY, 1, 0, &c->spacing, NULL, x->err));
    TRY(tess_get_vec3(&x->es, "domain", "origin", 0, c->origin, NULL, x->err));
    if ((double)n[0] * n[1] * n[2] > 2.0e9)
        return tess_fail(x->err, TESS_ERR_INPUT, "%s: [domain]: %ldx%ldx%ld nodes is more than 2e9", x->es.file, n[0],
                         n[1], n[2]);
    /* The node-type grid is one byte a node; check it fits before allocating (and touching) it. */
    char what[1200];
    snprintf(what, sizeof what, "%s: [domain]: the %ldx%ldx%ld node-type grid", x->es.file, n[0], n[1], n[2]);
    TRY(tess_memory_check((size_t)n[0] * (size_t)n[1] * (size_t)n[2], what, x->err));
    if (tess_geometry_init(&c->geometry, (int)n[0], (int)n[1], (int)n[2], 1) != 0)
        return tess_fail(x->err, TESS_ERR_NOMEM, "out of memory for a %ldx%ldx%ld domain", n[0], n[1], n[2]);
    memcpy(c->geometry.periodic, periodic, sizeof periodic);
    return TESS_OK;
}

static void note_speed(tess_case_t *c, const double u[3])
{
    const double s = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    if (s > c->max_lattice_speed)
        c->max_lattice_speed = s;
}

static tess_status read_physics(ctx_t *x)
{
    tess_case_t *c = x->c;
    tess_params_t *p = &c->params;
    static const char *const collisions[] = {"lbgk", "mrt", "regularized", NULL}; /* tess_collision_model order */
    static const char *const fluids[] = {"incompressible", "quasi", NULL};
    int v = 0, has_collision = 0;
    if (tess_get_choice(&x->es, "physics", "collision", collisions, &v, &has_collision, x->err) != TESS_OK)
        return TESS_ERR_INPUT;
    p->collision = v;
    if (!has_collision && p->lattice == TESS_LATTICE_D3Q13)
        p->collision = TESS_COLLISION_MRT; /* the D3Q13 lattice has only its MRT model */
    v = 0;
    if (tess_get_choice(&x->es, "physics", "fluid", fluids, &v, NULL, x->err) != TESS_OK)
        return TESS_ERR_INPUT;
    p->fluid = v;

    double tau = 0.6, re = 0, vel = 0, mach = 0, len = 0;
    int has_tau, has_re, has_vel, has_mach, has_len;
    TRY(tess_get_double(&x->es, "physics", "tau", 0.5, INFINITY, 1, 0, &tau, &has_tau, x->err));
    TRY(tess_get_double(&x->es, "physics", "re", 0.0, INFINITY, 1, 0, &re, &has_re, x->err));
    TRY(tess_get_double(&x->es, "physics", "velocity", 0.0, INFINITY, 1, 0, &vel, &has_vel, x->err));
    TRY(tess_get_double(&x->es, "physics", "mach", 0.0, INFINITY, 1, 0, &mach, &has_mach, x->err));
    TRY(tess_get_double(&x->es, "physics", "length", 0.0, INFINITY, 1, 0, &len, &has_len, x->err));
    if (has_re) {
        if (has_tau)
            return tess_fail(x->err, TESS_ERR_INPUT, "%s: [physics]: give either tau or re (with velocity or mach, and length), not both",
                             x->es.file);
        if (has_vel == has_mach || !has_len)
            return tess_fail(x->err, TESS_ERR_INPUT,
                             "%s: [physics]: re needs length and exactly one of velocity and mach", x->es.file);
        /* nu = U L / Re, tau = 3 nu + 1/2 (lattice units); U = Ma c_s with c_s = 1/sqrt(3). */
        const double u = has_vel ? vel : mach / sqrt(3.0);
        tau = 3.0 * u * len / re + 0.5;
        const double uu[3] = {u, 0, 0};
        note_speed(c, uu);
    } else if (has_vel || has_mach || has_len) {
        return tess_fail(x->err, TESS_ERR_INPUT, "%s: [physics]: velocity, mach and length are used only with re",
                         x->es.file);
    }
    tess_params_set_tau(p, tau);
    /* MRT rates of the non-hydrodynamic moments; which moments a key sets depends on the lattice (tess_params.h). */
    const tess_lattice_id lat = (tess_lattice_id)p->lattice;
    if (!tess_q_supports(lat, p->collision) && tess_entry_find(&x->es, "physics", "collision"))
        return tess_entry_fail(&x->es, tess_entry_find(&x->es, "physics", "collision"), x->err,
                               "a collision model of the %s lattice (D2Q9 and D3Q19: lbgk, mrt, regularized; D3Q13: mrt; "
                               "D3Q27: lbgk, regularized)", c->lattice);
    char valid[128] = "";
    for (int r = 0; r < TESS_PARAMS_RATE_KEYS; r++) {
        int idx[3];
        if (tess_params_rate_moments(lat, r, idx) > 0)
            snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s", valid[0] ? ", " : "",
                     tess_params_rate_key(r));
    }
    for (int r = 0; r < TESS_PARAMS_RATE_KEYS; r++) {
        const char *key = tess_params_rate_key(r);
        int idx[3];
        const int n = tess_params_rate_moments(lat, r, idx);
        if (n == 0) {
            const tess_entry_t *e = tess_entry_find(&x->es, "physics", key);
            if (e)
                return tess_entry_fail(&x->es, e, x->err, "a key of the %s lattice's MRT rates (%s; docs/lattices.md)",
                                       c->lattice, valid[0] ? valid : "none");
            continue;
        }
        double s = p->s[idx[0]];
        TRY(tess_get_double(&x->es, "physics", key, 0.0, 2.0, 1, 0, &s, NULL, x->err));
        for (int k = 0; k < n; k++)
            p->s[idx[k]] = s;
    }
    int has_force;
    TRY(tess_get_vec3(&x->es, "physics", "force", 0, p->force, &has_force, x->err));
    p->use_force = has_force && (p->force[0] != 0 || p->force[1] != 0 || p->force[2] != 0);
    /* Curved walls: links whose wall distance a shape or STL surface knows use interpolated bounce-back. */
    static const char *const walls[] = {"bounce-back", "bouzidi-linear", "bouzidi-quadratic", NULL}; /* tess_wall_model */
    v = TESS_WALL_BOUNCE_BACK;
    TRY(tess_get_choice(&x->es, "physics", "wall", walls, &v, NULL, x->err));
    p->wall = v;
    return TESS_OK;
}

static tess_status new_material(ctx_t *x, const char *section, tess_node_kind kind, uint8_t *index)
{
    tess_params_t *p = &x->c->params;
    if (p->nmat >= TESS_MAX_MATERIALS)
        return tess_fail(x->err, TESS_ERR_INPUT, "%s: [%s]: too many boundary sections (at most %d materials)",
                         x->es.file, section, TESS_MAX_MATERIALS);
    *index = (uint8_t)p->nmat;
    memset(&p->mat[p->nmat], 0, sizeof p->mat[0]);
    p->mat[p->nmat].kind = kind;
    p->mat[p->nmat].rho = 1.0;
    snprintf(x->c->mat_name[p->nmat], sizeof x->c->mat_name[0], "%s", section);
    p->nmat++;
    return TESS_OK;
}

static tess_status read_shape(ctx_t *x, const char *s, tess_shape_t *sh)
{
    static const char *const shapes[] = {"box", "sphere", "cylinder", NULL};
    static const char *const faces[] = {"-x", "+x", "-y", "+y", "-z", "+z", NULL};
    int k = -1, f = -1;
    /* face = -x|+x|...: the whole one-node-thick plane on that face of the domain, whatever its size, so that
     * inlets and outlets follow --set domain.nx=N. */
    TRY(tess_get_choice(&x->es, s, "face", faces, &f, NULL, x->err));
    if (f >= 0) {
        if (tess_entry_find(&x->es, s, "shape") || tess_entry_find(&x->es, s, "min") || tess_entry_find(&x->es, s, "max"))
            return tess_fail(x->err, TESS_ERR_INPUT, "%s: [%s]: give either face or shape (with min, max), not both",
                             x->es.file, s);
        const int n[3] = {x->c->geometry.nx, x->c->geometry.ny, x->c->geometry.nz};
        memset(sh, 0, sizeof *sh);
        sh->kind = TESS_SHAPE_BOX;
        for (int a = 0; a < 3; a++)
            sh->b[a] = n[a] - 1;
        if (f % 2)
            sh->a[f / 2] = n[f / 2] - 1;
        else
            sh->b[f / 2] = 0;
        return TESS_OK;
    }
    TRY(tess_get_choice(&x->es, s, "shape", shapes, &k, NULL, x->err));
    if (k < 0)
        return tess_fail(x->err, TESS_ERR_INPUT, "%s: [%s]: missing key 'shape' (box, sphere or cylinder) or 'face'",
                         x->es.file, s);
    memset(sh, 0, sizeof *sh);
    sh->kind = (tess_shape_kind)k;
    if (k == TESS_SHAPE_BOX) {
        TRY(tess_get_vec3(&x->es, s, "min", 1, sh->a, NULL, x->err));
        TRY(tess_get_vec3(&x->es, s, "max", 1, sh->b, NULL, x->err));
        for (int a = 0; a < 3; a++)
            if (sh->b[a] < sh->a[a])
                return tess_entry_fail(&x->es, tess_entry_find(&x->es, s, "max"), x->err,
                                       "max >= min on every axis");
        return TESS_OK;
    }
    TRY(tess_get_double(&x->es, s, "radius", 0.0, INFINITY, 1, 1, &sh->r, NULL, x->err));
    if (k == TESS_SHAPE_SPHERE)
        return tess_get_vec3(&x->es, s, "center", 1, sh->a, NULL, x->err);
    /* Cylinder: two end points, or centre + axis (x, y or z) + length. */
    int has_p0, has_p1;
    TRY(tess_get_vec3(&x->es, s, "p0", 0, sh->a, &has_p0, x->err));
    TRY(tess_get_vec3(&x->es, s, "p1", 0, sh->b, &has_p1, x->err));
    if (has_p0 && has_p1)
        return TESS_OK;
    if (has_p0 || has_p1)
        return tess_fail(x->err, TESS_ERR_INPUT, "%s: [%s]: a cylinder needs both p0 and p1 (or center, axis, length)",
                         x->es.file, s);
    static const char *const axes[] = {"x", "y", "z", NULL};
    int axis = -1;
    double c[3], len = 0;
    TRY(tess_get_vec3(&x->es, s, "center", 1, c, NULL, x->err));
    TRY(tess_get_choice(&x->es, s, "axis", axes, &axis, NULL, x->err));
    if (axis < 0)
        return tess_fail(x->err, TESS_ERR_INPUT, "%s: [%s]: missing key 'axis' (x, y or z)", x->es.file, s);
    TRY(tess_get_double(&x->es, s, "length", 0.0, INFINITY, 1, 1, &len, NULL, x->err));
    memcpy(sh->a, c, sizeof c);
    memcpy(sh->b, c, sizeof c);
    sh->a[axis] -= 0.5 * len;
    sh->b[axis] += 0.5 * len;
    return TESS_OK;
}

/* Outward normal of an inlet or outlet: given as normal = -x|+x|..., or inferred from a one-node-thick box
 * lying on a domain face. */
static tess_status read_normal(ctx_t *x, const char *s, const tess_shape_t *sh, tess_material_t *m)
{
    static const char *const normals[] = {"-x", "+x", "-y", "+y", "-z", "+z", NULL};
    int k = -1;
    /* method = nee works at any orientation: the normal may be any vector (normalised here). */
    tess_entry_t *ne = tess_entry_find(&x->es, s, "normal");
    int named = 0;
    for (int i = 0; ne && normals[i]; i++)
        named |= strcmp(ne->value, normals[i]) == 0;
    if (ne && !named && m->method == TESS_BC_NEE) {
        double v[3];
        TRY(tess_get_vec3(&x->es, s, "normal", 1, v, NULL, x->err));
        const double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if (!(len > 0.0) || !isfinite(len))
            return tess_entry_fail(&x->es, ne, x->err, "a non-zero vector or -x, +x, -y, +y, -z, +z");
        int a = 0;
        for (int i = 0; i < 3; i++) {
            m->normal[i] = v[i] / len;
            if (fabs(v[i]) > fabs(v[a]))
                a = i;
        }
        m->axis = a; /* the dominant axis, for anything that wants an axis-aligned face */
        m->sign = v[a] > 0 ? 1 : -1;
        return TESS_OK;
    }
    if (ne && !named)
        return tess_entry_fail(&x->es, ne, x->err, "-x, +x, -y, +y, -z or +z (any vector needs method = nee)");
    TRY(tess_get_choice(&x->es, s, "normal", normals, &k, NULL, x->err));
    if (k >= 0) {
        m->axis = k / 2;
        m->sign = k % 2 ? 1 : -1;
        m->normal[m->axis] = m->sign;
        return TESS_OK;
    }
    const int n[3] = {x->c->geometry.nx, x->c->geometry.ny, x->c->geometry.nz};
    if (sh->kind == TESS_SHAPE_BOX)
        for (int a = 0; a < 3; a++) {
            if (sh->b[a] <= 0.0) {
                m->axis = a;
                m->sign = -1;
                m->normal[a] = -1.0;
                return TESS_OK;
            }
            if (sh->a[a] >= n[a] - 1) {
                m->axis = a;
                m->sign = 1;
                m->normal[a] = 1.0;
                return TESS_OK;
            }
        }
    return tess_fail(x->err, TESS_ERR_INPUT,
                     "%s: [%s]: cannot infer the outward normal (the box does not lie on a domain face): give normal = "
                     "-x, +x, -y, +y, -z or +z",
                     x->es.file, s);
}

/* profile = uniform | parabolic | womersley of an inlet (tess_inlet.h). Parabolic needs method = nee (the engine's
 * extrapolation computes each node's velocity; the Zou-He and finite-difference planes are uniform) and an
 * axis-aligned normal (the parabola runs across the other axes); profile_walls places its walls once the geometry
 * is complete. Womersley needs nee and a circular opening: circle (centre x y z, radius) of an STL opening, or a
 * cylinder shape sh whose axis is the normal; womersley_tables builds its table once the waveform is known. An
 * outlet has no velocity to shape. */
static tess_status read_profile(ctx_t *x, const char *s, int kind, tess_material_t *m, const tess_shape_t *sh,
                                const double circle[4])
{
    static const char *const profiles[] = {"uniform", "parabolic", "womersley", NULL}; /* tess_inlet_profile order */
    static const char *const method_names[] = {"zou-he", "fd", "nee"};
    tess_entry_t *e = tess_entry_find(&x->es, s, "profile");
    if (!e)
        return TESS_OK;
    char origin[1200];
    tess_entry_origin(&x->es, e, origin, sizeof origin);
    if (kind != GEO_INLET)
        return tess_fail(x->err, TESS_ERR_INPUT,
                         "%s: key 'profile' in [%s]: an outlet prescribes a density, not a velocity profile (profile "
                         "is an inlet key)",
                         origin, s);
    int profile = TESS_PROFILE_UNIFORM;
    TRY(tess_get_choice(&x->es, s, "profile", profiles, &profile, NULL, x->err));
    if (profile != TESS_PROFILE_UNIFORM && m->method != TESS_BC_NEE)
        return tess_fail(x->err, TESS_ERR_INPUT,
                         "%s: key 'profile' in [%s]: %s needs method = nee (the %s inlet is uniform only)", origin, s,
                         profiles[profile], method_names[m->method]);
    int axes = 0;
    for (int a = 0; a < 3; a++)
        axes += m->normal[a] != 0.0;
    if (profile == TESS_PROFILE_PARABOLIC && (axes != 1 || circle))
        return tess_fail(x->err, TESS_ERR_INPUT,
                         "%s: key 'profile' in [%s]: parabolic needs an axis-aligned normal (-x, +x, -y, +y, -z or +z)%s",
                         origin, s, circle ? " and a shape, not an STL opening (womersley fits a circular opening)" : "");
    m->profile = profile;
    if (profile != TESS_PROFILE_WOMERSLEY)
        return TESS_OK;
    double centre[3], radius;
    if (circle) {
        memcpy(centre, circle, sizeof centre);
        radius = circle[3];
    } else {
        if (!sh || sh->kind != TESS_SHAPE_CYLINDER)
            return tess_fail(x->err, TESS_ERR_INPUT,
                             "%s: key 'profile' in [%s]: womersley needs a circular opening: an STL opening (opening = "
                             "NAME.openingK) or shape = cylinder (the tube's cross-section), got %s",
                             origin, s, !sh ? "a face" : sh->kind == TESS_SHAPE_BOX ? "a box" : "a sphere");
        const double d[3] = {sh->b[0] - sh->a[0], sh->b[1] - sh->a[1], sh->b[2] - sh->a[2]};
        const double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        const double along = len > 0 ? fabs(d[0] * m->normal[0] + d[1] * m->normal[1] + d[2] * m->normal[2]) / len : 0;
        if (!(along > 1.0 - 1e-9))
            return tess_fail(x->err, TESS_ERR_INPUT,
                             "%s: key 'profile' in [%s]: womersley needs the cylinder's axis (p0 to p1) along the "
                             "inlet's normal (%g %g %g)",
                             origin, s, m->normal[0], m->normal[1], m->normal[2]);
        memcpy(centre, sh->a, sizeof centre);
        radius = sh->r;
    }
    tess_params_t *p = &x->c->params;
    if (p->nwom == TESS_MAX_WOMERSLEY)
        return tess_fail(x->err, TESS_ERR_INPUT, "%s: key 'profile' in [%s]: a case holds at most %d womersley inlets",
                         origin, s, TESS_MAX_WOMERSLEY);
    tess_womersley_t *w = &p->wom[p->nwom];
    memcpy(w->centre, centre, sizeof w->centre);
    memcpy(w->normal, m->normal, sizeof w->normal);
    x->wom_radius[p->nwom] = radius;
    snprintf(x->wom_origin[p->nwom], sizeof x->wom_origin[0], "%s: key 'profile' in [%s]", origin, s);
    m->womersley = ++p->nwom;
    return TESS_OK;
}

/* The tables of the Womersley inlets (tess_womersley_build.h), from their openings, the viscosity and their
 * waveforms; their peak speed enters the Mach warning, and a waveform that its first modes do not follow to 2%
 * leaves a warning. */
static void womersley_tables(ctx_t *x)
{
    tess_case_t *c = x->c;
    tess_params_t *p = &c->params;
    const double nu = (p->tau - 0.5) / 3.0;
    for (int k = 0; k < p->nmat; k++) {
        tess_material_t *m = &p->mat[k];
        if (m->kind != TESS_NODE_VELOCITY || m->profile != TESS_PROFILE_WOMERSLEY || m->womersley <= 0)
            continue;
        const int i = m->womersley - 1;
        tess_womersley_t *w = &p->wom[i];
        const double centre[3] = {w->centre[0], w->centre[1], w->centre[2]};
        const double normal[3] = {w->normal[0], w->normal[1], w->normal[2]};
        const double dev = tess_womersley_build(w, centre, normal, x->wom_radius[i], nu,
                                                m->waveform > 0 ? &p->wave[m->waveform - 1] : NULL);
        const double f = tess_womersley_peak(w);
        const double u[3] = {f * m->u[0], f * m->u[1], f * m->u[2]};
        note_speed(c, u);
        if (dev > 0.02) {
            const size_t used = strlen(c->warning);
            snprintf(c->warning + used, sizeof c->warning - used,
                     "%s%s: womersley: the waveform's first %d Fourier modes depart from it by %.1f%% of its peak (the "
                     "inlet's flow rate follows the modes; a smoother waveform follows the file more closely)",
                     used ? "; " : "", x->wom_origin[i], TESS_WOMERSLEY_MODES, 100.0 * dev);
        }
    }
}

/* waveform = FILE of an inlet or outlet (tess_inlet.h, tess_waveform_csv.h): the table (its times in time steps,
 * or with [units] in the case's time unit, divided by dt here; its values are factors and need no conversion)
 * goes into the case's parameters (identical tables share one slot) and the material names it. Finite-difference
 * planes have no time dependence; nee and Zou-He have. */
static tess_status read_waveform(ctx_t *x, const char *s, tess_material_t *m)
{
    tess_entry_t *e = tess_entry_find(&x->es, s, "waveform");
    if (!e)
        return TESS_OK;
    char where[1200], origin[1400], path[2 * TESS_CASE_PATH_MAX];
    tess_entry_origin(&x->es, e, where, sizeof where);
    snprintf(origin, sizeof origin, "%s: key 'waveform' in [%s]", where, s);
    if (m->method == TESS_BC_FINITE_DIFFERENCE)
        return tess_fail(x->err, TESS_ERR_INPUT, "%s: a waveform needs method = nee or zou-he (fd planes are steady)",
                         origin);
    if (!e->value[0])
        return tess_fail(x->err, TESS_ERR_INPUT, "%s: expected a CSV file name, got ''", origin);
    resolve(x, e->value, path, sizeof path);
    tess_waveform_t w;
    TRY(tess_waveform_csv_read(path, origin, &w, x->err));
    if (x->c->units.active) /* [units]: the times are in the case's time unit */
        for (int i = 0; i < w.n; i++)
            w.t[i] /= x->c->units.dt;
    tess_params_t *p = &x->c->params;
    int slot = 0;
    for (int i = 0; i < p->nwave && !slot; i++)
        if (memcmp(&p->wave[i], &w, sizeof w) == 0)
            slot = i + 1;
    if (!slot) {
        if (p->nwave == TESS_MAX_WAVEFORMS)
            return tess_fail(x->err, TESS_ERR_INPUT, "%s: a case holds at most %d different waveforms", origin,
                             TESS_MAX_WAVEFORMS);
        p->wave[p->nwave++] = w;
        slot = p->nwave;
    }
    m->waveform = slot;
    if (m->kind == TESS_NODE_VELOCITY) {
        const double f = tess_waveform_max_abs(&w);
        const double u[3] = {f * m->u[0], f * m->u[1], f * m->u[2]};
        note_speed(x->c, u);
    }
    return TESS_OK;
}

/* Walls of the parabolic inlets: across every axis but the normal's, half a node outside the outermost nodes
 * the inlet kept after all sections painted (where halfway bounce-back puts the walls of a channel whose
 * cross-section the inlet fills); periodic and one-node-thick axes have no walls. */
static void profile_walls(tess_case_t *c)
{
    const tess_geometry_t *g = &c->geometry;
    const int n[3] = {g->nx, g->ny, g->nz};
    for (int k = 0; k < c->params.nmat; k++) {
        tess_material_t *m = &c->params.mat[k];
        if (m->kind != TESS_NODE_VELOCITY || m->profile != TESS_PROFILE_PARABOLIC)
            continue;
        int lo[3] = {n[0], n[1], n[2]}, hi[3] = {-1, -1, -1};
        for (int z = 0; z < n[2]; z++)
            for (int y = 0; y < n[1]; y++)
                for (int xx = 0; xx < n[0]; xx++) {
                    if (g->type[tess_geometry_index(g, xx, y, z)] != k)
                        continue;
                    const int at[3] = {xx, y, z};
                    for (int a = 0; a < 3; a++) {
                        lo[a] = at[a] < lo[a] ? at[a] : lo[a];
                        hi[a] = at[a] > hi[a] ? at[a] : hi[a];
                    }
                }
        for (int a = 0; a < 3; a++) {
            const int across = a != m->axis && n[a] > 1 && !g->periodic[a] && hi[a] >= lo[a];
            m->wall_lo[a] = across ? lo[a] - 0.5 : 0.0;
            m->wall_hi[a] = across ? hi[a] + 0.5 : 0.0;
        }
    }
}

/* solid.NAME and wall.NAME: `body = yes` makes the section a named body whose force the monitor reports (a
 * solid gets its own material of kind TESS_NODE_SOLID, so that its nodes say which body they belong to). The
 * section's shape is remembered for the wall distances (tess_wall_q.h) unless it is a domain face. */
static tess_status read_body(ctx_t *x, const char *s, int kind, const tess_shape_t *sh, uint8_t *value)
{
    tess_case_t *c = x->c;
    static const char *const yesno[] = {"no", "yes", NULL};
    int body = 0;
    TRY(tess_get_choice(&x->es, s, "body", yesno, &body, NULL, x->err));
    if (body) {
        const char *name = strchr(s, '.') + 1;
        for (int b = 0; b < c->forces.nbody; b++)
            if (strcmp(c->forces.name[b], name) == 0)
                return tess_fail(x->err, TESS_ERR_INPUT, "%s: [%s]: a body named '%s' exists already", x->es.file, s,
                                 name);
        if (strlen(name) >= sizeof c->forces.name[0])
            return tess_fail(x->err, TESS_ERR_INPUT, "%s: [%s]: body name longer than %zu characters", x->es.file, s,
                             sizeof c->forces.name[0] - 1);
        if (kind == GEO_SOLID)
            TRY(new_material(x, s, TESS_NODE_SOLID, value));
        c->forces.material[c->forces.nbody] = *value;
        snprintf(c->forces.name[c->forces.nbody], sizeof c->forces.name[0], "%s", name);
        c->forces.nbody++;
    }
    if (tess_entry_find(&x->es, s, "face"))
        return TESS_OK;
    tess_case_shape_t *n = realloc(c->shapes, (size_t)(c->nshapes + 1) * sizeof *n);
    if (!n)
        return tess_fail(x->err, TESS_ERR_NOMEM, "out of memory for the shape list");
    c->shapes = n;
    c->shapes[c->nshapes].shape = *sh;
    c->shapes[c->nshapes].material = *value;
    c->nshapes++;
    return TESS_OK;
}

/* [forces]: reference values of the drag and lift coefficients C = 2 F / (rho U^2 A) of every body. */
static tess_status read_forces(ctx_t *x)
{
    tess_case_forces_t *f = &x->c->forces;
    static const char *const axes[] = {"x", "y", "z", NULL};
    int has_u, has_a;
    f->ref_density = 1.0;
    f->drag_axis = 0;
    f->lift_axis = 1;
    TRY(tess_get_double(&x->es, "forces", "ref_velocity", 0.0, INFINITY, 1, 0, &f->ref_velocity, &has_u, x->err));
    TRY(tess_get_double(&x->es, "forces", "ref_area", 0.0, INFINITY, 1, 0, &f->ref_area, &has_a, x->err));
    TRY(tess_get_double(&x->es, "forces", "ref_density", 0.0, INFINITY, 1, 0, &f->ref_density, NULL, x->err));
    TRY(tess_get_choice(&x->es, "forces", "drag_axis", axes, &f->drag_axis, NULL, x->err));
    TRY(tess_get_choice(&x->es, "forces", "lift_axis", axes, &f->lift_axis, NULL, x->err));
    int any = 0;
    for (int i = 0; i < x->es.n; i++)
        any |= strcmp(x->es.e[i].section, "forces") == 0;
    if (!any)
        return TESS_OK;
    if (has_u != has_a)
        return tess_fail(x->err, TESS_ERR_INPUT, "%s: [forces]: ref_velocity and ref_area go together (give both)",
                         x->es.file);
    if (f->drag_axis == f->lift_axis)
        return tess_fail(x->err, TESS_ERR_INPUT, "%s: [forces]: drag_axis and lift_axis are both %s", x->es.file,
                         axes[f->drag_axis]);
    if (f->nbody == 0)
        return tess_fail(x->err, TESS_ERR_INPUT,
                         "%s: [forces]: no body to report: set body = yes in a solid.NAME or wall.NAME section",
                         x->es.file);
    f->coefficients = has_u && has_a;
    return TESS_OK;
}

/* inlet.NAME / outlet.NAME on an opening of an STL surface (core/case/tess_case_stl.h). */
static tess_status read_opening(ctx_t *x, const char *s, int kind)
{
    uint8_t value = 1;
    TRY(new_material(x, s, kind == GEO_INLET ? TESS_NODE_VELOCITY : TESS_NODE_PRESSURE, &value));
    tess_material_t *m = &x->c->params.mat[value];
    const tess_lattice_t *lat = tess_lattice_get((tess_lattice_id)x->c->params.lattice);
    double circle[4];
    TRY(tess_case_stl_opening(&x->es, s, kind == GEO_INLET, x->c->stl, lat, &x->c->geometry, value, m, circle, x->err));
    if (tess_entry_find(&x->es, s, "profile"))
        TRY(read_profile(x, s, kind, m, NULL, circle));
    note_speed(x->c, m->u);
    return read_waveform(x, s, m);
}

static tess_status read_geometry_section(ctx_t *x, const char *s, int kind)
{
    tess_case_t *c = x->c;
    tess_geometry_t *g = &c->geometry;
    if (kind == GEO_STL)
        return tess_case_stl_section(&x->es, s, x->dir, g, &c->stl, x->err);
    if ((kind == GEO_INLET || kind == GEO_OUTLET) && tess_entry_find(&x->es, s, "opening"))
        return read_opening(x, s, kind);
    if (kind == GEO_VOXELS) {
        char file[TESS_CASE_PATH_MAX] = "", path[2 * TESS_CASE_PATH_MAX], origin[1200];
        TRY(tess_get_string(&x->es, s, "file", 1, file, sizeof file, x->err));
        tess_entry_t *fe = tess_entry_find(&x->es, s, "file");
        tess_entry_origin(&x->es, fe, origin, sizeof origin);
        resolve(x, file, path, sizeof path);
        snprintf(x->voxels, sizeof x->voxels, "%s: voxel file %s", origin, path);
        static const char *const formats[] = {"vti", "raw", NULL};
        const size_t fl = strlen(file);
        int fmt = fl > 4 && strcmp(file + fl - 4, ".vti") == 0 ? 0 : 1;
        TRY(tess_get_choice(&x->es, s, "format", formats, &fmt, NULL, x->err));
        if (fmt == 0)
            return tess_voxels_read_vti(path, origin, g, x->err);
        double dims[3];
        TRY(tess_get_vec3(&x->es, s, "dims", 1, dims, NULL, x->err));
        if (dims[0] != g->nx || dims[1] != g->ny || dims[2] != g->nz) {
            char want[64];
            snprintf(want, sizeof want, "the domain size %d %d %d", g->nx, g->ny, g->nz);
            return tess_entry_fail(&x->es, tess_entry_find(&x->es, s, "dims"), x->err, "%s", want);
        }
        return tess_voxels_read_raw(path, origin, g, x->err);
    }
    if (kind == GEO_SPHERES) {
        double d = 0, por = 0;
        long seed = 1;
        /* At least one node spacing: smaller spheres mostly miss every node, and filling to the porosity
         * would never end (a diameter of 1e-300 hung the case reader). */
        TRY(tess_get_double(&x->es, s, "diameter", 1.0, INFINITY, 0, 1, &d, NULL, x->err));
        TRY(tess_get_double(&x->es, s, "porosity", 0.0, 1.0, 0, 1, &por, NULL, x->err));
        TRY(tess_get_long(&x->es, s, "seed", 0, 2147483647L, 0, &seed, x->err));
        double lo[3] = {0, 0, 0}, hi[3] = {g->nx - 1, g->ny - 1, g->nz - 1};
        TRY(tess_get_vec3(&x->es, s, "min", 0, lo, NULL, x->err));
        TRY(tess_get_vec3(&x->es, s, "max", 0, hi, NULL, x->err));
        int ilo[3], ihi[3];
        const int n[3] = {g->nx, g->ny, g->nz};
        for (int a = 0; a < 3; a++) {
            /* Clamped on both sides before the conversion: min = 1e300 must not overflow an int. */
            ilo[a] = (int)fmin(n[a], fmax(0, ceil(lo[a])));
            ihi[a] = (int)fmax(-1, fmin(n[a] - 1, floor(hi[a])));
            if (ihi[a] < ilo[a])
                return tess_fail(x->err, TESS_ERR_INPUT, "%s: [%s]: the region min..max holds no node of the domain",
                                 x->es.file, s);
        }
        tess_case_bed_t *grown = realloc(c->beds, (size_t)(c->nbeds + 1) * sizeof *grown);
        if (!grown)
            return tess_fail(x->err, TESS_ERR_NOMEM, "out of memory for the list of sphere beds");
        c->beds = grown;
        tess_case_bed_t *bed = memset(&c->beds[c->nbeds], 0, sizeof *bed);
        if (tess_random_spheres(g, d, por, (uint64_t)seed, ilo, ihi, &bed->spheres) < 0.0)
            return tess_fail(x->err, TESS_ERR_NOMEM, "%s: [%s]: out of memory for the sphere centres", x->es.file, s);
        c->nbeds++; /* counted from here on: tess_case_free frees its centres even if the grid fails */
        return tess_sphere_grid_build(&bed->grid, bed->spheres.centre, bed->spheres.n, bed->spheres.r, x->err);
    }
    tess_shape_t sh;
    TRY(read_shape(x, s, &sh));
    uint8_t value = kind == GEO_SOLID ? 0 : 1;
    if (kind == GEO_WALL || kind == GEO_INLET || kind == GEO_OUTLET) {
        const tess_node_kind nk = kind == GEO_WALL ? TESS_NODE_WALL : kind == GEO_INLET ? TESS_NODE_VELOCITY : TESS_NODE_PRESSURE;
        TRY(new_material(x, s, nk, &value));
        tess_material_t *m = &c->params.mat[value];
        if (kind == GEO_WALL || kind == GEO_INLET) {
            TRY(tess_get_vec3(&x->es, s, "velocity", kind == GEO_INLET, m->u, NULL, x->err));
            note_speed(c, m->u);
        } else {
            TRY(tess_get_double(&x->es, s, "density", 0.0, INFINITY, 1, 1, &m->rho, NULL, x->err));
        }
        if (kind != GEO_WALL) {
            static const char *const methods[] = {"zou-he", "fd", "nee", NULL}; /* tess_bc_method order */
            /* Zou-He planes exist for D3Q19 only: the other lattices default to extrapolation (nee). */
            int method = c->params.lattice == TESS_LATTICE_D3Q19 ? TESS_BC_ZOU_HE : TESS_BC_NEE;
            TRY(tess_get_choice(&x->es, s, "method", methods, &method, NULL, x->err));
            if ((method == TESS_BC_ZOU_HE && c->params.lattice != TESS_LATTICE_D3Q19) ||
                (method == TESS_BC_FINITE_DIFFERENCE && !tess_q_supports_fd(c->params.lattice)))
                return tess_entry_fail(&x->es, tess_entry_find(&x->es, s, "method"), x->err, "%s (on %s)",
                                       tess_q_supports_fd(c->params.lattice) ? "nee or fd" : "nee", c->lattice);
            m->method = method;
            TRY(read_normal(x, s, &sh, m));
            TRY(read_profile(x, s, kind, m, tess_entry_find(&x->es, s, "face") ? NULL : &sh, NULL));
            TRY(read_waveform(x, s, m));
        }
    }
    if (kind == GEO_SOLID || kind == GEO_WALL)
        TRY(read_body(x, s, kind, &sh, &value));
    if (tess_shape_paint(&sh, g, value) == 0)
        return tess_fail(x->err, TESS_ERR_INPUT, "%s: [%s]: the shape covers no node of the %dx%dx%d domain", x->es.file,
                         s, g->nx, g->ny, g->nz);
    return TESS_OK;
}

static tess_status read_init(ctx_t *x)
{
    tess_case_t *c = x->c;
    c->init_density = 1.0;
    TRY(tess_get_double(&x->es, "init", "density", 0.0, INFINITY, 1, 0, &c->init_density, NULL, x->err));
    TRY(tess_get_vec3(&x->es, "init", "velocity", 0, c->init_velocity, NULL, x->err));
    note_speed(c, c->init_velocity);
    char file[TESS_CASE_PATH_MAX] = "";
    TRY(tess_get_string(&x->es, "init", "file", 0, file, sizeof file, x->err));
    if (file[0]) {
        if (tess_entry_find(&x->es, "init", "density") || tess_entry_find(&x->es, "init", "velocity"))
            return tess_fail(x->err, TESS_ERR_INPUT, "%s: [init]: give either file or density/velocity, not both",
                             x->es.file);
        resolve(x, file, c->init_file, sizeof c->init_file);
    }
    return TESS_OK;
}

static tess_status read_run(ctx_t *x)
{
    tess_case_t *c = x->c;
    const long big = 2000000000L;
    c->steps = 1000;
    c->monitor_every = 100;
    TRY(tess_get_long(&x->es, "run", "steps", 0, big, 0, &c->steps, x->err));
    TRY(tess_get_long(&x->es, "run", "output_every", 0, big, 0, &c->output_every, x->err));
    TRY(tess_get_long(&x->es, "run", "monitor_every", 0, big, 0, &c->monitor_every, x->err));
    TRY(tess_get_long(&x->es, "run", "checkpoint_every", 0, big, 0, &c->checkpoint_every, x->err));
    /* Under mpirun: the field files in pieces per rank (auto) or whole from rank 0 (no); docs/outputs.md. */
    static const char *const pieces[] = {"auto", "no", NULL};
    int piece_choice = 0;
    TRY(tess_get_choice(&x->es, "run", "output_pieces", pieces, &piece_choice, NULL, x->err));
    c->output_pieces = piece_choice == 0;
    static const char *const precisions[] = {"double", "single", NULL};
    int prec = 0;
    TRY(tess_get_choice(&x->es, "run", "precision", precisions, &prec, NULL, x->err));
    c->precision = prec ? TESS_PRECISION_SINGLE : TESS_PRECISION_DOUBLE;
    snprintf(c->backend, sizeof c->backend, "auto");
    TRY(tess_get_string(&x->es, "run", "backend", 0, c->backend, sizeof c->backend, x->err));
    if (strcmp(c->backend, "auto") != 0) {
        tess_error_t e2;
        if (!tess_backend_find(c->backend, &e2))
            return tess_entry_fail(&x->es, tess_entry_find(&x->es, "run", "backend"), x->err, "auto or a built backend (%s)",
                                   strstr(e2.msg, "has ") ? strstr(e2.msg, "has ") + 4 : "cpu");
    }
    snprintf(c->pattern, sizeof c->pattern, "ab");
    TRY(tess_get_string(&x->es, "run", "pattern", 0, c->pattern, sizeof c->pattern, x->err));
    tess_pattern pat;
    tess_error_t e2;
    if (tess_pattern_from_name(c->pattern, &pat, &e2) != TESS_OK)
        return tess_entry_fail(&x->es, tess_entry_find(&x->es, "run", "pattern"), x->err, "a pattern this build has (%s)",
                               strstr(e2.msg, "has ") ? strstr(e2.msg, "has ") + 4 : "ab");
    long threads = 0;
    TRY(tess_get_long(&x->es, "run", "threads", 0, 4096, 0, &threads, x->err));
    c->threads = (int)threads;
    long layer = 0; /* MR nodes per layer of a block; 0 = from the cache size (docs/patterns.md) */
    TRY(tess_get_long(&x->es, "run", "mr_layer", 0, 1L << 24, 0, &layer, x->err));
    c->mr_layer = (int)layer;
    long copies = 0; /* MR on a GPU: copies of the moments; 0 = two where they fit (docs/gpu.md, "MR") */
    TRY(tess_get_long(&x->es, "run", "mr_copies", 0, 2, 0, &copies, x->err));
    c->mr_copies = (int)copies;
    c->density_min = 0.5;
    c->density_max = 2.0;
    TRY(tess_get_double(&x->es, "run", "density_min", 0.0, INFINITY, 0, 0, &c->density_min, NULL, x->err));
    TRY(tess_get_double(&x->es, "run", "density_max", 0.0, INFINITY, 1, 0, &c->density_max, NULL, x->err));
    if (c->density_max <= c->density_min)
        return tess_fail(x->err, TESS_ERR_INPUT, "%s: [run]: density_max (%g) must exceed density_min (%g)", x->es.file,
                         c->density_max, c->density_min);
    /* The divergence test between monitor rows (docs/reliability.md): every 100 steps costs about 1% of the
     * stepping on the CPU and stops a blow-up within a few hundred steps. */
    c->check_every = 100;
    c->speed_max = 0.5;
    TRY(tess_get_long(&x->es, "run", "check_every", 0, big, 0, &c->check_every, x->err));
    TRY(tess_get_double(&x->es, "run", "speed_max", 0.0, INFINITY, 1, 0, &c->speed_max, NULL, x->err));
    return TESS_OK;
}

static tess_status load(ctx_t *x, const char *path, const char *const *overrides, int n)
{
    tess_case_t *c = x->c;
    TRY(tess_entries_read(&x->es, path, x->err));
    for (int i = 0; i < n; i++)
        TRY(tess_entries_override(&x->es, overrides[i], x->err));
    TRY(check_sections(x));
    /* A case in physical units becomes lattice entries here, before anything reads them. */
    TRY(tess_units_apply(&x->es, &c->units, x->err));

    /* Default name: the file name without folder and .ini. */
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(c->name, sizeof c->name, "%s", base);
    char *dot = strrchr(c->name, '.');
    if (dot && strcmp(dot, ".ini") == 0)
        *dot = 0;
    TRY(tess_get_string(&x->es, "case", "name", 0, c->name, sizeof c->name, x->err));
    for (const char *p = c->name; *p; p++)
        if (*p == '/' || *p == ' ' || *p == '\\')
            return tess_entry_fail(&x->es, tess_entry_find(&x->es, "case", "name"), x->err,
                                   "a name without spaces or slashes (it names the output folder)");
    static const char *const lattices[] = {"D3Q19", "D2Q9", "D3Q13", "D3Q27", NULL}; /* tess_lattice_id order */
    int lat = 0;
    TRY(tess_get_choice(&x->es, "lattice", "model", lattices, &lat, NULL, x->err));
    snprintf(c->lattice, sizeof c->lattice, "%s", lattices[lat]);

    tess_params_default(&c->params);
    tess_params_set_lattice(&c->params, (tess_lattice_id)lat);
    snprintf(c->mat_name[0], sizeof c->mat_name[0], "solid");
    snprintf(c->mat_name[1], sizeof c->mat_name[1], "fluid");
    TRY(read_domain(x));
    TRY(read_physics(x));
    for (int i = 0; i < x->es.nsec; i++) {
        int kind;
        if (geo_kind_of(x->es.sections[i], &kind))
            TRY(read_geometry_section(x, x->es.sections[i], kind));
    }
    const size_t nn = (size_t)c->geometry.nx * c->geometry.ny * c->geometry.nz;
    for (size_t i = 0; i < nn; i++)
        if (c->geometry.type[i] >= c->params.nmat) {
            const tess_geometry_t *g = &c->geometry;
            return tess_fail(x->err, TESS_ERR_INPUT,
                             "%s: node type %d at node (%zu, %zu, %zu), but the case defines materials 0..%d only",
                             x->voxels[0] ? x->voxels : path, g->type[i], i % (size_t)g->nx,
                             i / (size_t)g->nx % (size_t)g->ny, i / ((size_t)g->nx * (size_t)g->ny), c->params.nmat - 1);
        }
    profile_walls(c);
    womersley_tables(x);
    TRY(read_forces(x));
    TRY(read_init(x));
    TRY(read_run(x));
    TRY(tess_case_analysis_read(&x->es, c, x->err));
    TRY(check_unused(x));

    tess_case_stl_unused_openings(c->stl, c->warning, sizeof c->warning);
    const double mach = c->max_lattice_speed * sqrt(3.0);
    if (mach > TESS_CASE_MACH_WARN) {
        const size_t used = strlen(c->warning);
        snprintf(c->warning + used, sizeof c->warning - used,
                 "%s%s: lattice Mach number %.3g (speed %.3g) exceeds %.1f: compressibility errors will be large",
                 used ? "; " : "", path, mach, c->max_lattice_speed, TESS_CASE_MACH_WARN);
    }
    return TESS_OK;
}

tess_status tess_case_load(const char *path, const char *const *overrides, int n, tess_case_t *c, tess_error_t *err)
{
    memset(c, 0, sizeof *c);
    snprintf(c->path, sizeof c->path, "%s", path);
    ctx_t x;
    memset(&x, 0, sizeof x);
    x.c = c;
    x.err = err;
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(x.dir, sizeof x.dir, "%.*s", (int)(slash - path), path);
    const tess_status st = load(&x, path, overrides, n);
    tess_entries_free(&x.es);
    if (st != TESS_OK)
        tess_case_free(c);
    return st;
}

void tess_case_free(tess_case_t *c)
{
    tess_geometry_free(&c->geometry);
    tess_case_stl_free(c->stl);
    c->stl = NULL;
    free(c->shapes);
    c->shapes = NULL;
    c->nshapes = 0;
    for (int b = 0; b < c->nbeds; b++) {
        tess_sphere_bed_free(&c->beds[b].spheres);
        tess_sphere_grid_free(&c->beds[b].grid);
    }
    free(c->beds);
    c->beds = NULL;
    c->nbeds = 0;
}
