/* Wall and open-boundary physics for one node of any lattice, written once for every backend, lattice and
 * precision. Do not include directly: tess_boundary_q.h instantiates it through tess_instantiate_q.h. All
 * populations named f* are post-collision values of the previous step, so that the rules work in pull form
 * (a node computes its own incoming populations) and in every propagation pattern. */

#define R TESS_R

/* Momentum a moving wall gives a bounced population: 6 w_i rho_w (c_i . u_w) with rho_w = 1 (Ladd 1994), the
 * same term as the D3Q19 tess_bounce_back; zero for a resting wall. */
TESS_HD TESS_INLINE R TESS_QFN(tess_q_wall_term)(int i, const tess_material_t *wall)
{
    if (wall->kind != TESS_NODE_WALL)
        return (R)0;
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    const int w[TESS_QL_Q] = TESS_QL_W;
    const R w6 = (R)(6 * w[i]) / (R)(TESS_QL_WDEN);
    return w6 * ((R)cx[i] * (R)wall->u[0] + (R)cy[i] * (R)wall->u[1] + (R)cz[i] * (R)wall->u[2]);
}

/* Halfway bounce-back: the incoming f_i of a node whose upstream x - c_i is a wall is its own f*_opp(i). */
TESS_HD TESS_INLINE R TESS_QFN(tess_q_bounce_back)(int i, R f_self_opp, const tess_material_t *wall)
{
    return f_self_opp + TESS_QFN(tess_q_wall_term)(i, wall);
}

/* Interpolated bounce-back (Bouzidi, Firdaouss & Lallemand 2001, eqs. 5-6 and their quadratic forms) for the
 * incoming f_i at node x whose link towards the wall is -c_i, the wall at fraction q of that link. Inputs:
 *   fb  = f*_opp(i)(x)           the population that hits the wall
 *   fi  = f*_i(x)                the node's own population leaving the wall
 *   fb1 = f*_opp(i)(x + c_i)     fb2 = f*_opp(i)(x + 2 c_i)     fi1 = f*_i(x + c_i)
 * have1, have2: whether x + c_i and x + 2 c_i are wet (a thin gap has no second node: the rule falls back to
 * linear, then to halfway, so that it never reads a wall node). order: 1 linear, 2 quadratic. For q < 1/2 the
 * population that ends at x after reflection started between nodes (interpolated before the wall); for
 * q >= 1/2 it ends between x and the wall and the value at x is interpolated afterwards with the outgoing
 * populations. The wall term (moving wall) enters with the weight its point carries in that interpolation
 * (1 for q < 1/2; 1/(2q) linear, 1/(q (2q + 1)) quadratic for q >= 1/2; Lallemand & Luo 2003). */
TESS_HD TESS_INLINE R TESS_QFN(tess_q_bouzidi)(int order, R q, R fb, R fi, R fb1, R fb2, R fi1, int have1, int have2,
                                               R wall)
{
    const R two_q = (R)2 * q;
    if (q < (R)0.5) {
        if (order == 2 && have1 && have2)
            return q * (two_q + (R)1) * fb + ((R)1 + two_q) * ((R)1 - two_q) * fb1 - q * ((R)1 - two_q) * fb2 + wall;
        if (have1)
            return two_q * fb + ((R)1 - two_q) * fb1 + wall;
        return fb + wall;
    }
    if (order == 2 && have1) {
        const R a = (R)1 / (q * (two_q + (R)1));
        return a * (fb + wall) + (two_q - (R)1) / q * fi + ((R)1 - two_q) / ((R)1 + two_q) * fi1;
    }
    const R a = (R)1 / two_q;
    return a * (fb + wall) + (two_q - (R)1) * a * fi;
}

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

#undef R
