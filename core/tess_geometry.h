/* The dense node-type grid of the bounding box: one uint8 per node, x fastest, each value an index
 * into tess_params_t.mat (0 plain solid, 1 plain fluid). Builders for primitives and voxel files fill it. */
#ifndef TESS_GEOMETRY_H
#define TESS_GEOMETRY_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int nx, ny, nz;
    int periodic[3];
    uint8_t *type;
} tess_geometry_t;

/* Allocates an nx*ny*nz grid filled with `fill`. Returns 0, or -1 when out of memory or sizes are not positive. */
int tess_geometry_init(tess_geometry_t *g, int nx, int ny, int nz, uint8_t fill);
void tess_geometry_free(tess_geometry_t *g);

static inline size_t tess_geometry_index(const tess_geometry_t *g, int x, int y, int z)
{
    return (size_t)x + (size_t)g->nx * ((size_t)y + (size_t)g->ny * (size_t)z);
}

#endif
