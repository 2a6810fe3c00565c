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
#include "tess_pieces_frame.h"
#include "tess_units.h"
#include "tess_vti.h"

#define TESS_FIELD_PIECES_FIELDS 4

/* What rank 0 sends every rank for one output (plain data: broadcast as bytes). */
typedef struct {
    tess_pieces_frame_t frame;
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

/* The same exchange for other per-node values (the time averages' pieces, tess_average_dist.h), from within a
 * task on every rank. The plan (one block, freed with free(); *plan replaced): every rank's extent (ext), the
 * global tiling's tile corners and the dense node types of the box (dims) are rank 0's (NULL elsewhere). */
tess_status tess_field_pieces_plan(const tess_dist_view_t *v, const int32_t (*ext)[6], const int32_t *corner,
                                   const uint8_t *type, const int32_t dims[3], void **plan, tess_error_t *err);
/* The rank's box's nodes, and every rank's extent, of a plan. */
size_t tess_field_pieces_nodes(const void *plan);
const int32_t (*tess_field_pieces_ext(const void *plan))[6];
/* narr arrays of ncomp[j] values a node: from the rank's own tiles' nodes (src[j], per own tile node, 64 a tile
 * in local order) into its box (dst[j], x fastest, zeroed by the caller: nodes of empty tiles stay so), the nodes
 * of other ranks' tiles sent by their owners. */
tess_status tess_field_pieces_gather(const tess_dist_view_t *v, const void *plan, int narr, const int *ncomp,
                                     const double *const *src, double *const *dst, tess_error_t *err);

#endif
