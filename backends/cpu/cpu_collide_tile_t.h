/* The bulk collision of a tile's 64 nodes, shared by the AB and AA patterns (the same calls in the same order,
 * hence the same bits). Included inside a precision template (TESS_R as R, TESS_FN defined). */

#include "cpu_tile_buffer_t.h"

/* Collides the 64 nodes of a tile buffer in one SIMD loop. The boundary reconstruction is already done, so
 * every node runs the bulk update; the model is passed as constants so that each loop body is branch-free. */
__attribute__((always_inline)) static inline void TESS_FN(cpu_collide_tile_model)(const tess_params_t *p,
                                                                               TESS_FN(cpu_tile_buffer) *buf,
                                                                               int collision, int fluid, int force)
{
    /* No `omp simd` here: GCC turns f[] into a per-lane array it cannot vectorise; the auto-vectoriser
     * handles the loop once everything is inlined and unrolled. */
    for (int n = 0; n < 64; n++) {
        R f[19];
        TESS_UNROLL
        for (int i = 0; i < 19; i++)
            f[i] = buf->f[i][n];
        TESS_FN(tess_collide_model)(p, collision, fluid, force, f);
        TESS_UNROLL
        for (int i = 0; i < 19; i++)
            buf->f[i][n] = f[i];
    }
}

static void TESS_FN(cpu_collide_tile)(const tess_params_t *p, TESS_FN(cpu_tile_buffer) *buf)
{
    const int quasi = p->fluid == TESS_FLUID_QUASI_COMPRESSIBLE, force = p->use_force != 0;
#define TESS_CPU_MODEL(c, q, fo)                                                                              \
    TESS_FN(cpu_collide_tile_model)(p, buf, c, q ? TESS_FLUID_QUASI_COMPRESSIBLE : TESS_FLUID_INCOMPRESSIBLE, fo)
    switch (p->collision * 4 + quasi * 2 + force) {
    case 0: TESS_CPU_MODEL(TESS_COLLISION_LBGK, 0, 0); break;
    case 1: TESS_CPU_MODEL(TESS_COLLISION_LBGK, 0, 1); break;
    case 2: TESS_CPU_MODEL(TESS_COLLISION_LBGK, 1, 0); break;
    case 3: TESS_CPU_MODEL(TESS_COLLISION_LBGK, 1, 1); break;
    case 4: TESS_CPU_MODEL(TESS_COLLISION_MRT, 0, 0); break;
    case 5: TESS_CPU_MODEL(TESS_COLLISION_MRT, 0, 1); break;
    case 6: TESS_CPU_MODEL(TESS_COLLISION_MRT, 1, 0); break;
    case 7: TESS_CPU_MODEL(TESS_COLLISION_MRT, 1, 1); break;
    case 8: TESS_CPU_MODEL(TESS_COLLISION_REGULARIZED, 0, 0); break;
    case 9: TESS_CPU_MODEL(TESS_COLLISION_REGULARIZED, 0, 1); break;
    case 10: TESS_CPU_MODEL(TESS_COLLISION_REGULARIZED, 1, 0); break;
    default: TESS_CPU_MODEL(TESS_COLLISION_REGULARIZED, 1, 1); break;
    }
#undef TESS_CPU_MODEL
}
