/* The link slots of one lattice and precision (tess_link_slots.h instantiates it through tess_instantiate_q.h). */

#define R TESS_R

/* The slot of `link`, a link of tile k: tess_q_pull_link_from's choice of data, once (order 2 reads x + 2 c_i only
 * when x + c_i is wet; a missing node falls back as there). Both precisions' wall terms, so that one slot array
 * serves either. */
TESS_HD TESS_INLINE void TESS_QFN(tess_link_slot_fill)(const tess_params_t *p, const tess_q_grid_t *g, int32_t k,
                                                       const tess_link_t *link, tess_link_slot_t *s)
{
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    const int opp[TESS_QL_Q] = TESS_QL_OPP;
    const int n = link->node, i = opp[link->dir];
    const int x = n % g->ex, y = (n / g->ex) % g->ey, z = n / (g->ex * g->ey);
    s->q = link->q;
    s->n1 = s->n2 = -1;
    s->i = (uint8_t)TESS_LINK_NONE;
    s->kd = (uint8_t)link->dir;
    s->up = 0;
    s->node = (uint8_t)n;
    s->wall64 = 0.0;
    s->wall32 = 0.0f;
    int ux = x, uy = y, uz = z;
    const int32_t ku = tess_q_grid_move(g, k, &ux, &uy, &uz, -cx[i], -cy[i], -cz[i]);
    const int up = tess_q_grid_type(g, ku, ux, uy, uz);
    if (tess_q_kind_is_wet(p->mat[up].kind))
        return;
    s->i = (uint8_t)i;
    s->up = (uint8_t)up;
    s->wall64 = TESS_QCAT3(tess_q_wall_term, TESS_QL, f64)(i, &p->mat[up]);
    s->wall32 = TESS_QCAT3(tess_q_wall_term, TESS_QL, f32)(i, &p->mat[up]);
    int x1 = x, y1 = y, z1 = z;
    const int32_t k1 = tess_q_grid_move(g, k, &x1, &y1, &z1, cx[i], cy[i], cz[i]);
    if (!tess_q_kind_is_wet(p->mat[tess_q_grid_type(g, k1, x1, y1, z1)].kind))
        return;
    s->n1 = 64 * k1 + tess_q_grid_local(g, x1, y1, z1);
    if (p->wall != TESS_WALL_BOUZIDI_QUADRATIC)
        return;
    int x2 = x1, y2 = y1, z2 = z1;
    const int32_t k2 = tess_q_grid_move(g, k1, &x2, &y2, &z2, cx[i], cy[i], cz[i]);
    if (tess_q_kind_is_wet(p->mat[tess_q_grid_type(g, k2, x2, y2, z2)].kind))
        s->n2 = 64 * k2 + tess_q_grid_local(g, x2, y2, z2);
}

/* f*_j of tile node m (64 tile + local): from the populations f (canonical slot, laid out as pop says), or rebuilt
 * from the node's stored moments ms (tess_q_load's Hermite rebuild). */
TESS_HD TESS_INLINE R TESS_QFN(tess_link_slot_load)(tess_pop_layout_t pop, const R *f, const R *ms, int64_t m, int j)
{
#if TESS_QL_Q != 13
    if (ms) {
        R mo[TESS_MR_NM], h[TESS_MR_NH];
        TESS_QFN(tess_q_mr_load)(ms, (int32_t)(m >> 6), (int)(m & 63), mo);
        TESS_QPFN(tess_mr_coeffs)(mo, h);
        return TESS_QFN(tess_q_hermite_population)(j, h);
    }
#else
    (void)ms;
#endif
    return f[tess_pop_index(pop, TESS_QL_Q, m >> 6, j, (int)(m & 63))];
}

/* The five populations the Bouzidi rule reads for the link of slot s (s->i != TESS_LINK_NONE) of tile k, as
 * tess_q_pull_link_from reads them, from the populations f (laid out as pop says) through convention conv or from
 * the moments ms (conv canonical): v = fb, fi, fb1, fb2, fi1 (tess_q_bouzidi; those the rule does not read are 0).
 * In the swapped convention f*_j(y) sits in slot opp(j) of y + c_j when that node is wet: x - c_i is dry, x + c_i
 * wet when n1 is set, x + 2 c_i when n2 is, so every read's slot follows from the slot alone. */
TESS_HD TESS_INLINE void TESS_QFN(tess_link_slot_loads)(int order, tess_pop_layout_t pop, const R *f, const R *ms,
                                                        int conv, int32_t k, const tess_link_slot_t *s, R v[5])
{
    const int i = s->i, kd = s->kd, sw = conv == TESS_Q_SWAPPED;
    const int have1 = s->n1 >= 0, have2 = s->n2 >= 0;
    const int64_t x = 64 * (int64_t)k + s->node, n1 = s->n1, n2 = s->n2;
    v[0] = TESS_QFN(tess_link_slot_load)(pop, f, ms, x, kd);
    v[1] = sw && have1 ? TESS_QFN(tess_link_slot_load)(pop, f, ms, n1, kd)
                       : TESS_QFN(tess_link_slot_load)(pop, f, ms, x, i);
    v[2] = v[3] = v[4] = (R)0;
    if (have1) {
        v[2] = sw ? TESS_QFN(tess_link_slot_load)(pop, f, ms, x, i) : TESS_QFN(tess_link_slot_load)(pop, f, ms, n1, kd);
        if (order == 2) { /* the linear rule does not read fi1 */
            v[4] = sw && have2 ? TESS_QFN(tess_link_slot_load)(pop, f, ms, n2, kd)
                               : TESS_QFN(tess_link_slot_load)(pop, f, ms, n1, i);
            if (have2)
                v[3] = sw ? TESS_QFN(tess_link_slot_load)(pop, f, ms, n1, i)
                          : TESS_QFN(tess_link_slot_load)(pop, f, ms, n2, kd);
        }
    }
}

/* The incoming f_i across the link of slot s of tile k: tess_q_pull_link_from's value, bit for bit
 * (tess_link_slot_loads, then the core's Bouzidi rule). */
TESS_HD TESS_INLINE R TESS_QFN(tess_link_slot_value)(const tess_params_t *p, tess_pop_layout_t pop, const R *f,
                                                     const R *ms, int conv, int32_t k, const tess_link_slot_t *s)
{
    const int order = p->wall == TESS_WALL_BOUZIDI_QUADRATIC ? 2 : 1;
    R v[5];
    TESS_QFN(tess_link_slot_loads)(order, pop, f, ms, conv, k, s, v);
    return TESS_QFN(tess_q_bouzidi)(order, (R)s->q, v[0], v[1], v[2], v[3], v[4], s->n1 >= 0, s->n2 >= 0,
                                    sizeof(R) == 8 ? (R)s->wall64 : (R)s->wall32);
}

#undef R
