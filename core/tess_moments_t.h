/* The moment representation of regularized LBM (Vardhan et al., moment-representation paper, sections 2.2-3.2)
 * and the finite-difference velocity-gradient boundary of Latt et al. (2008), for one node.
 * Do not include directly: tess_physics_t.h includes it once per precision, with R and TESS_FN defined.
 * Only the lattice-free parts live here (the Hermite coefficients, the moment-space collision, the strain rate and
 * the boundary node's moments); the moments of a population set, the Hermite rebuild and the boundary closure in
 * populations depend on the lattice and are in tess_physics_q_t.h (tess_q_hermite_*, tess_q_fd_*).
 *
 * The ten moments of a node, in the order of the TESS_MR_* indices:
 *   rho, j = sum c f (3), Pi = sum c c f (6: xx, yy, zz, xy, xz, yz).
 * Regularized populations are a second-order Hermite expansion and are rebuilt from these ten values
 * (paper eq. 16), so a backend may store moments instead of populations. Every backend that rebuilds or
 * collides moments calls the functions here: the distribution (AB, AA) and moment (MR) patterns then
 * share each operation bit for bit. */

#ifndef TESS_MR_INDICES
#define TESS_MR_INDICES
#define TESS_MR_NM 10
enum { TESS_MR_RHO = 0, TESS_MR_JX, TESS_MR_JY, TESS_MR_JZ, TESS_MR_PXX, TESS_MR_PYY, TESS_MR_PZZ, TESS_MR_PXY,
       TESS_MR_PXZ, TESS_MR_PYZ };
/* The coefficients of tess_mr_coeffs: the ten of the expansion, then three partial sums of its even part
 * (TESS_MR_AX, AY, BXY: tess_mr_partials). */
#define TESS_MR_NH 13
enum { TESS_MR_AX = 10, TESS_MR_AY, TESS_MR_BXY };
#endif

/* The partial sums of the even part h0 (+ h_xx) (+ h_yy) (+ h_zz) that tess_q_hermite_population starts from,
 * summed in its order (so the same bits as adding the terms one by one): h[TESS_MR_AX] = h0 + h_xx, AY = h0 + h_yy,
 * BXY = (h0 + h_xx) + h_yy. The population then reads h0, h_zz, the three h_j, the three h_ab and these three,
 * never h_xx and h_yy alone: where the coefficients of a node are read many times (the GPU's MR pull reads them
 * from shared memory per population) 11 values serve, an x or y axis reads 2 of them instead of 3, an xy diagonal
 * 4 instead of 6, xz and yz 5, a D3Q27 corner 8 instead of 10. From h[0..9]: a GPU kernel that keeps those ten
 * calls it after its loads. */
TESS_HD TESS_INLINE void TESS_FN(tess_mr_partials)(R *h)
{
    h[TESS_MR_AX] = h[0] + h[4];
    h[TESS_MR_AY] = h[0] + h[5];
    h[TESS_MR_BXY] = h[TESS_MR_AX] + h[5];
}

/* Coefficients of the Hermite expansion (eq. 16) written as
 *   f_i = w_i [ h0 + c.h_j + sum_a c_a^2 h_aa + sum_{a<b} c_a c_b h_ab ]
 * with h0 = rho - (3/2) tr P, h_j = 3 j, h_aa = (9/2) P_aa, h_ab = 9 P_ab and P = Pi - rho/3 I, then the partial
 * sums of tess_mr_partials (h: TESS_MR_NH values). Computing them once per node leaves a few additions per
 * population. */
TESS_HD TESS_INLINE void TESS_FN(tess_mr_coeffs)(const R *m, R *h)
{
    const R third = m[TESS_MR_RHO] * (R)(1.0 / 3.0); /* a multiply: this runs per node per step */
    const R pxx = m[TESS_MR_PXX] - third, pyy = m[TESS_MR_PYY] - third, pzz = m[TESS_MR_PZZ] - third;
    h[0] = m[TESS_MR_RHO] - (R)1.5 * (pxx + pyy + pzz);
    h[1] = (R)3 * m[TESS_MR_JX];
    h[2] = (R)3 * m[TESS_MR_JY];
    h[3] = (R)3 * m[TESS_MR_JZ];
    /* Rounded alone: the partial sums below add to h_xx and h_yy at once, where the GPU kernels that keep ten
     * rows add to the stored value (the same bits in the fast build as well). */
    h[4] = TESS_FN(TESS_MUL_ALONE)((R)4.5, pxx);
    h[5] = TESS_FN(TESS_MUL_ALONE)((R)4.5, pyy);
    h[6] = TESS_FN(TESS_MUL_ALONE)((R)4.5, pzz);
    h[7] = (R)9 * m[TESS_MR_PXY];
    h[8] = (R)9 * m[TESS_MR_PXZ];
    h[9] = (R)9 * m[TESS_MR_PYZ];
    TESS_FN(tess_mr_partials)(h);
}

/* Regularized collision in moment space (paper eqs. 17-18): rho is conserved, Pi relaxes towards
 * Pi_eq = rho0 u u + rho/3 I with rho0 = rho (quasi-compressible) or 1 (incompressible); the non-equilibrium
 * part of the populations is thereby projected onto the second-order Hermite tensor (Latt & Chopard 2006).
 * Guo forcing enters through the moments of the Guo source: +F on j and (1 - omega/2)(u F + F u) on Pi, the
 * same second moment that LBGK and MRT produce. In place on the ten moments. */
TESS_HD TESS_INLINE void TESS_FN(tess_mr_collide)(const tess_params_t *p, int fluid, int use_force, R *m)
{
    R u[3];
    const R rho = m[TESS_MR_RHO];
    TESS_FN(tess_velocity)(p, fluid, use_force, rho, m[TESS_MR_JX], m[TESS_MR_JY], m[TESS_MR_JZ], (R)1, u);
    const R rho0 = fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? rho : (R)1;
    const R omega = (R)1 / (R)p->tau, keep = (R)1 - omega;
    const R third = rho * (R)(1.0 / 3.0);
    const int a[6] = {0, 1, 2, 0, 0, 1}, b[6] = {0, 1, 2, 1, 2, 2};
    R F[3] = {(R)0, (R)0, (R)0};
    if (use_force) {
        F[0] = (R)p->force[0];
        F[1] = (R)p->force[1];
        F[2] = (R)p->force[2];
    }
    TESS_UNROLL
    for (int s = 0; s < 6; s++) {
        R eq = rho0 * u[a[s]] * u[b[s]];
        if (s < 3)
            eq += third;
        R v = eq + keep * (m[TESS_MR_PXX + s] - eq);
        if (use_force)
            v += ((R)1 - (R)0.5 * omega) * (u[a[s]] * F[b[s]] + F[a[s]] * u[b[s]]);
        m[TESS_MR_PXX + s] = v;
    }
    if (use_force) {
        m[TESS_MR_JX] += F[0];
        m[TESS_MR_JY] += F[1];
        m[TESS_MR_JZ] += F[2];
    }
}

/* ---- Finite-difference velocity-gradient boundary (Latt et al. 2008; paper section 3.2) ---------------- */

/* Strain rate S (xx, yy, zz, xy, xz, yz) at a boundary node with outward normal (axis, sign), from the
 * velocities of a stencil around it: u[0] the node, u[1 + 2d] / u[2 + 2d] the neighbours at -e_d / +e_d,
 * u[7] the node two steps inwards (-2 sign e_axis); have[k] says whether stencil node k is wet. The normal
 * derivative is the one-sided second-order difference into the fluid (first order when only one inner node
 * exists); tangential ones are central where both neighbours are wet, one-sided otherwise, 0 when isolated. */
TESS_HD TESS_INLINE void TESS_FN(tess_fd_strain)(int axis, int sign, const R (*u)[3], const int *have, R *S)
{
    R g[3][3]; /* g[d][c] = d u_c / d x_d */
    for (int d = 0; d < 3; d++) {
        for (int c = 0; c < 3; c++) {
            R v = (R)0;
            if (d == axis) {
                const int in1 = sign > 0 ? 1 + 2 * d : 2 + 2 * d;
                if (have[in1] && have[7])
                    v = (R)0.5 * ((R)3 * u[0][c] - (R)4 * u[in1][c] + u[7][c]);
                else if (have[in1])
                    v = u[0][c] - u[in1][c];
                if (sign < 0)
                    v = -v;
            } else {
                const int mi = 1 + 2 * d, pl = 2 + 2 * d;
                if (have[mi] && have[pl])
                    v = (R)0.5 * (u[pl][c] - u[mi][c]);
                else if (have[pl])
                    v = u[pl][c] - u[0][c];
                else if (have[mi])
                    v = u[0][c] - u[mi][c];
            }
            g[d][c] = v;
        }
    }
    S[0] = g[0][0];
    S[1] = g[1][1];
    S[2] = g[2][2];
    S[3] = (R)0.5 * (g[0][1] + g[1][0]);
    S[4] = (R)0.5 * (g[0][2] + g[2][0]);
    S[5] = (R)0.5 * (g[1][2] + g[2][1]);
}

/* Eq. 22: the pre-collision moments of a boundary node from its density, its velocity and the strain rate:
 * rho, j = rho0 u, Pi = Pi_eq - 2 rho0 cs^2 tau S (the Chapman-Enskog non-equilibrium part). known_sum is
 * rho_0 + 2 rho_1 of eq. 20 (eq. 21 / eq. 24 give it from populations or from partial moments): a velocity
 * node gets its density from it, a pressure node its normal velocity (tangential velocity 0). */
TESS_HD TESS_INLINE void TESS_FN(tess_fd_moments)(const tess_params_t *p, const tess_material_t *mat, int fluid,
                                                  R known_sum, const R *S, R *m)
{
    const int a = mat->axis, sg = mat->sign;
    R rho, u[3];
    if (mat->kind == TESS_NODE_VELOCITY) {
        u[0] = (R)mat->u[0];
        u[1] = (R)mat->u[1];
        u[2] = (R)mat->u[2];
        const R un = sg > 0 ? u[a] : -u[a];
        rho = fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? known_sum / ((R)1 + un) : known_sum - un;
    } else {
        rho = (R)mat->rho;
        const R un = fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? known_sum / rho - (R)1 : known_sum - rho;
        u[0] = u[1] = u[2] = (R)0;
        u[a] = sg > 0 ? un : -un;
    }
    const R rho0 = fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? rho : (R)1;
    const R visc = (R)2 / (R)3 * rho0 * (R)p->tau; /* 2 rho0 cs^2 tau */
    const int ia[6] = {0, 1, 2, 0, 0, 1}, ib[6] = {0, 1, 2, 1, 2, 2};
    m[TESS_MR_RHO] = rho;
    m[TESS_MR_JX] = rho0 * u[0];
    m[TESS_MR_JY] = rho0 * u[1];
    m[TESS_MR_JZ] = rho0 * u[2];
    for (int s = 0; s < 6; s++) {
        R eq = rho0 * u[ia[s]] * u[ib[s]];
        if (s < 3)
            eq += rho / (R)3;
        m[TESS_MR_PXX + s] = eq - visc * S[s];
    }
}

