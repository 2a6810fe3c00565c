/* The AA pattern on the CPU: one population copy, updated in place with alternating odd and even steps
 * (cpu_aa_step_t.h). After every even step the copy is bitwise the AB pattern's state. */
#include "cpu_pattern.h"
#include "tess_layout.h"
#include "tess_physics.h"
#include <stdlib.h>
#include <string.h>

#define TESS_TEMPLATE "cpu_aa_step_t.h"
#include "tess_instantiate.h"

static size_t copy_bytes(const tess_cpu_pattern_t *be)
{
    return (size_t)be->ntiles * 19 * 64 * tess_precision_size(be->cfg.precision);
}

tess_status tess_cpu_aa_upload(tess_cpu_pattern_t *be, tess_error_t *err)
{
    be->f = tess_cpu_alloc(copy_bytes(be));
    if (!be->f)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory: the AA pattern needs %zu bytes for %d tiles",
                         copy_bytes(be), be->ntiles);
    be->bytes += copy_bytes(be);
    return TESS_OK;
}

/* Per tile (not plain), the links the unconditional gather gets wrong: solid nodes of the tile and links from
 * solid nodes (bounce-back). Built here because they depend on the materials. */
static tess_status build_fixups(tess_cpu_pattern_t *be, tess_error_t *err)
{
    const tess_cpu_gather_table_t *g = &be->table;
    be->bytes -= be->fix_bytes;
    free(be->fix);
    free(be->fix_start);
    be->fix = NULL;
    be->fix_bytes = 0;
    const size_t nt = (size_t)be->ntiles;
    be->fix_start = calloc(nt + 1, sizeof *be->fix_start);
    if (!be->fix_start)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the AA fix-up lists");
    size_t cap = 0, count = 0;
    for (int pass = 0; pass < 2; pass++) {
        count = 0;
        for (int32_t k = 0; k < be->ntiles; k++) {
            be->fix_start[k] = (int64_t)count;
            if (be->tile_plain[k])
                continue;
            const int32_t *nb = be->neighbors + 27 * (size_t)k;
            for (int n = 0; n < 64; n++) {
                if (!be->wet[be->node_type[64 * (size_t)k + n]]) {
                    if (pass)
                        be->fix[count] = (tess_cpu_mr_fix_t){(uint16_t)n, TESS_MR_FIX_SOLID, 0, 0, 0};
                    count++;
                    continue;
                }
                for (int i = 1; i < 19; i++) {
                    const int32_t t2 = nb[g->src_slot[i][n]];
                    const uint8_t st = t2 < 0 ? 0 : be->node_type[64 * (size_t)t2 + g->src_xyz[i][n]];
                    if (be->wet[st])
                        continue;
                    if (pass)
                        be->fix[count] = (tess_cpu_mr_fix_t){(uint16_t)(i * 64 + n), TESS_MR_FIX_BOUNCE, st, 0, 0};
                    count++;
                }
            }
        }
        be->fix_start[be->ntiles] = (int64_t)count;
        if (!pass) {
            cap = count ? count : 1;
            be->fix = malloc(cap * sizeof *be->fix);
            if (!be->fix)
                return tess_fail(err, TESS_ERR_NOMEM, "out of memory for %zu AA fix-up links", count);
        }
    }
    be->fix_bytes = cap * sizeof *be->fix + (nt + 1) * sizeof *be->fix_start;
    be->bytes += be->fix_bytes;
    return TESS_OK;
}

tess_status tess_cpu_aa_initialise(tess_cpu_pattern_t *be, const void *pops, tess_error_t *err)
{
    const tess_status s = build_fixups(be, err);
    if (s != TESS_OK)
        return s;
    /* First touch by the thread that updates the tile (the step's static schedule). */
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int32_t k = 0; k < be->ntiles; k++)
        tess_cpu_tile_convert(k, be->f, pops, tess_precision_size(be->cfg.precision), 1);
    return TESS_OK;
}

void tess_cpu_aa_step(tess_cpu_pattern_t *be)
{
    if (be->cfg.precision == TESS_PRECISION_SINGLE)
        cpu_aa_step_f32(be);
    else
        cpu_aa_step_f64(be);
}

void tess_cpu_aa_download(tess_cpu_pattern_t *be, void *pops)
{
    for (int32_t k = 0; k < be->ntiles; k++)
        tess_cpu_tile_convert(k, pops, be->f, tess_precision_size(be->cfg.precision), 0);
}
