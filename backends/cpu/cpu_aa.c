/* The AA pattern on the CPU: one population copy, updated in place with alternating odd and even steps
 * (cpu_aa_step_t.h). After every even step the copy is bitwise the AB pattern's state. */
#include "cpu_pattern.h"
#include "tess_layout.h"
#include "tess_physics.h"
#include <stdlib.h>
#include <string.h>

#define TESS_R double
#define TESS_FN(name) name##_f64
#include "cpu_aa_step_t.h"
#undef TESS_R
#undef TESS_FN

#define TESS_R float
#define TESS_FN(name) name##_f32
#include "cpu_aa_step_t.h"
#undef TESS_R
#undef TESS_FN

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

void tess_cpu_aa_initialise(tess_cpu_pattern_t *be, const void *pops)
{
    const size_t blk = 19 * 64 * tess_precision_size(be->cfg.precision);
    /* First touch by the thread that updates the tile (the step's static schedule). */
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int32_t k = 0; k < be->ntiles; k++)
        memcpy((char *)be->f + (size_t)k * blk, (const char *)pops + (size_t)k * blk, blk);
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
    memcpy(pops, be->f, copy_bytes(be));
}
