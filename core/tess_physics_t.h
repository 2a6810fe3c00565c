/* D3Q19 physics for one node, written once for every backend and both precisions.
 * Do not include directly: tess_physics.h includes this file once per precision with
 *   TESS_R       the floating-point type (double or float)
 *   TESS_FN(n)   the name of a function in that precision (n##_f64 or n##_f32)
 * defined. Every function is TESS_HD inline, so it compiles as C on the host and as device code under
 * nvcc and hipcc. Sums run in direction order and no operation depends on the compiler's choices, so
 * the same inputs give the same bits on every backend when contraction is off. */

#define R TESS_R

/* c . v for a lattice velocity with components in {-1, 0, 1}: selects and adds, never multiplies, so that
 * zero components vanish exactly and the compilers fold the choice once the direction loop is unrolled. */
TESS_HD TESS_INLINE R TESS_FN(tess_cdot)(int cx, int cy, int cz, R vx, R vy, R vz)
{
    R s = (R)0;
    int have = 0;
    if (cx) { s = cx > 0 ? vx : -vx; have = 1; }
    if (cy) { R t = cy > 0 ? vy : -vy; s = have ? s + t : t; have = 1; }
    if (cz) { R t = cz > 0 ? vz : -vz; s = have ? s + t : t; have = 1; }
    return s;
}

/* Sum of coef * v over a row of small integer coefficients, in index order; zero terms are skipped. */
TESS_HD TESS_INLINE R TESS_FN(tess_int_row_dot)(const int *coef, const R *v, int n)
{
    R s = (R)0;
    int have = 0;
    TESS_UNROLL
    for (int i = 0; i < n; i++) {
        const int c = coef[i];
        if (c == 0)
            continue;
        const R t = c == 1 ? v[i] : c == -1 ? -v[i] : (R)c * v[i];
        s = have ? s + t : t;
        have = 1;
    }
    return s;
}

/* Equilibrium, tile paper eq. (3) (quasi-compressible) and eq. (4) (incompressible); u is the velocity
 * (for the incompressible model equal to the momentum). With the D3Q19 order (opposites i, i+1 for odd i)
 * the even part 4.5 (c.u)^2 - 1.5 u^2 is shared by a pair and the odd part 3 c.u changes sign exactly, so a
 * pair costs one c.u: about 90 operations per node instead of 130 (the CPU's LBGK loop is bound by them). */
TESS_HD TESS_INLINE void TESS_FN(tess_equilibrium)(int fluid, R rho, R ux, R uy, R uz, R *feq)
{
    const int cx[19] = TESS_D3Q19_CX, cy[19] = TESS_D3Q19_CY, cz[19] = TESS_D3Q19_CZ;
    const int w36[19] = TESS_D3Q19_W36;
    const int quasi = fluid == TESS_FLUID_QUASI_COMPRESSIBLE;
    const R usq = (R)1.5 * (ux * ux + uy * uy + uz * uz);
    const R base = quasi ? (R)1 - usq : rho - usq;
    feq[0] = quasi ? (R)w36[0] / (R)36 * rho * base : (R)w36[0] / (R)36 * base;
    TESS_UNROLL
    for (int i = 1; i < 19; i += 2) {
        const R w = quasi ? (R)w36[i] / (R)36 * rho : (R)w36[i] / (R)36;
        const R cu = TESS_FN(tess_cdot)(cx[i], cy[i], cz[i], ux, uy, uz);
        const R even = base + (R)4.5 * (cu * cu), odd = (R)3 * cu;
        feq[i] = w * (even + odd);
        feq[i + 1] = w * (even - odd);
    }
}

/* Density and the raw first moment sum_i c_i f_i, from the sums and differences of opposite pairs (the
 * D3Q19 order puts opposites at i, i+1 for odd i): 39 additions instead of 46. */
TESS_HD TESS_INLINE void TESS_FN(tess_raw_moments)(const R *f, R *rho, R *jx, R *jy, R *jz)
{
    R sp[19], dp[19];
    TESS_UNROLL
    for (int i = 1; i < 19; i += 2) {
        sp[i] = f[i] + f[i + 1];
        dp[i] = f[i] - f[i + 1];
    }
    *rho = f[0] + sp[1] + sp[3] + sp[5] + sp[7] + sp[9] + sp[11] + sp[13] + sp[15] + sp[17];
    *jx = dp[1] + dp[7] + dp[9] + dp[11] + dp[13];   /* E, NE, SE, ET, EB */
    *jy = dp[3] + dp[7] - dp[9] + dp[15] + dp[17];   /* N, NE, -SE, NT, NB */
    *jz = dp[5] + dp[11] - dp[13] + dp[15] - dp[17]; /* T, ET, -EB, NT, -NB */
}

/* Velocity from density and momentum: eq. (5) or eq. (6); shift is half the body force (Guo), added to
 * the raw moment before collision and subtracted from the post-collision moment for output. */
TESS_HD TESS_INLINE void TESS_FN(tess_velocity)(const tess_params_t *p, int fluid, int use_force, R rho, R jx, R jy,
                                                 R jz, R shift_sign, R *u)
{
    if (use_force) {
        jx += shift_sign * (R)0.5 * (R)p->force[0];
        jy += shift_sign * (R)0.5 * (R)p->force[1];
        jz += shift_sign * (R)0.5 * (R)p->force[2];
    }
    if (fluid == TESS_FLUID_QUASI_COMPRESSIBLE) {
        const R inv = (R)1 / rho;
        u[0] = jx * inv;
        u[1] = jy * inv;
        u[2] = jz * inv;
    } else {
        u[0] = jx;
        u[1] = jy;
        u[2] = jz;
    }
}

/* Guo et al. (2002) source term without its relaxation prefactor: w_i [3 (c_i - u) + 9 (c_i . u) c_i] . F */
TESS_HD TESS_INLINE void TESS_FN(tess_guo_source)(const tess_params_t *p, const R *u, R *src)
{
    const int cx[19] = TESS_D3Q19_CX, cy[19] = TESS_D3Q19_CY, cz[19] = TESS_D3Q19_CZ;
    const int w36[19] = TESS_D3Q19_W36;
    const R Fx = (R)p->force[0], Fy = (R)p->force[1], Fz = (R)p->force[2];
    const R uF = u[0] * Fx + u[1] * Fy + u[2] * Fz;
    TESS_UNROLL
    for (int i = 0; i < 19; i++) {
        const R w = (R)w36[i] / (R)36;
        const R cF = TESS_FN(tess_cdot)(cx[i], cy[i], cz[i], Fx, Fy, Fz);
        const R cu = TESS_FN(tess_cdot)(cx[i], cy[i], cz[i], u[0], u[1], u[2]);
        src[i] = w * ((R)3 * (cF - uF) + (R)9 * cu * cF);
    }
}

/* LBGK (tile paper eq. 7) with optional Guo forcing, in place. */
TESS_HD TESS_INLINE void TESS_FN(tess_collide_lbgk)(const tess_params_t *p, int fluid, int use_force, R *f, R rho,
                                                     const R *u)
{
    R feq[19];
    TESS_FN(tess_equilibrium)(fluid, rho, u[0], u[1], u[2], feq);
    const R omega = (R)1 / (R)p->tau;
    if (use_force) {
        R src[19];
        TESS_FN(tess_guo_source)(p, u, src);
        const R pre = (R)1 - (R)0.5 * omega;
        TESS_UNROLL
        for (int i = 0; i < 19; i++)
            f[i] = f[i] - omega * (f[i] - feq[i]) + pre * src[i];
    } else {
        TESS_UNROLL
        for (int i = 0; i < 19; i++)
            f[i] = f[i] - omega * (f[i] - feq[i]);
    }
}

/* Equilibrium moments of d'Humieres et al. (2002); rho0 = 1 for the incompressible model, rho otherwise. */
TESS_HD TESS_INLINE void TESS_FN(tess_mrt_equilibrium)(const tess_params_t *p, int fluid, R rho, R jx, R jy, R jz,
                                                        R *meq)
{
    const R inv = fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? (R)1 / rho : (R)1;
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
}

/* MRT (tile paper eq. 8) in d'Humieres' moment space, Guo forcing as (I - S/2) M S, in place. */
TESS_HD TESS_INLINE void TESS_FN(tess_collide_mrt)(const tess_params_t *p, int fluid, int use_force, R *f, R rho,
                                                    const R *u)
{
    const int M[19][19] = TESS_D3Q19_MRT_M;
    const int norm[19] = TESS_D3Q19_MRT_NORM;
    R m[19], meq[19], src_m[19];
    TESS_UNROLL
    for (int k = 0; k < 19; k++)
        m[k] = TESS_FN(tess_int_row_dot)(M[k], f, 19);
    const R jx = fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? rho * u[0] : u[0];
    const R jy = fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? rho * u[1] : u[1];
    const R jz = fluid == TESS_FLUID_QUASI_COMPRESSIBLE ? rho * u[2] : u[2];
    TESS_FN(tess_mrt_equilibrium)(p, fluid, rho, jx, jy, jz, meq);
    if (use_force) {
        R src[19];
        TESS_FN(tess_guo_source)(p, u, src);
        TESS_UNROLL
        for (int k = 0; k < 19; k++)
            src_m[k] = TESS_FN(tess_int_row_dot)(M[k], src, 19);
    }
    TESS_UNROLL
    for (int k = 0; k < 19; k++) {
        const R s = (R)p->s[k];
        R mk = m[k] - s * (m[k] - meq[k]);
        if (use_force)
            mk += ((R)1 - (R)0.5 * s) * src_m[k];
        m[k] = mk / (R)norm[k];
    }
    TESS_UNROLL
    for (int i = 0; i < 19; i++) {
        int col[19];
        TESS_UNROLL
        for (int k = 0; k < 19; k++)
            col[k] = M[k][i];
        f[i] = TESS_FN(tess_int_row_dot)(col, m, 19);
    }
}

/* Zou & He (1997) on a plane with outward normal (axis, sign), in the general D3Q19 form with the
 * transverse-momentum correction (Hecht & Harting 2010). Unknown populations are those entering the
 * domain (c . n = -1); whatever the gather left there is replaced. The body force is not included. */
TESS_HD TESS_INLINE void TESS_FN(tess_zou_he)(const tess_params_t *p, const tess_material_t *m, R *f)
{
    const int cx[19] = TESS_D3Q19_CX, cy[19] = TESS_D3Q19_CY, cz[19] = TESS_D3Q19_CZ;
    const int w36[19] = TESS_D3Q19_W36;
    const int a = m->axis, sg = m->sign;
    R sum_tan = (R)0, sum_out = (R)0, tan_mom[3] = {(R)0, (R)0, (R)0};
    TESS_UNROLL
    for (int i = 0; i < 19; i++) {
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
    for (int i = 0; i < 19; i++) {
        const int c[3] = {cx[i], cy[i], cz[i]};
        if (c[a] * sg >= 0)
            continue;
        const R w6 = (R)w36[i] / (R)6;
        R v = f[TESS_D3Q19_OPP(i)] + w6 * TESS_FN(tess_cdot)(cx[i], cy[i], cz[i], j[0], j[1], j[2]);
        for (int t = 0; t < 3; t++)
            if (t != a && c[t])
                v = c[t] > 0 ? v - nt[t] : v + nt[t];
        f[i] = v;
    }
}

/* Pull of direction i at a wet node whose upstream neighbour (x - c_i) is solid: halfway bounce-back of
 * the node's own post-collision f_opp(i), plus the wall momentum 6 w_i rho_w (c_i . u_w) with rho_w = 1
 * (Ladd 1994) when the wall moves. */
TESS_HD TESS_INLINE R TESS_FN(tess_bounce_back)(int i, R f_self_opp, const tess_material_t *wall)
{
    if (wall->kind != TESS_NODE_WALL)
        return f_self_opp;
    const int cx[19] = TESS_D3Q19_CX, cy[19] = TESS_D3Q19_CY, cz[19] = TESS_D3Q19_CZ;
    const int w36[19] = TESS_D3Q19_W36;
    const R w6 = (R)w36[i] / (R)6;
    return f_self_opp + w6 * TESS_FN(tess_cdot)(cx[i], cy[i], cz[i], (R)wall->u[0], (R)wall->u[1], (R)wall->u[2]);
}

#include "tess_moments_t.h" /* regularized collision, moment representation, finite-difference boundary */

/* Moments and collision of a node whose populations are complete. The model choices are arguments (normally
 * p->collision, p->fluid, p->use_force) so that a backend may pass constants and let the compiler specialise
 * a loop for one model: the CPU's SIMD loops need branch-free bodies. */
TESS_HD TESS_INLINE void TESS_FN(tess_collide_model)(const tess_params_t *p, int collision, int fluid, int use_force,
                                                     R *f)
{
    if (collision == TESS_COLLISION_REGULARIZED) {
        TESS_FN(tess_collide_regularized)(p, fluid, use_force, f);
        return;
    }
    R rho, jx, jy, jz, u[3];
    TESS_FN(tess_raw_moments)(f, &rho, &jx, &jy, &jz);
    TESS_FN(tess_velocity)(p, fluid, use_force, rho, jx, jy, jz, (R)1, u);
    if (collision == TESS_COLLISION_MRT)
        TESS_FN(tess_collide_mrt)(p, fluid, use_force, f, rho, u);
    else
        TESS_FN(tess_collide_lbgk)(p, fluid, use_force, f, rho, u);
}

/* The whole local update of a wet node after the gather: boundary reconstruction, moments, collision.
 * f holds the pulled populations and receives the post-collision ones. */
TESS_HD TESS_INLINE void TESS_FN(tess_node_collide)(const tess_params_t *p, const tess_material_t *m, R *f)
{
    if (m->kind == TESS_NODE_VELOCITY || m->kind == TESS_NODE_PRESSURE)
        TESS_FN(tess_zou_he)(p, m, f);
    TESS_FN(tess_collide_model)(p, p->collision, p->fluid, p->use_force, f);
}

/* tess_node_collide with the finite-difference boundary available: S is the strain rate of the node
 * (tess_fd_strain, from a pre-pass over the velocities of the state at the start of the step); it is read
 * only when the node's material selects method TESS_BC_FINITE_DIFFERENCE. */
TESS_HD TESS_INLINE void TESS_FN(tess_node_update)(const tess_params_t *p, const tess_material_t *m, const R *S, R *f)
{
    if (m->kind == TESS_NODE_VELOCITY || m->kind == TESS_NODE_PRESSURE) {
        if (m->method == TESS_BC_FINITE_DIFFERENCE)
            TESS_FN(tess_fd_boundary)(p, m, p->fluid, S, f);
        else
            TESS_FN(tess_zou_he)(p, m, f);
    }
    TESS_FN(tess_collide_model)(p, p->collision, p->fluid, p->use_force, f);
}

/* Density and velocity of the stored (post-collision) state: the momentum carries +F/2 after a
 * Guo-forced collision, which the output removes. */
TESS_HD TESS_INLINE void TESS_FN(tess_macroscopic)(const tess_params_t *p, const R *f, R *rho, R *u)
{
    R jx, jy, jz;
    TESS_FN(tess_raw_moments)(f, rho, &jx, &jy, &jz);
    TESS_FN(tess_velocity)(p, p->fluid, p->use_force, *rho, jx, jy, jz, (R)-1, u);
}

#undef R
