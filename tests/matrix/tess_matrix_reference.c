#include "tess_matrix_reference.h"
#include "tess_physics_q.h"
#include "tess_q_step.h"
#include "tess_state.h"
#include <stdlib.h>
#include <string.h>

#define TESS_QTEMPLATE "tess_matrix_reference_sweep.h"
#include "tess_instantiate_q.h"

#define TMR_SWEEP(lat, prec_)                                                                                         \
    do {                                                                                                              \
        if (single)                                                                                                   \
            tmr_sweep_##lat##_f32(p, &g, t->ntiles, links, node_link, node_nlink, (const float *)src, (float *)dst);  \
        else                                                                                                          \
            tmr_sweep_##lat##_f64(p, &g, t->ntiles, links, node_link, node_nlink, (const double *)src, (double *)dst); \
    } while (0)

tess_status tess_matrix_reference_run(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec,
                                      const void *pops_in, int nsteps, void *pops_out, tess_error_t *err)
{
    tess_status st = tess_q_check_physics(p, err);
    if (st != TESS_OK)
        return st;
    const size_t vs = tess_precision_size(prec), count = tess_state_count(t);
    const size_t nodes = 64 * (size_t)(t->ntiles > 0 ? t->ntiles : 1);
    const int single = prec == TESS_PRECISION_SINGLE;
    /* The engine's storage ((k q + i) 64 + local, tess_q_step.h): the canonical order differs for D3Q19. */
    char *a = malloc(count * vs + vs), *b = malloc(count * vs + vs);
    int64_t *node_link = malloc(nodes * sizeof *node_link);
    uint8_t *node_nlink = malloc(nodes);
    if (!a || !b || !node_link || !node_nlink) {
        free(a), free(b), free(node_link), free(node_nlink);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the per-node reference (%zu values)", count);
    }
    for (int32_t k = 0; k < t->ntiles; k++)
        for (int i = 0; i < t->q; i++)
            for (int n = 0; n < 64; n++)
                memcpy(a + (((size_t)k * t->q + i) * 64 + n) * vs,
                       (const char *)pops_in + tess_state_index(t, k, i, n) * vs, vs);
    memcpy(b, a, count * vs);
    const tess_link_t *links = t->links.n > 0 ? t->links.link : NULL;
    if (links)
        tess_links_node_ranges(t, node_link, node_nlink);
    tess_q_grid_t g = {t->neighbors, t->node_type, t->tile_corner, t->ex, t->ey, t->ez, 0, {0}};
    char *src = a, *dst = b;
    for (int s = 0; s < nsteps; s++) {
        g.step = p->step0 + s + 1; /* the time of the step's inlets, as the backends count it */
        switch (t->lattice) {
        case TESS_LATTICE_D2Q9: TMR_SWEEP(d2q9, prec); break;
        case TESS_LATTICE_D3Q13: TMR_SWEEP(d3q13, prec); break;
        case TESS_LATTICE_D3Q27: TMR_SWEEP(d3q27, prec); break;
        default: TMR_SWEEP(d3q19, prec); break;
        }
        char *tmp = src;
        src = dst;
        dst = tmp;
    }
    memcpy(pops_out, pops_in, count * vs);
    for (int32_t k = 0; k < t->ntiles; k++)
        for (int n = 0; n < 64; n++)
            if (tess_kind_is_wet(p->mat[t->node_type[64 * (size_t)k + n]].kind))
                for (int i = 0; i < t->q; i++)
                    memcpy((char *)pops_out + tess_state_index(t, k, i, n) * vs,
                           src + (((size_t)k * t->q + i) * 64 + n) * vs, vs);
    free(a), free(b), free(node_link), free(node_nlink);
    return TESS_OK;
}
