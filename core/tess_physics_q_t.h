/* The per-node physics of every lattice (D2Q9, D3Q13, D3Q19, D3Q27), written once for every backend, lattice and
 * precision: equilibria, moments, Guo forcing, LBGK, MRT, regularized, and the boundary rules (halfway bounce-back
 * with moving walls, Bouzidi curved walls, non-equilibrium extrapolation, Zou-He, the finite-difference
 * velocity-gradient closure). Every backend calls the same functions.
 * Do not include directly: tess_physics.h instantiates it through tess_instantiate_q.h (names
 * tess_q_<what>_<lat>_<prec>; the older D3Q19 names, tess_<what>_<prec>, are aliases of the d3q19
 * instance, tess_physics.h). The lattice-free pieces (c . v, integer row sums, the Guo velocity shift, the
 * moment-space regularized collision and its Hermite coefficients, the strain rate) are in tess_physics_t.h.
 *
 * A lattice's own form of a function is chosen at compile time inside that function: with TESS_QL_PAIRWISE
 * (D3Q19, D3Q27) the equilibrium and the moments work on opposite pairs (i, i + 1 for odd i), which halves the work
 * of the odd and even parts; D2Q9 and D3Q13 keep the direction-by-direction sums they were validated with.
 *
 * Models per lattice (tess_q_supports): D2Q9 LBGK, MRT (Lallemand & Luo 2000), regularized; D3Q13 MRT of the
 * D3Q13 paper only; D3Q19 LBGK, MRT (d'Humieres et al. 2002), regularized; D3Q27 LBGK and regularized. An
 * unsupported collision never reaches these functions (case load and backend initialise refuse it); were it to,
 * D3Q13 runs its MRT and D3Q27 runs LBGK. */

#define R TESS_R
#define TESS_QL_NP ((TESS_QL_Q - 1) / 2) /* opposite pairs (i, i + 1), i odd */

/* ---- Equilibrium and moments -------------------------------------------------------------------------- */

#if TESS_QL_Q == 13
/* Equilibrium moments of the D3Q13 paper (the terms subtracted in its k_4 .. k_12): rho, j = rho0 u,
 * e = -11/2 rho + 13/2 rho0 u^2, pxx = rho0 (2 ux^2 - uy^2 - uz^2), pww = rho0 (uy^2 - uz^2),
 * p_ab = rho0 u_a u_b, h = 0, with rho0 = rho (quasi-compressible) or 1 (incompressible, the paper's form).
 * Their populations have sum c_a c_b f = rho/3 delta_ab + rho0 u_a u_b (tested). */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_mrt_equilibrium)(int fluid, R rho, const R u[3], R *meq)
{
    const R rho0 = fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? rho : (R)1;
    const R xx = rho0 * u[0] * u[0], yy = rho0 * u[1] * u[1], zz = rho0 * u[2] * u[2];
    meq[TESS_M13_RHO] = rho;
    meq[TESS_M13_JX] = rho0 * u[0];
    meq[TESS_M13_JY] = rho0 * u[1];
    meq[TESS_M13_JZ] = rho0 * u[2];
    meq[TESS_M13_E] = (R)-5.5 * rho + (R)6.5 * (xx + yy + zz);
    meq[TESS_M13_PXX] = (R)2 * xx - yy - zz;
    meq[TESS_M13_PWW] = yy - zz;
    meq[TESS_M13_PXY] = rho0 * u[0] * u[1];
    meq[TESS_M13_PYZ] = rho0 * u[1] * u[2];
    meq[TESS_M13_PXZ] = rho0 * u[0] * u[2];
    meq[TESS_M13_HX] = (R)0;
    meq[TESS_M13_HY] = (R)0;
    meq[TESS_M13_HZ] = (R)0;
}

/* Populations of a moment vector: f = M^-1 m = M^T diag(1/norm) m (the basis is orthogonal). */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_from_moments)(const R *m, R *f)
{
    const int M[13][13] = TESS_D3Q13_MRT_M;
    const int norm[13] = TESS_D3Q13_MRT_NORM;
    R mn[13];
    TESS_UNROLL
    for (int k = 0; k < 13; k++)
        mn[k] = m[k] / (R)norm[k];
    TESS_UNROLL
    for (int i = 0; i < 13; i++) {
        int col[13];
        TESS_UNROLL
        for (int k = 0; k < 13; k++)
            col[k] = M[k][i];
        f[i] = TESS_QPFN(tess_int_row_dot)(col, mn, 13);
    }
}
#endif

/* Second-order equilibrium, tile paper eq. (3) (quasi-compressible: w_i rho (1 + 3 c.u + 9/2 (c.u)^2 - 3/2 u^2))
 * and eq. (4) (incompressible: w_i (rho + ...) with u = j). D3Q13: the populations of the paper's equilibrium
 * moments (the lattice lacks the isotropy of the polynomial form). Pairwise (D3Q19, D3Q27): the even part
 * 4.5 (c.u)^2 - 1.5 u^2 is shared by a pair and the odd part 3 c.u changes sign exactly, so a pair costs one
 * c.u: about 90 operations per D3Q19 node instead of 130 (the CPU's LBGK loop is bound by them). */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_equilibrium)(int fluid, R rho, const R u[3], R *feq)
{
#if TESS_QL_Q == 13
    R meq[13];
    TESS_QFN(tess_q_mrt_equilibrium)(fluid, rho, u, meq);
    TESS_QFN(tess_q_from_moments)(meq, feq);
#else
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    const int wn[TESS_QL_Q] = TESS_QL_W;
    const int quasi = fluid == TESS_FLUID_QUASI_COMPRESSIBLE;
    const R usq = (R)1.5 * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
#if TESS_QL_PAIRWISE
    const R base = quasi ? (R)1 - usq : rho - usq;
    feq[0] = quasi ? (R)wn[0] / (R)TESS_QL_WDEN * rho * base : (R)wn[0] / (R)TESS_QL_WDEN * base;
    TESS_UNROLL
    for (int i = 1; i < TESS_QL_Q; i += 2) {
        const R w = quasi ? (R)wn[i] / (R)TESS_QL_WDEN * rho : (R)wn[i] / (R)TESS_QL_WDEN;
        const R cu = TESS_QPFN(tess_cdot)(cx[i], cy[i], cz[i], u[0], u[1], u[2]);
        const R even = base + (R)4.5 * (cu * cu), odd = (R)3 * cu;
        feq[i] = w * (even + odd);
        feq[i + 1] = w * (even - odd);
    }
#else
    TESS_UNROLL
    for (int i = 0; i < TESS_QL_Q; i++) {
        const R w = (R)wn[i] / (R)TESS_QL_WDEN;
        const R cu = (R)3 * TESS_QPFN(tess_cdot)(cx[i], cy[i], cz[i], u[0], u[1], u[2]);
        if (quasi)
            feq[i] = w * rho * ((R)1 + cu + (R)0.5 * cu * cu - usq);
        else
            feq[i] = w * (rho + cu + (R)0.5 * cu * cu - usq);
    }
#endif
#endif
}

/* The terms every moment sum runs over, and the density. Pairwise: even[k] and odd[k] are the sum and the
 * difference of the opposite pair (2k + 1, 2k + 2), so that the even moments (rho, Pi) are sums over even and
 * the odd ones (j) over odd with the coefficients of direction 2k + 1 (tess_q_sum_coefs). Otherwise both are
 * the populations themselves (the compiler drops the copies). */
#if TESS_QL_PAIRWISE
#define TESS_QL_NS TESS_QL_NP
#define TESS_QL_SDIR(k) (2 * (k) + 1)
#else
#define TESS_QL_NS TESS_QL_Q
#define TESS_QL_SDIR(k) (k)
#endif
TESS_HD TESS_INLINE R TESS_QFN(tess_q_moment_terms)(const R *f, R *even, R *odd)
{
    R rho = f[0];
#if TESS_QL_PAIRWISE
    TESS_UNROLL
    for (int k = 0; k < TESS_QL_NP; k++) {
        even[k] = f[2 * k + 1] + f[2 * k + 2];
        odd[k] = f[2 * k + 1] - f[2 * k + 2];
        rho += even[k];
    }
#else
    TESS_UNROLL
    for (int i = 0; i < TESS_QL_Q; i++) {
        if (i > 0)
            rho += f[i];
        even[i] = odd[i] = f[i];
    }
#endif
    return rho;
}

/* Coefficients c_a of the terms of tess_q_moment_terms, a = x, y, z. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_sum_coefs)(int ca[3][TESS_QL_NS])
{
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    TESS_UNROLL
    for (int k = 0; k < TESS_QL_NS; k++) {
        ca[0][k] = cx[TESS_QL_SDIR(k)];
        ca[1][k] = cy[TESS_QL_SDIR(k)];
        ca[2][k] = cz[TESS_QL_SDIR(k)];
    }
}

/* Density and the raw first moment sum_i c_i f_i (j[2] = 0 for D2Q9); pairwise 39 additions instead of 46 on
 * D3Q19. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_raw_moments)(const R *f, R *rho, R j[3])
{
    int ca[3][TESS_QL_NS];
    R even[TESS_QL_NS], odd[TESS_QL_NS];
    TESS_QFN(tess_q_sum_coefs)(ca);
    *rho = TESS_QFN(tess_q_moment_terms)(f, even, odd);
    TESS_UNROLL
    for (int a = 0; a < 3; a++)
        j[a] = TESS_QPFN(tess_int_row_dot)(ca[a], odd, TESS_QL_NS);
}

/* Velocity from density and momentum with the Guo half-force shift (tess_velocity: +F/2 before collision,
 * shift_sign = 1; -F/2 for output, shift_sign = -1). A 2D lattice keeps u_z = 0 whatever force[2] holds. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_velocity)(const tess_params_t *p, R rho, const R j[3], R shift_sign, R u[3])
{
    TESS_QPFN(tess_velocity)(p, p->fluid, p->use_force, rho, j[0], j[1], j[2], shift_sign, u);
#if TESS_QL_D == 2
    u[2] = (R)0;
#endif
}

/* Density and velocity of the stored (post-collision) state, without the +F/2 that a Guo-forced collision
 * leaves in the momentum. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_macroscopic)(const tess_params_t *p, const R *f, R *rho, R u[3])
{
    R j[3];
    TESS_QFN(tess_q_raw_moments)(f, rho, j);
    TESS_QFN(tess_q_velocity)(p, *rho, j, (R)-1, u);
}

/* ---- LBGK and the regularized collision (not D3Q13) ------------------------------------------------------ */

#if TESS_QL_Q != 13
/* Guo et al. (2002) source without its relaxation prefactor, w_i [3 (c_i - u) + 9 (c_i . u) c_i] . F; its second
 * moment is u F + F u only on lattices with fourth-order isotropy (D2Q9, D3Q19, D3Q27). Per direction, from the
 * force F and u . F (tess_q_guo_force), so that a collision can add it as it goes instead of holding all Q. */
TESS_HD TESS_INLINE R TESS_QFN(tess_q_guo_force)(const tess_params_t *p, const R *u, R F[3])
{
    F[0] = (R)p->force[0];
    F[1] = (R)p->force[1];
    F[2] = TESS_QL_D == 2 ? (R)0 : (R)p->force[2];
    return u[0] * F[0] + u[1] * F[1] + u[2] * F[2];
}
TESS_HD TESS_INLINE R TESS_QFN(tess_q_guo_term)(int i, const R *u, const R F[3], R uF)
{
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    const int wn[TESS_QL_Q] = TESS_QL_W;
    const R w = (R)wn[i] / (R)TESS_QL_WDEN;
    const R cF = TESS_QPFN(tess_cdot)(cx[i], cy[i], cz[i], F[0], F[1], F[2]);
    const R cu = TESS_QPFN(tess_cdot)(cx[i], cy[i], cz[i], u[0], u[1], u[2]);
    return w * ((R)3 * (cF - uF) + (R)9 * cu * cF);
}
TESS_HD TESS_INLINE void TESS_QFN(tess_q_guo_source)(const tess_params_t *p, const R *u, R *src)
{
    R F[3];
    const R uF = TESS_QFN(tess_q_guo_force)(p, u, F);
    TESS_UNROLL
    for (int i = 0; i < TESS_QL_Q; i++)
        src[i] = TESS_QFN(tess_q_guo_term)(i, u, F, uF);
}

/* LBGK (tile paper eq. 7) with optional Guo forcing, in place. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_collide_lbgk)(const tess_params_t *p, int fluid, int use_force, R *f, R rho,
                                                       const R *u)
{
    R feq[TESS_QL_Q];
    TESS_QFN(tess_q_equilibrium)(fluid, rho, u, feq);
    const R omega = (R)1 / (R)p->tau;
    if (use_force) {
        R F[3];
        const R uF = TESS_QFN(tess_q_guo_force)(p, u, F);
        const R pre = (R)1 - (R)0.5 * omega;
        TESS_UNROLL
        for (int i = 0; i < TESS_QL_Q; i++)
            f[i] = f[i] - omega * (f[i] - feq[i]) + pre * TESS_QFN(tess_q_guo_term)(i, u, F, uF);
    } else {
        TESS_UNROLL
        for (int i = 0; i < TESS_QL_Q; i++)
            f[i] = f[i] - omega * (f[i] - feq[i]);
    }
}

/* The ten moments of the regularized collision (TESS_MR_* order, paper eqs. 8-10): rho, j = sum c f,
 * Pi = sum c c f; pairwise about 50 additions instead of 180 on D3Q19. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_hermite_moments)(const R *f, R *m)
{
    const int sa[6] = {0, 1, 2, 0, 0, 1}, sb[6] = {0, 1, 2, 1, 2, 2};
    int ca[3][TESS_QL_NS], cc[TESS_QL_NS];
    R even[TESS_QL_NS], odd[TESS_QL_NS];
    TESS_QFN(tess_q_sum_coefs)(ca);
    m[TESS_MR_RHO] = TESS_QFN(tess_q_moment_terms)(f, even, odd);
    TESS_UNROLL
    for (int a = 0; a < 3; a++)
        m[TESS_MR_JX + a] = TESS_QPFN(tess_int_row_dot)(ca[a], odd, TESS_QL_NS);
    TESS_UNROLL
    for (int s = 0; s < 6; s++) {
        TESS_UNROLL
        for (int k = 0; k < TESS_QL_NS; k++)
            cc[k] = ca[sa[s]][k] * ca[sb[s]][k];
        m[TESS_MR_PXX + s] = TESS_QPFN(tess_int_row_dot)(cc, even, TESS_QL_NS);
    }
}

/* The moment-space collision of tess_moments_t.h (Pi relaxes to rho0 u u + rho/3 I with 1/tau; Guo forcing on
 * j and Pi). For D2Q9 the z slots are then set so that they drop out of the rebuild (P_zz = 0). */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_moment_collide)(const tess_params_t *p, int fluid, int use_force, R *m)
{
    TESS_QPFN(tess_mr_collide)(p, fluid, use_force, m);
#if TESS_QL_D == 2
    m[TESS_MR_PZZ] = m[TESS_MR_RHO] * (R)(1.0 / 3.0); /* the same product tess_mr_coeffs subtracts: P_zz = 0 */
    m[TESS_MR_PXZ] = (R)0;
    m[TESS_MR_PYZ] = (R)0;
#endif
}

/* Population i of the second-order Hermite expansion (paper eq. 16) with the coefficients h of tess_mr_coeffs
 * (TESS_MR_NH values, the partial sums included):
 *   f_i = w_i [h0 + c.h_j + sum_a c_a^2 h_aa + sum_{a<b} c_a c_b h_ab]
 * summed over the lattice's axes; the same operations whether one population or all are rebuilt (the MR
 * pattern's backward streaming recomputes single ones). The even part comes first and is the same expression for
 * i and opp(i); the odd part c.h_j changes sign exactly. */
TESS_HD TESS_INLINE R TESS_QFN(tess_q_hermite_population)(int i, const R *h)
{
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    const int wn[TESS_QL_Q] = TESS_QL_W;
    /* e = h0 (+ h_xx) (+ h_yy) (+ h_zz) in this order, from the partial sums of tess_mr_partials */
    R e = cx[i] && cy[i] ? h[TESS_MR_BXY] : cx[i] ? h[TESS_MR_AX] : cy[i] ? h[TESS_MR_AY] : h[0];
    if (cz[i])
        e += h[6];
    if (cx[i] && cy[i])
        e = cx[i] * cy[i] > 0 ? e + h[7] : e - h[7];
    if (cx[i] && cz[i])
        e = cx[i] * cz[i] > 0 ? e + h[8] : e - h[8];
    if (cy[i] && cz[i])
        e = cy[i] * cz[i] > 0 ? e + h[9] : e - h[9];
    if (i > 0)
        e += TESS_QPFN(tess_cdot)(cx[i], cy[i], cz[i], h[1], h[2], h[3]);
    return (R)wn[i] / (R)TESS_QL_WDEN * e;
}

/* Eq. 16 for all directions, from the ten moments. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_hermite_populations)(const R *m, R *f)
{
    R h[TESS_MR_NH];
    TESS_QPFN(tess_mr_coeffs)(m, h);
    TESS_UNROLL
    for (int i = 0; i < TESS_QL_Q; i++)
        f[i] = TESS_QFN(tess_q_hermite_population)(i, h);
}

/* Regularized collision (Latt & Chopard 2006) in place: the ten moments, the moment-space collision, the
 * second-order Hermite rebuild. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_collide_regularized)(const tess_params_t *p, int fluid, int use_force, R *f)
{
    R m[TESS_MR_NM];
    TESS_QFN(tess_q_hermite_moments)(f, m);
    TESS_QFN(tess_q_moment_collide)(p, fluid, use_force, m);
    TESS_QFN(tess_q_hermite_populations)(m, f);
}
#endif /* not D3Q13 */

/* ---- MRT (D2Q9, D3Q13, D3Q19) ------------------------------------------------------------------------------ */

#if TESS_QL_Q == 9 || TESS_QL_Q == 13 || TESS_QL_Q == 19
#if TESS_QL_Q == 9
#define TESS_QMRT_M TESS_D2Q9_MRT_M
#define TESS_QMRT_NORM TESS_D2Q9_MRT_NORM
#elif TESS_QL_Q == 13
#define TESS_QMRT_M TESS_D3Q13_MRT_M
#define TESS_QMRT_NORM TESS_D3Q13_MRT_NORM
#else
#define TESS_QMRT_M TESS_D3Q19_MRT_M
#define TESS_QMRT_NORM TESS_D3Q19_MRT_NORM
#endif

/* MRT in place: m = M f, m_k <- m_k - s_k (m_k - meq_k) + (1 - s_k / 2) S_k, f = M^T diag(1/norm) m, with the
 * rates p->s in the lattice's moment order and S the Guo source in moment space.
 * D3Q19: d'Humieres et al. (2002) basis and equilibrium moments (tile paper eq. 8; rho0 = 1 incompressible, rho
 * otherwise), S = M (Guo source populations).
 * D2Q9: Lallemand & Luo (2000) basis and equilibria (their alpha_2 = -8, alpha_3 = 4, gamma_2 = 18,
 * gamma_4 = -18, c_1 = -2: the moments of the second-order equilibrium), S = M (Guo source populations).
 * D3Q13: the D3Q13 paper's eqs. (3)-(7); the Guo source is written in moment space (the lattice lacks the
 * fourth-order isotropy that the population form needs): F on j, and on the second-order moments the change
 * of their equilibria under j -> j + F to first order (e: 13 u.F, pxx: 2 (2 ux Fx - uy Fy - uz Fz),
 * pww: 2 (uy Fy - uz Fz), p_ab: u_a F_b + u_b F_a), h: 0. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_collide_mrt)(const tess_params_t *p, int fluid, int use_force, R *f, R rho,
                                                      const R *u)
{
    const int M[TESS_QL_Q][TESS_QL_Q] = TESS_QMRT_M;
    const int norm[TESS_QL_Q] = TESS_QMRT_NORM;
    R m[TESS_QL_Q], meq[TESS_QL_Q], src_m[TESS_QL_Q];
    TESS_UNROLL
    for (int k = 0; k < TESS_QL_Q; k++)
        m[k] = TESS_QPFN(tess_int_row_dot)(M[k], f, TESS_QL_Q);
#if TESS_QL_Q == 13
    TESS_QFN(tess_q_mrt_equilibrium)(fluid, rho, u, meq);
    if (use_force) {
        const R Fx = (R)p->force[0], Fy = (R)p->force[1], Fz = (R)p->force[2];
        const R xx = u[0] * Fx, yy = u[1] * Fy, zz = u[2] * Fz;
        src_m[TESS_M13_RHO] = (R)0;
        src_m[TESS_M13_JX] = Fx;
        src_m[TESS_M13_JY] = Fy;
        src_m[TESS_M13_JZ] = Fz;
        src_m[TESS_M13_E] = (R)13 * (xx + yy + zz);
        src_m[TESS_M13_PXX] = (R)2 * ((R)2 * xx - yy - zz);
        src_m[TESS_M13_PWW] = (R)2 * (yy - zz);
        src_m[TESS_M13_PXY] = u[0] * Fy + u[1] * Fx;
        src_m[TESS_M13_PYZ] = u[1] * Fz + u[2] * Fy;
        src_m[TESS_M13_PXZ] = u[0] * Fz + u[2] * Fx;
        src_m[TESS_M13_HX] = (R)0;
        src_m[TESS_M13_HY] = (R)0;
        src_m[TESS_M13_HZ] = (R)0;
    }
#else
    {
        const R inv = fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? (R)1 / rho : (R)1;
        const R jx = fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? rho * u[0] : u[0];
        const R jy = fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? rho * u[1] : u[1];
#if TESS_QL_Q == 9
        const R jj = (jx * jx + jy * jy) * inv;
        meq[TESS_M9_RHO] = rho;
        meq[TESS_M9_E] = (R)-2 * rho + (R)3 * jj;
        meq[TESS_M9_EPS] = rho - (R)3 * jj;
        meq[TESS_M9_JX] = jx;
        meq[TESS_M9_QX] = -jx;
        meq[TESS_M9_JY] = jy;
        meq[TESS_M9_QY] = -jy;
        meq[TESS_M9_PXX] = (jx * jx - jy * jy) * inv;
        meq[TESS_M9_PXY] = jx * jy * inv;
#else
        const R jz = fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? rho * u[2] : u[2];
        const R jj = (jx * jx + jy * jy + jz * jz) * inv;
        meq[TESS_M_RHO] = rho;
        meq[TESS_M_E] = (R)-11 * rho + (R)19 * jj;
        meq[TESS_M_EPS] = (R)p->we * rho + (R)p->wej * jj;
        meq[TESS_M_JX] = jx;
        meq[TESS_M_QX] = (R)(-2.0 / 3.0) * jx;
        meq[TESS_M_JY] = jy;
        meq[TESS_M_QY] = (R)(-2.0 / 3.0) * jy;
        meq[TESS_M_JZ] = jz;
        meq[TESS_M_QZ] = (R)(-2.0 / 3.0) * jz;
        meq[TESS_M_PXX] = ((R)2 * jx * jx - jy * jy - jz * jz) * inv;
        meq[TESS_M_PIXX] = (R)p->wxx * meq[TESS_M_PXX];
        meq[TESS_M_PWW] = (jy * jy - jz * jz) * inv;
        meq[TESS_M_PIWW] = (R)p->wxx * meq[TESS_M_PWW];
        meq[TESS_M_PXY] = jx * jy * inv;
        meq[TESS_M_PYZ] = jy * jz * inv;
        meq[TESS_M_PXZ] = jx * jz * inv;
        meq[TESS_M_MX] = (R)0;
        meq[TESS_M_MY] = (R)0;
        meq[TESS_M_MZ] = (R)0;
#endif
    }
    if (use_force) {
        R src[TESS_QL_Q];
        TESS_QFN(tess_q_guo_source)(p, u, src);
        TESS_UNROLL
        for (int k = 0; k < TESS_QL_Q; k++)
            src_m[k] = TESS_QPFN(tess_int_row_dot)(M[k], src, TESS_QL_Q);
    }
#endif
    TESS_UNROLL
    for (int k = 0; k < TESS_QL_Q; k++) {
        const R s = (R)p->s[k];
        R mk = m[k] - s * (m[k] - meq[k]);
        if (use_force)
            mk += ((R)1 - (R)0.5 * s) * src_m[k];
        m[k] = mk / (R)norm[k];
    }
    TESS_UNROLL
    for (int i = 0; i < TESS_QL_Q; i++) {
        int col[TESS_QL_Q];
        TESS_UNROLL
        for (int k = 0; k < TESS_QL_Q; k++)
            col[k] = M[k][i];
        f[i] = TESS_QPFN(tess_int_row_dot)(col, m, TESS_QL_Q);
    }
}
#undef TESS_QMRT_M
#undef TESS_QMRT_NORM
#endif /* MRT lattices */

/* ---- The bulk update of a node -------------------------------------------------------------------------- */

/* Moments and collision of a node whose populations are complete. The model choices are arguments (normally
 * p->collision, p->fluid, p->use_force) so that a backend may pass constants and let the compiler specialise
 * a loop for one model: the CPU's SIMD loops need branch-free bodies. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_collide_model)(const tess_params_t *p, int collision, int fluid, int use_force,
                                                        R *f)
{
#if TESS_QL_Q != 13
    if (collision == TESS_COLLISION_REGULARIZED) {
        TESS_QFN(tess_q_collide_regularized)(p, fluid, use_force, f);
        return;
    }
#endif
    R rho, j[3], u[3];
    TESS_QFN(tess_q_raw_moments)(f, &rho, j);
    TESS_QPFN(tess_velocity)(p, fluid, use_force, rho, j[0], j[1], j[2], (R)1, u);
#if TESS_QL_D == 2
    u[2] = (R)0;
#endif
#if TESS_QL_Q == 13
    (void)collision;
    TESS_QFN(tess_q_collide_mrt)(p, fluid, use_force, f, rho, u);
#elif TESS_QL_Q == 27
    (void)collision;
    TESS_QFN(tess_q_collide_lbgk)(p, fluid, use_force, f, rho, u);
#else
    if (collision == TESS_COLLISION_MRT)
        TESS_QFN(tess_q_collide_mrt)(p, fluid, use_force, f, rho, u);
    else
        TESS_QFN(tess_q_collide_lbgk)(p, fluid, use_force, f, rho, u);
#endif
}

/* The full bulk update of one node in place: moments, the model in p->collision, Guo force when p->use_force. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_collide)(const tess_params_t *p, R *f)
{
    TESS_QFN(tess_q_collide_model)(p, p->collision, p->fluid, p->use_force, f);
}

/* Viscous (deviatoric) stress of a node from its incoming, pre-collision populations f (what the collision
 * receives), the local form of Chapman-Enskog (Krueger et al., The Lattice Boltzmann Method, 2017, sec. 6.3 with
 * Guo forcing):
 *     sigma_ab = -(1 - 1/(2 tau)) [ sum_i c_ia c_ib (f_i - f_i^eq(rho, u)) + (F_a u_b + u_a F_b) / 2 ],
 * u the collision's velocity (with +F/2). LBGK, regularized, and the MRT models whose stress moments relax at
 * 1/tau (D2Q9, D3Q19) share the factor; D3Q13's viscous rates differ (the caller refuses it). sigma receives
 * xx, yy, zz, xy, xz, yz in lattice units (mass / (spacing step^2); rho0 = 1 for the incompressible model). */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_stress)(const tess_params_t *p, const R *f, R sigma[6])
{
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    const int ia[6] = {0, 1, 2, 0, 0, 1}, ib[6] = {0, 1, 2, 1, 2, 2};
    R rho, j[3], u[3], feq[TESS_QL_Q];
    TESS_QFN(tess_q_raw_moments)(f, &rho, j);
    TESS_QFN(tess_q_velocity)(p, rho, j, (R)1, u);
#if TESS_QL_D == 2
    u[2] = (R)0;
#endif
    TESS_QFN(tess_q_equilibrium)(p->fluid, rho, u, feq);
    const R factor = -((R)1 - (R)0.5 / (R)p->tau);
    for (int s = 0; s < 6; s++) {
        R pi = (R)0;
        for (int i = 0; i < TESS_QL_Q; i++) {
            const int c[3] = {cx[i], cy[i], cz[i]};
            pi += (R)(c[ia[s]] * c[ib[s]]) * (f[i] - feq[i]);
        }
        if (p->use_force)
            pi += (R)0.5 * ((R)p->force[ia[s]] * u[ib[s]] + u[ia[s]] * (R)p->force[ib[s]]);
        sigma[s] = factor * pi;
    }
}

/* ---- Walls ------------------------------------------------------------------------------------------------ */

/* Momentum a moving wall gives a bounced population: 6 w_i rho_w (c_i . u_w) with rho_w = 1 (Ladd 1994); zero
 * for a resting wall. */
TESS_HD TESS_INLINE R TESS_QFN(tess_q_wall_term)(int i, const tess_material_t *wall)
{
    if (wall->kind != TESS_NODE_WALL)
        return (R)0;
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    const int wn[TESS_QL_Q] = TESS_QL_W;
    const R w6 = (R)(6 * wn[i]) / (R)TESS_QL_WDEN;
    return w6 * TESS_QPFN(tess_cdot)(cx[i], cy[i], cz[i], (R)wall->u[0], (R)wall->u[1], (R)wall->u[2]);
}

/* Pull of direction i at a wet node whose upstream neighbour (x - c_i) is solid: halfway bounce-back of the
 * node's own post-collision f_opp(i), plus the wall term when the wall moves. */
TESS_HD TESS_INLINE R TESS_QFN(tess_q_bounce_back)(int i, R f_self_opp, const tess_material_t *wall)
{
    if (wall->kind != TESS_NODE_WALL)
        return f_self_opp;
    return f_self_opp + TESS_QFN(tess_q_wall_term)(i, wall);
}

/* Interpolated bounce-back (Bouzidi, Firdaouss & Lallemand 2001, eqs. 5-6 and their quadratic forms) for the
 * incoming f_i at node x whose link towards the wall is -c_i, the wall at fraction q of that link. All
 * populations named f* are post-collision values of the previous step, so that the rule works in pull form and
 * in every propagation pattern. Inputs:
 *   fb  = f*_opp(i)(x)           the population that hits the wall
 *   fi  = f*_i(x)                the node's own population leaving the wall
 *   fb1 = f*_opp(i)(x + c_i)     fb2 = f*_opp(i)(x + 2 c_i)     fi1 = f*_i(x + c_i)
 * have1, have2: whether x + c_i and x + 2 c_i are wet (a thin gap has no second node: the rule falls back to
 * linear, then to halfway, so that it never reads a wall node). order: 1 linear, 2 quadratic. For q < 1/2 the
 * population that ends at x after reflection started between nodes (interpolated before the wall); for
 * q >= 1/2 it ends between x and the wall and the value at x is interpolated afterwards with the outgoing
 * populations. The wall term (moving wall) enters with the weight its point carries in that interpolation
 * (1 for q < 1/2; 1/(2q) linear, 1/(q (2q + 1)) quadratic for q >= 1/2; Lallemand & Luo 2003). */
/* tess_q_bouzidi in two halves, so that a backend can compute the first once per link at initialise (the geometry
 * does not change during a run) and only the second at every step, with the same bits: the rule's form and its
 * coefficients from q (each coefficient exactly the sub-expression the rule evaluates first), then the rule on the
 * populations. Forms: TESS_BOUZIDI_HALFWAY (no wet x + c_i), _BEFORE1/_BEFORE2 (q < 1/2, linear/quadratic), _AFTER1/
 * _AFTER2 (q >= 1/2). */
TESS_HD TESS_INLINE int TESS_QFN(tess_q_bouzidi_coefs)(int order, R q, int have1, int have2, R c[3])
{
    const R two_q = (R)2 * q;
    c[0] = c[1] = c[2] = (R)0;
    if (q < (R)0.5) {
        if (order == 2 && have1 && have2) {
            c[0] = q * (two_q + (R)1);
            c[1] = ((R)1 + two_q) * ((R)1 - two_q);
            c[2] = q * ((R)1 - two_q);
            return TESS_BOUZIDI_BEFORE2;
        }
        if (have1) {
            c[0] = two_q;
            c[1] = (R)1 - two_q;
            return TESS_BOUZIDI_BEFORE1;
        }
        return TESS_BOUZIDI_HALFWAY;
    }
    if (order == 2 && have1) {
        c[0] = (R)1 / (q * (two_q + (R)1));
        c[1] = (two_q - (R)1) / q;
        c[2] = ((R)1 - two_q) / ((R)1 + two_q);
        return TESS_BOUZIDI_AFTER2;
    }
    c[0] = (R)1 / two_q;
    c[1] = (two_q - (R)1) * c[0];
    return TESS_BOUZIDI_AFTER1;
}

TESS_HD TESS_INLINE R TESS_QFN(tess_q_bouzidi_apply)(int form, const R c[3], R fb, R fi, R fb1, R fb2, R fi1, R wall)
{
    switch (form) {
    case TESS_BOUZIDI_BEFORE2:
        return c[0] * fb + c[1] * fb1 - c[2] * fb2 + wall;
    case TESS_BOUZIDI_BEFORE1:
        return c[0] * fb + c[1] * fb1 + wall;
    case TESS_BOUZIDI_AFTER2:
        return c[0] * (fb + wall) + c[1] * fi + c[2] * fi1;
    case TESS_BOUZIDI_AFTER1:
        return c[0] * (fb + wall) + c[1] * fi;
    default:
        return fb + wall;
    }
}

TESS_HD TESS_INLINE R TESS_QFN(tess_q_bouzidi)(int order, R q, R fb, R fi, R fb1, R fb2, R fi1, int have1, int have2,
                                               R wall)
{
    R c[3];
    const int form = TESS_QFN(tess_q_bouzidi_coefs)(order, q, have1, have2, c);
    return TESS_QFN(tess_q_bouzidi_apply)(form, c, fb, fi, fb1, fb2, fi1, wall);
}

/* ---- Open boundaries ------------------------------------------------------------------------------------ */

/* Non-equilibrium extrapolation (Guo, Zheng & Shi 2002) for a velocity inlet or pressure outlet of any
 * orientation: the boundary node takes the equilibrium of its prescribed velocity u_in (an inlet's value at
 * this node and step, tess_inlet.h; density extrapolated) or prescribed density rho_in (an outlet's at this
 * step; velocity extrapolated) plus the
 * non-equilibrium part of its fluid neighbour's populations fn (pulled at the same time level, so that the
 * neighbour's moments are current). f receives all populations of the boundary node, which then collides like
 * any fluid node. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_nee)(const tess_params_t *p, const tess_material_t *m, const double u_in[3],
                                              double rho_in, const R *fn, R *f)
{
    R rho_n, j[3], u_n[3];
    TESS_QFN(tess_q_raw_moments)(fn, &rho_n, j);
    TESS_QFN(tess_q_velocity)(p, rho_n, j, (R)1, u_n);
    R feq_n[TESS_QL_Q], feq_b[TESS_QL_Q];
    TESS_QFN(tess_q_equilibrium)(p->fluid, rho_n, u_n, feq_n);
    if (m->kind == TESS_NODE_VELOCITY) {
        const R u_b[3] = {(R)u_in[0], (R)u_in[1], (R)u_in[2]};
        TESS_QFN(tess_q_equilibrium)(p->fluid, rho_n, u_b, feq_b);
    } else {
        TESS_QFN(tess_q_equilibrium)(p->fluid, (R)rho_in, u_n, feq_b);
    }
    TESS_UNROLL
    for (int i = 0; i < TESS_QL_Q; i++)
        f[i] = feq_b[i] + (fn[i] - feq_n[i]);
}

#if TESS_QL_Q != 13
/* The finite-difference velocity-gradient closure (Latt et al. 2008) on every lattice with the second-order
 * Hermite rebuild of the regularized collision (D2Q9, D3Q19, D3Q27; D3Q13 has none, tess_q_check_physics
 * refuses it there). Planes with an axis-aligned outward normal (mat->axis, mat->sign). */

/* Eq. 21 of the moment-representation paper in the distribution representation: rho_0 + 2 rho_1 from the
 * populations after streaming (tangential ones once, outgoing ones twice). */
TESS_HD TESS_INLINE R TESS_QFN(tess_q_fd_known_sum)(int axis, int sign, const R *f)
{
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    R r0 = (R)0, r1 = (R)0;
    TESS_UNROLL
    for (int i = 0; i < TESS_QL_Q; i++) {
        const int c[3] = {cx[i], cy[i], cz[i]};
        const int cn = c[axis] * sign;
        if (cn == 0)
            r0 += f[i];
        else if (cn > 0)
            r1 += f[i];
    }
    return r0 + (R)2 * r1;
}

/* Eq. 19 in the distribution representation: replaces every population of the boundary node with the
 * regularized state of (rho, u, S) (tess_fd_moments); the node then collides like any other. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_fd_boundary)(const tess_params_t *p, const tess_material_t *mat, int fluid,
                                                      const R *S, R *f)
{
    R m[TESS_MR_NM];
    TESS_QPFN(tess_fd_moments)(p, mat, fluid, TESS_QFN(tess_q_fd_known_sum)(mat->axis, mat->sign, f), S, m);
#if TESS_QL_D == 2
    m[TESS_MR_PZZ] = m[TESS_MR_RHO] * (R)(1.0 / 3.0); /* as tess_q_moment_collide: P_zz = 0 in the rebuild */
    m[TESS_MR_PXZ] = (R)0;
    m[TESS_MR_PYZ] = (R)0;
#endif
    TESS_QFN(tess_q_hermite_populations)(m, f);
}

#endif /* not D3Q13 */

#if TESS_QL_IS_D3Q19
/* Zou-He planes exist on D3Q19 only (the other lattices take non-equilibrium extrapolation or the
 * finite-difference closure; tess_q_check_physics refuses Zou-He there). The bodies are written over the lattice
 * tables. */

/* Zou & He (1997) on a plane with outward normal (axis, sign), in the general form with the transverse-momentum
 * correction (Hecht & Harting 2010). Unknown populations are those entering the domain (c . n = -1); whatever the
 * gather left there is replaced. The body force is not included. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_zou_he)(const tess_params_t *p, const tess_material_t *m, R *f)
{
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    const int wn[TESS_QL_Q] = TESS_QL_W, opp[TESS_QL_Q] = TESS_QL_OPP;
    const int a = m->axis, sg = m->sign;
    R sum_tan = (R)0, sum_out = (R)0, tan_mom[3] = {(R)0, (R)0, (R)0};
    TESS_UNROLL
    for (int i = 0; i < TESS_QL_Q; i++) {
        const int c[3] = {cx[i], cy[i], cz[i]};
        const int cn = c[a] * sg;
        if (cn == 0) {
            sum_tan += f[i];
            for (int t = 0; t < 3; t++)
                if (c[t])
                    tan_mom[t] += c[t] > 0 ? f[i] : -f[i];
        } else if (cn > 0) {
            sum_out += f[i];
        }
    }
    const R known = sum_tan + (R)2 * sum_out;
    R rho, j[3];
    if (m->kind == TESS_NODE_VELOCITY) {
        const R u[3] = {(R)m->u[0], (R)m->u[1], (R)m->u[2]};
        const R un = sg > 0 ? u[a] : -u[a];
        if (p->fluid == TESS_FLUID_QUASI_COMPRESSIBLE) {
            rho = known / ((R)1 + un);
            j[0] = rho * u[0];
            j[1] = rho * u[1];
            j[2] = rho * u[2];
        } else {
            rho = known - un;
            j[0] = u[0];
            j[1] = u[1];
            j[2] = u[2];
        }
    } else {
        rho = (R)m->rho;
        const R jn = known - rho;
        j[0] = j[1] = j[2] = (R)0;
        j[a] = sg > 0 ? jn : -jn;
    }
    R nt[3];
    for (int t = 0; t < 3; t++)
        nt[t] = (R)0.5 * tan_mom[t] - j[t] / (R)3;
    TESS_UNROLL
    for (int i = 0; i < TESS_QL_Q; i++) {
        const int c[3] = {cx[i], cy[i], cz[i]};
        if (c[a] * sg >= 0)
            continue;
        const R w6 = (R)(6 * wn[i]) / (R)TESS_QL_WDEN;
        R v = f[opp[i]] + w6 * TESS_QPFN(tess_cdot)(cx[i], cy[i], cz[i], j[0], j[1], j[2]);
        for (int t = 0; t < 3; t++)
            if (t != a && c[t])
                v = c[t] > 0 ? v - nt[t] : v + nt[t];
        f[i] = v;
    }
}

/* The whole local update of a wet node after the gather: Zou-He reconstruction at an open boundary, moments,
 * collision. f holds the pulled populations and receives the post-collision ones. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_node_collide)(const tess_params_t *p, const tess_material_t *m, R *f)
{
    if (m->kind == TESS_NODE_VELOCITY || m->kind == TESS_NODE_PRESSURE)
        TESS_QFN(tess_q_zou_he)(p, m, f);
    TESS_QFN(tess_q_collide_model)(p, p->collision, p->fluid, p->use_force, f);
}

#endif /* D3Q19 */

#undef TESS_QL_NP
#undef TESS_QL_NS
#undef TESS_QL_SDIR
#undef R
