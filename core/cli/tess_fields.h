/* Checks on dense density and velocity fields of a case: monitor statistics with the divergence test, and
 * the cross-check comparison of two runs. Only wet nodes (fluid, inlet, outlet) count. */
#ifndef TESS_FIELDS_H
#define TESS_FIELDS_H

#include "tess_case.h"

typedef struct {
    double max_u, mean_rho;
    int bad;          /* 1: a wet node has NaN/Inf, density outside [density_min, density_max] or |u| > speed_max */
    int at[3];        /* the first such node (z, then y, then x order) */
    double bad_rho, bad_u;
} tess_field_stats_t;

void tess_field_stats(const tess_case_t *c, const double *rho, const double *u, tess_field_stats_t *s);

/* The lattice's speed of sound, 1 / sqrt(3): the least velocity scale of the cross-check (tess_fields.c). */
#define TESS_FIELD_CS 0.57735026918962573

typedef struct {
    double abs, rel;  /* largest |a - b| and largest |a - b| / scale: the density's largest |a|; for the velocity
                         components the largest speed of a, at least TESS_FIELD_CS */
    int abs_at[3], rel_at[3];
    const char *abs_field, *rel_field; /* "density", "velocity x", ... */
} tess_field_diff_t;

void tess_field_compare(const tess_case_t *c, const double *rho_a, const double *u_a, const double *rho_b,
                        const double *u_b, tess_field_diff_t *d);

#endif
