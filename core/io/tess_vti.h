/* VTK XML ImageData (.vti): the field output (appended raw binary, which VTK 9 and ParaView read) and a
 * reader for initial states and voxel geometries. The reader takes one piece, uncompressed, with data in
 * ascii, inline base64 ("binary") or appended (raw or base64) form, little-endian, UInt32 or UInt64 headers:
 * what tessera writes and what VTK writes with the compressor turned off. */
#ifndef TESS_VTI_H
#define TESS_VTI_H

#include "tess_error.h"
#include <stddef.h>

typedef enum { TESS_VTI_FLOAT64 = 0, TESS_VTI_FLOAT32 = 1, TESS_VTI_UINT8 = 2 } tess_vti_type;

typedef struct {
    const char *name;
    tess_vti_type type;
    int ncomp;
    const void *data; /* nx*ny*nz*ncomp values, x fastest, components interleaved */
} tess_vti_array_t;

/* Writes the point-data arrays atomically (temporary file, then rename). */
tess_status tess_vti_write(const char *path, const int dims[3], const double origin[3], double spacing,
                           const tess_vti_array_t *arrays, int narrays, tess_error_t *err);
/* The same with the time of the data as field data TimeValue (NaN: none), which ParaView shows as the time. */
tess_status tess_vti_write_at(const char *path, const int dims[3], const double origin[3], double spacing, double time,
                              const tess_vti_array_t *arrays, int narrays, tess_error_t *err);

/* Reads the point-data array `name` as doubles (*data: malloc'd, nx*ny*nz*ncomp). dims receives the
 * extent; ncomp must match the array (0: accept any, returned in *ncomp_out when not NULL). The file must
 * name at most max_nodes nodes (the domain's count) and hold the data it declares: sizes are checked before
 * anything is allocated for them. Errors name the file and what was wrong (TESS_ERR_INPUT, TESS_ERR_IO,
 * TESS_ERR_NOMEM). */
tess_status tess_vti_read(const char *path, const char *name, int ncomp, size_t max_nodes, int dims[3], double **data,
                          int *ncomp_out, tess_error_t *err);

#endif
