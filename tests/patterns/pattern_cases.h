/* Geometries of the pattern tests beyond tess_test_mixed_case. */
#ifndef TESS_PATTERN_CASES_H
#define TESS_PATTERN_CASES_H

#include "tess_geometry.h"
#include "tess_params.h"

/* A channel along z: solid walls at y = 0 and y = ny-1, periodic x, velocity inlet (plug, u_z = uin) at z = 0
 * and pressure outlet (rho 1) at z = nz-1, both with the given method; a few random solid nodes inside when
 * obstacles != 0. Regularized collision, tau 0.8. Fills g (caller frees) and p. */
void tess_pattern_channel(tess_geometry_t *g, tess_params_t *p, int nx, int ny, int nz, double uin, int method,
                          int fluid, int obstacles);

#endif
