/* monitor.csv: one row per monitor step (docs/outputs.md). The file is rewritten whole (atomically) at
 * every row, so that it is complete whenever the run stops. */
#ifndef TESS_MONITOR_H
#define TESS_MONITOR_H

#include "tess_error.h"

typedef struct {
    long step;
    double wall_s;   /* since the start of the run */
    double mlups;    /* fluid-node updates per second since the previous row, in millions */
    double max_u;    /* largest |u| over wet nodes */
    double mean_rho; /* mean density over wet nodes */
    double du_rel;   /* |u - u_prev|_2 / |u|_2 against the previous row (NaN in the first row) */
    const double *extra; /* values of the extra columns (tess_monitor_columns), copied; NULL when none */
} tess_monitor_row_t;

typedef struct {
    char path[1100];
    tess_monitor_row_t *rows;
    int n, cap;
    char *extra_header; /* ",Fx_body,..." after the standard columns, or NULL */
    int nextra;
    double *extra;      /* nextra values per row */
    int physical;       /* tess_monitor_units: a time column and max_u, mean_rho in the case's units */
    double dt, u_scale, rho_scale;
} tess_monitor_t;

#define TESS_MONITOR_HEADER "step,wall_s,mlups,max_u,mean_rho,du_rel"
#define TESS_MONITOR_HEADER_PHYSICAL "step,time_s,wall_s,mlups,max_u_m_s,mean_rho_kg_m3,du_rel"

void tess_monitor_init(tess_monitor_t *m, const char *path);
/* Extra columns after the standard ones (forces on bodies: docs/outputs.md), set before the first row. */
tess_status tess_monitor_columns(tess_monitor_t *m, const char *const *names, int n, tess_error_t *err);
/* A case with [units] and physical output: the rows get the time (step dt) after the step and give max_u times
 * u_scale and mean_rho times rho_scale (TESS_MONITOR_HEADER_PHYSICAL); rows stay lattice values in memory. The
 * extra columns are written as given (the caller converts them). Set before the first row. */
void tess_monitor_units(tess_monitor_t *m, double dt, double u_scale, double rho_scale);
tess_status tess_monitor_add(tess_monitor_t *m, const tess_monitor_row_t *row, tess_error_t *err);
void tess_monitor_free(tess_monitor_t *m);

#endif
