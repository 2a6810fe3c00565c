#include "tess_params.h"
#include <string.h>

void tess_params_set_tau(tess_params_t *p, double tau)
{
    p->tau = tau;
    if (p->lattice == TESS_LATTICE_D2Q9) {
        /* Lallemand & Luo (2000): the stress moments pxx, pxy carry the shear viscosity. */
        p->s[7] = p->s[8] = 1.0 / tau;
    } else if (p->lattice == TESS_LATTICE_D3Q13) {
        /* D3Q13 paper eq. (7), c = dt = 1: s_nu for pxx, pww and s'_nu for pxy, pyz, pxz. */
        const double nu = (tau - 0.5) / 3.0;
        p->s[5] = p->s[6] = 2.0 / (8.0 * nu + 1.0);
        p->s[7] = p->s[8] = p->s[9] = 2.0 / (4.0 * nu + 1.0);
    } else {
        /* D3Q19 (and D3Q27, which has no MRT): viscous moments 3pxx, pww, pxy, pyz, pxz relax with 1/tau. */
        p->s[9] = p->s[11] = p->s[13] = p->s[14] = p->s[15] = 1.0 / tau;
    }
}

/* Default rates of the non-hydrodynamic moments; conserved moments get 0 (their rate never changes them,
 * the Guo force enters through its source term). */
static void default_rates(tess_params_t *p)
{
    for (int k = 0; k < 19; k++)
        p->s[k] = 0.0;
    if (p->lattice == TESS_LATTICE_D2Q9) {
        /* Lallemand & Luo (2000), section IV: s_e = 1.64, s_eps = 1.54, s_q = 1.9. */
        p->s[1] = 1.64;
        p->s[2] = 1.54;
        p->s[4] = p->s[6] = 1.9;
    } else if (p->lattice == TESS_LATTICE_D3Q13) {
        /* D3Q13 paper, after eq. (7): s_e and s_h do not enter the incompressible limit; "a good choice is to
         * set these values to one". */
        p->s[4] = 1.0;
        p->s[10] = p->s[11] = p->s[12] = 1.0;
    } else {
        /* d'Humieres et al. (2002), section 3: rates for the non-hydrodynamic moments. */
        p->s[1] = 1.19;
        p->s[2] = p->s[10] = p->s[12] = 1.4;
        p->s[4] = p->s[6] = p->s[8] = 1.2;
        p->s[16] = p->s[17] = p->s[18] = 1.98;
    }
}

void tess_params_set_lattice(tess_params_t *p, tess_lattice_id id)
{
    p->lattice = (int32_t)id;
    default_rates(p);
    tess_params_set_tau(p, p->tau);
}

void tess_params_default(tess_params_t *p)
{
    memset(p, 0, sizeof *p);
    p->collision = TESS_COLLISION_LBGK;
    p->fluid = TESS_FLUID_INCOMPRESSIBLE;
    p->lattice = TESS_LATTICE_D3Q19;
    default_rates(p);
    p->we = 0.0;
    p->wej = -475.0 / 63.0;
    p->wxx = 0.0;
    tess_params_set_tau(p, 0.6);
    p->nmat = 2;
    p->mat[0].kind = TESS_NODE_SOLID;
    p->mat[1].kind = TESS_NODE_FLUID;
    p->mat[0].rho = p->mat[1].rho = 1.0;
}
