/* MR's sliding window stepped in parts (backends/cpu/cpu_q_mr_window_t.h, tess_cpu_q_step_tiles): the
 * distributed run's overlap steps the boundary tiles first, keeping their new moments aside
 * (tess_cpu_q_mr_parts), then the interior, whose windows must still rebuild the boundary tiles' old moments,
 * then copies the new ones back (docs/mpi.md, "MR"). Every node's new moments depend only on the old moments,
 * so any cut of the tiles into parts must give the bits of the whole step: every wet node's populations after
 * 12 steps (10 in the taller box; a wrong order shows from the first step, a missing copy-back from the second)
 * are compared bit for bit with the run stepped whole.
 *
 * The case is lt_mixed_case (curved Bouzidi wall, moving lid, tilted extrapolated inlet and outlet, obstacles,
 * body force), D2Q9, D3Q19 and D3Q27 in double and single precision, 1 and 3 threads, and with finite-difference
 * openings (their strain-rate pre-pass runs with the first part only); a taller box (five tile layers along the
 * window axis) periodic and closed along it, where a part's layers start and stop inside the axis and the
 * periodic wrap's slots must still hold the old layer 0. Cuts: nothing first (a rank without neighbours), a
 * third, half, every tile first and an empty last part (a rank whose tiles are all boundary tiles), and
 * three parts (two kept aside). The control: the first part written in place (its new moments where the later
 * part's windows rebuild the old ones) must differ. */
#include "cpu_q.h"
#include "lattice_test.h"
#include "tess_state.h"
#include "tess_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NCUTS = 5 };

/* The populations after `steps` steps, each step cut at the tile indices cut_frac[0..ncut) x the tile count
 * (ascending; the parts before the last kept aside), or whole with ncut < 0. NULL when a run failed. */
static int in_place; /* the control: parts before the last write in place (as TESS_CPU_Q_LAST parts) */

static void *run(tess_lattice_id lat, tess_precision prec, int threads, int fd, int steps, double cut_frac[2],
                 int ncut, tess_tiling_t *keep)
{
    tess_geometry_t g;
    tess_params_t p;
    lt_planes_t pl;
    lt_mixed_case(lat, &g, &p, &pl);
    p.collision = TESS_COLLISION_REGULARIZED;
    if (fd) /* the inlet plane x = 0 and the outlet plane x = nx - 1, axis-aligned as fd needs */
        for (int m = 3; m <= 4; m++) {
            p.mat[m].method = TESS_BC_FINITE_DIFFERENCE;
            p.mat[m].axis = 0;
            p.mat[m].sign = m == 3 ? -1 : 1;
            memset(p.mat[m].normal, 0, sizeof p.mat[m].normal);
            p.mat[m].normal[0] = m == 3 ? -1.0 : 1.0;
        }
    lt_run_t r;
    tess_error_t err;
    tess_status st = lt_start(&r, &g, &p, TESS_PATTERN_MR, threads, prec, lt_planes_q, &pl, &err);
    tess_cpu_q_t *be = (tess_cpu_q_t *)(void *)r.be;
    const int32_t n = r.t.ntiles;
    int32_t cut[3] = {0, 0, n};
    for (int c = 0; c < ncut; c++)
        cut[c] = (int32_t)(cut_frac[c] * n + 0.5) > n ? n : (int32_t)(cut_frac[c] * n + 0.5);
    if (ncut == 2 && cut[1] < cut[0])
        cut[1] = cut[0];
    if (st == TESS_OK && ncut > 0)
        st = tess_cpu_q_mr_parts(be, cut[ncut - 1], &err);
    for (int s = 0; st == TESS_OK && s < steps; s++) {
        if (ncut < 0) {
            st = lt_step(&r, 1, &err);
            continue;
        }
        int32_t k0 = 0;
        for (int c = 0; c < ncut; c++) {
            tess_cpu_q_step_tiles(be, k0, cut[c], (c == 0 ? TESS_CPU_Q_FIRST : 0) | (in_place ? TESS_CPU_Q_LAST : 0));
            k0 = cut[c];
        }
        tess_cpu_q_step_tiles(be, k0, n, ncut == 0 ? TESS_CPU_Q_FIRST | TESS_CPU_Q_LAST : TESS_CPU_Q_LAST);
    }
    void *out = lt_finish(&r, st, &err, &g, &p, keep);
    tess_geometry_free(&g);
    return out;
}

static void compare(const char *what, tess_lattice_id lat, tess_precision prec, int threads, int fd, int steps)
{
    if (in_place) { /* the control: the comparison must see what the side buffer prevents */
        tess_tiling_t t;
        memset(&t, 0, sizeof t);
        double third[2] = {1.0 / 3.0, 0};
        void *whole = run(lat, prec, threads, fd, steps, NULL, -1, &t);
        void *parts = run(lat, prec, threads, fd, steps, third, 1, NULL);
        tess_geometry_t g;
        tess_params_t p;
        lt_planes_t pl;
        lt_mixed_case(lat, &g, &p, &pl);
        int bits = 1, finite = 0;
        if (whole && parts)
            (void)tess_test_wet_diff(&t, &p, prec, parts, whole, &bits, &finite, NULL);
        char name[256];
        snprintf(name, sizeof name, "%s %s: a third first written in place (no side buffer) differs from the whole "
                 "step (the control)", what, tess_lattice_get(lat)->name);
        tess_test_true(name, whole && parts && !bits);
        free(whole);
        free(parts);
        tess_tiling_free(&t);
        tess_geometry_free(&g);
        return;
    }
    static const struct {
        const char *name;
        double frac[2];
        int ncut;
    } cuts[NCUTS] = {{"nothing first (an empty first part)", {0, 0}, 1},
                     {"a third first", {1.0 / 3.0, 0}, 1},
                     {"half first", {0.5, 0}, 1},
                     {"every tile first, an empty last part", {1.0, 0}, 1},
                     {"three parts", {0.25, 0.6}, 2}};
    tess_tiling_t t;
    memset(&t, 0, sizeof t);
    void *whole = run(lat, prec, threads, fd, steps, NULL, -1, &t);
    tess_geometry_t g;
    tess_params_t p;
    lt_planes_t pl;
    lt_mixed_case(lat, &g, &p, &pl);
    for (int c = 0; c < NCUTS; c++) {
        double frac[2] = {cuts[c].frac[0], cuts[c].frac[1]};
        void *parts = run(lat, prec, threads, fd, steps, frac, cuts[c].ncut, NULL);
        int bits = 0, finite = 0;
        if (whole && parts)
            (void)tess_test_wet_diff(&t, &p, prec, parts, whole, &bits, &finite, NULL);
        char name[256];
        snprintf(name, sizeof name, "%s %s %s, %d thread(s)%s, %s vs the whole step: bitwise", what,
                 tess_lattice_get(lat)->name, tess_precision_name(prec), threads, fd ? ", fd openings" : "",
                 cuts[c].name);
        tess_test_true(name, bits && finite);
        free(parts);
    }
    free(whole);
    tess_tiling_free(&t);
    tess_geometry_free(&g);
}

/* The mixed case on 3 threads in double precision, on 1 in single. */
static void mixed_case(tess_lattice_id lat, tess_precision prec)
{
    compare("mixed case", lat, prec, prec == TESS_PRECISION_SINGLE ? 1 : 3, 0, 12);
}

int main(void)
{
    lt_each_mr_lattice(mixed_case);
    compare("mixed case", TESS_LATTICE_D3Q19, TESS_PRECISION_DOUBLE, 2, 1, 12);
    in_place = 1;
    compare("mixed case", TESS_LATTICE_D3Q19, TESS_PRECISION_DOUBLE, 2, 0, 12);
    in_place = 0;
    /* five tile layers along the window axis, periodic and closed */
    for (int per = 0; per < 2; per++) {
        lt_mixed_nz = 20;
        lt_mixed_periodic_z = per;
        lt_mr_layer = 64; /* blocks of 2 x 2 tile columns: several blocks, each cut by the parts */
        compare(per ? "21 x 18 x 20 periodic z" : "21 x 18 x 20 closed z", TESS_LATTICE_D3Q27, TESS_PRECISION_DOUBLE,
                3, 0, 10);
        lt_mixed_nz = 0;
        lt_mixed_periodic_z = 1;
        lt_mr_layer = 0;
    }
    return tess_test_result("test_q_mr_parts");
}
