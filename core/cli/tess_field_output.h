/* The field files of a run (fields_<step>.vti and fields.pvd) in the case's output units: velocity, pressure
 * p - p_ref and density converted with the case's [units] (tess_units.h), NaN at nodes where nothing is
 * computed, with a vtkGhostType array that hides those nodes in ParaView (docs/outputs.md). */
#ifndef TESS_FIELD_OUTPUT_H
#define TESS_FIELD_OUTPUT_H

#include "tess_case.h"
#include "tess_pvd.h"
#include "tess_sim.h"
#include "tess_vti.h"
#include "tess_tiling.h"

typedef struct {
    const tess_case_t *c;
    char dir[1024];
    size_t n;
    double *buf;    /* density, pressure, velocity (3): 5 values a node */
    float *f32;     /* the same in single precision, for single-precision runs */
    uint8_t *ghost; /* vtkGhostType: HIDDENPOINT where nothing is computed */
    tess_pvd_t pvd;
    int32_t (*ext)[6]; /* pieces (tess_field_output_pieces): per rank its point extent; NULL: one file */
    tess_sim_t *sim;   /* pieces computed by every rank from its own tiles (tess_field_pieces.h); NULL: from the
                          dense fields given to tess_field_output_write */
    int files;         /* outputs written, their point data in bytes (every piece) and the wall time writing */
    long long bytes;
    double seconds;
    double compute_seconds; /* pieces per rank: the wall time making the values (fields, exchange), not writing */
} tess_field_output_t;

/* Prepares the buffers and the collection DIR/fields.pvd; restart_step >= 0 keeps the collection's entries
 * before that step (a restarted run continues it), -1 starts a new one. */
tess_status tess_field_output_init(tess_field_output_t *o, const tess_case_t *c, const char *dir, long restart_step,
                                   tess_error_t *err);
/* Writes DIR/fields_<step>.vti from the dense lattice fields (tess_sim_fields) and adds it to the collection.
 * solid[i] is 1 where nothing is computed. */
tess_status tess_field_output_write(tess_field_output_t *o, long step, const double *rho, const double *u,
                                    const uint8_t *solid, tess_error_t *err);
/* Rank 0 of a run over several MPI ranks: from now on each output is one dataset in pieces, one per rank over
 * the boxes of sim's partition among tess_mpi_size() ranks (tess_pieces.h, tess_vti_pieces.h): fields_<step>.pvti
 * and fields_<step>/fields_<step>_<rank>.vti, listed in fields.pvd by the .pvti. Each rank computes its piece
 * from its own tiles (tess_field_pieces.h): tess_field_output_write then ignores its dense fields (and the dense
 * buffers are freed). No-op with one rank. */
tess_status tess_field_output_pieces(tess_field_output_t *o, tess_sim_t *sim, tess_error_t *err);
/* Whether tess_field_output_write reads the dense fields it is given (0: the ranks compute the pieces). */
int tess_field_output_dense(const tess_field_output_t *o);
/* The output's per-node values from lattice density and velocity (n nodes; solid[i] 1 where nothing is
 * computed: NaN there, and vtkGhostType's HIDDENPOINT): density and pressure p - p_ref in the output units,
 * velocity (3 a node). The same function for the single file and every rank's piece, so the bits agree. dens may
 * be rho and vel may be u (converted in place). */
void tess_field_output_values(const tess_units_t *un, size_t n, const double *rho, const double *u,
                              const uint8_t *solid, double *dens, double *pres, double *vel, uint8_t *ghost);
/* The six arrays of a field file over those values (density, pressure, velocity, type, solid, vtkGhostType). */
void tess_field_output_arrays(const double *dens, const double *pres, const double *vel, const uint8_t *type,
                              const uint8_t *solid, const uint8_t *ghost, tess_vti_array_t arrays[6]);
/* A single-precision run's Float32 copies of the first three (vals: their 5 n doubles; f32: room for 5 n). */
void tess_field_output_single(size_t n, const double *vals, float *f32, tess_vti_array_t arrays[6]);
void tess_field_output_free(tess_field_output_t *o);

#endif
