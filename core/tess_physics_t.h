/* The lattice-free part of the per-node physics, in one precision: c . v, integer row sums, the velocity with
 * the Guo half-force shift, and (tess_moments_t.h) the moment-space regularized collision and the
 * finite-difference boundary's strain and moments. Every lattice's equilibria, moments, collisions and
 * boundary rules are in tess_physics_q_t.h, which calls these.
 * Do not include directly: tess_physics.h includes this file once per precision with
 *   TESS_R       the floating-point type (double or float)
 *   TESS_FN(n)   the name of a function in that precision (n##_f64 or n##_f32)
 * defined. Every function is TESS_HD inline, so it compiles as C on the host and as device code under
 * nvcc and hipcc. Sums run in a fixed order and no operation depends on the compiler's choices, so
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

#include "tess_moments_t.h" /* moment-space regularized collision, finite-difference boundary */

#undef R
