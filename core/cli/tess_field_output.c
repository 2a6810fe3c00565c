#include "tess_field_output.h"
#include "cpu_dist.h"
#include "tess_memory.h"
#include "tess_mpi.h"
#include "tess_partition.h"
#include "tess_pieces.h"
#include "tess_vti.h"
#include "tess_vti_pieces.h"
#include "tess_field_pieces.h"
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

void tess_field_output_values(const tess_units_t *un, size_t n, const double *rho, const double *u,
                              const uint8_t *solid, double *dens, double *pres, double *vel, uint8_t *ghost)
{
    const double cu = tess_units_velocity_scale(un);
    /* NaN, not 0, where nothing is computed: ParaView's default colour range then spans the fluid only. */
    for (size_t i = 0; i < n; i++) {
        const double r = rho[i]; /* read first: dens may be rho, vel may be u */
        ghost[i] = solid[i] ? GHOST_HIDDEN_POINT : 0;
        dens[i] = solid[i] ? NAN : tess_units_density(un, r);
        pres[i] = solid[i] ? NAN : tess_units_pressure(un, r);
        for (int k = 0; k < 3; k++)
            vel[3 * i + k] = solid[i] ? NAN : u[3 * i + k] * cu;
    }
}

void tess_field_output_arrays(const double *dens, const double *pres, const double *vel, const uint8_t *type,
                              const uint8_t *solid, const uint8_t *ghost, tess_vti_array_t arrays[6])
{
    const tess_vti_array_t a[6] = {{"density", TESS_VTI_FLOAT64, 1, dens},   {"pressure", TESS_VTI_FLOAT64, 1, pres},
                                   {"velocity", TESS_VTI_FLOAT64, 3, vel},   {"type", TESS_VTI_UINT8, 1, type},
                                   {"solid", TESS_VTI_UINT8, 1, solid},      {"vtkGhostType", TESS_VTI_UINT8, 1, ghost}};
    memcpy(arrays, a, sizeof a);
}

void tess_field_output_single(size_t n, const double *vals, float *f32, tess_vti_array_t arrays[6])
{
    /* Single-precision runs write Float32: the lattice values are floats already. */
    for (size_t i = 0; i < 5 * n; i++)
        f32[i] = (float)vals[i];
    for (int a = 0; a < 3; a++) {
        arrays[a].type = TESS_VTI_FLOAT32;
        arrays[a].data = f32 + (a == 0 ? 0 : a == 1 ? n : 2 * n);
    }
}

/* The values and arrays of the single file (or of rank 0's dense pieces) in o's buffers. */
static void dense_arrays(tess_field_output_t *o, const double *rho, const double *u, const uint8_t *solid,
                         tess_vti_array_t arrays[6])
{
    const size_t n = o->n;
    double *dens = o->buf, *pres = o->buf + n, *vel = o->buf + 2 * n;
    tess_field_output_values(&o->c->units, n, rho, u, solid, dens, pres, vel, o->ghost);
    tess_field_output_arrays(dens, pres, vel, o->c->geometry.type, solid, o->ghost, arrays);
    if (o->f32)
        tess_field_output_single(n, o->buf, o->f32, arrays);
}

/* Every rank's piece from its own tiles (tess_field_pieces.h); *seconds: the writing alone. */
static tess_status write_ranks(tess_field_output_t *o, const char *stem, const tess_vti_field_t *fields, int nfields,
                               double *seconds, tess_error_t *err)
{
    const tess_case_t *c = o->c;
    tess_field_pieces_job_t job;
    memset(&job, 0, sizeof job);
    tess_field_pieces_head_t *h = &job.head;
    tess_pieces_frame_set(&h->frame, c, o->dir, stem);
    h->units = c->units;
    h->single = c->precision == TESS_PRECISION_SINGLE;
    h->nfields = nfields;
    for (int k = 0; k < nfields; k++) {
        snprintf(h->fname[k], sizeof h->fname[k], "%s", fields[k].name);
        h->fvalue[k] = fields[k].value;
    }
    job.ext = (const int32_t(*)[6])o->ext;
    job.type = c->geometry.type;
    const tess_status st = tess_sim_field_pieces(o->sim, &job, err);
    *seconds = job.write_seconds;
    return st;
}

tess_status tess_field_output_write(tess_field_output_t *o, long step, const double *rho, const double *u,
                                    const uint8_t *solid, tess_error_t *err)
{
    const tess_case_t *c = o->c;
    const tess_units_t *un = &c->units;
    const size_t n = o->n;
    tess_vti_array_t arrays[6];
    /* The same arrays (names, types) whoever fills them: for the byte count, and the values unless the ranks
     * make them. */
    tess_field_output_arrays(NULL, NULL, NULL, NULL, NULL, NULL, arrays);
    if (c->precision == TESS_PRECISION_SINGLE)
        for (int a = 0; a < 3; a++)
            arrays[a].type = TESS_VTI_FLOAT32;
    if (!o->sim)
        dense_arrays(o, rho, u, solid, arrays);
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
    double t0 = tess_mpi_wtime();
    static const size_t type_bytes[] = {8, 4, 1}; /* tess_vti_type */
    size_t node_bytes = 0;
    for (int a = 0; a < 6; a++)
        node_bytes += (size_t)arrays[a].ncomp * type_bytes[arrays[a].type];
    if (o->ext) {
        char stem[64];
        snprintf(stem, sizeof stem, "fields_%06ld", step);
        if (o->sim) {
            double w = 0.0;
            st = write_ranks(o, stem, fields, physical ? 4 : 1, &w, err);
            o->compute_seconds += tess_mpi_wtime() - t0 - w;
            t0 = tess_mpi_wtime() - w; /* o->seconds: the writing alone, as for the other paths */
        } else {
            const tess_vti_pieces_t job = {o->dir, stem, {dims[0], dims[1], dims[2]}, c->origin, c->spacing, fields,
                                           physical ? 4 : 1, arrays, 6, (const int32_t(*)[6])o->ext};
            tess_cpu_dist_service(); /* the other ranks into tess_vti_pieces_serve */
            st = tess_vti_pieces_write(&job, err);
        }
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

int tess_field_output_dense(const tess_field_output_t *o)
{
    return o->sim == NULL;
}

static void free_buffers(tess_field_output_t *o)
{
    free(o->buf);
    free(o->f32);
    free(o->ghost);
    o->buf = NULL;
    o->f32 = NULL;
    o->ghost = NULL;
}

tess_status tess_field_output_pieces(tess_field_output_t *o, tess_sim_t *sim, tess_error_t *err)
{
    const int R = tess_mpi_size();
    if (R < 2)
        return TESS_OK;
    const tess_tiling_t *t = tess_sim_tiling(sim);
    /* The backend's partition (cpu_dist.c builds the same from the same tiling: it is deterministic). */
    tess_partition_t part;
    tess_status st = tess_partition_build(&part, t, &o->c->params, NULL, R, err);
    if (st != TESS_OK)
        return st;
    free(o->ext);
    o->ext = malloc((size_t)R * sizeof *o->ext);
    if (o->ext)
        tess_pieces_extents(t, part.rank, R, o->ext);
    tess_partition_free(&part);
    if (!o->ext)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the output pieces");
    /* Each rank computes its piece from its own tiles: rank 0 needs no dense buffers. */
    if (tess_sim_distributed(sim)) {
        o->sim = sim;
        free_buffers(o);
    }
    return TESS_OK;
}

void tess_field_output_free(tess_field_output_t *o)
{
    free(o->ext);
    o->ext = NULL;
    free_buffers(o);
    tess_pvd_free(&o->pvd);
}
