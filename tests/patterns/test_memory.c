/* Bytes per wet node (bytes_allocated / n_wet) against the formulas of docs/patterns.md, FP64 and FP32, on a
 * lid-driven cavity (dense, eta_t < 1) and the random sparse mixed case. Byte counts are integers, so the
 * formulas must hold exactly (tolerance 0):
 *   AB and AA (the engine): C q D R + 793 T + L (16 + R) + N (q R + 9) + 4 E (C = 2 copies for AB, 1 for AA;
 *       D values per direction: 64 (T + P) for the tiles and the P threads' scratch tiles, padded to an odd
 *       number of 64-byte lines (core/tess_pop_layout.h); L curved links, none here; N special nodes (inlets and
 *       outlets) and E fix-ups (solid nodes and links from solid nodes of the tiles that are not plain), read
 *       from the backend; no finite-difference nodes).
 *   MR (the engine's sliding window, cpu_q_mr_window.h): the engine's AA instance of the same tiling plus
 *       T 64 10 R - 19 D R (ten moments per tile node instead of 19 populations) plus the window's own storage
 *       S P C 1216 R + 4 B C L + 13 T + 8 (T + 1) + (16 + R) X + (8 + C) P + sizeof(tess_cpu_q_mrw_t), with S the window
 *       slots (3, 5 along a periodic axis), P the threads, C the tile columns of a block, B the blocks, L the tile
 *       layers and X the links between blocks, read from the backend. */
#include "cpu_q.h"
#include "cpu_q_mr_window.h"
#include "pattern_test.h"
#include "tess_state.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Values per direction of a copy of T tiles and one thread's scratch tile: 64 (T + 1) values, rounded up to whole
 * 64-byte lines, an odd number of them. */
static double direction_values(double T, double R)
{
    double lines = ceil(64 * (T + 1) * R / 64);
    if (fmod(lines, 2.0) == 0.0)
        lines += 1;
    return lines * 64 / R;
}

static void check(const char *name, tess_geometry_t *g, tess_params_t *p)
{
    tess_tiling_t t;
    tess_error_t err;
    tess_tiling_build(&t, g, p, &err);
    for (int prec = 0; prec < 2; prec++) {
        const double R = prec ? 4.0 : 8.0, T = t.ntiles, W = (double)t.n_wet, D = direction_values(T, R);
        void *in = tess_test_random_state(&t, p, (tess_precision)prec, 1);
        tess_pattern_run_t rab = {TESS_PATTERN_AB, (tess_precision)prec, 1, 0, 0};
        tess_pattern_run_t raa = {TESS_PATTERN_AA, (tess_precision)prec, 1, 0, 0};
        tess_pattern_run_t rmr = {TESS_PATTERN_MR, (tess_precision)prec, 1, 0, 0};
        tess_pattern_run(&rab, &t, p, in, 0, NULL, &err);
        tess_pattern_run(&raa, &t, p, in, 0, NULL, &err);
        p->collision = TESS_COLLISION_REGULARIZED;
        tess_pattern_run(&rmr, &t, p, in, 0, NULL, &err);
        /* the engine formula's special nodes N and fix-ups E, from a live backend (the same for AB and AA) */
        double nspecial = 0.0, nfix = 0.0;
        {
            extern const tess_backend_ops_t tess_backend_cpu;
            tess_backend_config_t cfg = {0};
            cfg.precision = (tess_precision)prec;
            cfg.pattern = TESS_PATTERN_AB;
            cfg.threads = 1;
            tess_backend_t *be = NULL;
            tess_backend_cpu.create(&cfg, &be, &err);
            tess_backend_cpu.upload_geometry(be, &t, &err);
            tess_params_t pa = *p;
            pa.collision = TESS_COLLISION_LBGK;
            tess_backend_cpu.initialise(be, &pa, in, &err);
            const tess_cpu_q_t *q = (const tess_cpu_q_t *)(const void *)be;
            nspecial = (double)q->nspecial;
            nfix = (double)q->nfix;
            tess_backend_cpu.destroy(be);
        }
        /* the MR formula's inputs, from live engine instances (MR and AA) */
        double mr_formula = 0.0;
        {
            extern const tess_backend_ops_t tess_backend_cpu;
            tess_backend_config_t cfg = {0};
            cfg.precision = (tess_precision)prec;
            cfg.pattern = TESS_PATTERN_AA;
            cfg.threads = 1;
            tess_backend_t *aa = NULL, *be = NULL;
            tess_backend_cpu.create(&cfg, &aa, &err);
            tess_backend_cpu.upload_geometry(aa, &t, &err);
            tess_backend_cpu.initialise(aa, p, in, &err);
            cfg.pattern = TESS_PATTERN_MR;
            tess_backend_cpu.create(&cfg, &be, &err);
            tess_backend_cpu.upload_geometry(be, &t, &err);
            tess_backend_cpu.initialise(be, p, in, &err);
            const tess_cpu_q_mrw_t *w = ((const tess_cpu_q_t *)(const void *)be)->mrw;
            mr_formula = (double)tess_backend_cpu.bytes_allocated(aa) + T * 64 * 10 * R - 19 * D * R +
                         (double)w->nslots * w->nthreads * w->ncols * 1216 * R +
                         4.0 * w->nblocks * w->ncols * w->nw + 13 * T + 8 * (T + 1) + (16 + R) * (double)w->ncross +
                         (8.0 + w->ncols) * w->nthreads + (double)sizeof *w;
            tess_backend_cpu.destroy(aa);
            tess_backend_cpu.destroy(be);
        }
        char what[200];
        printf("     %s fp%d: eta_t %.3f, bytes per wet node AB %.1f, AA %.1f, MR %.1f\n", name, prec ? 32 : 64, t.eta_t,
               rab.bytes / W, raa.bytes / W, rmr.bytes / W);
        for (int c = 1; c <= 2; c++) {
            const double formula = c * 19 * D * R + 793 * T + nspecial * (19 * R + 9) + 4 * nfix;
            snprintf(what, sizeof what,
                     "%s fp%d: %s bytes per wet node = (%d q D R + 793 T + N (q R + 9) + 4 E) / n_wet", name,
                     prec ? 32 : 64, c == 2 ? "AB" : "AA", c);
            tess_test_close(what, (c == 2 ? rab.bytes : raa.bytes) / W, formula / W, 0.0);
        }
        snprintf(what, sizeof what, "%s fp%d: MR bytes per wet node = formula (moments 640 R / (64 eta_t) = %.1f)",
                 name, prec ? 32 : 64, T * 640 * R / W);
        tess_test_close(what, rmr.bytes / W, mr_formula / W, 0.0);
        free(in);
    }
    tess_tiling_free(&t);
}

int main(void)
{
    tess_geometry_t g;
    tess_params_t p;
    const int n = 48;
    tess_geometry_init(&g, n, n, n, 1);
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++)
                if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1)
                    g.type[tess_geometry_index(&g, x, y, z)] = (uint8_t)(z == n - 1 ? 2 : 0);
    tess_params_default(&p);
    p.nmat = 3;
    p.mat[2].kind = TESS_NODE_WALL;
    p.mat[2].u[0] = 0.05;
    p.mat[2].rho = 1.0;
    check("cavity 48^3", &g, &p);
    tess_geometry_free(&g);
    tess_test_mixed_case(&g, &p, TESS_COLLISION_LBGK, 0, 4);
    check("mixed case", &g, &p);
    tess_geometry_free(&g);
    return tess_test_result("test_memory");
}
