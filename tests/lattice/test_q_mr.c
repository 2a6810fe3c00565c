/* The moment representation (pattern mr) of the engine against the AB pattern, with the regularized
 * collision, on the mixed case of lt_mixed_case (curved Bouzidi wall, moving lid, tilted extrapolated inlet and
 * outlet, obstacles, body force) for D2Q9, D3Q19 and D3Q27, 200 steps.
 *
 * The regularized post-collision populations are a second-order Hermite expansion of ten moments, so MR, which
 * stores the moments and rebuilds every pulled population with the same expression that the AB collision
 * stores, computes the same numbers. Only the initial state differs: MR holds the moments of the initial
 * equilibrium, whose rebuild differs from it by round-off, and that difference is carried along. The bound is
 * issue 3's for the D3Q19 sliding-window MR: 1e-12 of the largest population in double precision (round-off 1e-16 times
 * a few hundred steps of amplification), 1e-5 in single precision (6e-8 round-off). MR is also bitwise the same
 * for 1 and 2 threads (each node reads only the old copy), and refuses collisions other than regularized. */
#include "lattice_test.h"
#include "tess_state.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double largest_difference(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *a,
                                 const void *b)
{
    double worst = 0.0, scale = 0.0;
    for (int32_t k = 0; k < t->ntiles; k++)
        for (int n = 0; n < 64; n++) {
            if (!tess_kind_is_wet(p->mat[t->node_type[64 * (size_t)k + n]].kind))
                continue;
            for (int i = 0; i < t->q; i++) {
                const size_t at = tess_state_index(t, k, i, n);
                const double x = prec == TESS_PRECISION_SINGLE ? ((const float *)a)[at] : ((const double *)a)[at];
                const double y = prec == TESS_PRECISION_SINGLE ? ((const float *)b)[at] : ((const double *)b)[at];
                worst = fmax(worst, isnan(x - y) ? INFINITY : fabs(x - y));
                scale = fmax(scale, fabs(x));
            }
        }
    return worst / scale;
}

int main(void)
{
    static const tess_lattice_id lats[] = {TESS_LATTICE_D2Q9, TESS_LATTICE_D3Q19, TESS_LATTICE_D3Q27};
    const int steps = 200;
    for (int l = 0; l < 3; l++)
        for (int pr = 0; pr < 2; pr++) {
            const tess_precision prec = pr ? TESS_PRECISION_SINGLE : TESS_PRECISION_DOUBLE;
            const tess_lattice_t *L = tess_lattice_get(lats[l]);
            tess_tiling_t t;
            memset(&t, 0, sizeof t);
            int64_t nl = 0, nl2 = 0;
            void *ab = lt_mixed_run(lats[l], TESS_COLLISION_REGULARIZED, TESS_PATTERN_AB, 2, prec, steps, &nl, &t);
            void *mr1 = lt_mixed_run(lats[l], TESS_COLLISION_REGULARIZED, TESS_PATTERN_MR, 1, prec, steps, &nl2, NULL);
            void *mr2 = lt_mixed_run(lats[l], TESS_COLLISION_REGULARIZED, TESS_PATTERN_MR, 2, prec, steps, &nl2, NULL);
            tess_geometry_t g;
            tess_params_t p;
            lt_planes_t pl;
            lt_mixed_case(lats[l], &g, &p, &pl);
            char what[160];
            if (ab && mr1 && mr2) {
                const double d = largest_difference(&t, &p, prec, ab, mr1);
                printf("info  %s %s: largest MR - AB difference after %d steps: %.3g of the largest population\n",
                       L->name, tess_precision_name(prec), steps, d);
                snprintf(what, sizeof what, "%s %s: MR vs AB after %d steps (regularized, %lld curved links)", L->name,
                         tess_precision_name(prec), steps, (long long)nl);
                tess_test_close(what, d, 0.0, pr ? 1e-5 : 1e-12);
                snprintf(what, sizeof what, "%s %s: MR 1 thread vs 2 threads, largest difference", L->name,
                         tess_precision_name(prec));
                tess_test_close(what, largest_difference(&t, &p, prec, mr1, mr2), 0.0, 0.0);
            }
            free(ab);
            free(mr1);
            free(mr2);
            tess_tiling_free(&t);
            tess_geometry_free(&g);
        }
    /* Collisions other than regularized have no moment representation. */
    tess_geometry_t g;
    tess_params_t p;
    lt_planes_t pl;
    lt_mixed_case(TESS_LATTICE_D3Q27, &g, &p, &pl);
    lt_run_t r;
    tess_error_t err;
    const tess_status st = lt_start(&r, &g, &p, TESS_PATTERN_MR, 1, TESS_PRECISION_DOUBLE, lt_planes_q, &pl, &err);
    tess_test_true("D3Q27 MR with lbgk: refused with status 'bad input'", st == TESS_ERR_INPUT);
    tess_test_true("D3Q27 MR with lbgk: the message names the regularized collision",
                   st != TESS_OK && strstr(err.msg, "regularized") != NULL);
    lt_free(&r);
    tess_geometry_free(&g);
    return tess_test_result("test_q_mr");
}
