#include "tess_units.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a physical entry measures; each has one factor from case units to lattice units. */
typedef enum { DIM_COORD, DIM_LENGTH, DIM_AREA, DIM_SPEED, DIM_ACCEL, DIM_DENSITY, DIM_SCALE } dim_t;

typedef struct {
    const char *kinds; /* section kinds ("physics", or geometry kinds before the dot), space-separated */
    const char *key;
    dim_t dim;
} rule_t;

/* Entries read as physical values in a case with [units]; docs/case-format.md lists them. */
static const rule_t rules[] = {
    {"solid fluid wall inlet outlet spheres", "min", DIM_COORD},
    {"solid fluid wall inlet outlet spheres", "max", DIM_COORD},
    {"solid fluid wall inlet outlet", "center", DIM_COORD},
    {"solid fluid wall inlet outlet", "p0", DIM_COORD},
    {"solid fluid wall inlet outlet", "p1", DIM_COORD},
    {"solid fluid wall inlet outlet", "radius", DIM_LENGTH},
    {"solid fluid wall inlet outlet", "length", DIM_LENGTH},
    {"spheres", "diameter", DIM_LENGTH},
    {"stl", "translate", DIM_COORD},
    {"probe", "point", DIM_COORD},
    {"line", "start", DIM_COORD},
    {"line", "end", DIM_COORD},
    {"stl", "scale", DIM_SCALE},
    {"wall inlet init", "velocity", DIM_SPEED},
    {"outlet init", "density", DIM_DENSITY},
    {"physics", "force", DIM_ACCEL},
    {"forces", "ref_velocity", DIM_SPEED},
    {"forces", "ref_area", DIM_AREA},
    {"forces", "ref_density", DIM_DENSITY},
};

/* Lattice keys that [units] derives: giving them too is an error. */
static const struct {
    const char *section, *key, *why;
} derived[] = {{"physics", "tau", "tau follows from [units] (give tau, mach or dt there)"},
               {"physics", "re", "the Reynolds number follows from [units] velocity, length and viscosity"},
               {"physics", "velocity", "give the reference speed as [units] velocity"},
               {"physics", "mach", "give the lattice Mach number as [units] mach"},
               {"physics", "length", "give the reference length as [units] length"},
               {"domain", "spacing", "the spacing is [units] dx"}};

typedef struct {
    tess_entries_t *es;
    tess_units_t *u;
    tess_error_t *err;
    double origin[3];
} ctx_t;

static int find(const tess_entries_t *es, const char *section, const char *key)
{
    for (int i = 0; i < es->n; i++)
        if (strcmp(es->e[i].section, section) == 0 && strcmp(es->e[i].key, key) == 0)
            return i;
    return -1;
}

/* The section's kind: "physics", or the part before the dot of "inlet.in". */
static void kind_of(const char *section, char *kind, size_t len)
{
    const char *dot = strchr(section, '.');
    snprintf(kind, len, "%.*s", dot ? (int)(dot - section) : (int)strlen(section), section);
}

static int word_in(const char *word, const char *list)
{
    const size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == 0 || p[n] == ' '))
            return 1;
    return 0;
}

/* Parses up to 3 numbers; returns how many, or -1 when the value is not a plain list of numbers (then the
 * loader reports it with the value as written). */
static int numbers(const char *s, double v[3])
{
    int n = 0;
    const char *p = s;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (!*p)
            return n;
        if (n == 3)
            return -1;
        const char *end;
        if (!tess_parse_number(p, &v[n], &end)) /* decimal only, as every case value */
            return -1;
        n++;
        p = end;
    }
}

static tess_status fail_at(const ctx_t *x, int i, const char *fmt, const char *what)
{
    char origin[1200];
    const tess_entry_t *e = &x->es->e[i];
    tess_entry_origin(x->es, e, origin, sizeof origin);
    return tess_fail(x->err, TESS_ERR_INPUT, "%s: key '%s' in [%s]: %s%s", origin, e->key, e->section, fmt, what);
}

/* Rewrites entry i: component k becomes (v_k - off_k) * f. snap 1 (positions, lengths): within 1e-9 of a
 * multiple of half a node is put on it, as the division by dx must not move a box face from node 7 to
 * 6.9999999999999991 and lose that plane of nodes; snap 2 (STL scale): within 1e-9 relative of a whole number. */
static void rewrite(tess_entry_t *e, const double *v, int n, double f, const double *off, int snap)
{
    char buf[sizeof e->value] = "";
    for (int k = 0; k < n; k++) {
        double x = (v[k] - (off ? off[k] : 0.0)) * f;
        if (snap == 1 && fabs(2.0 * x - nearbyint(2.0 * x)) < 2e-9)
            x = 0.5 * nearbyint(2.0 * x);
        if (snap == 2 && nearbyint(x) != 0 && fabs(x - nearbyint(x)) < 1e-9 * fabs(x))
            x = nearbyint(x); /* an STL scale of 8.0000000000000002 nodes per file unit is 8 */
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%.17g", k ? " " : "", x);
    }
    snprintf(e->value, sizeof e->value, "%s", buf);
}

/* Adds (or replaces) section.key = value, reported at line `line` of the file (the entry it came from). */
static tess_status put(ctx_t *x, const char *section, const char *key, double value, int line)
{
    char spec[256];
    snprintf(spec, sizeof spec, "%s.%s=%.17g", section, key, value);
    const tess_status st = tess_entries_override(x->es, spec, x->err);
    if (st == TESS_OK)
        x->es->e[find(x->es, section, key)].line = line;
    return st;
}

/* The largest speed the case prescribes (walls, inlets, [init]), in case units. */
static double largest_speed(const tess_entries_t *es)
{
    double best = 0.0;
    for (int i = 0; i < es->n; i++) {
        char kind[96];
        kind_of(es->e[i].section, kind, sizeof kind);
        if (strcmp(es->e[i].key, "velocity") != 0 || !word_in(kind, "wall inlet init"))
            continue;
        double v[3];
        const int n = numbers(es->e[i].value, v);
        double s = 0.0;
        for (int k = 0; k < n; k++)
            s += v[k] * v[k];
        if (sqrt(s) > best)
            best = sqrt(s);
    }
    return best;
}

/* [units]: dx (or length and resolution), viscosity, density, and one of mach, tau, dt. */
static tess_status derive(ctx_t *x)
{
    tess_entries_t *es = x->es;
    tess_units_t *u = x->u;
    const double inf = INFINITY;
    double res = 0.0, mach = 0.0, tau = 0.0, dt = 0.0;
    int has_dx, has_res, has_len, has_mach, has_tau, has_dt, has_u;
#define GET(key, lo, open, req, out, given)                                                                       \
    do {                                                                                                           \
        tess_status st_ = tess_get_double(es, "units", key, lo, inf, open, req, out, given, x->err);              \
        if (st_ != TESS_OK)                                                                                        \
            return st_;                                                                                            \
    } while (0)
    GET("dx", 0.0, 1, 0, &u->dx, &has_dx);
    GET("resolution", 0.0, 1, 0, &res, &has_res);
    GET("length", 0.0, 1, 0, &u->length, &has_len);
    GET("viscosity", 0.0, 1, 1, &u->nu, NULL);
    GET("density", 0.0, 1, 1, &u->rho, NULL);
    GET("velocity", 0.0, 0, 0, &u->u_ref, &has_u);
    GET("mach", 0.0, 1, 0, &mach, &has_mach);
    GET("tau", 0.5, 1, 0, &tau, &has_tau);
    GET("dt", 0.0, 1, 0, &dt, &has_dt);
#undef GET
    static const char *const yesno[] = {"no", "yes", NULL}, *const outputs[] = {"lattice", "physical", NULL};
    int override = 0;
    u->physical_output = 1;
    tess_status st = tess_get_choice(es, "units", "override", yesno, &override, NULL, x->err);
    if (st == TESS_OK)
        st = tess_get_choice(es, "units", "output", outputs, &u->physical_output, NULL, x->err);
    if (st != TESS_OK)
        return st;
    if (has_dx == has_res)
        return tess_fail(x->err, TESS_ERR_INPUT, "%s: [units]: give either dx or resolution (nodes across length), "
                         "exactly one", es->file);
    if (has_res) {
        if (!has_len)
            return tess_fail(x->err, TESS_ERR_INPUT, "%s: [units]: resolution needs length (dx = length / resolution)",
                             es->file);
        u->dx = u->length / res;
    }
    if (has_mach + has_tau + has_dt != 1)
        return tess_fail(x->err, TESS_ERR_INPUT, "%s: [units]: give exactly one of mach, tau and dt (the time step "
                         "follows from it)", es->file);
    if (!has_u)
        u->u_ref = largest_speed(es);
    if (has_mach) {
        if (!(u->u_ref > 0))
            return tess_fail(x->err, TESS_ERR_INPUT, "%s: [units]: mach needs a speed: give velocity (the reference "
                             "speed U), or a wall, inlet or initial velocity", es->file);
        /* U dt / dx = Ma c_s */
        dt = mach / sqrt(3.0) * u->dx / u->u_ref;
    } else if (has_tau) {
        /* nu dt / dx^2 = (tau - 1/2) / 3 */
        dt = (tau - 0.5) / 3.0 * u->dx * u->dx / u->nu;
    }
    u->dt = dt;
    u->tau = 3.0 * u->nu * dt / (u->dx * u->dx) + 0.5;
    if (has_tau)
        u->tau = tau; /* exactly as given, not rebuilt through dt */
    u->u_lattice = u->u_ref * dt / u->dx;
    u->mach = u->u_lattice * sqrt(3.0);
    u->re = u->length > 0 ? u->u_ref * u->length / u->nu : 0.0;
    if (!(u->tau > 0.5) || !isfinite(u->tau))
        return tess_fail(x->err, TESS_ERR_INPUT, "%s: [units]: tau = %.6g: it must exceed 0.5 (a larger dt)", es->file,
                         u->tau);
    if (u->mach > TESS_UNITS_MACH_MAX && !override)
        return tess_fail(x->err, TESS_ERR_INPUT,
                         "%s: [units]: lattice Mach number %.3g (U %g, dx %g, dt %g) exceeds %.1f: choose a smaller mach "
                         "or dt, a finer dx, or set override = yes",
                         es->file, u->mach, u->u_ref, u->dx, dt, TESS_UNITS_MACH_MAX);
    return TESS_OK;
}

/* [domain] size = Lx Ly Lz: node counts L / dx, which must be whole. */
static tess_status domain_size(ctx_t *x)
{
    const int i = find(x->es, "domain", "size");
    if (i < 0)
        return TESS_OK;
    x->es->e[i].used = 1;
    static const char *const axes[3] = {"nx", "ny", "nz"};
    double v[3];
    if (numbers(x->es->e[i].value, v) != 3)
        return fail_at(x, i, "expected three lengths Lx Ly Lz, got ", x->es->e[i].value);
    for (int a = 0; a < 3; a++) {
        if (find(x->es, "domain", axes[a]) >= 0)
            return fail_at(x, i, "give either size or nx, ny, nz", "");
        const double n = v[a] / x->u->dx;
        if (!(n >= 0.5) || fabs(n - floor(n + 0.5)) > 1e-6 * n) {
            char what[160];
            snprintf(what, sizeof what, "%g / dx = %.9g nodes on axis %c", v[a], n, 'x' + a);
            return fail_at(x, i, "expected whole multiples of dx, got ", what);
        }
        tess_status st = put(x, "domain", axes[a], floor(n + 0.5), x->es->e[i].line);
        if (st != TESS_OK)
            return st;
    }
    return TESS_OK;
}

/* [run] end_time, output_interval, monitor_interval, checkpoint_interval: times rounded to whole steps. A
 * step key given too is an error, unless it came from the command line (--steps N wins over end_time). */
static tess_status run_times(ctx_t *x)
{
    static const char *const pairs[4][2] = {{"end_time", "steps"},
                                            {"output_interval", "output_every"},
                                            {"monitor_interval", "monitor_every"},
                                            {"checkpoint_interval", "checkpoint_every"}};
    for (int k = 0; k < 4; k++) {
        const int i = find(x->es, "run", pairs[k][0]), j = find(x->es, "run", pairs[k][1]);
        if (i < 0)
            continue;
        x->es->e[i].used = 1;
        if (j >= 0 && x->es->e[j].line > 0 && x->es->e[i].line > 0) {
            char what[96];
            snprintf(what, sizeof what, "give either %s (time) or %s (steps)", pairs[k][0], pairs[k][1]);
            return fail_at(x, i, what, "");
        }
        if (j >= 0 && x->es->e[j].line == 0)
            continue; /* the command line's step count wins */
        double v[3];
        if (numbers(x->es->e[i].value, v) != 1 || v[0] < 0 || v[0] / x->u->dt > 2e9)
            return fail_at(x, i, "expected a time >= 0 (at most 2e9 steps), got ", x->es->e[i].value);
        const tess_status st = put(x, "run", pairs[k][1], floor(v[0] / x->u->dt + 0.5), x->es->e[i].line);
        if (st != TESS_OK)
            return st;
    }
    return TESS_OK;
}

/* [probe.NAME] and [line.NAME] interval (a time) -> every (steps, at least 1). */
static tess_status sample_times(ctx_t *x)
{
    for (int i = 0; i < x->es->n; i++) {
        tess_entry_t *e = &x->es->e[i];
        char kind[96];
        kind_of(e->section, kind, sizeof kind);
        if (strcmp(e->key, "interval") != 0 || !word_in(kind, "probe line"))
            continue;
        e->used = 1;
        if (find(x->es, e->section, "every") >= 0)
            return fail_at(x, i, "give either interval (time) or every (steps)", "");
        double v[3];
        if (numbers(e->value, v) != 1 || v[0] <= 0 || v[0] / x->u->dt > 2e9)
            return fail_at(x, i, "expected a time > 0 (at most 2e9 steps), got ", e->value);
        const double steps = floor(v[0] / x->u->dt + 0.5);
        const tess_status st = put(x, e->section, "every", steps < 1 ? 1 : steps, e->line);
        if (st != TESS_OK)
            return st;
    }
    return TESS_OK;
}

/* outlet pressure (p - p_ref) -> lattice density 1 + 3 p / (rho0 (dx/dt)^2); [physics] pressure_gradient ->
 * the acceleration -grad p / rho0. */
static tess_status pressures(ctx_t *x)
{
    const double cu = x->u->dx / x->u->dt;
    const int g = find(x->es, "physics", "pressure_gradient");
    if (g >= 0) {
        x->es->e[g].used = 1;
        double v[3];
        if (numbers(x->es->e[g].value, v) != 3)
            return fail_at(x, g, "expected three numbers (dp/dx dp/dy dp/dz), got ", x->es->e[g].value);
        if (find(x->es, "physics", "force") >= 0)
            return fail_at(x, g, "give either force (an acceleration) or pressure_gradient", "");
        char spec[256];
        const double f = -x->u->dt * x->u->dt / (x->u->dx * x->u->rho);
        snprintf(spec, sizeof spec, "physics.force=%.17g %.17g %.17g", v[0] * f, v[1] * f, v[2] * f);
        tess_status st = tess_entries_override(x->es, spec, x->err);
        if (st != TESS_OK)
            return st;
        x->es->e[find(x->es, "physics", "force")].line = x->es->e[g].line;
    }
    for (int i = 0; i < x->es->n; i++) {
        char kind[96], section[96];
        kind_of(x->es->e[i].section, kind, sizeof kind);
        if (strcmp(kind, "outlet") != 0 || strcmp(x->es->e[i].key, "pressure") != 0)
            continue;
        x->es->e[i].used = 1;
        snprintf(section, sizeof section, "%s", x->es->e[i].section);
        double v[3];
        if (numbers(x->es->e[i].value, v) != 1)
            return fail_at(x, i, "expected a pressure p - p_ref, got ", x->es->e[i].value);
        if (find(x->es, section, "density") >= 0)
            return fail_at(x, i, "give either pressure or density", "");
        const double rho = 1.0 + 3.0 * v[0] / (x->u->rho * cu * cu);
        if (!(rho > 0))
            return fail_at(x, i, "expected a pressure above -rho0 c_s^2 (lattice density > 0), got ", x->es->e[i].value);
        const int line = x->es->e[i].line;
        const tess_status st = put(x, section, "density", rho, line);
        if (st != TESS_OK)
            return st;
    }
    return TESS_OK;
}

static tess_status convert(ctx_t *x)
{
    const tess_units_t *u = x->u;
    const double dx = u->dx, dt = u->dt;
    const double factor[] = {1.0 / dx, 1.0 / dx, 1.0 / (dx * dx), dt / dx, dt * dt / dx, 1.0 / u->rho, 1.0 / dx};
    for (int i = 0; i < x->es->n; i++) {
        tess_entry_t *e = &x->es->e[i];
        char kind[96];
        kind_of(e->section, kind, sizeof kind);
        for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
            if (strcmp(e->key, rules[r].key) != 0 || !word_in(kind, rules[r].kinds))
                continue;
            double v[3];
            const int n = numbers(e->value, v);
            if (n > 0)
                rewrite(e, v, n, factor[rules[r].dim], rules[r].dim == DIM_COORD && n == 3 ? x->origin : NULL,
                        rules[r].dim == DIM_COORD || rules[r].dim == DIM_LENGTH ? 1 : rules[r].dim == DIM_SCALE ? 2 : 0);
            break;
        }
    }
    return TESS_OK;
}

tess_status tess_units_apply(tess_entries_t *es, tess_units_t *u, tess_error_t *err)
{
    memset(u, 0, sizeof *u);
    int any = 0;
    for (int i = 0; i < es->n; i++)
        any |= strcmp(es->e[i].section, "units") == 0;
    if (!any)
        return TESS_OK;
    ctx_t x = {es, u, err, {0, 0, 0}};
    u->active = 1;
    for (size_t k = 0; k < sizeof derived / sizeof derived[0]; k++) {
        const int i = find(es, derived[k].section, derived[k].key);
        if (i >= 0)
            return fail_at(&x, i, "not used in a case with [units]: ", derived[k].why);
    }
    tess_status st = derive(&x);
    if (st != TESS_OK)
        return st;
    /* Node (i, j, k) sits at origin + dx (i, j, k): coordinates are measured from the origin. */
    const int o = find(es, "domain", "origin");
    if (o >= 0 && numbers(es->e[o].value, x.origin) != 3)
        x.origin[0] = x.origin[1] = x.origin[2] = 0.0; /* malformed: the loader reports it */
    if ((st = domain_size(&x)) != TESS_OK || (st = run_times(&x)) != TESS_OK || (st = sample_times(&x)) != TESS_OK ||
        (st = convert(&x)) != TESS_OK ||
        (st = pressures(&x)) != TESS_OK)
        return st;
    /* The output grid: the case's spacing and origin, or lattice units (spacing 1, origin 0). */
    if ((st = put(&x, "physics", "tau", u->tau, 0)) != TESS_OK ||
        (st = put(&x, "domain", "spacing", u->physical_output ? u->dx : 1.0, 0)) != TESS_OK)
        return st;
    if (!u->physical_output && o >= 0)
        snprintf(es->e[o].value, sizeof es->e[o].value, "0 0 0");
    return TESS_OK;
}

double tess_units_velocity_scale(const tess_units_t *u)
{
    return u->active && u->physical_output ? u->dx / u->dt : 1.0;
}

double tess_units_density(const tess_units_t *u, double rho_lattice)
{
    return u->active && u->physical_output ? rho_lattice * u->rho : rho_lattice;
}

double tess_units_pressure(const tess_units_t *u, double rho_lattice)
{
    const double c = tess_units_velocity_scale(u);
    return (rho_lattice - 1.0) / 3.0 * (u->active && u->physical_output ? u->rho * c * c : 1.0);
}

double tess_units_time(const tess_units_t *u, long step)
{
    return u->active && u->physical_output ? (double)step * u->dt : (double)step;
}

void tess_units_describe(const tess_units_t *u, char *buf, size_t len)
{
    int n = snprintf(buf, len, "dx %.6g, dt %.6g, tau %.6g, lattice velocity %.4g (U %.6g), Mach %.3g", u->dx, u->dt,
                     u->tau, u->u_lattice, u->u_ref, u->mach);
    if (n > 0 && (size_t)n < len && u->re > 0)
        snprintf(buf + n, len - (size_t)n, ", Re %.4g (L %.6g)", u->re, u->length);
    else if (n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, ", Re - (%s)", u->length > 0 ? "no speed: [units] velocity" : "no [units] length");
}
