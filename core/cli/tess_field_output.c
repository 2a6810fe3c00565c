#include "tess_field_output.h"
#include "cpu_dist.h"
#include "tess_memory.h"
#include "tess_mpi.h"
#include "tess_partition.h"
#include "tess_pieces.h"
#include "tess_vti.h"
#include "tess_vti_pieces.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* vtkDataSetAttributes::HIDDENPOINT: ParaView leaves such points (and cells touching them) out. */
#define GHOST_HIDDEN_POINT 2

tess_status tess_field_output_init(tess_field_output_t *o, const tess_case_t *c, const char *dir, long restart_step,
                                   tess_error_t *err)
{
    memset(o, 0, sizeof *o);
    o->c = c;
    snprintf(o->dir, sizeof o->dir, "%s", dir);
    o->n = (size_t)c->geometry.nx * c->geometry.ny * c->geometry.nz;
    const int single = c->precision == TESS_PRECISION_SINGLE;
    char what[1200];
    snprintf(what, sizeof what, "%s: output fields in the case's units for %zu nodes", c->path, o->n);
    tess_status st = tess_memory_check(o->n * (5 * sizeof(double) + 1 + (single ? 5 * sizeof(float) : 0)), what, err);
    if (st != TESS_OK)
        return st;
    o->buf = malloc(5 * o->n * sizeof *o->buf);
    o->ghost = malloc(o->n ? o->n : 1);
    o->f32 = single ? malloc(5 * o->n * sizeof *o->f32) : NULL;
    if (!o->buf || !o->ghost || (single && !o->f32))
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the output fields");
    char path[1200];
    snprintf(path, sizeof path, "%s/fields.pvd", dir);
    return tess_pvd_open(&o->pvd, path, restart_step, err);
}

tess_status tess_field_output_write(tess_field_output_t *o, long step, const double *rho, const double *u,
                                    const uint8_t *solid, tess_error_t *err)
{
    const tess_case_t *c = o->c;
    const tess_units_t *un = &c->units;
    const size_t n = o->n;
    double *dens = o->buf, *pres = o->buf + n, *vel = o->buf + 2 * n;
    const double cu = tess_units_velocity_scale(un);
    /* NaN, not 0, where nothing is computed: ParaView's default colour range then spans the fluid only. */
    for (size_t i = 0; i < n; i++) {
        o->ghost[i] = solid[i] ? GHOST_HIDDEN_POINT : 0;
        dens[i] = solid[i] ? NAN : tess_units_density(un, rho[i]);
        pres[i] = solid[i] ? NAN : tess_units_pressure(un, rho[i]);
        for (int k = 0; k < 3; k++)
            vel[3 * i + k] = solid[i] ? NAN : u[3 * i + k] * cu;
    }
    tess_vti_array_t arrays[6] = {{"density", TESS_VTI_FLOAT64, 1, dens},   {"pressure", TESS_VTI_FLOAT64, 1, pres},
                                  {"velocity", TESS_VTI_FLOAT64, 3, vel},   {"type", TESS_VTI_UINT8, 1, c->geometry.type},
                                  {"solid", TESS_VTI_UINT8, 1, solid},      {"vtkGhostType", TESS_VTI_UINT8, 1, o->ghost}};
    if (o->f32) {
        /* Single-precision runs write Float32: the lattice values are floats already. */
        for (size_t i = 0; i < 5 * n; i++)
            o->f32[i] = (float)o->buf[i];
        for (int a = 0; a < 3; a++) {
            arrays[a].type = TESS_VTI_FLOAT32;
            arrays[a].data = o->f32 + (a == 0 ? 0 : a == 1 ? n : 2 * n);
        }
    }
    char name[64], path[1200];
    snprintf(name, sizeof name, o->ext ? "fields_%06ld.pvti" : "fields_%06ld.vti", step);
    snprintf(path, sizeof path, "%s/%s", o->dir, name);
    const tess_geometry_t *g = &c->geometry;
    const int dims[3] = {g->nx, g->ny, g->nz};
    const double time = tess_units_time(un, step);
    /* The conversion of a physical-unit file, so that it can be read back as an [init] file (tess_sim.c). */
    const tess_vti_field_t fields[4] = {{"TimeValue", time},
                                        {TESS_VTI_UNITS_DX, un->dx},
                                        {TESS_VTI_UNITS_DT, un->dt},
                                        {TESS_VTI_UNITS_DENSITY, un->rho}};
    const int physical = un->active && un->physical_output;
    tess_status st;
    const double t0 = tess_mpi_wtime();
    static const size_t type_bytes[] = {8, 4, 1}; /* tess_vti_type */
    size_t node_bytes = 0;
    for (int a = 0; a < 6; a++)
        node_bytes += (size_t)arrays[a].ncomp * type_bytes[arrays[a].type];
    if (o->ext) {
        char stem[64];
        snprintf(stem, sizeof stem, "fields_%06ld", step);
        const tess_vti_pieces_t job = {o->dir, stem, {dims[0], dims[1], dims[2]}, c->origin, c->spacing, fields,
                                       physical ? 4 : 1, arrays, 6, (const int32_t(*)[6])o->ext};
        tess_cpu_dist_service(); /* the other ranks into tess_vti_pieces_serve */
        st = tess_vti_pieces_write(&job, err);
    } else {
        st = tess_vti_write_fields(path, dims, c->origin, c->spacing, fields, physical ? 4 : 1, arrays, 6, err);
    }
    if (st == TESS_OK) {
        o->seconds += tess_mpi_wtime() - t0;
        o->files++;
        size_t nodes = o->ext ? 0 : n;
        for (int r = 0; o->ext && r < tess_mpi_size(); r++) /* the pieces share their boundary planes */
            nodes += (size_t)(o->ext[r][1] - o->ext[r][0] + 1) * (size_t)(o->ext[r][3] - o->ext[r][2] + 1) *
                     (size_t)(o->ext[r][5] - o->ext[r][4] + 1);
        o->bytes += (long long)(nodes * node_bytes);
        st = tess_pvd_add(&o->pvd, step, time, name, err);
    }
    return st;
}

tess_status tess_field_output_pieces(tess_field_output_t *o, const tess_tiling_t *t, const tess_params_t *p,
                                     tess_error_t *err)
{
    const int R = tess_mpi_size();
    if (R < 2)
        return TESS_OK;
    /* The backend's partition (cpu_dist.c builds the same from the same tiling: it is deterministic). */
    tess_partition_t part;
    tess_status st = tess_partition_build(&part, t, p, NULL, R, err);
    if (st != TESS_OK)
        return st;
    free(o->ext);
    o->ext = malloc((size_t)R * sizeof *o->ext);
    if (o->ext)
        tess_pieces_extents(t, part.rank, R, o->ext);
    tess_partition_free(&part);
    return o->ext ? TESS_OK : tess_fail(err, TESS_ERR_NOMEM, "out of memory for the output pieces");
}

void tess_field_output_free(tess_field_output_t *o)
{
    free(o->ext);
    o->ext = NULL;
    free(o->buf);
    free(o->f32);
    free(o->ghost);
    tess_pvd_free(&o->pvd);
    o->buf = NULL;
    o->f32 = NULL;
    o->ghost = NULL;
}
