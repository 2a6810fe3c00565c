/* The per-node step of the engine, once for every lattice and precision. Do not include
 * directly: tess_q_step.h instantiates it through tess_instantiate_q.h. */

#define R TESS_R

/* Index of the slot that holds f*_j of node (x, y, z) of tile k under convention conv (tess_q_step.h). */
TESS_HD TESS_INLINE int64_t TESS_QFN(tess_q_slot)(const tess_q_grid_t *g, const tess_params_t *p, int conv, int32_t k,
                                                  int x, int y, int z, int j)
{
    if (conv == TESS_Q_SWAPPED && j != 0) {
        const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
        const int opp[TESS_QL_Q] = TESS_QL_OPP;
        int x2 = x, y2 = y, z2 = z;
        const int32_t k2 = tess_q_grid_move(g, k, &x2, &y2, &z2, cx[j], cy[j], cz[j]);
        if (k2 >= 0 && tess_q_kind_is_wet(p->mat[tess_q_grid_type(g, k2, x2, y2, z2)].kind))
            return tess_pop_index(g->pop, TESS_QL_Q, k2, opp[j], tess_q_grid_local(g, x2, y2, z2));
    }
    return tess_pop_index(g->pop, TESS_QL_Q, k, j, tess_q_grid_local(g, x, y, z));
}

#if TESS_QL_Q != 13
/* Moment representation (pattern mr): per tile, per stored moment s, 64 values at (k * nm + s) * 64 + local.
 * 3D lattices store the ten TESS_MR_* moments, D2Q9 six (rho, jx, jy, pxx, pyy, pxy); the z slots come back as
 * the values the D2Q9 collision leaves in them, so that the rebuild is the same. */
TESS_HD TESS_INLINE int TESS_QFN(tess_q_mr_count)(void)
{
    return TESS_QL_D == 2 ? 6 : TESS_MR_NM;
}

TESS_HD TESS_INLINE void TESS_QFN(tess_q_mr_load)(const R *ms, int32_t k, int local, R *m)
{
#if TESS_QL_D == 2
    const int slot[6] = {TESS_MR_RHO, TESS_MR_JX, TESS_MR_JY, TESS_MR_PXX, TESS_MR_PYY, TESS_MR_PXY};
    TESS_UNROLL
    for (int s = 0; s < 6; s++)
        m[slot[s]] = ms[((int64_t)k * 6 + s) * 64 + local];
    m[TESS_MR_JZ] = (R)0;
    m[TESS_MR_PZZ] = m[TESS_MR_RHO] * (R)(1.0 / 3.0);
    m[TESS_MR_PXZ] = (R)0;
    m[TESS_MR_PYZ] = (R)0;
#else
    TESS_UNROLL
    for (int s = 0; s < TESS_MR_NM; s++)
        m[s] = ms[((int64_t)k * TESS_MR_NM + s) * 64 + local];
#endif
}

TESS_HD TESS_INLINE void TESS_QFN(tess_q_mr_store)(R *ms, int32_t k, int local, const R *m)
{
#if TESS_QL_D == 2
    const int slot[6] = {TESS_MR_RHO, TESS_MR_JX, TESS_MR_JY, TESS_MR_PXX, TESS_MR_PYY, TESS_MR_PXY};
    TESS_UNROLL
    for (int s = 0; s < 6; s++)
        ms[((int64_t)k * 6 + s) * 64 + local] = m[slot[s]];
#else
    TESS_UNROLL
    for (int s = 0; s < TESS_MR_NM; s++)
        ms[((int64_t)k * TESS_MR_NM + s) * 64 + local] = m[s];
#endif
}
#endif

/* f*_j of node (x, y, z) of tile k: read from the populations f through convention conv, or, in the moment
 * representation (ms != NULL), rebuilt from the node's stored post-collision moments with the Hermite
 * expansion of the regularized collision: the value an AB run of that collision stores there, bit for bit. */
TESS_HD TESS_INLINE R TESS_QFN(tess_q_load)(const tess_q_grid_t *g, const tess_params_t *p, const R *f, const R *ms,
                                            int conv, int32_t k, int x, int y, int z, int j)
{
#if TESS_QL_Q != 13
    if (ms) {
        R m[TESS_MR_NM], h[TESS_MR_NH];
        TESS_QFN(tess_q_mr_load)(ms, k, tess_q_grid_local(g, x, y, z), m);
        TESS_QPFN(tess_mr_coeffs)(m, h);
        return TESS_QFN(tess_q_hermite_population)(j, h);
    }
#else
    (void)ms;
#endif
    return f[TESS_QFN(tess_q_slot)(g, p, conv, k, x, y, z, j)];
}

/* The incoming f_i of wet node (x, y, z) of tile k across a curved-wall link: its upstream x - c_i is not wet
 * and the wall lies at fraction q (>= 0, the link's tess_link_t.q) of the link towards -c_i. The value is
 * tess_q_pull_from's for that direction (which calls it), so that a backend may pull a tile without node types and
 * apply its curved links afterwards as fix-ups. ms: the moment representation's stored moments, or NULL. */
TESS_HD TESS_INLINE R TESS_QFN(tess_q_pull_link_from)(const tess_params_t *p, const tess_q_grid_t *g, const R *f,
                                                      const R *ms, int conv, int32_t k, int x, int y, int z, int i,
                                                      double q)
{
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    const int opp[TESS_QL_Q] = TESS_QL_OPP;
    int ux = x, uy = y, uz = z;
    const int32_t ku = tess_q_grid_move(g, k, &ux, &uy, &uz, -cx[i], -cy[i], -cz[i]);
    const tess_material_t *up = &p->mat[tess_q_grid_type(g, ku, ux, uy, uz)];
    const R fb = TESS_QFN(tess_q_load)(g, p, f, ms, conv, k, x, y, z, opp[i]);
    const R fi = TESS_QFN(tess_q_load)(g, p, f, ms, conv, k, x, y, z, i);
    int x1 = x, y1 = y, z1 = z;
    const int32_t k1 = tess_q_grid_move(g, k, &x1, &y1, &z1, cx[i], cy[i], cz[i]);
    const int have1 = tess_q_kind_is_wet(p->mat[tess_q_grid_type(g, k1, x1, y1, z1)].kind);
    R fb1 = (R)0, fi1 = (R)0, fb2 = (R)0;
    int have2 = 0;
    if (have1) {
        fb1 = TESS_QFN(tess_q_load)(g, p, f, ms, conv, k1, x1, y1, z1, opp[i]);
        fi1 = TESS_QFN(tess_q_load)(g, p, f, ms, conv, k1, x1, y1, z1, i);
        if (p->wall == TESS_WALL_BOUZIDI_QUADRATIC) {
            int x2 = x1, y2 = y1, z2 = z1;
            const int32_t k2 = tess_q_grid_move(g, k1, &x2, &y2, &z2, cx[i], cy[i], cz[i]);
            have2 = tess_q_kind_is_wet(p->mat[tess_q_grid_type(g, k2, x2, y2, z2)].kind);
            if (have2)
                fb2 = TESS_QFN(tess_q_load)(g, p, f, ms, conv, k2, x2, y2, z2, opp[i]);
        }
    }
    return TESS_QFN(tess_q_bouzidi)(p->wall == TESS_WALL_BOUZIDI_QUADRATIC ? 2 : 1, (R)q, fb, fi, fb1, fb2, fi1, have1,
                                    have2, TESS_QFN(tess_q_wall_term)(i, up));
}

/* tess_q_pull_link_from on populations (AB and AA). */
TESS_HD TESS_INLINE R TESS_QFN(tess_q_pull_link)(const tess_params_t *p, const tess_q_grid_t *g, const R *f, int conv,
                                                 int32_t k, int x, int y, int z, int i, double q)
{
    return TESS_QFN(tess_q_pull_link_from)(p, g, f, (const R *)0, conv, k, x, y, z, i, q);
}

/* Incoming populations of wet node (x, y, z) of tile k: f_i = f*_i(x - c_i) when that node is wet, otherwise
 * the wall rule: halfway bounce-back (with the wall's velocity), or Bouzidi when p->wall asks for it and the
 * node's link list (links[0 .. nlinks), the node's entries of tess_links_t) has the link towards -c_i. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_pull_from)(const tess_params_t *p, const tess_q_grid_t *g, const R *f,
                                                    const R *ms, int conv, int32_t k, int x, int y, int z,
                                                    const tess_link_t *links, int nlinks, R *out)
{
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    const int opp[TESS_QL_Q] = TESS_QL_OPP;
    out[0] = TESS_QFN(tess_q_load)(g, p, f, ms, conv, k, x, y, z, 0);
    for (int i = 1; i < TESS_QL_Q; i++) {
        int ux = x, uy = y, uz = z;
        const int32_t ku = tess_q_grid_move(g, k, &ux, &uy, &uz, -cx[i], -cy[i], -cz[i]);
        const tess_material_t *up = &p->mat[tess_q_grid_type(g, ku, ux, uy, uz)];
        if (tess_q_kind_is_wet(up->kind)) {
            out[i] = TESS_QFN(tess_q_load)(g, p, f, ms, conv, ku, ux, uy, uz, i);
            continue;
        }
        const R fb = TESS_QFN(tess_q_load)(g, p, f, ms, conv, k, x, y, z, opp[i]);
        double q = -1.0;
        if (p->wall != TESS_WALL_BOUNCE_BACK)
            for (int l = 0; l < nlinks; l++)
                if (links[l].dir == opp[i])
                    q = links[l].q;
        if (q < 0.0) {
            out[i] = TESS_QFN(tess_q_bounce_back)(i, fb, up);
            continue;
        }
        out[i] = TESS_QFN(tess_q_pull_link_from)(p, g, f, ms, conv, k, x, y, z, i, q);
    }
}

/* tess_q_pull_from on populations (AB and AA). */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_pull)(const tess_params_t *p, const tess_q_grid_t *g, const R *f, int conv,
                                               int32_t k, int x, int y, int z, const tess_link_t *links, int nlinks,
                                               R *out)
{
    TESS_QFN(tess_q_pull_from)(p, g, f, (const R *)0, conv, k, x, y, z, links, nlinks, out);
}

/* Lattice direction d from an open-boundary node to the fluid neighbour used for extrapolation: the one
 * closest to the inward normal -n among the wet neighbours (largest cosine; the lowest index on a tie);
 * -1 when no wet neighbour lies inward. */
TESS_HD TESS_INLINE int TESS_QFN(tess_q_inward)(const tess_params_t *p, const tess_q_grid_t *g, const tess_material_t *m,
                                                int32_t k, int x, int y, int z)
{
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    int best = -1;
    double best_d = 0.0, best_c2 = 1.0;
    for (int i = 1; i < TESS_QL_Q; i++) {
        const double d = -(cx[i] * m->normal[0] + cy[i] * m->normal[1] + cz[i] * m->normal[2]);
        const double c2 = (double)(cx[i] * cx[i] + cy[i] * cy[i] + cz[i] * cz[i]);
        if (d <= 1e-12 || (best >= 0 && d * d * best_c2 <= best_d * best_d * c2 * (1.0 + 1e-12)))
            continue;
        int x1 = x, y1 = y, z1 = z;
        const int32_t k1 = tess_q_grid_move(g, k, &x1, &y1, &z1, cx[i], cy[i], cz[i]);
        if (!tess_q_kind_is_wet(p->mat[tess_q_grid_type(g, k1, x1, y1, z1)].kind))
            continue;
        best = i;
        best_d = d;
        best_c2 = c2;
    }
    return best;
}

#if TESS_QL_Q != 13
/* ---- The finite-difference velocity-gradient inlet/outlet (method fd; not D3Q13) ----------------------------
 * Boundaries as data: a backend lists its fd nodes, runs tess_q_fd_strain over that list at the start of every
 * step (every node's strain rate from the velocities of the state the step starts from, so the gradients lag
 * the populations by one step in every pattern and representation alike; a steady state is unaffected), and
 * passes each node's S to the gather (tess_q_gather_from), which closes the node with tess_q_fd_boundary. S is
 * computed in double whatever the precision of the state. */

/* Velocity of wet node (x, y, z) of tile k in the state a step starts from (without the Guo half force): its
 * post-collision populations f*_j read through convention conv, or its stored moments ms. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_fd_velocity)(const tess_params_t *p, const tess_q_grid_t *g, const R *f,
                                                      const R *ms, int conv, int32_t k, int x, int y, int z,
                                                      double u[3])
{
    if (ms) {
        R m[TESS_MR_NM];
        TESS_QFN(tess_q_mr_load)(ms, k, tess_q_grid_local(g, x, y, z), m);
        tess_velocity_f64(p, p->fluid, p->use_force, (double)m[TESS_MR_RHO], (double)m[TESS_MR_JX],
                          (double)m[TESS_MR_JY], (double)m[TESS_MR_JZ], -1.0, u);
#if TESS_QL_D == 2
        u[2] = 0.0;
#endif
        return;
    }
    double fj[TESS_QL_Q], rho;
    for (int j = 0; j < TESS_QL_Q; j++)
        fj[j] = (double)f[TESS_QFN(tess_q_slot)(g, p, conv, k, x, y, z, j)];
    TESS_QCAT3(tess_q_macroscopic, TESS_QL, f64)(p, fj, &rho, u);
}

/* The pre-pass of one fd node (x, y, z) of tile k: its strain rate S (xx, yy, zz, xy, xz, yz; tess_fd_strain)
 * from the velocities of the node, its wet neighbours at -+e_d and the node two steps inwards along its normal
 * (a flat lattice has no z neighbours). f, ms, conv: as tess_q_fd_velocity. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_fd_strain)(const tess_params_t *p, const tess_q_grid_t *g, const R *f,
                                                    const R *ms, int conv, int32_t k, int x, int y, int z,
                                                    double S[6])
{
    const tess_material_t *m = &p->mat[tess_q_grid_type(g, k, x, y, z)];
    double u[8][3] = {{0.0, 0.0, 0.0}};
    int have[8];
    for (int s = 0; s < 8; s++) {
        int d[3] = {0, 0, 0};
        if (s == 7)
            d[m->axis] = -2 * m->sign;
        else if (s > 0)
            d[(s - 1) / 2] = s % 2 ? -1 : 1;
        int x1 = x, y1 = y, z1 = z;
        int32_t k1 = k;
        if (s > 0)
            k1 = tess_q_grid_move(g, k, &x1, &y1, &z1, d[0], d[1], d[2]);
        have[s] = s == 0 || ((TESS_QL_D == 3 || d[2] == 0) &&
                             tess_q_kind_is_wet(p->mat[tess_q_grid_type(g, k1, x1, y1, z1)].kind));
        if (have[s])
            TESS_QFN(tess_q_fd_velocity)(p, g, f, ms, conv, k1, x1, y1, z1, u[s]);
    }
    tess_fd_strain_f64(m->axis, m->sign, (const double(*)[3])u, have, S);
}
#endif

#if TESS_QL_IS_D3Q19
/* The Zou-He reconstruction of a D3Q19 inlet/outlet plane node at a step, on its pulled populations f (in place):
 * the material's values, or with a waveform those of that step (uniform: Zou-He planes have no profile). Only
 * the node's own populations enter, so a backend may apply it after any pull (the GPU's plain sweep). */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_zou_he_plane)(const tess_params_t *p, const tess_material_t *m, int64_t step,
                                                       R *f)
{
    if (m->waveform == 0) {
        TESS_QPFN(tess_zou_he)(p, m, f);
        return;
    }
    tess_material_t now = *m;
    const double w = tess_inlet_factor(p, m, step);
    for (int a = 0; a < 3; a++)
        now.u[a] = w * m->u[a];
    now.rho = tess_outlet_density(p, m, step);
    TESS_QPFN(tess_zou_he)(p, &now, f);
}
#endif

/* All incoming populations of wet node (x, y, z) of tile k, boundaries included: the pull, then for an inlet
 * or outlet its reconstruction (non-equilibrium extrapolation from the inward neighbour's pull, whose walls
 * are plain halfway; Zou-He planes on D3Q19 only; the finite-difference closure with the node's strain rate S
 * from tess_q_fd_strain, read only for a node whose method is fd: NULL leaves the closure out, for callers that
 * only want the pulled populations). */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_gather_from)(const tess_params_t *p, const tess_q_grid_t *g, const R *f,
                                                      const R *ms, int conv, int32_t k, int x, int y, int z,
                                                      const tess_link_t *links, int nlinks, const double *S, R *out)
{
    TESS_QFN(tess_q_pull_from)(p, g, f, ms, conv, k, x, y, z, links, nlinks, out);
    const tess_material_t *m = &p->mat[tess_q_grid_type(g, k, x, y, z)];
    if (m->kind != TESS_NODE_VELOCITY && m->kind != TESS_NODE_PRESSURE)
        return;
#if TESS_QL_Q != 13
    if (m->method == TESS_BC_FINITE_DIFFERENCE) {
        if (S) {
            const R s[6] = {(R)S[0], (R)S[1], (R)S[2], (R)S[3], (R)S[4], (R)S[5]};
            TESS_QFN(tess_q_fd_boundary)(p, m, p->fluid, s, out);
        }
        return;
    }
#else
    (void)S;
#endif
    if (m->method == TESS_BC_NEE) {
        const int d = TESS_QFN(tess_q_inward)(p, g, m, k, x, y, z);
        if (d < 0)
            return;
        const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
        int x1 = x, y1 = y, z1 = z;
        const int32_t k1 = tess_q_grid_move(g, k, &x1, &y1, &z1, cx[d], cy[d], cz[d]);
        R fn[TESS_QL_Q];
        TESS_QFN(tess_q_pull_from)(p, g, f, ms, conv, k1, x1, y1, z1, links, 0, fn);
        double u_in[3] = {0.0, 0.0, 0.0}, rho_in = 1.0;
        if (m->kind == TESS_NODE_VELOCITY) {
            const int32_t *c = g->corner + 3 * (int64_t)k;
            tess_inlet_velocity(p, m, c[0] + x, c[1] + y, c[2] + z, g->step, u_in);
        } else {
            rho_in = tess_outlet_density(p, m, g->step);
        }
        TESS_QFN(tess_q_nee)(p, m, u_in, rho_in, fn, out);
        return;
    }
#if TESS_QL_IS_D3Q19
    if (m->method == TESS_BC_ZOU_HE)
        TESS_QFN(tess_q_zou_he_plane)(p, m, g->step, out);
#endif
}

/* tess_q_gather_from on populations (AB and AA), without the finite-difference closure (S NULL). */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_gather)(const tess_params_t *p, const tess_q_grid_t *g, const R *f, int conv,
                                                 int32_t k, int x, int y, int z, const tess_link_t *links, int nlinks,
                                                 R *out)
{
    TESS_QFN(tess_q_gather_from)(p, g, f, (const R *)0, conv, k, x, y, z, links, nlinks, (const double *)0, out);
}

/* The whole update of a wet node: gather with boundaries (S: the node's strain rate when its method is fd,
 * tess_q_fd_strain; else unused), then the bulk collision of tess_physics_q.h. out receives the node's
 * post-collision populations. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_node_step_fd)(const tess_params_t *p, const tess_q_grid_t *g, const R *f,
                                                       int conv, int32_t k, int x, int y, int z,
                                                       const tess_link_t *links, int nlinks, const double *S, R *out)
{
    TESS_QFN(tess_q_gather_from)(p, g, f, (const R *)0, conv, k, x, y, z, links, nlinks, S, out);
    TESS_QFN(tess_q_collide)(p, out);
}

/* tess_q_node_step_fd for a node without the finite-difference method. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_node_step)(const tess_params_t *p, const tess_q_grid_t *g, const R *f,
                                                    int conv, int32_t k, int x, int y, int z, const tess_link_t *links,
                                                    int nlinks, R *out)
{
    TESS_QFN(tess_q_node_step_fd)(p, g, f, conv, k, x, y, z, links, nlinks, (const double *)0, out);
}

#if TESS_QL_Q != 13
/* The update of a wet node in the moment representation (regularized collision only): gather through the
 * stored moments ms (S as in tess_q_node_step_fd), the moments of the incoming populations and their
 * moment-space collision. mout receives the node's post-collision moments (TESS_MR_* order), the ones whose
 * rebuild an AB run would store. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_node_step_mr_fd)(const tess_params_t *p, const tess_q_grid_t *g,
                                                          const R *ms, int32_t k, int x, int y, int z,
                                                          const tess_link_t *links, int nlinks, const double *S,
                                                          R *mout)
{
    R f[TESS_QL_Q];
    TESS_QFN(tess_q_gather_from)(p, g, (const R *)0, ms, TESS_Q_CANON, k, x, y, z, links, nlinks, S, f);
    TESS_QFN(tess_q_hermite_moments)(f, mout);
    TESS_QFN(tess_q_moment_collide)(p, p->fluid, p->use_force, mout);
}

/* tess_q_node_step_mr_fd for a node without the finite-difference method. */
TESS_HD TESS_INLINE void TESS_QFN(tess_q_node_step_mr)(const tess_params_t *p, const tess_q_grid_t *g, const R *ms,
                                                       int32_t k, int x, int y, int z, const tess_link_t *links,
                                                       int nlinks, R *mout)
{
    TESS_QFN(tess_q_node_step_mr_fd)(p, g, ms, k, x, y, z, links, nlinks, (const double *)0, mout);
}
#endif

#undef R
