/* The field files of a run (fields_<step>.vti and fields.pvd) in the case's output units: velocity, pressure
 * p - p_ref and density converted with the case's [units] (tess_units.h), NaN at nodes where nothing is
 * computed, with a vtkGhostType array that hides those nodes in ParaView (docs/outputs.md). */
#ifndef TESS_FIELD_OUTPUT_H
#define TESS_FIELD_OUTPUT_H

#include "tess_case.h"
#include "tess_pvd.h"
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
    int files;         /* outputs written, their point data in bytes (every piece) and the wall time writing */
    long long bytes;
    double seconds;
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
 * the boxes of t's partition among tess_mpi_size() ranks (tess_pieces.h, tess_vti_pieces.h): fields_<step>.pvti
 * and fields_<step>/fields_<step>_<rank>.vti, listed in fields.pvd by the .pvti. The serving ranks must run
 * tess_vti_pieces_serve on tess_cpu_dist_service. No-op with one rank. */
tess_status tess_field_output_pieces(tess_field_output_t *o, const tess_tiling_t *t, const tess_params_t *p,
                                     tess_error_t *err);
void tess_field_output_free(tess_field_output_t *o);

#endif
