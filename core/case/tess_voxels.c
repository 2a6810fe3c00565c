#include "tess_voxels.h"
#include "tess_input_file.h"
#include "tess_vti.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

tess_status tess_voxels_read_vti(const char *path, const char *origin, tess_geometry_t *g, tess_error_t *err)
{
    int dims[3];
    double *v = NULL;
    tess_status st = tess_vti_read(path, "type", 1, (size_t)g->nx * g->ny * g->nz, dims, &v, NULL, err);
    if (st != TESS_OK) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return tess_fail(err, st, "%s: voxel file %s", origin, msg);
    }
    if (dims[0] != g->nx || dims[1] != g->ny || dims[2] != g->nz) {
        free(v);
        return tess_fail(err, TESS_ERR_INPUT, "%s: voxel file %s has %dx%dx%d nodes, expected the domain's %dx%dx%d",
                         origin, path, dims[0], dims[1], dims[2], g->nx, g->ny, g->nz);
    }
    const size_t n = (size_t)g->nx * g->ny * g->nz;
    for (size_t i = 0; i < n; i++) {
        if (!(v[i] >= 0 && v[i] <= 255 && v[i] == (double)(int)v[i])) {
            const double bad = v[i];
            free(v);
            return tess_fail(err, TESS_ERR_INPUT, "%s: voxel file %s: value %g at node %zu is not a material index 0..255",
                             origin, path, bad, i);
        }
        g->type[i] = (uint8_t)v[i];
    }
    free(v);
    return TESS_OK;
}

tess_status tess_voxels_read_raw(const char *path, const char *origin, tess_geometry_t *g, tess_error_t *err)
{
    const size_t n = (size_t)g->nx * g->ny * g->nz;
    size_t len;
    /* A regular file of exactly n bytes: a folder, FIFO or device is refused before it is opened. */
    tess_status st = tess_input_file_check(path, "voxel file", (size_t)-1, &len, err);
    if (st != TESS_OK) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return tess_fail(err, st, "%s: %s", origin, msg);
    }
    if (len != n)
        return tess_fail(err, TESS_ERR_INPUT, "%s: voxel file %s has %zu bytes, expected %zu (%dx%dx%d uint8)", origin,
                         path, len, n, g->nx, g->ny, g->nz);
    FILE *f = fopen(path, "rb");
    if (!f)
        return tess_fail(err, TESS_ERR_INPUT, "%s: cannot open voxel file %s: %s", origin, path, strerror(errno));
    const size_t got = fread(g->type, 1, n, f);
    fclose(f);
    if (got != n)
        return tess_fail(err, TESS_ERR_IO, "%s: cannot read voxel file %s", origin, path);
    return TESS_OK;
}
