/* tess_state_mr_convert for one lattice and precision (instantiated by tess_state_mr.c through
 * tess_instantiate_q.h). */

#define R TESS_R

#if TESS_QL_Q != 13
static void TESS_QFN(state_mr_convert)(const tess_tiling_t *t, R *pops, int canonical, R *ms, int32_t k0, int32_t k1,
                                       int to_moments)
{
#pragma omp parallel for schedule(static)
    for (int32_t k = k0; k < k1; k++)
        for (int n = 0; n < 64; n++) {
            R f[TESS_QL_Q], m[TESS_MR_NM], h[TESS_MR_NH];
            if (to_moments) {
                for (int i = 0; i < TESS_QL_Q; i++)
                    f[i] = pops[canonical ? tess_state_index(t, k, i, n)
                                          : ((size_t)(k - k0) * TESS_QL_Q + (size_t)i) * 64 + (size_t)n];
                TESS_QFN(tess_q_hermite_moments)(f, m);
                TESS_QFN(tess_q_mr_store)(ms, k - k0, n, m);
                continue;
            }
            TESS_QFN(tess_q_mr_load)(ms, k - k0, n, m);
            TESS_QPFN(tess_mr_coeffs)(m, h);
            for (int i = 0; i < TESS_QL_Q; i++)
                pops[canonical ? tess_state_index(t, k, i, n)
                               : ((size_t)(k - k0) * TESS_QL_Q + (size_t)i) * 64 + (size_t)n] =
                    TESS_QFN(tess_q_hermite_population)(i, h);
        }
}
#endif

#undef R
