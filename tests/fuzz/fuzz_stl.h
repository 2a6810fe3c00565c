/* The STL targets' common part: read the file, find and cap its openings, voxelize it into an 8^3 grid. */
#ifndef FUZZ_STL_H
#define FUZZ_STL_H

#include "tess_fuzz.h"
#include "tess_stl.h"
#include "tess_stl_openings.h"
#include "tess_voxelize.h"
#include <stdlib.h>

static void fuzz_stl_file(const char *path)
{
    tess_stl_mesh_t m;
    tess_error_t err;
    tess_status st = tess_stl_read(path, &m, &err);
    tess_fuzz_check(st, &err, path);
    if (st != TESS_OK)
        return;
    tess_stl_opening_t *o = NULL;
    int n = 0;
    st = tess_stl_openings(&m, path, &o, &n, &err);
    tess_fuzz_check(st, &err, path);
    if (st == TESS_OK) {
        unsigned char inside[512];
        long count = 0;
        st = tess_voxelize(&m, 8, 8, 8, inside, &count, &err);
        tess_fuzz_check(st, &err, NULL);
        free(o);
    }
    tess_stl_free(&m);
}

#endif
