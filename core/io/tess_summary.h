/* summary.json: what ran and how fast (docs/outputs.md). */
#ifndef TESS_SUMMARY_H
#define TESS_SUMMARY_H

#include "tess_case.h"
#include "tess_error.h"
#include "tess_halo_plan.h"
#include "tess_setup.h"
#include <stddef.h>

typedef struct {
    const char *version, *case_name, *case_path, *backend, *precision, *pattern, *device;
    int nx, ny, nz, threads;
    long long nodes, fluid_nodes, tiles;
    double eta_t;
    long steps_run, first_step, last_step;
    double mlups, wall_s;
    size_t bytes_allocated;
    const tess_case_forces_t *bodies; /* named bodies and their final forces (3 per body); NULL: none */
    const double *force;
    const tess_units_t *units;        /* the case's [units] conversion; NULL: a lattice-unit case */
    const char *interrupted; /* the signal that stopped the run ("SIGINT", "SIGTERM"), NULL for a complete run */
    int nranks;              /* MPI ranks of a distributed run (0 or 1: none; no "mpi" block) */
    double imbalance;        /* max over mean wet nodes per rank */
    const tess_halo_rank_t *ranks; /* nranks entries */
    int field_files;               /* fields_* outputs written (0: no "field_output" block) */
    int field_pieces;              /* pieces per output (0: single files) */
    long long field_bytes;         /* their point data, all ranks' pieces */
    double field_seconds;          /* wall time writing them (tess_field_output.h) */
    const tess_setup_t *setup;     /* the set-up's stages (NULL: no "setup" block) */
    size_t host_peak;              /* the process's peak host memory, bytes (0: unknown) */
    double field_values_seconds;   /* pieces made by every rank from its own tiles: the wall time making their
                                      values (fields, exchange) besides field_seconds; < 0: not reported */
} tess_summary_t;

tess_status tess_summary_write(const char *path, const tess_summary_t *s, tess_error_t *err);

#endif
