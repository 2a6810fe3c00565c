#include "tess_wss_surface.h"
#include "tess_file.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tess_wss_surface_free(tess_wss_surface_t *s)
{
    free(s->v);
    free(s->normal);
    free(s->node);
    memset(s, 0, sizeof *s);
}

tess_status tess_wss_surface_create(tess_wss_surface_t *s, double *v, long ntri, const tess_wss_t *w,
                                    const tess_geometry_t *g, tess_error_t *err)
{
    memset(s, 0, sizeof *s);
    s->v = v;
    s->ntri = ntri;
    const size_t nn = (size_t)g->nx * g->ny * g->nz;
    int64_t *at = malloc(nn * sizeof *at); /* dense node -> WSS node */
    s->normal = malloc(3 * (size_t)(ntri ? ntri : 1) * sizeof *s->normal);
    s->node = malloc((size_t)(ntri ? ntri : 1) * sizeof *s->node);
    if (!at || !s->normal || !s->node) {
        free(at);
        tess_wss_surface_free(s);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the wall shear stress surface");
    }
    for (size_t i = 0; i < nn; i++)
        at[i] = -1;
    for (int64_t m = 0; m < w->n; m++)
        at[tess_geometry_index(g, w->at[3 * m], w->at[3 * m + 1], w->at[3 * m + 2])] = m;
    const int n[3] = {g->nx, g->ny, g->nz}, r = 3;
    for (long t = 0; t < ntri; t++) {
        const double *p = v + 9 * t;
        double c[3], e1[3], e2[3], *nt = s->normal + 3 * t;
        for (int a = 0; a < 3; a++) {
            c[a] = (p[a] + p[3 + a] + p[6 + a]) / 3.0;
            e1[a] = p[3 + a] - p[a];
            e2[a] = p[6 + a] - p[a];
        }
        nt[0] = e1[1] * e2[2] - e1[2] * e2[1];
        nt[1] = e1[2] * e2[0] - e1[0] * e2[2];
        nt[2] = e1[0] * e2[1] - e1[1] * e2[0];
        const double len = sqrt(nt[0] * nt[0] + nt[1] * nt[1] + nt[2] * nt[2]);
        for (int a = 0; a < 3; a++)
            nt[a] = len > 0 ? nt[a] / len : 0.0;
        int64_t best = -1;
        double bd = INFINITY;
        const int ci[3] = {(int)lround(c[0]), (int)lround(c[1]), (int)lround(c[2])};
        for (int dz = -r; dz <= r; dz++)
            for (int dy = -r; dy <= r; dy++)
                for (int dx = -r; dx <= r; dx++) {
                    const int q[3] = {ci[0] + dx, ci[1] + dy, ci[2] + dz};
                    if (q[0] < 0 || q[1] < 0 || q[2] < 0 || q[0] >= n[0] || q[1] >= n[1] || q[2] >= n[2])
                        continue;
                    const int64_t m = at[tess_geometry_index(g, q[0], q[1], q[2])];
                    const double d = (q[0] - c[0]) * (q[0] - c[0]) + (q[1] - c[1]) * (q[1] - c[1]) +
                                     (q[2] - c[2]) * (q[2] - c[2]);
                    if (m >= 0 && d < bd) {
                        bd = d;
                        best = m;
                    }
                }
        s->node[t] = best;
        if (best >= 0) {
            const double *wn = w->normal + 3 * best;
            if (nt[0] * wn[0] + nt[1] * wn[1] + nt[2] * wn[2] < 0)
                for (int a = 0; a < 3; a++)
                    nt[a] = -nt[a];
        }
    }
    free(at);
    return TESS_OK;
}

tess_status tess_wss_surface_write(const tess_wss_surface_t *s, const char *path, const double *wss, double spacing,
                                   const double origin[3], tess_error_t *err)
{
    tess_file_t w;
    tess_status st = tess_file_begin(&w, path, err);
    if (st != TESS_OK)
        return st;
    FILE *f = w.f;
    fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
               "  <PolyData>\n    <Piece NumberOfPoints=\"%ld\" NumberOfVerts=\"0\" NumberOfLines=\"0\" "
               "NumberOfStrips=\"0\" NumberOfPolys=\"%ld\">\n      <Points>\n"
               "        <DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n",
            3 * s->ntri, s->ntri);
    for (long k = 0; k < 3 * s->ntri; k++)
        fprintf(f, "%.17g %.17g %.17g\n", origin[0] + spacing * s->v[3 * k], origin[1] + spacing * s->v[3 * k + 1],
                origin[2] + spacing * s->v[3 * k + 2]);
    fprintf(f, "        </DataArray>\n      </Points>\n      <Polys>\n"
               "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n");
    for (long t = 0; t < s->ntri; t++)
        fprintf(f, "%ld %ld %ld\n", 3 * t, 3 * t + 1, 3 * t + 2);
    fprintf(f, "        </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n");
    for (long t = 0; t < s->ntri; t++)
        fprintf(f, "%ld\n", 3 * t + 3);
    fprintf(f, "        </DataArray>\n      </Polys>\n      <CellData Scalars=\"wss_magnitude\" Vectors=\"wss\">\n"
               "        <DataArray type=\"Float64\" Name=\"wss\" NumberOfComponents=\"3\" format=\"ascii\">\n");
    for (long t = 0; t < s->ntri; t++) {
        const double *v = s->node[t] >= 0 ? wss + 3 * s->node[t] : NULL;
        fprintf(f, "%.17g %.17g %.17g\n", v ? v[0] : 0.0, v ? v[1] : 0.0, v ? v[2] : 0.0);
    }
    fprintf(f, "        </DataArray>\n        <DataArray type=\"Float64\" Name=\"wss_magnitude\" format=\"ascii\">\n");
    for (long t = 0; t < s->ntri; t++) {
        const double *v = s->node[t] >= 0 ? wss + 3 * s->node[t] : NULL;
        fprintf(f, "%.17g\n", v ? sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) : 0.0);
    }
    fprintf(f, "        </DataArray>\n        <DataArray type=\"Float64\" Name=\"normal\" NumberOfComponents=\"3\" "
               "format=\"ascii\">\n");
    for (long t = 0; t < s->ntri; t++)
        fprintf(f, "%.17g %.17g %.17g\n", s->normal[3 * t], s->normal[3 * t + 1], s->normal[3 * t + 2]);
    fprintf(f, "        </DataArray>\n        <DataArray type=\"UInt8\" Name=\"matched\" format=\"ascii\">\n");
    for (long t = 0; t < s->ntri; t++)
        fprintf(f, "%d\n", s->node[t] >= 0);
    fprintf(f, "        </DataArray>\n      </CellData>\n    </Piece>\n  </PolyData>\n</VTKFile>\n");
    return tess_file_commit(&w, err);
}
