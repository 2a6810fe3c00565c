#include "tess_dense_reference.h"
#include "tess_physics.h"
#include "tess_test.h"
#include <stdio.h>
#include <string.h>

/* Material of a box node with periodic wrap; outside a non-periodic box: plain solid (0). */
static uint8_t dense_type(const tess_geometry_t *g, int x, int y, int z, size_t *at)
{
    int c[3] = {x, y, z};
    const int n[3] = {g->nx, g->ny, g->nz};
    for (int a = 0; a < 3; a++)
        if (c[a] < 0 || c[a] >= n[a]) {
            if (!g->periodic[a])
                return 0;
            c[a] = (c[a] + n[a]) % n[a];
        }
    *at = tess_geometry_index(g, c[0], c[1], c[2]);
    return g->type[*at];
}

#define TESS_TEMPLATE "tess_dense_step_t.h"
#include "tess_instantiate.h"

void tess_dense_from_canonical(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec,
                               const void *pops, void *dense)
{
    const size_t n = (size_t)t->nx * t->ny * t->nz, sz = tess_precision_size(prec);
    memset(dense, 0, 19 * n * sz);
    for (int z = 0; z < t->nz; z++)
        for (int y = 0; y < t->ny; y++)
            for (int x = 0; x < t->nx; x++) {
                if (!tess_kind_is_wet(p->mat[tess_tiling_node_type_at(t, x, y, z)].kind))
                    continue;
                const size_t d = (size_t)x + (size_t)t->nx * ((size_t)y + (size_t)t->ny * z);
                for (int i = 0; i < 19; i++)
                    memcpy((char *)dense + (i * n + d) * sz,
                           (const char *)pops + (size_t)tess_test_pop_index(t, x, y, z, i) * sz, sz);
            }
}

long tess_dense_compare(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *pops,
                        const void *dense, char *first, size_t first_len)
{
    const size_t n = (size_t)t->nx * t->ny * t->nz, sz = tess_precision_size(prec);
    long diff = 0;
    first[0] = '\0';
    for (int z = 0; z < t->nz; z++)
        for (int y = 0; y < t->ny; y++)
            for (int x = 0; x < t->nx; x++) {
                if (!tess_kind_is_wet(p->mat[tess_tiling_node_type_at(t, x, y, z)].kind))
                    continue;
                const size_t d = (size_t)x + (size_t)t->nx * ((size_t)y + (size_t)t->ny * z);
                for (int i = 0; i < 19; i++) {
                    const char *a = (const char *)pops + (size_t)tess_test_pop_index(t, x, y, z, i) * sz;
                    const char *b = (const char *)dense + (i * n + d) * sz;
                    if (memcmp(a, b, sz) == 0)
                        continue;
                    if (diff++ == 0) {
                        const double va = prec == TESS_PRECISION_SINGLE ? *(const float *)a : *(const double *)a;
                        const double vb = prec == TESS_PRECISION_SINGLE ? *(const float *)b : *(const double *)b;
                        snprintf(first, first_len, "node (%d,%d,%d) f_%d: tiled %.17g, dense %.17g", x, y, z, i, va,
                                 vb);
                    }
                }
            }
    return diff;
}
