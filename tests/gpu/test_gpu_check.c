/* The GPU backend's divergence reduction (check_state, backends/gpu/tess_gpu_check.h) against the host's
 * (tess_check_populations) on the same state: the mixed case's random state with a NaN node, a density of 2.5
 * and a speed of 0.7 planted, before stepping and after 3 steps (the other copy current), both precisions. Counts must be equal;
 * densities and speeds agree to 1e-12 (double) and 1e-5 (single) relative: the device may contract the
 * moments' multiply-adds, a few roundings of 19 terms; bitwise in the reproducible build. */
#include "gpu_test.h"
#include "tess_check.h"

extern const tess_backend_ops_t TESS_TEST_GPU_OPS;

static void compare(const char *what, const tess_check_t *g, const tess_check_t *h, int want_bits, double tol)
{
    char line[300];
    snprintf(line, sizeof line, "%s: wet nodes %lld / %lld, NaN/Inf nodes %lld / %lld", what, g->wet, h->wet,
             g->nonfinite, h->nonfinite);
    tess_test_true(line, g->wet == h->wet && g->nonfinite == h->nonfinite && h->nonfinite > 0);
    const double got[3] = {g->rho_min, g->rho_max, g->u_max}, ref[3] = {h->rho_min, h->rho_max, h->u_max};
    static const char *name[3] = {"smallest density", "largest density", "largest |u|"};
    for (int k = 0; k < 3; k++) {
        snprintf(line, sizeof line, "%s: %s", what, name[k]);
        if (want_bits)
            tess_test_true(line, got[k] == ref[k]);
        else
            tess_test_close(line, got[k], ref[k], tol * fabs(ref[k]));
    }
}

int main(void)
{
    const int want_bits = gt_want_bits();
    int first = 1;
    for (int prec_i = 0; prec_i < 2; prec_i++) {
            const tess_precision prec = (tess_precision)prec_i;
            tess_geometry_t g;
            tess_params_t p;
            tess_tiling_t t;
            tess_error_t err = {0};
            tess_test_mixed_case(&g, &p, TESS_COLLISION_LBGK, 0, 17);
            if (tess_tiling_build(&t, &g, &p, &err) != TESS_OK)
                return gt_skip_or_fail(&err, 0);
            /* The random state of the mixed case with three bad nodes planted at fluid nodes. */
            const size_t nn = (size_t)g.nx * g.ny * g.nz;
            double *rho = malloc(nn * sizeof *rho), *u = calloc(3 * nn, sizeof *u);
            for (size_t n = 0; n < nn; n++)
                rho[n] = 1.0 + 0.01 * (double)(n % 7);
            size_t k = 0;
            for (size_t n = nn / 4; n < nn && k < 3; n++)
                if (g.type[n] == 1) {
                    if (k == 0)
                        rho[n] = NAN;
                    else if (k == 1)
                        rho[n] = 2.5;
                    else
                        u[3 * n] = 0.7;
                    k++;
                    n += nn / 4;
                }
            const double u0[3] = {0, 0, 0};
            void *pops = malloc(tess_state_count(&t) * tess_precision_size(prec));
            tess_state_equilibrium(&t, &p, prec, pops, 1.0, u0, rho, u);
            tess_backend_config_t cfg = {0};
            cfg.precision = prec;
            cfg.pattern = TESS_PATTERN_AB;
            tess_backend_t *be = NULL;
            const tess_backend_ops_t *ops = &TESS_TEST_GPU_OPS;
            if (!ops->check_state) {
                printf("FAIL the %s backend has no check_state\n", ops->name);
                return 1;
            }
            tess_status st = ops->create(&cfg, &be, &err);
            if (st == TESS_OK)
                st = ops->upload_geometry(be, &t, &err);
            if (st == TESS_OK)
                st = ops->initialise(be, &p, pops, &err);
            if (st != TESS_OK)
                return gt_skip_or_fail(&err, first);
            first = 0;
            for (int steps = 0; steps <= 3; steps += 3) {
                tess_check_t gc, hc;
                if ((steps && ops->step(be, steps, &err) != TESS_OK) || ops->download_populations(be, pops, &err) != TESS_OK ||
                    ops->check_state(be, &gc, &err) != TESS_OK)
                    return gt_skip_or_fail(&err, 0);
                tess_check_populations(&t, &p, prec == TESS_PRECISION_SINGLE, 0, pops, &hc);
                char what[160];
                snprintf(what, sizeof what, "%s, after %d steps", tess_precision_name(prec), steps);
                compare(what, &gc, &hc, want_bits, prec == TESS_PRECISION_SINGLE ? 1e-5 : 1e-12);
            }
            ops->destroy(be);
            free(rho);
            free(u);
            free(pops);
            tess_tiling_free(&t);
            tess_geometry_free(&g);
        }
    return tess_test_result("test_gpu_check");
}
