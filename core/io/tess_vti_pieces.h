/* Field outputs of a distributed run as one dataset in pieces (docs/outputs.md): every MPI rank writes the .vti
 * of its piece (tess_pieces.h) with the single-file writer (tess_vti_write_piece), and rank 0 writes the .pvti
 * (PImageData) that lists them, DIR/STEM.pvti and DIR/STEM/STEM_<rank>.vti. Either rank 0 holds the dense arrays
 * and sends each rank its piece's values, copied, so the values are the single file's bits, or every rank brings
 * its own piece's values (tess_vti_pieces_write_own). A file appears only when
 * every rank's piece is complete: the pieces are written under temporary names, renamed when all ranks succeeded,
 * removed again if a rename or the .pvti fails; the .pvti comes last. */
#ifndef TESS_VTI_PIECES_H
#define TESS_VTI_PIECES_H

#include "tess_vti.h"

/* At most this many arrays and field-data values. */
#define TESS_VTI_PIECES_MAX 8

typedef struct {
    const char *dir;  /* output folder */
    const char *stem; /* "fields_000040": DIR/STEM.pvti and DIR/STEM/STEM_<rank>.vti (under 64 characters) */
    int dims[3];
    const double *origin;
    double spacing;
    const tess_vti_field_t *fields; /* field data of every piece (TimeValue, units) */
    int nfields;
    const tess_vti_array_t *arrays; /* dense over the whole box (x fastest), on rank 0 */
    int narrays;
    const int32_t (*ext)[6]; /* per rank: its piece's point extent (tess_pieces_extents) */
} tess_vti_pieces_t;

/* Rank 0, with the other ranks in tess_vti_pieces_serve (woken by the caller): writes the pieces and the .pvti.
 * Every rank takes part; the status is the worst of all ranks (a serving rank prints its own line). */
tess_status tess_vti_pieces_write(const tess_vti_pieces_t *job, tess_error_t *err);
/* Every rank at once, each with its own piece's values (job->arrays: over job->ext[rank], x fastest; job->ext:
 * every rank's extent, on every rank; the same names, dims and fields everywhere): the same files as
 * tess_vti_pieces_write, without the dense arrays on rank 0. Every rank gets the worst status; one that did not
 * fail itself gets a line saying that another did. Nothing is printed: the caller reports. */
tess_status tess_vti_pieces_write_own(const tess_vti_pieces_t *job, tess_error_t *err);
/* Ranks above 0: their part of one tess_vti_pieces_write. */
void tess_vti_pieces_serve(void);

#endif
