/* The loops of the generic CPU engine for one lattice and precision (instantiated by cpu_q.c through
 * tess_instantiate_q.h). Every node's result depends only on the state before the step, so any thread count
 * and any tile order give the same bits. */

#define R TESS_R

/* Pre-pass (AA): the incoming populations of the special nodes, read before the sweep writes. */
static void TESS_QFN(cpu_q_prepass)(tess_cpu_q_t *be, const R *f, int conv)
{
    const tess_params_t *p = &be->params;
    const tess_q_grid_t *g = &be->grid;
    R *buf = (R *)be->buf;
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int64_t s = 0; s < be->nspecial; s++) {
        const int64_t node = be->special[s];
        const int32_t k = (int32_t)(node / 64);
        const int n = (int)(node % 64);
        const int x = n % g->ex, y = (n / g->ex) % g->ey, z = n / (g->ex * g->ey);
        TESS_QFN(tess_q_gather)(p, g, f, conv, k, x, y, z, be->links + be->node_link[node], be->node_nlink[node],
                                buf + s * TESS_QL_Q);
    }
}

/* One sweep: every wet node pulls from src through conv_in (or takes its pre-pass result when use_buf),
 * collides and writes to dst through conv_out. AB: src != dst, both canonical; AA: src == dst. */
static void TESS_QFN(cpu_q_sweep)(tess_cpu_q_t *be, const R *src, R *dst, int conv_in, int conv_out, int use_buf)
{
    const tess_params_t *p = &be->params;
    const tess_q_grid_t *g = &be->grid;
    const R *buf = (const R *)be->buf;
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int32_t k = 0; k < be->ntiles; k++) {
        if (be->tile_plain[k]) {
            for (int n = 0; n < 64; n++) {
                const int x = n % g->ex, y = (n / g->ex) % g->ey, z = n / (g->ex * g->ey);
                R fl[TESS_QL_Q];
                TESS_QFN(tess_q_pull_plain)(g, src, conv_in, k, x, y, z, fl);
                TESS_QFN(tess_q_collide)(p, fl);
                TESS_QFN(tess_q_store_plain)(g, dst, conv_out, k, x, y, z, fl);
            }
            continue;
        }
        for (int n = 0; n < 64; n++) {
            const int64_t node = 64 * (int64_t)k + n;
            if (!tess_q_kind_is_wet(p->mat[g->node_type[node]].kind))
                continue;
            const int x = n % g->ex, y = (n / g->ex) % g->ey, z = n / (g->ex * g->ey);
            R fl[TESS_QL_Q];
            const int32_t s = use_buf ? be->special_of_node[node] : -1;
            if (s >= 0) {
                for (int i = 0; i < TESS_QL_Q; i++)
                    fl[i] = buf[(int64_t)s * TESS_QL_Q + i];
                TESS_QFN(tess_q_collide)(p, fl);
            } else {
                TESS_QFN(tess_q_node_step)(p, g, src, conv_in, k, x, y, z, be->links + be->node_link[node],
                                           be->node_nlink[node], fl);
            }
            for (int i = 0; i < TESS_QL_Q; i++)
                dst[TESS_QFN(tess_q_slot)(g, p, conv_out, k, x, y, z, i)] = fl[i];
        }
    }
}

/* Moment representation (pattern mr): two copies of the stored moments (tess_q_mr_store's layout); every wet
 * node gathers through the rebuilt populations of the old copy and stores its collided moments in the new one.
 * D3Q13 has no regularized collision, so no MR (initialise refuses it before a step). */
static void TESS_QFN(cpu_q_sweep_mr)(tess_cpu_q_t *be, const R *src, R *dst)
{
#if TESS_QL_Q != 13
    const tess_params_t *p = &be->params;
    const tess_q_grid_t *g = &be->grid;
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int32_t k = 0; k < be->ntiles; k++)
        for (int n = 0; n < 64; n++) {
            const int64_t node = 64 * (int64_t)k + n;
            if (!tess_q_kind_is_wet(p->mat[g->node_type[node]].kind))
                continue;
            const int x = n % g->ex, y = (n / g->ex) % g->ey, z = n / (g->ex * g->ey);
            R m[TESS_MR_NM];
            TESS_QFN(tess_q_node_step_mr)(p, g, src, k, x, y, z, be->links + be->node_link[node], be->node_nlink[node],
                                          m);
            TESS_QFN(tess_q_mr_store)(dst, k, n, m);
        }
#else
    (void)be, (void)src, (void)dst;
#endif
}

/* MR state from canonical populations (pops: tess_state_index order), or back: the moments of every node's
 * populations, and the Hermite rebuild of its populations. */
static void TESS_QFN(cpu_q_mr_convert)(tess_cpu_q_t *be, R *ms, R *pops, int to_moments)
{
#if TESS_QL_Q != 13
    for (int32_t k = 0; k < be->ntiles; k++)
        for (int n = 0; n < 64; n++) {
            R f[TESS_QL_Q], m[TESS_MR_NM], h[10];
            if (to_moments) {
                for (int i = 0; i < TESS_QL_Q; i++)
                    f[i] = pops[tess_state_index(&be->shape, k, i, n)];
                TESS_QFN(tess_q_hermite_moments)(f, m);
                TESS_QFN(tess_q_mr_store)(ms, k, n, m);
                continue;
            }
            TESS_QFN(tess_q_mr_load)(ms, k, n, m);
            TESS_QPFN(tess_mr_coeffs)(m, h);
            for (int i = 0; i < TESS_QL_Q; i++)
                pops[tess_state_index(&be->shape, k, i, n)] = TESS_QFN(tess_q_hermite_population)(i, h);
        }
#else
    (void)be, (void)ms, (void)pops, (void)to_moments;
#endif
}

static void TESS_QFN(cpu_q_step)(tess_cpu_q_t *be)
{
    if (be->cfg.pattern == TESS_PATTERN_MR) {
        TESS_QFN(cpu_q_sweep_mr)(be, (const R *)be->f[be->cur], (R *)be->f[1 - be->cur]);
        be->cur = 1 - be->cur;
        return;
    }
    if (be->cfg.pattern == TESS_PATTERN_AB) {
        TESS_QFN(cpu_q_sweep)(be, (const R *)be->f[be->cur], (R *)be->f[1 - be->cur], TESS_Q_CANON, TESS_Q_CANON, 0);
        be->cur = 1 - be->cur;
        return;
    }
    /* AA: odd steps read canonical and write swapped, even steps the reverse, in place. */
    const int odd = (be->nsteps_done & 1) == 0;
    const int conv_in = odd ? TESS_Q_CANON : TESS_Q_SWAPPED, conv_out = odd ? TESS_Q_SWAPPED : TESS_Q_CANON;
    R *f = (R *)be->f[0];
    if (be->nspecial)
        TESS_QFN(cpu_q_prepass)(be, f, conv_in);
    TESS_QFN(cpu_q_sweep)(be, f, f, conv_in, conv_out, be->nspecial > 0);
}

#undef R
