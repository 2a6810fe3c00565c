/* Probes and lines (docs/outputs.md, "probe_NAME.csv, line_NAME.csv"): the velocity and density at the points of
 * each [probe.NAME] and [line.NAME] section, every `every` steps, one CSV file per section with one row per point
 * and sample:
 *     step,time,index,x,y,z,ux,uy,uz,density
 * or, for a case with [units] and physical output, in the case's units (SI names):
 *     step,time_s,index,x_m,y_m,z_m,ux_m_s,uy_m_s,uz_m_s,pressure_Pa,density_kg_m3
 * Values are interpolated trilinearly between the eight nodes around the point (bilinear in 2D); corners that
 * are not wet (solid, moving wall) are left out and the other corners' weights scaled to sum to 1, so a point
 * between the last fluid node and a wall takes the fluid's values; a point with no wet corner gives nan. The
 * rows are kept in memory and each file rewritten whole (atomically) by tess_probes_write. */
#ifndef TESS_PROBES_H
#define TESS_PROBES_H

#include "tess_case.h"

typedef struct {
    const tess_case_probe_t *def;
    char path[1200];
    char *text; /* the file's text so far: header and rows */
    size_t len, cap;
} tess_probe_file_t;

typedef struct {
    int n;
    tess_probe_file_t *f;
    const tess_case_t *c;
    const char *header; /* the files' first line */
} tess_probes_t;

/* One file per probe section of c in dir. A restarted run (restart_step >= 0) keeps the rows of an existing file
 * whose step is before restart_step, so that the file continues as if the run had not stopped. */
tess_status tess_probes_create(tess_probes_t *p, const tess_case_t *c, const char *dir, long restart_step,
                               tess_error_t *err);
void tess_probes_free(tess_probes_t *p);

/* The next step after `step` at which some probe samples (LONG_MAX when none). */
long tess_probes_next(const tess_probes_t *p, long step);
/* Whether some probe samples at `step`. */
int tess_probes_due(const tess_probes_t *p, long step);
/* Samples every probe due at `step` from the dense fields (rho: n, u: 3 n, x fastest; lattice units), converted to
 * the case's output units (tess_units.h). */
tess_status tess_probes_sample(tess_probes_t *p, long step, const double *rho, const double *u, tess_error_t *err);
/* The wet nodes that the probes read (the corners of every point; dense indices, sorted, each once): *nodes
 * malloc'd, *n of them. What a distributed run asks the ranks for (docs/mpi.md). */
tess_status tess_probes_nodes(const tess_probes_t *p, size_t **nodes, size_t *n, tess_error_t *err);
/* tess_probes_sample from the values of those nodes alone (vals: density and velocity, 4 per node, in the
 * order of tess_probes_nodes): the same arithmetic, so the same rows. */
tess_status tess_probes_sample_nodes(tess_probes_t *p, long step, const size_t *nodes, size_t n, const double *vals,
                                     tess_error_t *err);
/* The interpolated velocity and density at point x (node coordinates); returns the number of wet corners used. */
int tess_probes_interpolate(const tess_case_t *c, const double x[3], const double *rho, const double *u, double *rho_at,
                            double u_at[3]);
tess_status tess_probes_write(const tess_probes_t *p, tess_error_t *err);

#endif
