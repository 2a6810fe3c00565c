/* The frame of a distributed output (tess_pieces_frame.h). */
#include "tess_pieces_frame.h"
#include <stdio.h>

void tess_pieces_frame_set(tess_pieces_frame_t *f, const tess_case_t *c, const char *dir, const char *stem)
{
    snprintf(f->dir, sizeof f->dir, "%s", dir);
    snprintf(f->stem, sizeof f->stem, "%s", stem ? stem : "");
    f->dims[0] = c->geometry.nx;
    f->dims[1] = c->geometry.ny;
    f->dims[2] = c->geometry.nz;
    for (int a = 0; a < 3; a++)
        f->origin[a] = c->origin[a];
    f->spacing = c->spacing;
}
