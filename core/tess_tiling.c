#include "tess_tiling.h"
#include "tess_lattice.h"
#include <stdlib.h>
#include <string.h>

void tess_tiling_free(tess_tiling_t *t)
{
    free(t->tile_map);
    free(t->tile_corner);
    free(t->neighbors);
    free(t->node_type);
    tess_links_free(&t->links);
    memset(t, 0, sizeof *t);
}

void tess_tiling_extent(int lattice, int e[3])
{
    const int flat = lattice == TESS_LATTICE_D2Q9;
    e[0] = flat ? 8 : 4;
    e[1] = flat ? 8 : 4;
    e[2] = flat ? 1 : 4;
}

/* Geometry lookup with periodic wrap; nodes outside a non-periodic box (and padding) are plain solid. */
static uint8_t geo_type(const tess_geometry_t *g, int x, int y, int z)
{
    const int n[3] = {g->nx, g->ny, g->nz};
    int c[3] = {x, y, z};
    for (int a = 0; a < 3; a++) {
        if (c[a] < 0 || c[a] >= n[a]) {
            if (!g->periodic[a])
                return 0;
            c[a] = ((c[a] % n[a]) + n[a]) % n[a];
        }
    }
    return g->type[tess_geometry_index(g, c[0], c[1], c[2])];
}

static int tile_needed(const tess_tiling_t *t, const tess_geometry_t *g, const tess_params_t *p,
                       const tess_lattice_t *lat, int x0, int y0, int z0)
{
    for (int z = z0; z < z0 + t->ez; z++)
        for (int y = y0; y < y0 + t->ey; y++)
            for (int x = x0; x < x0 + t->ex; x++) {
                if (x >= g->nx || y >= g->ny || z >= g->nz)
                    continue;
                const int kind = p->mat[geo_type(g, x, y, z)].kind;
                if (tess_kind_is_wet(kind))
                    return 1;
                if (kind == TESS_NODE_WALL)
                    for (int i = 1; i < lat->q; i++)
                        if (tess_kind_is_wet(p->mat[geo_type(g, x + lat->c[i][0], y + lat->c[i][1], z + lat->c[i][2])].kind))
                            return 1;
            }
    return 0;
}

tess_status tess_tiling_build(tess_tiling_t *t, const tess_geometry_t *g, const tess_params_t *p, tess_error_t *err)
{
    memset(t, 0, sizeof *t);
    const tess_lattice_t *lat = tess_lattice_get((tess_lattice_id)p->lattice);
    if (!lat)
        return tess_fail(err, TESS_ERR_INPUT, "unknown lattice id %d", (int)p->lattice);
    int e[3];
    tess_tiling_extent(p->lattice, e);
    if (lat->d == 2 && g->nz != 1)
        return tess_fail(err, TESS_ERR_INPUT, "the 2D lattice %s needs nz = 1 (the domain has nz = %d)", lat->name, g->nz);
    const int n[3] = {g->nx, g->ny, g->nz};
    static const char axis_name[3] = {'x', 'y', 'z'};
    for (int a = 0; a < 3; a++)
        if (g->periodic[a] && n[a] % e[a] != 0)
            return tess_fail(err, TESS_ERR_INPUT,
                             "periodic axis %c has %d nodes; periodic axes need a multiple of %d (tiles are %d nodes wide)",
                             axis_name[a], n[a], e[a], e[a]);
    /* Every loop over the box or the tiles below is threaded (a billion-node box is seconds, not minutes); each
     * writes its own entries, and the tile numbering is a serial prefix sum, so the result is the same bits. */
    const int64_t nn = (int64_t)g->nx * g->ny * g->nz;
    int most = 0;
#pragma omp parallel for schedule(static) reduction(max : most)
    for (int64_t i = 0; i < nn; i++)
        most = g->type[i] > most ? g->type[i] : most;
    for (int64_t i = 0; most >= p->nmat && i < nn; i++) /* the first one, as a serial scan names it */
        if (g->type[i] >= p->nmat)
            return tess_fail(err, TESS_ERR_INPUT, "node type %d used in the geometry but only %d materials are defined",
                             g->type[i], p->nmat);

    t->nx = g->nx;
    t->ny = g->ny;
    t->nz = g->nz;
    t->ex = e[0];
    t->ey = e[1];
    t->ez = e[2];
    t->lattice = p->lattice;
    t->q = lat->q;
    memcpy(t->periodic, g->periodic, sizeof t->periodic);
    t->tx = (g->nx + e[0] - 1) / e[0];
    t->ty = (g->ny + e[1] - 1) / e[1];
    t->tz = (g->nz + e[2] - 1) / e[2];
    t->px = e[0] * t->tx;
    t->py = e[1] * t->ty;
    t->pz = e[2] * t->tz;
    const size_t nmap = (size_t)t->tx * t->ty * t->tz;
    t->tile_map = malloc(nmap * sizeof *t->tile_map);
    if (!t->tile_map)
        goto nomem;

    /* Algorithm 1: tiles in z, y, x order; non-empty ones get consecutive indices (which tiles are needed in
     * parallel, their numbers by a prefix sum). */
#pragma omp parallel for schedule(dynamic, 64)
    for (int64_t m = 0; m < (int64_t)nmap; m++) {
        const int tx = (int)(m % t->tx), ty = (int)(m / t->tx % t->ty), tz = (int)(m / ((int64_t)t->tx * t->ty));
        t->tile_map[m] = tile_needed(t, g, p, lat, e[0] * tx, e[1] * ty, e[2] * tz);
    }
    int32_t count = 0;
    for (size_t m = 0; m < nmap; m++)
        t->tile_map[m] = t->tile_map[m] ? count++ : -1;
    t->ntiles = count;
    const size_t nt = count > 0 ? (size_t)count : 1;
    t->tile_corner = malloc(3 * nt * sizeof *t->tile_corner);
    t->neighbors = malloc(27 * nt * sizeof *t->neighbors);
    t->node_type = malloc(64 * nt);
    if (!t->tile_corner || !t->neighbors || !t->node_type)
        goto nomem;

    int64_t wet = 0;
#pragma omp parallel for schedule(static) reduction(+ : wet)
    for (int64_t m = 0; m < (int64_t)nmap; m++) {
        const int tx = (int)(m % t->tx), ty = (int)(m / t->tx % t->ty), tz = (int)(m / ((int64_t)t->tx * t->ty));
        const int32_t k = t->tile_map[m];
        if (k < 0)
            continue;
        t->tile_corner[3 * k + 0] = e[0] * tx;
        t->tile_corner[3 * k + 1] = e[1] * ty;
        t->tile_corner[3 * k + 2] = e[2] * tz;
        for (int z = 0; z < e[2]; z++)
            for (int y = 0; y < e[1]; y++)
                for (int x = 0; x < e[0]; x++) {
                    const int gx = e[0] * tx + x, gy = e[1] * ty + y, gz = e[2] * tz + z;
                    uint8_t ty8 = 0;
                    if (gx < g->nx && gy < g->ny && gz < g->nz)
                        ty8 = g->type[tess_geometry_index(g, gx, gy, gz)];
                    t->node_type[64 * (size_t)k + tess_tiling_local(t, x, y, z)] = ty8;
                    wet += tess_kind_is_wet(p->mat[ty8].kind);
                }
        for (int dz = -1; dz <= 1; dz++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int c[3] = {tx + dx, ty + dy, tz + dz};
                    const int tn[3] = {t->tx, t->ty, t->tz};
                    int32_t nb = -1, inside = 1;
                    for (int a = 0; a < 3; a++) {
                        if (c[a] < 0 || c[a] >= tn[a]) {
                            if (t->periodic[a])
                                c[a] = (c[a] + tn[a]) % tn[a];
                            else
                                inside = 0;
                        }
                    }
                    if (inside)
                        nb = t->tile_map[(size_t)c[0] + (size_t)t->tx * ((size_t)c[1] + (size_t)t->ty * c[2])];
                    t->neighbors[27 * (size_t)k + tess_tiling_slot(dx, dy, dz)] = nb;
                }
    }
    t->n_wet = wet;
    t->eta_t = count > 0 ? (double)wet / (64.0 * count) : 0.0;
    return TESS_OK;
nomem:
    tess_tiling_free(t);
    return tess_fail(err, TESS_ERR_NOMEM, "out of memory while tiling a %dx%dx%d box", g->nx, g->ny, g->nz);
}

int64_t tess_tiling_node_index(const tess_tiling_t *t, int x, int y, int z)
{
    int c[3] = {x, y, z};
    const int pn[3] = {t->px, t->py, t->pz};
    for (int a = 0; a < 3; a++) {
        if (c[a] < 0 || c[a] >= pn[a]) {
            if (!t->periodic[a])
                return -1;
            c[a] = ((c[a] % pn[a]) + pn[a]) % pn[a];
        }
    }
    const int32_t k = t->tile_map[(size_t)(c[0] / t->ex) + (size_t)t->tx * ((size_t)(c[1] / t->ey) + (size_t)t->ty * (c[2] / t->ez))];
    if (k < 0)
        return -1;
    return 64 * (int64_t)k + tess_tiling_local(t, c[0] % t->ex, c[1] % t->ey, c[2] % t->ez);
}

uint8_t tess_tiling_node_type_at(const tess_tiling_t *t, int x, int y, int z)
{
    const int64_t i = tess_tiling_node_index(t, x, y, z);
    return i < 0 ? 0 : t->node_type[i];
}
