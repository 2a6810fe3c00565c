#include "tess_params.h"
#include <string.h>

void tess_params_set_tau(tess_params_t *p, double tau)
{
    p->tau = tau;
    /* Viscous moments 3pxx, 3pixx-free part, pww, pxy, pyz, pxz relax with 1/tau. */
    p->s[9] = p->s[11] = p->s[13] = p->s[14] = p->s[15] = 1.0 / tau;
}

void tess_params_default(tess_params_t *p)
{
    memset(p, 0, sizeof *p);
    p->collision = TESS_COLLISION_LBGK;
    p->fluid = TESS_FLUID_INCOMPRESSIBLE;
    /* d'Humieres et al. (2002), section 3: rates for the non-hydrodynamic moments. */
    p->s[1] = 1.19;
    p->s[2] = p->s[10] = p->s[12] = 1.4;
    p->s[4] = p->s[6] = p->s[8] = 1.2;
    p->s[16] = p->s[17] = p->s[18] = 1.98;
    p->we = 0.0;
    p->wej = -475.0 / 63.0;
    p->wxx = 0.0;
    tess_params_set_tau(p, 0.6);
    p->nmat = 2;
    p->mat[0].kind = TESS_NODE_SOLID;
    p->mat[1].kind = TESS_NODE_FLUID;
    p->mat[0].rho = p->mat[1].rho = 1.0;
}
