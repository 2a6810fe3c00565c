/* The D3Q13 lattice of d'Humieres et al. (2001) as used by the D3Q13 paper (Toelke & Krafczyk 2008, section 4):
 * the rest velocity and the twelve face diagonals (+-1, +-1, 0) and permutations, with the paper's direction
 * order r, ne, sw, se, nw, te, bw, be, tw, tn, bs, bn, ts, so that opp(i) = i + 1 for odd i as in D3Q19.
 *
 * Sublattices: every velocity changes x + y + z by an even number, so the nodes with x + y + z even and those
 * with x + y + z odd never exchange populations. The paper stores only one of them; Tessera computes BOTH (the
 * engine runs every node of the dense grid), which costs twice the memory and work of the paper's half
 * lattice but keeps the ordinary grid, tiles and geometry. The two sublattices then carry two independent
 * solutions of the same flow; they agree when the initial and boundary data do. */
#ifndef TESS_D3Q13_H
#define TESS_D3Q13_H

#define TESS_D3Q13_Q 13

/*                       r ne  sw  se  nw  te  bw  be  tw  tn  bs  bn  ts */
#define TESS_D3Q13_CX { 0, 1, -1,  1, -1,  1, -1,  1, -1,  0,  0,  0,  0 }
#define TESS_D3Q13_CY { 0, 1, -1, -1,  1,  0,  0,  0,  0,  1, -1,  1, -1 }
#define TESS_D3Q13_CZ { 0, 0,  0,  0,  0,  1, -1, -1,  1,  1, -1, -1,  1 }
#define TESS_D3Q13_NAMES { "O", "NE", "SW", "SE", "NW", "ET", "WB", "EB", "WT", "NT", "SB", "NB", "ST" }
/* Weights of the rest state: f_r = rho/2, f_i = rho/24 (they give sum w c_a c_b = delta_ab / 3). The
 * equilibrium is not w_i times a polynomial (the lattice lacks fourth-order isotropy); it is M^-1 of the
 * paper's equilibrium moments. */
#define TESS_D3Q13_W { 12, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 }
#define TESS_D3Q13_WDEN 24
#define TESS_D3Q13_OPP { 0, 2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11 }

/* The paper's Appendix A basis, rows in its moment order (eq. 4)
 *   rho, jx, jy, jz, e, pxx, pww, pxy, pyz, pxz, hx, hy, hz
 * with e = 13/2 c^2 - 12, pxx = 3 cx^2 - c^2, pww = cy^2 - cz^2, p_ab = c_a c_b, hx = cx (cy^2 - cz^2),
 * hy = cy (cz^2 - cx^2), hz = cz (cx^2 - cy^2) (lattice units, c = 1), evaluated for the order above. */
#define TESS_D3Q13_MRT_M { \
    {   1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1 }, \
    {   0,  1, -1,  1, -1,  1, -1,  1, -1,  0,  0,  0,  0 }, \
    {   0,  1, -1, -1,  1,  0,  0,  0,  0,  1, -1,  1, -1 }, \
    {   0,  0,  0,  0,  0,  1, -1, -1,  1,  1, -1, -1,  1 }, \
    { -12,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1 }, \
    {   0,  1,  1,  1,  1,  1,  1,  1,  1, -2, -2, -2, -2 }, \
    {   0,  1,  1,  1,  1, -1, -1, -1, -1,  0,  0,  0,  0 }, \
    {   0,  1,  1, -1, -1,  0,  0,  0,  0,  0,  0,  0,  0 }, \
    {   0,  0,  0,  0,  0,  0,  0,  0,  0,  1,  1, -1, -1 }, \
    {   0,  0,  0,  0,  0,  1,  1, -1, -1,  0,  0,  0,  0 }, \
    {   0,  1, -1,  1, -1, -1,  1, -1,  1,  0,  0,  0,  0 }, \
    {   0, -1,  1,  1, -1,  0,  0,  0,  0,  1, -1,  1, -1 }, \
    {   0,  0,  0,  0,  0,  1, -1, -1,  1, -1,  1,  1, -1 }  }
#define TESS_D3Q13_MRT_NORM { 13, 8, 8, 8, 156, 24, 8, 4, 4, 4, 8, 8, 8 }

/* Indices of the D3Q13 moments (and of their rates s_e = s[4], s_nu = s[5], s[6], s'_nu = s[7..9],
 * s_h = s[10..12] in tess_params_t.s). */
enum {
    TESS_M13_RHO = 0, TESS_M13_JX, TESS_M13_JY, TESS_M13_JZ, TESS_M13_E, TESS_M13_PXX, TESS_M13_PWW,
    TESS_M13_PXY, TESS_M13_PYZ, TESS_M13_PXZ, TESS_M13_HX, TESS_M13_HY, TESS_M13_HZ
};

#endif
