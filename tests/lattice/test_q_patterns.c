/* The engine's determinism: for every lattice, a small box with every boundary kind (a curved wall at
 * q = 0.3 with quadratic Bouzidi, a moving lid, a tilted extrapolated velocity inlet and pressure outlet, random
 * obstacles, a body force, padding, and interior tiles that take the plain-tile path) runs 20 steps with AB on 1 and 2 threads and AA on 1 and 2 threads. The
 * canonical populations of every wet node must agree bitwise: each node's update reads only the state before
 * the step (AA gathers its special nodes in a pre-pass), so neither the thread count nor the pattern may change
 * a bit. Exact equality is the only honest tolerance for that claim. */
#include "lattice_test.h"
#include "tess_state.h"
#include "tess_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    static const tess_lattice_id lats[] = {TESS_LATTICE_D2Q9, TESS_LATTICE_D3Q13, TESS_LATTICE_D3Q19, TESS_LATTICE_D3Q27};
    for (int l = 0; l < 4; l++)
        for (int pr = 0; pr < 2; pr++) {
            const tess_precision prec = pr ? TESS_PRECISION_SINGLE : TESS_PRECISION_DOUBLE;
            if (pr && lats[l] != TESS_LATTICE_D2Q9)
                continue; /* one single-precision lattice keeps the test short */
            const tess_lattice_t *L = tess_lattice_get(lats[l]);
            tess_tiling_t t;
            memset(&t, 0, sizeof t);
            int64_t nl = 0, nl2 = 0;
            void *ab1 = lt_mixed_run(lats[l], -1, TESS_PATTERN_AB, 1, prec, 20, &nl, &t);
            void *ab2 = lt_mixed_run(lats[l], -1, TESS_PATTERN_AB, 2, prec, 20, &nl2, NULL);
            void *aa1 = lt_mixed_run(lats[l], -1, TESS_PATTERN_AA, 1, prec, 20, &nl2, NULL);
            void *aa2 = lt_mixed_run(lats[l], -1, TESS_PATTERN_AA, 2, prec, 20, &nl2, NULL);
            tess_geometry_t g;
            tess_params_t p;
            lt_planes_t pl;
            lt_mixed_case(lats[l], &g, &p, &pl);
            char what[160];
            snprintf(what, sizeof what, "%s %s: curved links present (%lld)", L->name, tess_precision_name(prec), (long long)nl);
            tess_test_true(what, nl > 0);
            if (ab1 && ab2 && aa1 && aa2) {
                snprintf(what, sizeof what, "%s %s: AB 1 thread vs 2 threads, wet nodes differing", L->name,
                         tess_precision_name(prec));
                tess_test_close(what, (double)lt_wet_differing(&t, &p, prec, ab1, ab2), 0, 0);
                snprintf(what, sizeof what, "%s %s: AA vs AB after 20 steps, wet nodes differing", L->name,
                         tess_precision_name(prec));
                tess_test_close(what, (double)lt_wet_differing(&t, &p, prec, ab1, aa1), 0, 0);
                snprintf(what, sizeof what, "%s %s: AA 1 thread vs 2 threads, wet nodes differing", L->name,
                         tess_precision_name(prec));
                tess_test_close(what, (double)lt_wet_differing(&t, &p, prec, aa1, aa2), 0, 0);
            }
            free(ab1);
            free(ab2);
            free(aa1);
            free(aa2);
            tess_tiling_free(&t);
            tess_geometry_free(&g);
        }
    return tess_test_result("test_q_patterns");
}
