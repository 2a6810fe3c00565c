/* Voxel geometries: a uint8 node-type grid the size of the domain, from a VTK XML ImageData file (point
 * array "type") or a raw file of nx*ny*nz bytes (x fastest). Values are material indices as in the case. */
#ifndef TESS_VOXELS_H
#define TESS_VOXELS_H

#include "tess_error.h"
#include "tess_geometry.h"

/* Copies the file's values into g (whose size it must match). `origin` names the case key for messages. */
tess_status tess_voxels_read_vti(const char *path, const char *origin, tess_geometry_t *g, tess_error_t *err);
tess_status tess_voxels_read_raw(const char *path, const char *origin, tess_geometry_t *g, tess_error_t *err);

#endif
