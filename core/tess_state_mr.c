#include "tess_state_mr.h"
#include "tess_lattice.h"
#include "tess_physics_q.h"
#include "tess_q_step.h"
#include "tess_state.h"

#define TESS_QTEMPLATE "tess_state_mr_t.h"
#include "tess_instantiate_q.h"

void tess_state_mr_convert(const tess_tiling_t *t, tess_precision prec, void *pops, int canonical, void *ms, int32_t k0,
                           int32_t k1, int to_moments)
{
    const int single = prec == TESS_PRECISION_SINGLE;
#define TESS_STATE_MR(LAT)                                                                                        \
    do {                                                                                                        \
        if (single)                                                                                             \
            state_mr_convert_##LAT##_f32(t, (float *)pops, canonical, (float *)ms, k0, k1, to_moments);        \
        else                                                                                                    \
            state_mr_convert_##LAT##_f64(t, (double *)pops, canonical, (double *)ms, k0, k1, to_moments);      \
    } while (0)
    switch (t->lattice) {
    case TESS_LATTICE_D2Q9: TESS_STATE_MR(d2q9); break;
    case TESS_LATTICE_D3Q19: TESS_STATE_MR(d3q19); break;
    case TESS_LATTICE_D3Q27: TESS_STATE_MR(d3q27); break;
    default: break; /* D3Q13: no regularized collision, refused at initialise */
    }
#undef TESS_STATE_MR
}
