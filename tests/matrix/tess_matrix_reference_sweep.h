/* One AB sweep of the per-node reference (tess_matrix_reference.c), for every lattice and precision. Do not
 * include directly: tess_matrix_reference.c instantiates it through tess_instantiate_q.h. */

#define R TESS_R

static void TESS_QFN(tmr_sweep)(const tess_params_t *p, const tess_q_grid_t *g, int32_t ntiles,
                                const tess_link_t *links, const int64_t *node_link, const uint8_t *node_nlink,
                                const R *src, R *dst)
{
    for (int32_t k = 0; k < ntiles; k++)
        for (int n = 0; n < 64; n++) {
            const int64_t node = 64 * (int64_t)k + n;
            if (!tess_q_kind_is_wet(p->mat[g->node_type[node]].kind))
                continue;
            const int x = n % g->ex, y = (n / g->ex) % g->ey, z = n / (g->ex * g->ey);
            R out[TESS_QL_Q];
            const tess_link_t *own = links ? links + node_link[node] : links;
            const int nown = links ? node_nlink[node] : 0;
#if TESS_QL_Q != 13
            /* An fd node: its strain rate from the state the step starts from, then the node with the closure. */
            const tess_material_t *m = &p->mat[g->node_type[node]];
            if ((m->kind == TESS_NODE_VELOCITY || m->kind == TESS_NODE_PRESSURE) &&
                m->method == TESS_BC_FINITE_DIFFERENCE) {
                double S[6];
                TESS_QFN(tess_q_fd_strain)(p, g, src, (const R *)0, TESS_Q_CANON, k, x, y, z, S);
                TESS_QFN(tess_q_node_step_fd)(p, g, src, TESS_Q_CANON, k, x, y, z, own, nown, S, out);
            } else
#endif
                TESS_QFN(tess_q_node_step)(p, g, src, TESS_Q_CANON, k, x, y, z, own, nown, out);
            for (int i = 0; i < TESS_QL_Q; i++)
                dst[((int64_t)k * TESS_QL_Q + i) * 64 + n] = out[i];
        }
}

#undef R
