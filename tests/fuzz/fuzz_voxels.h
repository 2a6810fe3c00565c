/* The voxel targets: the input is the voxel file of a fixed 8x8x8 case with three materials (solid, fluid,
 * the lid), read through tess_case_load as `tessera run` reads it. */
#ifndef FUZZ_VOXELS_H
#define FUZZ_VOXELS_H

#include "tess_case.h"
#include "tess_fuzz.h"
#include <stdio.h>

static void fuzz_voxel_case(const char *file, const char *keys, const uint8_t *data, size_t size)
{
    const char *vpath = tess_fuzz_file(file, data, size);
    char text[512];
    const int len = snprintf(text, sizeof text,
                             "[domain]\nnx = 8\nny = 8\nnz = 8\n[physics]\ntau = 0.8\n[voxels.v]\nfile = %s\n%s"
                             "[wall.lid]\nshape = box\nmin = 0 0 7\nmax = 7 7 7\nvelocity = 0.05 0 0\n",
                             file, keys);
    const char *cpath = tess_fuzz_file("case.ini", text, (size_t)len);
    tess_case_t c;
    tess_error_t err;
    const tess_status st = tess_case_load(cpath, NULL, 0, &c, &err);
    (void)vpath;
    tess_fuzz_check(st, &err, file);
    if (st == TESS_OK)
        tess_case_free(&c);
}

#endif
