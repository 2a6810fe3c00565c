/* A case: everything a run needs, read from an INI case file (docs/case-format.md) plus --set overrides.
 * The physics (tess_params_t) and the node-type grid (tess_geometry_t) are ready for tess_tiling_build;
 * the run, init and output settings are plain values for the command-line program and the benchmark. */
#ifndef TESS_CASE_H
#define TESS_CASE_H

#include "tess_backend.h"
#include "tess_error.h"
#include "tess_geometry.h"
#include "tess_params.h"
#include "tess_shapes.h"
#include "tess_sphere_grid.h"
#include "tess_units.h"

#define TESS_CASE_NAME_MAX 128
#define TESS_CASE_PATH_MAX 1024

/* A shape section that made wall nodes (solid.NAME, wall.NAME, not face = ...): its analytic surface gives the
 * wall distances of curved-wall links (tess_wall_q.h). */
typedef struct {
    tess_shape_t shape;
    uint8_t material; /* the node type it painted */
} tess_case_shape_t;

/* A [spheres.NAME] bed: the spheres it placed and the cell grid over them, for the wall distances of
 * curved-wall links (tess_wall_q.h). */
typedef struct {
    tess_sphere_bed_t spheres;
    tess_sphere_grid_t grid;
} tess_case_bed_t;

/* Named bodies (body = yes) and the [forces] section: what the monitor reports (docs/case-format.md). */
typedef struct {
    int nbody;
    uint8_t material[TESS_MAX_MATERIALS]; /* node type of body b */
    char name[TESS_MAX_MATERIALS][64];    /* body b's name: the section name after the dot */
    int coefficients;                     /* ref_velocity and ref_area given: drag and lift coefficients too */
    double ref_velocity, ref_area, ref_density;
    int drag_axis, lift_axis;             /* 0, 1, 2 = x, y, z */
} tess_case_forces_t;

/* [probe.NAME] points and [line.NAME] segments (a point is a line of one point). */
#define TESS_CASE_MAX_PROBES 64
typedef struct {
    char name[64];
    int is_line;
    double a[3], b[3]; /* node coordinates: the point (a), or the segment's start and end */
    int points;        /* 1 for a point */
    long every;        /* sampling interval in steps, >= 1 */
} tess_case_probe_t;

/* [wss], [average] and the probes (docs/case-format.md, "Analysis"). */
typedef struct {
    int wss;                      /* [wss] enabled = yes */
    int average;                  /* an [average] section */
    long average_start, average_every;
    int nprobe;
    tess_case_probe_t probe[TESS_CASE_MAX_PROBES];
} tess_case_analysis_t;

typedef struct {
    char name[TESS_CASE_NAME_MAX];
    char path[TESS_CASE_PATH_MAX];      /* the case file as given */
    char lattice[16];                   /* "D3Q19" */
    tess_params_t params;
    tess_geometry_t geometry;
    double spacing, origin[3];          /* output only: physical size of a lattice spacing, box origin */
    char mat_name[TESS_MAX_MATERIALS][64]; /* "solid", "fluid", then the section names of boundaries */

    /* [init] */
    double init_density, init_velocity[3];
    char init_file[TESS_CASE_PATH_MAX]; /* .vti with density and velocity; "" = uniform */

    /* [run] */
    long steps, output_every, monitor_every, checkpoint_every;
    int output_pieces; /* [run] output_pieces: 1 (auto) writes the field files in pieces under mpirun */
    char backend[32];                   /* "auto" or a backend name */
    tess_precision precision;
    char pattern[16];                   /* "ab", "aa", "mr": tess_pattern_from_name */
    int threads;
    int mr_layer;                       /* MR pattern: nodes per layer of a block; 0 = from the cache size */
    int mr_copies;                      /* MR pattern on a GPU: copies of the moments (1, 2; 0 = two where they fit) */
    double density_min, density_max;    /* divergence bounds */
    double speed_max;                   /* divergence bound on |u| (lattice units) */
    long check_every;                   /* divergence test interval in steps; 0: at monitor and output steps only */

    tess_case_forces_t forces;          /* named bodies and [forces] */
    tess_case_shape_t *shapes;          /* wall-making shapes in section order (tess_wall_q.h) */
    int nshapes;
    tess_case_bed_t *beds;              /* [spheres.NAME] beds in section order */
    int nbeds;
    struct tess_case_stl *stl;          /* [stl.NAME] surfaces, NULL if none (tess_case_stl.h: wall_q, openings) */
    tess_case_analysis_t analysis;      /* [wss], [average], [probe.NAME], [line.NAME] */

    tess_units_t units;                 /* [units]: the conversion from the case's units (active 0: lattice units) */
    double max_lattice_speed;           /* largest speed the case prescribes (lid, inlet, init, Re) */
    char warning[768];                  /* non-fatal advice (an STL opening capped as wall; lattice Mach number
                                           > 0.3), one line, "" if none */
} tess_case_t;

/* Reads a case file. overrides are n strings "section.key=value" applied on top of the file (a section that
 * the file lacks is created). Errors (TESS_ERR_INPUT, TESS_ERR_IO, TESS_ERR_NOMEM) fill err with one line
 * naming the file and line, or the --set option, the key and what was expected. On error c holds nothing
 * that needs freeing. */
tess_status tess_case_load(const char *path, const char *const *overrides, int n, tess_case_t *c, tess_error_t *err);
void tess_case_free(tess_case_t *c);

/* Pattern names ("ab", "aa", "mr") to tess_pattern; TESS_ERR_INPUT naming the accepted values otherwise. */
tess_status tess_pattern_from_name(const char *name, tess_pattern *out, tess_error_t *err);

/* Lattice Mach number limit above which tess_case_load leaves a warning. */
#define TESS_CASE_MACH_WARN 0.3

#endif
