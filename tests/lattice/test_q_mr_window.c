/* The moment representation (pattern mr) of the engine: one copy of the moments and the sliding window
 * of the moment-representation paper (backends/cpu/cpu_q_mr_window.h), with the regularized collision, on the
 * mixed case of lt_mixed_case (curved Bouzidi wall, moving lid, tilted extrapolated inlet and outlet, obstacles,
 * body force) for D2Q9, D3Q19 and D3Q27, 200 steps.
 *
 * 1. MR against AB. The regularized post-collision populations are a second-order Hermite expansion of ten
 *    moments, so MR, which stores the moments and rebuilds every pulled population with the same expression that
 *    the AB collision stores, computes the same numbers. Only the initial state differs: MR holds the moments of
 *    the initial equilibrium, whose rebuild differs from it by round-off, and that difference is carried along.
 *    The bound is issue 3's: 1e-12 of the largest population in double precision (round-off 1e-16 times a few
 *    hundred steps of amplification), 1e-5 in single precision (6e-8 round-off).
 * 2. The window against the two-copy per-node MR (the engine's reference sweep, tess_q_node_step_mr_fd): every
 *    value the window pulls is the same rebuild of the same old moments, so the two agree bit for bit.
 * 3. 1, 2 and 3 threads and a layer (block cross-section) that divides neither lateral tile count give the same
 *    bits: the blocking changes with both, the values do not.
 * 4. A taller box (20 nodes, five tile layers along the window axis), periodic and closed along z, against the
 *    reference bit for bit and against AB within the bound of 1.
 * MR refuses collisions other than regularized. */
#include "lattice_test.h"
#include "tess_state.h"
#include "tess_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 0 when every wet node's populations have the same bits in a and b (and b is finite), else 1 (a failure, also
 * when a run failed). */
static void check_same(const char *what, const tess_tiling_t *t, const tess_params_t *p, tess_precision prec,
                       const void *a, const void *b)
{
    int bits = 0, finite = 0;
    if (a && b)
        (void)tess_test_wet_diff(t, p, prec, a, b, &bits, &finite, NULL);
    tess_test_close(what, bits && finite ? 0.0 : 1.0, 0.0, 0.0);
}

static void *mr_run(tess_lattice_id lat, int threads, int layer, int reference, tess_precision prec, int steps)
{
    int64_t nl = 0;
    lt_mr_layer = layer;
    lt_engine_reference = reference;
    void *out = lt_mixed_pops(lat, TESS_COLLISION_REGULARIZED, TESS_PATTERN_MR, threads, prec, steps, &nl, NULL);
    lt_mr_layer = 0;
    lt_engine_reference = 0;
    return out;
}

int main(void)
{
    static const tess_lattice_id lats[] = {TESS_LATTICE_D2Q9, TESS_LATTICE_D3Q19, TESS_LATTICE_D3Q27};
    const int steps = 200;
    for (int l = 0; l < 3; l++)
        for (int pr = 0; pr < 2; pr++) {
            const tess_precision prec = pr ? TESS_PRECISION_SINGLE : TESS_PRECISION_DOUBLE;
            const tess_lattice_t *L = tess_lattice_get(lats[l]);
            /* 2D: blocks of 4 of the 6 tile columns; 3D: 2 x 2 of the 6 x 5 */
            const int odd_layer = lats[l] == TESS_LATTICE_D2Q9 ? 32 : 64;
            tess_tiling_t t;
            memset(&t, 0, sizeof t);
            int64_t nl = 0;
            void *ab = lt_mixed_pops(lats[l], TESS_COLLISION_REGULARIZED, TESS_PATTERN_AB, 2, prec, steps, &nl, &t);
            void *mr1 = mr_run(lats[l], 1, 0, 0, prec, steps);
            void *mr2 = mr_run(lats[l], 2, 0, 0, prec, steps);
            void *mr3 = mr_run(lats[l], 3, 0, 0, prec, steps);
            void *mro = mr_run(lats[l], 2, odd_layer, 0, prec, steps);
            void *ref = mr_run(lats[l], 2, 0, 1, prec, steps);
            tess_geometry_t g;
            tess_params_t p;
            lt_planes_t pl;
            lt_mixed_case(lats[l], &g, &p, &pl);
            char what[200];
            const char *ln = L->name, *pn = tess_precision_name(prec);
            if (ab && mr2) {
                const double d = lt_wet_relative(&t, &p, prec, ab, mr2);
                printf("info  %s %s: largest MR - AB difference after %d steps: %.3g of the largest population\n", ln,
                       pn, steps, d);
                snprintf(what, sizeof what, "%s %s: MR (window) vs AB after %d steps (regularized, %lld curved links)",
                         ln, pn, steps, (long long)nl);
                tess_test_close(what, d, 0.0, pr ? 1e-5 : 1e-12);
            }
            snprintf(what, sizeof what, "%s %s: MR window vs two-copy per-node MR, wet nodes differing", ln, pn);
            check_same(what, &t, &p, prec, mr2, ref);
            snprintf(what, sizeof what, "%s %s: MR 1 thread vs 2 threads, wet nodes differing", ln, pn);
            check_same(what, &t, &p, prec, mr1, mr2);
            snprintf(what, sizeof what, "%s %s: MR 3 threads vs 2 threads, wet nodes differing", ln, pn);
            check_same(what, &t, &p, prec, mr3, mr2);
            snprintf(what, sizeof what,
                     "%s %s: MR layer %d (not a divisor of the tile columns) vs the cache's, wet nodes differing",
                     ln, pn, odd_layer);
            check_same(what, &t, &p, prec, mro, mr2);
            free(ab);
            free(mr1);
            free(mr2);
            free(mr3);
            free(mro);
            free(ref);
            tess_tiling_free(&t);
            tess_geometry_free(&g);
        }
    /* Five tile layers along the window axis, periodic (layer 0 and the last in their own slots) and closed. */
    for (int l = 1; l < 3; l++)
        for (int per = 0; per < 2; per++) {
            const tess_precision prec = TESS_PRECISION_DOUBLE;
            lt_mixed_nz = 20;
            lt_mixed_periodic_z = per;
            tess_tiling_t t;
            memset(&t, 0, sizeof t);
            int64_t nl = 0;
            void *ab = lt_mixed_pops(lats[l], TESS_COLLISION_REGULARIZED, TESS_PATTERN_AB, 2, prec, 100, &nl, &t);
            void *mr = mr_run(lats[l], 3, 64, 0, prec, 100);
            void *ref = mr_run(lats[l], 1, 0, 1, prec, 100);
            tess_geometry_t g;
            tess_params_t p;
            lt_planes_t pl;
            lt_mixed_case(lats[l], &g, &p, &pl);
            lt_mixed_nz = 0;
            lt_mixed_periodic_z = 1;
            char what[200];
            const char *ln = tess_lattice_get(lats[l])->name, *zs = per ? "periodic" : "closed";
            snprintf(what, sizeof what, "%s 21 x 18 x 20, z %s: window (3 threads) vs two-copy MR, wet nodes differ",
                     ln, zs);
            check_same(what, &t, &p, prec, mr, ref);
            snprintf(what, sizeof what, "%s 21 x 18 x 20, z %s: MR vs AB after 100 steps", ln, zs);
            tess_test_close(what, ab && mr ? lt_wet_relative(&t, &p, prec, ab, mr) : 1.0, 0.0, 1e-12);
            free(ab);
            free(mr);
            free(ref);
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
    return tess_test_result("test_q_mr_window");
}
