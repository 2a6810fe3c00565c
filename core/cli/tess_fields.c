#include "tess_fields.h"
#include "tess_tiling.h"
#include <math.h>

static int wet(const tess_case_t *c, size_t i)
{
    return tess_kind_is_wet(c->params.mat[c->geometry.type[i]].kind);
}

static void coords(const tess_case_t *c, size_t i, int at[3])
{
    at[0] = (int)(i % (size_t)c->geometry.nx);
    at[1] = (int)(i / (size_t)c->geometry.nx % (size_t)c->geometry.ny);
    at[2] = (int)(i / ((size_t)c->geometry.nx * c->geometry.ny));
}

void tess_field_stats(const tess_case_t *c, const double *rho, const double *u, tess_field_stats_t *s)
{
    const size_t n = (size_t)c->geometry.nx * c->geometry.ny * c->geometry.nz;
    double sum = 0.0, umax2 = 0.0;
    size_t count = 0;
    s->bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (!wet(c, i))
            continue;
        const double u2 = u[3 * i] * u[3 * i] + u[3 * i + 1] * u[3 * i + 1] + u[3 * i + 2] * u[3 * i + 2];
        const tess_check_bounds_t b = {c->density_min, c->density_max, c->speed_max};
        if (!s->bad && (!isfinite(u2) || tess_check_node_bad(&b, rho[i], u + 3 * i))) {
            s->bad = 1;
            coords(c, i, s->at);
            s->bad_rho = rho[i];
            s->bad_u = sqrt(u2);
        }
        sum += rho[i];
        if (u2 > umax2)
            umax2 = u2;
        count++;
    }
    s->mean_rho = count ? sum / (double)count : 0.0;
    s->max_u = sqrt(umax2);
}

/* The velocity's scale for the relative difference: the field's largest speed, but at least the lattice's speed of
 * sound. Rounding perturbs u on the scale of the populations (they sum to rho, about 1), whatever the flow's
 * speed: measured against the largest speed of a slow flow (the 96^3 sphere bed at 1e-3), FP32's rounding alone came
 * to 1.4e-2 (the CPU's MR against its AB, 100 steps), where against c_s it is 2.5e-5 (docs/outputs.md). */
static double velocity_scale(const tess_case_t *c, const double *u)
{
    const size_t n = (size_t)c->geometry.nx * c->geometry.ny * c->geometry.nz;
    double umax2 = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (!wet(c, i))
            continue;
        const double u2 = u[3 * i] * u[3 * i] + u[3 * i + 1] * u[3 * i + 1] + u[3 * i + 2] * u[3 * i + 2];
        if (u2 > umax2)
            umax2 = u2;
    }
    return fmax(sqrt(umax2), TESS_FIELD_CS);
}

static void one_field(const tess_case_t *c, const double *a, const double *b, int stride, int comp, double scale,
                      const char *name, tess_field_diff_t *d)
{
    const size_t n = (size_t)c->geometry.nx * c->geometry.ny * c->geometry.nz;
    for (size_t i = 0; i < n; i++) {
        if (!wet(c, i))
            continue;
        const double x = a[stride * i + comp], y = b[stride * i + comp];
        double diff = fabs(x - y);
        if (isnan(x) != isnan(y) || (isnan(diff) && !(isnan(x) && isnan(y))))
            diff = INFINITY;
        else if (isnan(diff))
            diff = 0.0;
        if (diff > d->abs) {
            d->abs = diff;
            coords(c, i, d->abs_at);
            d->abs_field = name;
        }
        const double rel = scale > 0.0 ? diff / scale : (diff > 0.0 ? INFINITY : 0.0);
        if (rel > d->rel) {
            d->rel = rel;
            coords(c, i, d->rel_at);
            d->rel_field = name;
        }
    }
}

void tess_field_compare(const tess_case_t *c, const double *rho_a, const double *u_a, const double *rho_b,
                        const double *u_b, tess_field_diff_t *d)
{
    const size_t n = (size_t)c->geometry.nx * c->geometry.ny * c->geometry.nz;
    double rho_scale = 0.0;
    for (size_t i = 0; i < n; i++)
        if (wet(c, i) && fabs(rho_a[i]) > rho_scale)
            rho_scale = fabs(rho_a[i]);
    const double u_scale = velocity_scale(c, u_a);
    one_field(c, rho_a, rho_b, 1, 0, rho_scale, "density", d);
    one_field(c, u_a, u_b, 3, 0, u_scale, "velocity x", d);
    one_field(c, u_a, u_b, 3, 1, u_scale, "velocity y", d);
    one_field(c, u_a, u_b, 3, 2, u_scale, "velocity z", d);
}
