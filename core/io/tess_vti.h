/* VTK XML ImageData (.vti): the field output (appended raw binary, which VTK 9 and ParaView read) and a
 * reader for initial states and voxel geometries. The reader takes one piece, uncompressed, with data in
 * ascii, inline base64 ("binary") or appended (raw or base64) form, little-endian, UInt32 or UInt64 headers:
 * what tessera writes and what VTK writes with the compressor turned off. */
#ifndef TESS_VTI_H
#define TESS_VTI_H

#include "tess_error.h"
#include "tess_file.h"
#include <stddef.h>
#include <stdint.h>

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

/* One value of field data (a one-tuple Float64 array before the piece): the time, or the units of the values. */
typedef struct {
    const char *name;
    double value;
} tess_vti_field_t;

/* Field data of the fields_*.vti of a case with [units] and physical output: dx, dt and the fluid density rho0
 * of the conversion (docs/outputs.md), which an [init] file in physical units needs to be read back. */
#define TESS_VTI_UNITS_DX "tessera_units_dx"
#define TESS_VTI_UNITS_DT "tessera_units_dt"
#define TESS_VTI_UNITS_DENSITY "tessera_units_density"

/* The same with any field data (tess_vti_write_at: TimeValue alone). */
tess_status tess_vti_write_fields(const char *path, const int dims[3], const double origin[3], double spacing,
                                  const tess_vti_field_t *fields, int nfields, const tess_vti_array_t *arrays,
                                  int narrays, tess_error_t *err);
/* A piece of a larger image (a .pvti's piece, tess_vti_pieces.h): point extent ext (x0 x1 y0 y1 z0 z1, global
 * node indices, also its WholeExtent, as VTK writes pieces), the arrays holding the extent's nodes. Written to
 * w's temporary file, which stays open: the caller commits or aborts it (tess_file.h), so that the pieces of
 * all ranks appear together or not at all. */
tess_status tess_vti_write_piece(tess_file_t *w, const char *path, const int32_t ext[6], const double origin[3],
                                 double spacing, const tess_vti_field_t *fields, int nfields,
                                 const tess_vti_array_t *arrays, int narrays, tess_error_t *err);
/* The one-value field-data array `name` of the file: *found 1 and *value, or *found 0 when the file has none.
 * max_nodes bounds the file's size as for tess_vti_read; a value that is not one finite number is an error
 * (TESS_ERR_INPUT naming the file and the array). */
tess_status tess_vti_read_field(const char *path, const char *name, size_t max_nodes, double *value, int *found,
                                tess_error_t *err);

/* Reads the point-data array `name` as doubles (*data: malloc'd, nx*ny*nz*ncomp). dims receives the
 * extent; ncomp must match the array (0: accept any, returned in *ncomp_out when not NULL). The file must
 * name at most max_nodes nodes (the domain's count) and hold the data it declares: sizes are checked before
 * anything is allocated for them. Errors name the file and what was wrong (TESS_ERR_INPUT, TESS_ERR_IO,
 * TESS_ERR_NOMEM). */
tess_status tess_vti_read(const char *path, const char *name, int ncomp, size_t max_nodes, int dims[3], double **data,
                          int *ncomp_out, tess_error_t *err);

#endif
