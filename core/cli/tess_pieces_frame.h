/* Where a distributed output's pieces go and the box they cut: the part of every pieces task's head (fields, wall
 * shear stress, averages) that rank 0 broadcasts as bytes before the ranks write (tess_vti_pieces_write_own). */
#ifndef TESS_PIECES_FRAME_H
#define TESS_PIECES_FRAME_H

#include "tess_case.h"
#include <stdint.h>

typedef struct {
    char dir[1024], stem[64]; /* the output folder and the dataset's name (stem.pvti, stem_<rank>.vti) */
    int32_t dims[3];          /* the case's box in nodes */
    double origin[3], spacing;
} tess_pieces_frame_t;

/* The frame of case c's box for the dataset `stem` (NULL: none yet) in `dir`. */
void tess_pieces_frame_set(tess_pieces_frame_t *f, const tess_case_t *c, const char *dir, const char *stem);

#endif
