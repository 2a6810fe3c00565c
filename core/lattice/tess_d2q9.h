/* The D2Q9 lattice: velocities, weights, opposites and the Lallemand & Luo (2000) MRT moment basis.
 * Direction order as in D3Q19: rest, axis directions, diagonals, with opp(i) = i + 1 for odd i. c_z = 0:
 * a D2Q9 domain has nz = 1 and every z component is exactly zero. Arrays are initialiser macros so that
 * host tables and device-local constant arrays come from one definition (see tess_d3q19.h). */
#ifndef TESS_D2Q9_H
#define TESS_D2Q9_H

#define TESS_D2Q9_Q 9

/*                      O  E   W  N   S NE  SW  SE  NW */
#define TESS_D2Q9_CX { 0, 1, -1, 0,  0, 1, -1,  1, -1 }
#define TESS_D2Q9_CY { 0, 0,  0, 1, -1, 1, -1, -1,  1 }
#define TESS_D2Q9_CZ { 0, 0,  0, 0,  0, 0,  0,  0,  0 }
#define TESS_D2Q9_NAMES { "O", "E", "W", "N", "S", "NE", "SW", "SE", "NW" }
/* Weights 4/9, 1/9, 1/36 as numerators over TESS_D2Q9_WDEN. */
#define TESS_D2Q9_W { 16, 4, 4, 4, 4, 1, 1, 1, 1 }
#define TESS_D2Q9_WDEN 36
#define TESS_D2Q9_OPP { 0, 2, 1, 4, 3, 6, 5, 8, 7 }

/* Lallemand & Luo (2000), eq. (7), rows in their order rho, e, eps, jx, qx, jy, qy, pxx, pxy:
 *   e = -4 + 3 c^2, eps = 4 - 21/2 c^2 + 9/2 c^4, q_a = (-5 + 3 c^2) c_a, pxx = cx^2 - cy^2, pxy = cx cy,
 * evaluated for the direction order above. The rows are orthogonal (M M^T diagonal). */
#define TESS_D2Q9_MRT_M { \
    {  1,  1,  1,  1,  1,  1,  1,  1,  1 }, \
    { -4, -1, -1, -1, -1,  2,  2,  2,  2 }, \
    {  4, -2, -2, -2, -2,  1,  1,  1,  1 }, \
    {  0,  1, -1,  0,  0,  1, -1,  1, -1 }, \
    {  0, -2,  2,  0,  0,  1, -1,  1, -1 }, \
    {  0,  0,  0,  1, -1,  1, -1, -1,  1 }, \
    {  0,  0,  0, -2,  2,  1, -1, -1,  1 }, \
    {  0,  1,  1, -1, -1,  0,  0,  0,  0 }, \
    {  0,  0,  0,  0,  0,  1,  1, -1, -1 }  }
/* Squared norms of the rows: M^-1 = M^T diag(1/norm). */
#define TESS_D2Q9_MRT_NORM { 9, 36, 36, 6, 12, 6, 12, 4, 4 }

/* Indices of the D2Q9 moments (and of their rates in tess_params_t.s). */
enum {
    TESS_M9_RHO = 0, TESS_M9_E, TESS_M9_EPS, TESS_M9_JX, TESS_M9_QX, TESS_M9_JY, TESS_M9_QY, TESS_M9_PXX,
    TESS_M9_PXY
};

#endif
