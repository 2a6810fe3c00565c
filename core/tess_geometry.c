#include "tess_geometry.h"
#include <stdlib.h>
#include <string.h>

int tess_geometry_init(tess_geometry_t *g, int nx, int ny, int nz, uint8_t fill)
{
    memset(g, 0, sizeof *g);
    if (nx <= 0 || ny <= 0 || nz <= 0)
        return -1;
    size_t n = (size_t)nx * (size_t)ny * (size_t)nz;
    g->type = malloc(n);
    if (!g->type)
        return -1;
    memset(g->type, fill, n);
    g->nx = nx;
    g->ny = ny;
    g->nz = nz;
    return 0;
}

void tess_geometry_free(tess_geometry_t *g)
{
    free(g->type);
    g->type = NULL;
}
