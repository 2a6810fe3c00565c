#include "tess_links.h"
#include "tess_lattice.h"
#include "tess_tiling.h"
#include <stdlib.h>
#include <string.h>

void tess_links_free(tess_links_t *l)
{
    free(l->link);
    free(l->start);
    memset(l, 0, sizeof *l);
}

tess_status tess_links_build(tess_links_t *l, const struct tess_tiling *t, const tess_params_t *p, tess_wall_q_fn fn,
                             void *ctx, tess_error_t *err)
{
    tess_links_free(l);
    const tess_lattice_t *lat = tess_lattice_get((tess_lattice_id)t->lattice);
    if (!lat)
        return tess_fail(err, TESS_ERR_INPUT, "unknown lattice id %d", t->lattice);
    l->start = calloc((size_t)t->ntiles + 1, sizeof *l->start);
    if (!l->start)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the link table of %d tiles", t->ntiles);
    size_t cap = 0;
    /* Two passes would call fn twice per link (ray casts against a mesh are not cheap): grow instead. */
    for (int32_t k = 0; k < t->ntiles; k++) {
        l->start[k] = l->n;
        for (int n = 0; n < 64; n++) {
            if (!tess_kind_is_wet(p->mat[t->node_type[64 * (size_t)k + n]].kind))
                continue;
            int lx, ly, lz;
            tess_tiling_local_xyz(t, n, &lx, &ly, &lz);
            const int x = t->tile_corner[3 * k] + lx, y = t->tile_corner[3 * k + 1] + ly, z = t->tile_corner[3 * k + 2] + lz;
            for (int i = 1; i < lat->q; i++) {
                const int *c = lat->c[i];
                const int kind = p->mat[tess_tiling_node_type_at(t, x + c[0], y + c[1], z + c[2])].kind;
                if (kind != TESS_NODE_SOLID && kind != TESS_NODE_WALL)
                    continue;
                const double xd[3] = {x, y, z}, cd[3] = {c[0], c[1], c[2]};
                const double q = fn(ctx, xd, cd);
                if (q == -1.0 || q == 0.5)
                    continue;
                if (!(q > 0.0 && q <= 1.0)) {
                    tess_links_free(l);
                    return tess_fail(err, TESS_ERR_INPUT,
                                     "wall distance %g on the link from node (%d, %d, %d) along %s: expected a "
                                     "fraction in (0, 1] or -1",
                                     q, x, y, z, lat->dir_name[i]);
                }
                if ((size_t)l->n == cap) {
                    cap = cap ? 2 * cap : 1024;
                    tess_link_t *grown = realloc(l->link, cap * sizeof *grown);
                    if (!grown) {
                        tess_links_free(l);
                        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for %zu wall links", cap);
                    }
                    l->link = grown;
                }
                tess_link_t *e = &l->link[l->n++];
                memset(e, 0, sizeof *e);
                e->q = q;
                e->node = (uint16_t)n;
                e->dir = (uint8_t)i;
            }
        }
    }
    l->start[t->ntiles] = l->n;
    return TESS_OK;
}

void tess_links_node_ranges(const struct tess_tiling *t, int64_t *node_link, uint8_t *node_nlink)
{
    memset(node_link, 0, 64 * (size_t)t->ntiles * sizeof *node_link);
    memset(node_nlink, 0, 64 * (size_t)t->ntiles);
    for (int32_t k = 0; k < t->ntiles && t->links.n > 0; k++)
        for (int64_t l = t->links.start[k]; l < t->links.start[k + 1]; l++) {
            const int64_t node = 64 * (int64_t)k + t->links.link[l].node;
            if (node_nlink[node] == 0)
                node_link[node] = l;
            node_nlink[node]++;
        }
}
