#include "pattern_cases.h"
#include "tess_test.h"

void tess_pattern_channel(tess_geometry_t *g, tess_params_t *p, int nx, int ny, int nz, double uin, int method,
                          int fluid, int obstacles)
{
    tess_geometry_init(g, nx, ny, nz, 1);
    g->periodic[0] = 1;
    tess_test_rng r;
    tess_test_rng_seed(&r, 99);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                uint8_t m = 1;
                if (y == 0 || y == ny - 1)
                    m = 0;
                else if (z == 0)
                    m = 2;
                else if (z == nz - 1)
                    m = 3;
                else if (obstacles && z > 2 && z < nz - 3 && tess_test_uniform(&r) < 0.1)
                    m = 0;
                g->type[tess_geometry_index(g, x, y, z)] = m;
            }
    tess_params_default(p);
    p->collision = TESS_COLLISION_REGULARIZED;
    p->fluid = fluid;
    tess_params_set_tau(p, 0.8);
    p->nmat = 4;
    p->mat[2].kind = TESS_NODE_VELOCITY;
    p->mat[2].axis = 2;
    p->mat[2].sign = -1;
    p->mat[2].u[2] = uin;
    p->mat[2].method = method;
    p->mat[3].kind = TESS_NODE_PRESSURE;
    p->mat[3].axis = 2;
    p->mat[3].sign = 1;
    p->mat[3].rho = 1.0;
    p->mat[3].method = method;
    for (int m = 0; m < p->nmat; m++)
        if (p->mat[m].rho == 0.0)
            p->mat[m].rho = 1.0;
}
