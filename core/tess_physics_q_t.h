/* Bulk physics of one node for any lattice, written once for every backend, lattice and precision.
 * Do not include directly: tess_physics_q.h instantiates it through tess_instantiate_q.h (names
 * tess_q_<what>_<lat>_<prec>). D3Q19 wraps the functions of tess_physics_t.h, so that the generic engine and
 * the tuned D3Q19 kernels run the same bits; D2Q9, D3Q13 and D3Q27 are written here. Lattice-independent
 * pieces of tess_physics_t.h / tess_moments_t.h (c . v, integer row sums, the Guo velocity shift, the
 * regularized moment collision and its Hermite coefficients) are called, not copied.
 *
 * Models per lattice (tess_q_supports): D2Q9 LBGK, MRT (Lallemand & Luo 2000), regularized; D3Q13 MRT of the
 * D3Q13 paper only; D3Q19 as tess_physics_t.h; D3Q27 LBGK and regularized. An unsupported collision never
 * reaches these functions (case load and backend initialise refuse it); were it to, D3Q13 runs its MRT and
 * D3Q27 runs LBGK. */

#define R TESS_R

#if TESS_QL_IS_D3Q19

/* ---- D3Q19: the existing physics under the generic names ---------------------------------------------- */

TESS_HD TESS_INLINE void TESS_QFN(tess_q_equilibrium)(int fluid, R rho, const R u[3], R *feq)
{
    TESS_QPFN(tess_equilibrium)(fluid, rho, u[0], u[1], u[2], feq);
}

TESS_HD TESS_INLINE void TESS_QFN(tess_q_raw_moments)(const R *f, R *rho, R j[3])
{
    TESS_QPFN(tess_raw_moments)(f, rho, &j[0], &j[1], &j[2]);
}

TESS_HD TESS_INLINE void TESS_QFN(tess_q_velocity)(const tess_params_t *p, R rho, const R j[3], R shift_sign, R u[3])
{
    TESS_QPFN(tess_velocity)(p, p->fluid, p->use_force, rho, j[0], j[1], j[2], shift_sign, u);
}

TESS_HD TESS_INLINE void TESS_QFN(tess_q_collide_model)(const tess_params_t *p, int collision, int fluid, int use_force,
                                                        R *f)
{
    TESS_QPFN(tess_collide_model)(p, collision, fluid, use_force, f);
}

TESS_HD TESS_INLINE void TESS_QFN(tess_q_macroscopic)(const tess_params_t *p, const R *f, R *rho, R u[3])
{
    TESS_QPFN(tess_macroscopic)(p, f, rho, u);
}

/* The three stages of the regularized collision (tess_collide_regularized), for the moment representation. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_hermite_moments)(const R *f, R *m)
{
    TESS_QPFN(tess_mr_moments)(f, m);
}

TESS_HD TESS_INLINE void TESS_QFN(tess_q_moment_collide)(const tess_params_t *p, int fluid, int use_force, R *m)
{
    TESS_QPFN(tess_mr_collide)(p, fluid, use_force, m);
}

TESS_HD TESS_INLINE R TESS_QFN(tess_q_hermite_population)(int i, const R *h)
{
    return TESS_QPFN(tess_mr_population)(i, h);
}

#else

/* ---- D2Q9, D3Q13, D3Q27 ------------------------------------------------------------------------------- */

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

/* Second-order equilibrium. D2Q9 and D3Q27: w_i rho (1 + 3 c.u + 9/2 (c.u)^2 - 3/2 u^2) (quasi-compressible)
 * or w_i (rho + ...) with u = j (incompressible), the forms of tess_equilibrium. D3Q13: the populations of the
 * paper's equilibrium moments. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_equilibrium)(int fluid, R rho, const R u[3], R *feq)
{
#if TESS_QL_Q == 13
    R meq[13];
    TESS_QFN(tess_q_mrt_equilibrium)(fluid, rho, u, meq);
    TESS_QFN(tess_q_from_moments)(meq, feq);
#else
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    const int wn[TESS_QL_Q] = TESS_QL_W;
    const R usq = (R)1.5 * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    TESS_UNROLL
    for (int i = 0; i < TESS_QL_Q; i++) {
        const R w = (R)wn[i] / (R)TESS_QL_WDEN;
        const R cu = (R)3 * TESS_QPFN(tess_cdot)(cx[i], cy[i], cz[i], u[0], u[1], u[2]);
        if (fluid == TESS_FLUID_QUASI_COMPRESSIBLE)
            feq[i] = w * rho * ((R)1 + cu + (R)0.5 * cu * cu - usq);
        else
            feq[i] = w * (rho + cu + (R)0.5 * cu * cu - usq);
    }
#endif
}

/* Density and the raw first moment sum_i c_i f_i (j[2] = 0 for D2Q9). */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_raw_moments)(const R *f, R *rho, R j[3])
{
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    R r = f[0];
    TESS_UNROLL
    for (int i = 1; i < TESS_QL_Q; i++)
        r += f[i];
    *rho = r;
    j[0] = TESS_QPFN(tess_int_row_dot)(cx, f, TESS_QL_Q);
    j[1] = TESS_QPFN(tess_int_row_dot)(cy, f, TESS_QL_Q);
    j[2] = TESS_QPFN(tess_int_row_dot)(cz, f, TESS_QL_Q);
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

#if TESS_QL_Q != 13
/* Guo et al. (2002) source without its relaxation prefactor, w_i [3 (c_i - u) + 9 (c_i . u) c_i] . F, as in
 * tess_guo_source; its second moment is u F + F u only on lattices with fourth-order isotropy (D2Q9, D3Q27). */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_guo_source)(const tess_params_t *p, const R *u, R *src)
{
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    const int wn[TESS_QL_Q] = TESS_QL_W;
    const R Fx = (R)p->force[0], Fy = (R)p->force[1], Fz = TESS_QL_D == 2 ? (R)0 : (R)p->force[2];
    const R uF = u[0] * Fx + u[1] * Fy + u[2] * Fz;
    TESS_UNROLL
    for (int i = 0; i < TESS_QL_Q; i++) {
        const R w = (R)wn[i] / (R)TESS_QL_WDEN;
        const R cF = TESS_QPFN(tess_cdot)(cx[i], cy[i], cz[i], Fx, Fy, Fz);
        const R cu = TESS_QPFN(tess_cdot)(cx[i], cy[i], cz[i], u[0], u[1], u[2]);
        src[i] = w * ((R)3 * (cF - uF) + (R)9 * cu * cF);
    }
}

/* LBGK with optional Guo forcing, in place (as tess_collide_lbgk). */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_collide_lbgk)(const tess_params_t *p, int fluid, int use_force, R *f, R rho,
                                                       const R *u)
{
    R feq[TESS_QL_Q];
    TESS_QFN(tess_q_equilibrium)(fluid, rho, u, feq);
    const R omega = (R)1 / (R)p->tau;
    if (use_force) {
        R src[TESS_QL_Q];
        TESS_QFN(tess_q_guo_source)(p, u, src);
        const R pre = (R)1 - (R)0.5 * omega;
        TESS_UNROLL
        for (int i = 0; i < TESS_QL_Q; i++)
            f[i] = f[i] - omega * (f[i] - feq[i]) + pre * src[i];
    } else {
        TESS_UNROLL
        for (int i = 0; i < TESS_QL_Q; i++)
            f[i] = f[i] - omega * (f[i] - feq[i]);
    }
}

/* The ten moments of the regularized collision (TESS_MR_* order): rho, j = sum c f, Pi = sum c c f. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_hermite_moments)(const R *f, R *m)
{
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    R j[3];
    TESS_QFN(tess_q_raw_moments)(f, &m[TESS_MR_RHO], j);
    m[TESS_MR_JX] = j[0];
    m[TESS_MR_JY] = j[1];
    m[TESS_MR_JZ] = j[2];
    int cxx[TESS_QL_Q], cyy[TESS_QL_Q], czz[TESS_QL_Q], cxy[TESS_QL_Q], cxz[TESS_QL_Q], cyz[TESS_QL_Q];
    TESS_UNROLL
    for (int i = 0; i < TESS_QL_Q; i++) {
        cxx[i] = cx[i] * cx[i];
        cyy[i] = cy[i] * cy[i];
        czz[i] = cz[i] * cz[i];
        cxy[i] = cx[i] * cy[i];
        cxz[i] = cx[i] * cz[i];
        cyz[i] = cy[i] * cz[i];
    }
    m[TESS_MR_PXX] = TESS_QPFN(tess_int_row_dot)(cxx, f, TESS_QL_Q);
    m[TESS_MR_PYY] = TESS_QPFN(tess_int_row_dot)(cyy, f, TESS_QL_Q);
    m[TESS_MR_PZZ] = TESS_QPFN(tess_int_row_dot)(czz, f, TESS_QL_Q);
    m[TESS_MR_PXY] = TESS_QPFN(tess_int_row_dot)(cxy, f, TESS_QL_Q);
    m[TESS_MR_PXZ] = TESS_QPFN(tess_int_row_dot)(cxz, f, TESS_QL_Q);
    m[TESS_MR_PYZ] = TESS_QPFN(tess_int_row_dot)(cyz, f, TESS_QL_Q);
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

/* Population i of the second-order Hermite expansion with the coefficients h of tess_mr_coeffs:
 *   f_i = w_i [rho + 3 c.j + 9/2 (c_a c_b - delta_ab / 3) (Pi_ab - rho/3 delta_ab)]
 * summed over the lattice's d axes; the same operations whether one population or all are rebuilt. */
TESS_HD TESS_INLINE R TESS_QFN(tess_q_hermite_population)(int i, const R *h)
{
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    const int wn[TESS_QL_Q] = TESS_QL_W;
    R e = h[0];
    if (cx[i])
        e += h[4];
    if (cy[i])
        e += h[5];
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

/* Regularized collision (Latt & Chopard 2006) in place: the ten moments, the moment-space collision, the
 * second-order Hermite rebuild. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_collide_regularized)(const tess_params_t *p, int fluid, int use_force, R *f)
{
    R m[TESS_MR_NM], h[10];
    TESS_QFN(tess_q_hermite_moments)(f, m);
    TESS_QFN(tess_q_moment_collide)(p, fluid, use_force, m);
    TESS_QPFN(tess_mr_coeffs)(m, h);
    TESS_UNROLL
    for (int i = 0; i < TESS_QL_Q; i++)
        f[i] = TESS_QFN(tess_q_hermite_population)(i, h);
}
#endif /* TESS_QL_Q != 13 */

#if TESS_QL_Q == 9 || TESS_QL_Q == 13
#if TESS_QL_Q == 9
#define TESS_QMRT_M TESS_D2Q9_MRT_M
#define TESS_QMRT_NORM TESS_D2Q9_MRT_NORM
#else
#define TESS_QMRT_M TESS_D3Q13_MRT_M
#define TESS_QMRT_NORM TESS_D3Q13_MRT_NORM
#endif

/* MRT in place: m = M f, m_k <- m_k - s_k (m_k - meq_k) + (1 - s_k / 2) S_k, f = M^T diag(1/norm) m, with the
 * rates p->s in the lattice's moment order and S the Guo source in moment space (as tess_collide_mrt).
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
#if TESS_QL_Q == 9
    {
        const R inv = fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? (R)1 / rho : (R)1;
        const R jx = fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? rho * u[0] : u[0];
        const R jy = fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? rho * u[1] : u[1];
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
    }
    if (use_force) {
        R src[9];
        TESS_QFN(tess_q_guo_source)(p, u, src);
        TESS_UNROLL
        for (int k = 0; k < 9; k++)
            src_m[k] = TESS_QPFN(tess_int_row_dot)(M[k], src, 9);
    }
#else
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

/* Moments and collision of a node whose populations are complete; the model choices are arguments (normally
 * p->collision, p->fluid, p->use_force) so that a backend may pass constants (see tess_collide_model). */
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
#elif TESS_QL_Q == 9
    if (collision == TESS_COLLISION_MRT)
        TESS_QFN(tess_q_collide_mrt)(p, fluid, use_force, f, rho, u);
    else
        TESS_QFN(tess_q_collide_lbgk)(p, fluid, use_force, f, rho, u);
#else
    TESS_QFN(tess_q_collide_lbgk)(p, fluid, use_force, f, rho, u);
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

#endif /* not D3Q19 */

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

#undef R
