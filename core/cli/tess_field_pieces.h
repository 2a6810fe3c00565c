/* The field files of a distributed run computed on every rank from its own tiles (docs/mpi.md, "Field pieces"):
 * each rank's piece (tess_pieces.h) takes the density and velocity of its own tiles' nodes and, over the nodes of
 * its box that other ranks own (a tile plane at most per cut of the bisection), theirs, sent per output by their
 * owners; the node types of its box come once, at the first output, from rank 0's geometry. The values are
 * converted to the output units node by node as in the single file (tess_field_output_values), so every piece is
 * the single file's bits over its extent, and rank 0 never holds a dense array of the box. A task of the
 * distributed driver (cpu_dist.h), registered by tess_sim_dist_register. */
#ifndef TESS_FIELD_PIECES_H
#define TESS_FIELD_PIECES_H

#include "cpu_dist.h"
#include "tess_units.h"
#include "tess_vti.h"

#define TESS_FIELD_PIECES_FIELDS 4

/* What rank 0 sends every rank for one output (plain data: broadcast as bytes). */
typedef struct {
    char dir[1024], stem[64];
    int32_t dims[3];
    double origin[3], spacing;
    tess_units_t units;
    int32_t single; /* 1: density, pressure and velocity as Float32 */
    int32_t nfields;
    char fname[TESS_FIELD_PIECES_FIELDS][32];
    double fvalue[TESS_FIELD_PIECES_FIELDS];
} tess_field_pieces_head_t;

typedef struct {
    tess_field_pieces_head_t head;
    const int32_t (*ext)[6];     /* every rank's point extent (tess_pieces_extents) */
    const tess_tiling_t *tiling; /* the global tiling (its corners), read at the first output */
    const uint8_t *type;         /* the dense node types of the box (the case's geometry), read at the first output */
    double write_seconds;        /* out: the wall time of the writing alone (every rank's piece and the .pvti) */
} tess_field_pieces_job_t;

/* The task (arg: the job on rank 0, NULL elsewhere): every rank writes its piece, rank 0 the .pvti
 * (tess_vti_pieces_write_own). */
tess_status tess_field_pieces_task(const tess_dist_view_t *v, void *arg, tess_error_t *err);

#endif
