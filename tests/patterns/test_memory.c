/* Bytes per wet node (bytes_allocated / n_wet) against the formulas of docs/patterns.md, FP64 and FP32, on a
 * lid-driven cavity (dense, eta_t < 1) and the random sparse mixed case. Byte counts are integers, so the
 * formulas must hold exactly (tolerance 0):
 *   AB and AA (the engine): C T 64 q R + 793 T + L (16 + R) + N (q R + 8) + 4 E (C = 2 copies for AB, 1 for AA;
 *       L curved links, none here; N special nodes (inlets and outlets) and E fix-ups (solid nodes and links
 *       from solid nodes of the tiles that are not plain), read from the backend; no finite-difference nodes).
 *   MR (the D3Q19 sliding-window kernel): T (640 R + 211) + 8 + R (X + 1 + 1216) + P 5 C 1216 R
 *       + 2 * 256 * 2432 + 16 B + 4 sum_b (C_b tz + 1) + 16 E, with X the interface-buffer length, C_b the tile
 *       columns of block b, C their maximum, B the blocks, P the threads and E the fix-up links, read from the
 *       backend; and X is checked against its own bound: at most 5 values per node on the lateral faces of the
 *       non-empty tiles (4 x 16 nodes) plus 1 per corner column (4 x 4): 336 per tile. */
#include "cpu_pattern.h"
#include "cpu_q.h"
#include "pattern_test.h"
#include "tess_state.h"
#include <stdio.h>
#include <stdlib.h>

static void check(const char *name, tess_geometry_t *g, tess_params_t *p)
{
    tess_tiling_t t;
    tess_error_t err;
    tess_tiling_build(&t, g, p, &err);
    for (int prec = 0; prec < 2; prec++) {
        const double R = prec ? 4.0 : 8.0, T = t.ntiles, W = (double)t.n_wet;
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
        /* the MR formula's inputs, from a live backend */
        double mr_formula = 0.0;
        int64_t X = 0;
        {
            extern const tess_backend_ops_t tess_backend_cpu;
            tess_backend_config_t cfg = {0};
            cfg.precision = (tess_precision)prec;
            cfg.pattern = TESS_PATTERN_MR;
            cfg.threads = 1;
            tess_backend_t *be = NULL;
            tess_backend_cpu.create(&cfg, &be, &err);
            tess_backend_cpu.upload_geometry(be, &t, &err);
            /* D3Q19 MR with halfway walls runs the sliding-window kernel, created by initialise (TUNED MR) */
            void *in2 = tess_test_random_state(&t, p, (tess_precision)prec, 1);
            tess_backend_cpu.initialise(be, p, in2, &err);
            const tess_cpu_pattern_t *mr = ((const tess_cpu_q_t *)(const void *)be)->tuned_mr;
            if (!tess_test_true("D3Q19 MR runs the sliding-window kernel", mr != NULL)) {
                free(in2);
                tess_backend_cpu.destroy(be);
                free(in);
                continue;
            }
            X = mr->ibuf_len;
            double cols = 0.0;
            for (int b = 0; b < mr->nblocks; b++)
                cols += (double)mr->blocks[b].ncol * mr->tz + 1;
            mr_formula = T * (640 * R + 211) + 8 + R * (X + 1 + 1216) + mr->nthreads * 5.0 * mr->max_ncol * 1216 * R +
                         2 * 256 * 2432.0 + 16.0 * mr->nblocks + 4 * cols + 16.0 * (double)mr->fix_start[mr->ntiles];
            free(in2);
            tess_backend_cpu.destroy(be);
        }
        char what[200];
        printf("     %s fp%d: eta_t %.3f, bytes per wet node AB %.1f, AA %.1f, MR %.1f\n", name, prec ? 32 : 64, t.eta_t,
               rab.bytes / W, raa.bytes / W, rmr.bytes / W);
        for (int c = 1; c <= 2; c++) {
            const double formula = c * T * 64 * 19 * R + 793 * T + nspecial * (19 * R + 8) + 4 * nfix;
            snprintf(what, sizeof what,
                     "%s fp%d: %s bytes per wet node = (%d T 64 q R + 793 T + N (q R + 8) + 4 E) / n_wet", name,
                     prec ? 32 : 64, c == 2 ? "AB" : "AA", c);
            tess_test_close(what, (c == 2 ? rab.bytes : raa.bytes) / W, formula / W, 0.0);
        }
        snprintf(what, sizeof what, "%s fp%d: MR bytes per wet node = formula (leading term (640 R + 203) / (64 eta_t) = %.1f)",
                 name, prec ? 32 : 64, T * (640 * R + 203) / W);
        tess_test_close(what, rmr.bytes / W, mr_formula / W, 0.0);
        snprintf(what, sizeof what, "%s: interface buffer %lld values <= 336 per tile", name, (long long)X);
        tess_test_true(what, X <= 336 * (int64_t)T);
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
