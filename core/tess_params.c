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

/* Per key: the moments it sets on D3Q19 (d'Humieres 2002 order), D2Q9 (Lallemand & Luo 2000 order) and D3Q13
 * (D3Q13 paper order), -1 for unused slots; D3Q27 has no MRT and no rate keys. */
static const struct {
    const char *key;
    int idx[3][3]; /* D3Q19, D2Q9, D3Q13 */
} rate_keys[TESS_PARAMS_RATE_KEYS] = {
    {"rate_e", {{1, -1, -1}, {1, -1, -1}, {4, -1, -1}}},       /* energy e: s_e */
    {"rate_eps", {{2, -1, -1}, {2, -1, -1}, {-1, -1, -1}}},    /* energy square eps */
    {"rate_q", {{4, 6, 8}, {4, 6, -1}, {-1, -1, -1}}},         /* energy flux q */
    {"rate_pi", {{10, 12, -1}, {-1, -1, -1}, {-1, -1, -1}}},   /* D3Q19's fourth-order pixx, piww */
    {"rate_m", {{16, 17, 18}, {-1, -1, -1}, {-1, -1, -1}}},    /* D3Q19's third-order m */
    {"rate_h", {{-1, -1, -1}, {-1, -1, -1}, {10, 11, 12}}},    /* D3Q13's third-order h: s_h */
};

const char *tess_params_rate_key(int k)
{
    return k >= 0 && k < TESS_PARAMS_RATE_KEYS ? rate_keys[k].key : NULL;
}

int tess_params_rate_moments(tess_lattice_id id, int k, int idx[3])
{
    const int col = id == TESS_LATTICE_D3Q19 ? 0 : id == TESS_LATTICE_D2Q9 ? 1 : id == TESS_LATTICE_D3Q13 ? 2 : -1;
    if (col < 0 || k < 0 || k >= TESS_PARAMS_RATE_KEYS)
        return 0;
    int n = 0;
    for (int r = 0; r < 3; r++)
        if (rate_keys[k].idx[col][r] >= 0)
            idx[n++] = rate_keys[k].idx[col][r];
    return n;
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
