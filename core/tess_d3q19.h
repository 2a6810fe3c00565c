/* The D3Q19 lattice: velocities, weights, opposites and the d'Humieres (2002) MRT moment basis.
 * Direction order: rest, then the six axis directions, then the twelve diagonals; every odd index i
 * has its opposite at i + 1, so opp(i) needs no table. Names follow the tile paper (E = +x,
 * N = +y, T = +z). Arrays are written as initialiser macros so that host tables and device-local
 * constant arrays (which the GPU compilers fold after unrolling) come from one definition. */
#ifndef TESS_D3Q19_H
#define TESS_D3Q19_H

#define TESS_D3Q19_Q 19

/*                       O  E   W  N   S  T   B NE  SW  SE  NW  ET  WB  EB  WT  NT  SB  NB  ST */
#define TESS_D3Q19_CX { 0, 1, -1, 0,  0, 0,  0, 1, -1,  1, -1,  1, -1,  1, -1,  0,  0,  0,  0 }
#define TESS_D3Q19_CY { 0, 0,  0, 1, -1, 0,  0, 1, -1, -1,  1,  0,  0,  0,  0,  1, -1,  1, -1 }
#define TESS_D3Q19_CZ { 0, 0,  0, 0,  0, 1, -1, 0,  0,  0,  0,  1, -1, -1,  1,  1, -1, -1,  1 }
#define TESS_D3Q19_NAMES { "O", "E", "W", "N", "S", "T", "B", "NE", "SW", "SE", "NW", \
                           "ET", "WB", "EB", "WT", "NT", "SB", "NB", "ST" }
/* Weights times 36, so that they stay exact integers in the table. */
#define TESS_D3Q19_W36 { 12, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 }

/* Opposite direction: i <-> i+1 for odd i. */
#define TESS_D3Q19_OPP(i) ((i) == 0 ? 0 : (((i) & 1) ? (i) + 1 : (i) - 1))
/* The same map as a table initialiser, the form the other lattices' headers give (core/lattice/). */
#define TESS_D3Q19_OPP_TABLE { 0, 2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11, 14, 13, 16, 15, 18, 17 }

/* d'Humieres et al. (2002) orthogonal moment basis, rows in the order
 * rho, e, eps, jx, qx, jy, qy, jz, qz, 3pxx, 3pixx, pww, piww, pxy, pyz, pxz, mx, my, mz. */
#define TESS_D3Q19_MRT_M { \
    {  1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1}, \
    {-30, -11, -11, -11, -11, -11, -11,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8}, \
    { 12,  -4,  -4,  -4,  -4,  -4,  -4,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1}, \
    {  0,   1,  -1,   0,   0,   0,   0,   1,  -1,   1,  -1,   1,  -1,   1,  -1,   0,   0,   0,   0}, \
    {  0,  -4,   4,   0,   0,   0,   0,   1,  -1,   1,  -1,   1,  -1,   1,  -1,   0,   0,   0,   0}, \
    {  0,   0,   0,   1,  -1,   0,   0,   1,  -1,  -1,   1,   0,   0,   0,   0,   1,  -1,   1,  -1}, \
    {  0,   0,   0,  -4,   4,   0,   0,   1,  -1,  -1,   1,   0,   0,   0,   0,   1,  -1,   1,  -1}, \
    {  0,   0,   0,   0,   0,   1,  -1,   0,   0,   0,   0,   1,  -1,  -1,   1,   1,  -1,  -1,   1}, \
    {  0,   0,   0,   0,   0,  -4,   4,   0,   0,   0,   0,   1,  -1,  -1,   1,   1,  -1,  -1,   1}, \
    {  0,   2,   2,  -1,  -1,  -1,  -1,   1,   1,   1,   1,   1,   1,   1,   1,  -2,  -2,  -2,  -2}, \
    {  0,  -4,  -4,   2,   2,   2,   2,   1,   1,   1,   1,   1,   1,   1,   1,  -2,  -2,  -2,  -2}, \
    {  0,   0,   0,   1,   1,  -1,  -1,   1,   1,   1,   1,  -1,  -1,  -1,  -1,   0,   0,   0,   0}, \
    {  0,   0,   0,  -2,  -2,   2,   2,   1,   1,   1,   1,  -1,  -1,  -1,  -1,   0,   0,   0,   0}, \
    {  0,   0,   0,   0,   0,   0,   0,   1,   1,  -1,  -1,   0,   0,   0,   0,   0,   0,   0,   0}, \
    {  0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   1,   1,  -1,  -1}, \
    {  0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   1,   1,  -1,  -1,   0,   0,   0,   0}, \
    {  0,   0,   0,   0,   0,   0,   0,   1,  -1,   1,  -1,  -1,   1,  -1,   1,   0,   0,   0,   0}, \
    {  0,   0,   0,   0,   0,   0,   0,  -1,   1,   1,  -1,   0,   0,   0,   0,   1,  -1,   1,  -1}, \
    {  0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   1,  -1,  -1,   1,  -1,   1,   1,  -1}  }
/* Squared norms of the rows above: M^-1 = M^T diag(1/norm). */
#define TESS_D3Q19_MRT_NORM { 19, 2394, 252, 10, 40, 10, 40, 10, 40, 36, 72, 12, 24, 4, 4, 4, 8, 8, 8 }

/* Indices of the moments in the basis above. */
enum {
    TESS_M_RHO = 0, TESS_M_E, TESS_M_EPS, TESS_M_JX, TESS_M_QX, TESS_M_JY, TESS_M_QY, TESS_M_JZ,
    TESS_M_QZ, TESS_M_PXX, TESS_M_PIXX, TESS_M_PWW, TESS_M_PIWW, TESS_M_PXY, TESS_M_PYZ, TESS_M_PXZ,
    TESS_M_MX, TESS_M_MY, TESS_M_MZ
};

#endif
