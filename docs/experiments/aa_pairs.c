/* AA odd and even steps of D3Q19 / D3Q27 LBGK (FP64) on a dense periodic box in three storage layouts, to
 * measure whether x-adjacent tile pairs (8 x 4 x 4 blocks, rows of one 64-byte line) or quadruples (16 x 4 x 4)
 * would close the CPU engine's gap to RRZE's aa-vec-sl-soa. A measurement, not part of the build and not a test:
 * docs/experiments/README.md says how to build and run it, docs/performance-notes.md ("x-adjacent tile pairs")
 * what it found. The collision is the core's (tess_q_collide_model through core/tess_physics_q.h), vectorised
 * over 8 nodes of a buffer exactly as backends/cpu/cpu_q_step_t.h's cpu_q_collide_model; the layout (a) mimics
 * that file's cpu_q_rows (4-node rows from 27 tiles), its swapped row store and cpu_q_next_lines' prefetch
 * (prefetcht1 two tiles ahead, the rule for an L1d under 48 KiB).
 *
 * Storage: one array per direction (i * D + block * BX * 16 + x + BX * (y + 4 z), D an odd number of lines, as
 * tess_pop_layout_directions); blocks of BX x 4 x 4 nodes (BX = 4: the engine's tiles; 8: pairs; 16: four
 * tiles), numbered x fastest. A unit of work is BX x 4 x UZ nodes of a block (UZ = 4 or 2): its pull, collision
 * in chunks of 8 nodes with the prefetch of unit u + 2 spread over the chunks, and its store.
 *
 * Build (repository root):
 *   gcc -O3 -march=native -std=c11 -fopenmp -ffp-contract=off -fno-math-errno -Icore -DLAT=19 \
 *       docs/experiments/aa_pairs.c -o /tmp/aa_pairs19 -lm
 * Run: aa_pairs19 check [N]                    every variant against an AB reference, bitwise, N^3 (default 32)
 *      aa_pairs19 lines                        lines a unit's pull touches per 64 nodes, per variant
 *      aa_pairs19 time VARIANT [N] [steps] [reps]   MLUPS per two CPU-seconds (median of reps)
 * Variants (block extent, unit extent, row moves):
 *   a    4x4x4, units 4x4x4, memcpy of runs (3 + 1 values a shifted row): the engine's
 *   b    8x4x4, units 8x4x4, memcpy (7 + 1)
 *   bv   8x4x4, units 8x4x4, AVX-512: one unaligned load (7 values) and a masked broadcast of the end value;
 *        the store a masked unaligned store and a scalar
 *   b2v  as bv, units 8x4x2
 *   cv   16x4x4, units 16x4x4, as bv (two vectors a row)
 *   bw   8x4x4, units 8x4x4, AVX-512 aligned: the row and the x-neighbour's row loaded whole, joined by valignq;
 *        the store a valignq and an aligned masked store and a scalar (no line touched but the row's and b's)
 *   b2w  as bw, units 8x4x2 (64 nodes: the engine's buffer size)
 *   cw   16x4x4, units 16x4x4, as bw;  c1w  as cw, units 16x4x1 (64 nodes)
 *   d1w  32x4x4 (eight tiles), units 32x4x1, as bw
 *   b2f, c1f  as b2w, c1w with the odd step row by row (unit_odd_rows: pull a row's q rows, collide, store)
 * Switches (environment): AA_THREADS (2), AA_PF=0 (no prefetch), AA_PFDIST (2 units ahead), AA_ODD_PARTS (1 the
 * odd step's pull only, 2 its row store only; timing only, wrong values), AA_COLLIDE_ONLY=1 (the collision loop
 * on the buffers, no memory), AA_VERBOSE=1 (prefetch list lengths). */
#define _GNU_SOURCE
#include "tess_physics_q.h"
#include <immintrin.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#ifndef LAT
#define LAT 19
#endif
#if LAT == 19
#define Q TESS_D3Q19_Q
#define LCX TESS_D3Q19_CX
#define LCY TESS_D3Q19_CY
#define LCZ TESS_D3Q19_CZ
#define LOPP TESS_D3Q19_OPP_TABLE
#define COLLIDE tess_q_collide_model_d3q19_f64
#define EQUIL tess_q_equilibrium_d3q19_f64
#else
#define Q TESS_D3Q27_Q
#define LCX TESS_D3Q27_CX
#define LCY TESS_D3Q27_CY
#define LCZ TESS_D3Q27_CZ
#define LOPP TESS_D3Q27_OPP
#define COLLIDE tess_q_collide_model_d3q27_f64
#define EQUIL tess_q_equilibrium_d3q27_f64
#endif
#define UNROLL _Pragma("GCC unroll 32")
#define AI __attribute__((always_inline)) static inline

static int nthr = 2;         /* threads (AA_THREADS) */
static int odd_parts = 3;    /* AA_ODD_PARTS (timing only, wrong values): 1 the odd step's row pull with the
                                * even step's local store, 2 the local load with the row store, 3 both (AA) */
static int collide_only = 0;
static int use_pf = 1;       /* AA_PF=0: no software prefetch */
static int pf_dist = 2;      /* AA_PFDIST: prefetch the unit this many ahead (the engine: 2 tiles) */ /* AA_COLLIDE_ONLY=1: the units' collisions on their buffers, no memory */
static const int cxs[Q] = LCX, cys[Q] = LCY, czs[Q] = LCZ, opps[Q] = LOPP;

typedef struct {
    int bx, uz, vec;                 /* block x extent, unit z extent, row moves by AVX-512 */
    int n, nxb, ny, nz;              /* box, blocks per axis */
    int64_t nb, nu, d;               /* blocks, units, direction stride (values) */
    double *mem, *f;                 /* allocation, populations */
    int32_t *nbr;                    /* 27 neighbour blocks per block (periodic) */
    uint64_t *wet;                   /* per unit, all ones (the engine's row check reads it) */
    int npf[2][4];                   /* prefetch templates per step kind (0 even, 1 odd) and unit z part */
    int8_t pfs[2][4][2048];          /* neighbour slot */
    int32_t pfo[2][4][2048];         /* value offset from the slot's block base */
    tess_params_t p;
} lay_t;

/* The collision of nodes n0 .. n1 - 1 of a buffer holding direction i's values at b[i * stride + n]: the engine's
 * cpu_q_collide_model loop (always inlined, so each sweep keeps its own constant strides). */
AI void collide_buffer(const tess_params_t *p, double *b, int stride, int n0, int n1)
{
    for (int n = n0; n < n1; n++) {
        double fl[Q];
        UNROLL
        for (int i = 0; i < Q; i++)
            fl[i] = b[i * stride + n];
        COLLIDE(p, TESS_COLLISION_LBGK, TESS_FLUID_INCOMPRESSIBLE, 0, fl);
        UNROLL
        for (int i = 0; i < Q; i++)
            b[i * stride + n] = fl[i];
    }
}

/* The lines of the unit pf_dist ahead that a step of kind odd reads (the prefetch templates), into pf; their count. */
AI int next_unit_lines(const lay_t *L, int64_t u, int odd, int uz, int64_t bv, const char **pf)
{
    const int64_t un = u + pf_dist;
    if (!use_pf || un >= L->nu)
        return 0;
    const int hn = (int)(un % (4 / uz));
    const int32_t *nbn = L->nbr + 27 * (un / (4 / uz));
    const int cnt = L->npf[odd][hn];
    for (int j = 0; j < cnt; j++)
        pf[j] = (const char *)(L->f + nbn[L->pfs[odd][hn][j]] * bv + L->pfo[odd][hn][j]);
    return cnt;
}

/* ---- row moves: the engine's form (memcpy of runs) and the AVX-512 form ---- */

/* write = 0: v = the pulled row (slot i of x - c_i); write = 1: the swapped store of v back to those slots. */
AI void row_move(double *a, double *b, double *v, int cx, int bx, int write, int vec)
{
    if (!vec || bx < 8) {
        if (cx == 0) {
            if (write)
                memcpy(a, v, bx * sizeof(double));
            else
                memcpy(v, a, bx * sizeof(double));
        } else if (cx > 0) {
            if (write) {
                b[bx - 1] = v[0];
                memcpy(a, v + 1, (bx - 1) * sizeof(double));
            } else {
                v[0] = b[bx - 1];
                memcpy(v + 1, a, (bx - 1) * sizeof(double));
            }
        } else {
            if (write) {
                memcpy(a + 1, v, (bx - 1) * sizeof(double));
                b[0] = v[bx - 1];
            } else {
                memcpy(v, a + 1, (bx - 1) * sizeof(double));
                v[bx - 1] = b[0];
            }
        }
        return;
    }
    const int nv = bx / 8;
    if (vec == 2) { /* aligned loads and stores only, the shift by valignq: no line but the row's and b's */
#define ALIGNR(hi, lo, k) _mm512_castsi512_pd(_mm512_alignr_epi64(_mm512_castpd_si512(hi), _mm512_castpd_si512(lo), k))
        __m512d A[4], V[4];
        UNROLL
        for (int w = 0; w < nv; w++)
            A[w] = _mm512_load_pd((write ? v : a) + 8 * w);
        if (cx == 0) {
            UNROLL
            for (int w = 0; w < nv; w++)
                _mm512_store_pd((write ? a : v) + 8 * w, A[w]);
        } else if (!write) {
            const __m512d B = _mm512_load_pd(cx > 0 ? b + bx - 8 : b);
            UNROLL
            for (int w = 0; w < nv; w++) /* cx > 0: [prev7, A0..A6]; cx < 0: [A1..A7, next0] */
                V[w] = cx > 0 ? ALIGNR(A[w], w == 0 ? B : A[w - 1], 7) : ALIGNR(w == nv - 1 ? B : A[w + 1], A[w], 1);
            UNROLL
            for (int w = 0; w < nv; w++)
                _mm512_store_pd(v + 8 * w, V[w]);
        } else if (cx > 0) { /* a[x] = v[x + 1], b[bx - 1] = v[0] */
            UNROLL
            for (int w = 0; w < nv; w++) {
                if (w == nv - 1)
                    _mm512_mask_store_pd(a + 8 * w, 0x7F, ALIGNR(A[w], A[w], 1));
                else
                    _mm512_store_pd(a + 8 * w, ALIGNR(A[w + 1], A[w], 1));
            }
            b[bx - 1] = v[0];
        } else { /* a[x] = v[x - 1], b[0] = v[bx - 1] */
            UNROLL
            for (int w = 0; w < nv; w++) {
                if (w == 0)
                    _mm512_mask_store_pd(a, 0xFE, ALIGNR(A[0], A[0], 7));
                else
                    _mm512_store_pd(a + 8 * w, ALIGNR(A[w], A[w - 1], 7));
            }
            b[0] = v[bx - 1];
        }
        return;
#undef ALIGNR
    }
    UNROLL
    for (int w = 0; w < nv; w++) {
        if (cx == 0) {
            if (write)
                _mm512_store_pd(a + 8 * w, _mm512_load_pd(v + 8 * w));
            else
                _mm512_store_pd(v + 8 * w, _mm512_load_pd(a + 8 * w));
        } else if (cx > 0) { /* v[x] = a[x - 1], v[0] = b[bx - 1] */
            if (write) {
                const __m512d x = _mm512_load_pd(v + 8 * w);
                if (w == 0)
                    _mm512_mask_storeu_pd(a - 1, 0xFE, x);
                else
                    _mm512_storeu_pd(a - 1 + 8 * w, x);
            } else {
                __m512d x = _mm512_loadu_pd(a - 1 + 8 * w);
                if (w == 0)
                    x = _mm512_mask_broadcastsd_pd(x, 1, _mm_load_sd(b + bx - 1));
                _mm512_store_pd(v + 8 * w, x);
            }
        } else { /* v[x] = a[x + 1], v[bx - 1] = b[0] */
            if (write) {
                const __m512d x = _mm512_load_pd(v + 8 * w);
                if (w == nv - 1)
                    _mm512_mask_storeu_pd(a + 1 + 8 * w, 0x7F, x);
                else
                    _mm512_storeu_pd(a + 1 + 8 * w, x);
            } else {
                __m512d x = _mm512_loadu_pd(a + 1 + 8 * w);
                if (w == nv - 1)
                    x = _mm512_mask_broadcastsd_pd(x, 0x80, _mm_load_sd(b));
                _mm512_store_pd(v + 8 * w, x);
            }
        }
    }
    if (write && cx > 0)
        b[bx - 1] = v[0];
    if (write && cx < 0)
        b[0] = v[bx - 1];
}

/* cpu_q_rows for a unit: rows z0 .. z0 + UZ - 1 of the block; buffer node n0 = bx (y + 4 (z - z0)). */
AI void unit_rows(double *const *base, int64_t ds, double *buf, int nun, int bx, int uz, int z0, int write,
                  uint64_t wet, int vec)
{
    const uint64_t full = bx >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bx) - 1;
    UNROLL
    for (int i = 0; i < Q; i++)
        UNROLL
        for (int z = z0; z < z0 + uz; z++)
            UNROLL
            for (int y = 0; y < 4; y++) {
                const int zu = z - czs[i], yu = y - cys[i];
                const int sz = zu < 0 ? -1 : zu >= 4 ? 1 : 0, sy = yu < 0 ? -1 : yu >= 4 ? 1 : 0;
                const int row = bx * ((yu - 4 * sy) + 4 * (zu - 4 * sz));
                const int n0 = bx * (y + 4 * (z - z0));
                double *a = base[13 + 3 * sy + 9 * sz] + i * ds + row;
                double *b = base[13 + (cxs[i] > 0 ? -1 : 1) + 3 * sy + 9 * sz] + i * ds + row;
                double *v = buf + (write ? opps[i] : i) * nun + n0;
                if (write && bx <= 16 && ((wet >> (n0 & 63)) & full) != full) {
                    abort(); /* dense box: never */
                }
                row_move(a, b, v, cxs[i], bx, write, vec);
            }
}

/* ---- the prefetch list of a unit (cpu_q_next_lines' rules, per block extent) ---- */

/* the line of value o (0 .. 16 bx - 1) of direction i of the block in neighbour slot `slot`, once */
static void pf_add(lay_t *L, int kind, int h, int slot, int i, int o, uint64_t *seen)
{
    const int key = (slot * Q + i) * 64 + o / 8; /* blocks start on a line: 8 values a line */
    if (seen[key / 64] >> (key % 64) & 1)
        return;
    seen[key / 64] |= (uint64_t)1 << (key % 64);
    int n = L->npf[kind][h]++;
    L->pfs[kind][h][n] = (int8_t)slot;
    L->pfo[kind][h][n] = (int32_t)((int64_t)i * L->d + o / 8 * 8);
}

static void build_prefetch(lay_t *L)
{
    const int bx = L->bx, uz = L->uz, bv = bx * 16;
    for (int kind = 0; kind < 2; kind++)
        for (int h = 0; h < 4 / uz; h++) {
            static uint64_t seen[27 * Q];
            memset(seen, 0, sizeof seen);
            L->npf[kind][h] = 0;
            const int z0 = h * uz;
            for (int i = 0; i < Q; i++) /* own lines */
                for (int o = z0 * 4 * bx; o < (z0 + uz) * 4 * bx; o += 8)
                    pf_add(L, kind, h, 13, i, o, seen);
            if (!kind)
                continue;
            uint64_t ends[Q] = {0}, rseen[Q] = {0};
            for (int i = 0; i < Q; i++)
                for (int z = z0; z < z0 + uz; z++)
                    for (int y = 0; y < 4; y++) {
                        const int zu = z - czs[i], yu = y - cys[i];
                        const int sz = zu < 0 ? -1 : zu >= 4 ? 1 : 0, sy = yu < 0 ? -1 : yu >= 4 ? 1 : 0;
                        const int row = bx * ((yu - 4 * sy) + 4 * (zu - 4 * sz));
                        const int sa = 13 + 3 * sy + 9 * sz, sb = 13 + (cxs[i] > 0 ? -1 : 1) + 3 * sy + 9 * sz;
                        const int bend = row + (cxs[i] > 0 ? bx - 1 : 0); /* the end value read in slot sb */
                        if (sy == 0 && sz != 0) /* the z-neighbour's layer (the engine: 2 lines a layer) */
                            for (int o = row; o < row + bx; o += 8)
                                pf_add(L, kind, h, sa, i, o, seen);
                        if (sy > 0)
                            for (int o = row; o < row + bx; o += 8)
                                pf_add(L, kind, h, sa, i, o, seen);
                        if (cxs[i] != 0 && (sy > 0 || (sy == 0 && sz != 0 && cxs[i] < 0)))
                            pf_add(L, kind, h, sb, i, bend, seen);
                        if (cxs[i] < 0 && sy == 0 && sz == 0)
                            ends[i] |= (uint64_t)1 << (bend / 8);
                        if (cys[i] < 0 && y == 0 && sz == 0) /* the -y block row's pull read rows y = 0 */
                            rseen[i] |= (uint64_t)1 << (4 * bx * zu / 8);
                    }
            for (int i = 0; i < Q; i++)
                for (uint64_t m = ends[i] & ~rseen[i]; m; m &= m - 1)
                    pf_add(L, kind, h, 14, i, 8 * __builtin_ctzll(m), seen);
            (void)bv;
        }
}

/* ---- one unit ---- */

AI void unit_step(lay_t *L, int64_t u, int odd, double *buf, int bx, int uz, int z0, int vec)
{
    const int nun = bx * 4 * uz;
    const int64_t ds = L->d, blk = u / (4 / uz);
    const int32_t *nb = L->nbr + 27 * blk;
    double *f = L->f;
    const int64_t bv = bx * 16;
    double *self = f + blk * bv + z0 * 4 * bx;
    double *base[27];
    if (collide_only) { /* the compute floor: the collision loop alone, on a buffer in L1 */
        collide_buffer(&L->p, buf, nun, 0, nun);
        return;
    }
    for (int s = 0; s < 27; s++)
        base[s] = f + nb[s] * bv;
    if (odd && odd_parts & 1) {
        unit_rows(base, ds, buf, nun, bx, uz, z0, 0, ~(uint64_t)0, vec);
    } else {
        UNROLL
        for (int i = 0; i < Q; i++)
            memcpy(buf + i * nun, self + opps[i] * ds, nun * sizeof(double));
    }
    /* the unit pf_dist ahead (the engine: two tiles), into L2 (the engine's rule for an L1d under 48 KiB) */
    const char *pf[2048];
    const int npf = next_unit_lines(L, u, odd, uz, bv, pf);
    const int chunks = nun / 8, per = (npf + chunks - 1) / chunks;
    for (int c = 0; c < chunks; c++) {
        for (int j = c * per; j < npf && j < (c + 1) * per; j++)
            __builtin_prefetch(pf[j], 0, 2);
        collide_buffer(&L->p, buf, nun, 8 * c, 8 * c + 8);
    }
    if (odd && odd_parts & 2) {
        unit_rows(base, ds, buf, nun, bx, uz, z0, 1, L->wet[u], vec);
    } else {
        UNROLL
        for (int i = 0; i < Q; i++)
            memcpy(self + i * ds, buf + i * nun, nun * sizeof(double));
    }
}

/* The odd step row by row (variants *f): each row of bx nodes pulls its q rows into a buffer of q x bx values,
 * collides and stores them swapped at once (no unit buffer; with whole-line rows a pulled row is one or two
 * vectors). The prefetch of the unit two ahead spread over the unit's rows. */
AI void unit_odd_rows(lay_t *L, int64_t u, double *rb, int bx, int uz, int z0, int vec)
{
    const int64_t ds = L->d, blk = u / (4 / uz), bv = bx * 16;
    const int32_t *nb = L->nbr + 27 * blk;
    double *f = L->f;
    double *base[27];
    for (int s = 0; s < 27; s++)
        base[s] = f + nb[s] * bv;
    const char *pf[2048];
    const int npf = next_unit_lines(L, u, 1, uz, bv, pf);
    const int per = (npf + 4 * uz - 1) / (4 * uz);
    UNROLL
    for (int z = z0; z < z0 + uz; z++)
        UNROLL
        for (int y = 0; y < 4; y++) {
            const int c = 4 * (z - z0) + y;
            for (int j = c * per; j < npf && j < (c + 1) * per; j++)
                __builtin_prefetch(pf[j], 0, 2);
            for (int write = 0; write < 2; write++) {
                UNROLL
                for (int i = 0; i < Q; i++) {
                    const int zu = z - czs[i], yu = y - cys[i];
                    const int sz = zu < 0 ? -1 : zu >= 4 ? 1 : 0, sy = yu < 0 ? -1 : yu >= 4 ? 1 : 0;
                    const int row = bx * ((yu - 4 * sy) + 4 * (zu - 4 * sz));
                    double *a = base[13 + 3 * sy + 9 * sz] + i * ds + row;
                    double *b = base[13 + (cxs[i] > 0 ? -1 : 1) + 3 * sy + 9 * sz] + i * ds + row;
                    row_move(a, b, rb + (write ? opps[i] : i) * bx, cxs[i], bx, write, vec);
                }
                if (write)
                    break;
                collide_buffer(&L->p, rb, bx, 0, bx);
            }
        }
}

/* One sweep for the compile-time shape (bx, uz, vec); FUSED: the odd step by unit_odd_rows. */
#define UNIT(BX, UZ, Z0, VEC, FUSED)                                                                              \
    do {                                                                                                          \
        if (FUSED && odd)                                                                                         \
            unit_odd_rows(L, u, buf, BX, UZ, Z0, VEC);                                                            \
        else                                                                                                      \
            unit_step(L, u, odd, buf, BX, UZ, Z0, VEC);                                                           \
    } while (0)
#define SWEEP(NAME, BX, UZ, VEC) SWEEPF(NAME, BX, UZ, VEC, 0)
#define SWEEPF(NAME, BX, UZ, VEC, FUSED)                                                                          \
    static void NAME(lay_t *L, int odd)                                                                           \
    {                                                                                                             \
        _Pragma("omp parallel num_threads(nthr)")                                                                    \
        {                                                                                                         \
            _Alignas(64) double buf[Q * BX * 4 * UZ];                                                             \
            for (int j = 0; j < Q * BX * 4 * UZ; j++)                                                             \
                buf[j] = 1.0 / Q;                                                                                 \
            _Pragma("omp for schedule(static)") for (int64_t u = 0; u < L->nu; u++)                               \
            {                                                                                                     \
                const int h = (int)(u % (4 / UZ)); /* the unit's z part, a constant in each call */                \
                if (UZ == 4 || h == 0)                                                                            \
                    UNIT(BX, UZ, 0, VEC, FUSED);                                                                  \
                else if (UZ == 2)                                                                                 \
                    UNIT(BX, UZ, 2, VEC, FUSED);                                                                  \
                else if (UZ == 1 && h == 1)                                                                       \
                    UNIT(BX, 1, 1, VEC, FUSED);                                                                   \
                else if (UZ == 1 && h == 2)                                                                       \
                    UNIT(BX, 1, 2, VEC, FUSED);                                                                   \
                else if (UZ == 1)                                                                                 \
                    UNIT(BX, 1, 3, VEC, FUSED);                                                                   \
            }                                                                                                     \
        }                                                                                                         \
    }
SWEEP(sweep_a, 4, 4, 0)
SWEEP(sweep_b, 8, 4, 0)
SWEEP(sweep_bv, 8, 4, 1)
SWEEP(sweep_b2v, 8, 2, 1)
SWEEP(sweep_cv, 16, 4, 1)
SWEEP(sweep_bw, 8, 4, 2)
SWEEP(sweep_b2w, 8, 2, 2)
SWEEP(sweep_cw, 16, 4, 2)
SWEEP(sweep_c1w, 16, 1, 2)
SWEEP(sweep_d1w, 32, 1, 2)
SWEEPF(sweep_b2f, 8, 2, 2, 1)
SWEEPF(sweep_c1f, 16, 1, 2, 1)

typedef struct {
    const char *name;
    int bx, uz, vec;
    void (*sweep)(lay_t *, int);
} variant_t;
static const variant_t variants[] = {{"a", 4, 4, 0, sweep_a},
                                     {"b", 8, 4, 0, sweep_b},
                                     {"bv", 8, 4, 1, sweep_bv},
                                     {"b2v", 8, 2, 1, sweep_b2v},
                                     {"cv", 16, 4, 1, sweep_cv},
                                     {"bw", 8, 4, 2, sweep_bw},
                                     {"b2w", 8, 2, 2, sweep_b2w},
                                     {"cw", 16, 4, 2, sweep_cw},
                                     {"c1w", 16, 1, 2, sweep_c1w},
                                     {"d1w", 32, 1, 2, sweep_d1w},
                                     {"b2f", 8, 2, 2, sweep_b2f},
                                     {"c1f", 16, 1, 2, sweep_c1f}};
#define NVAR ((int)(sizeof variants / sizeof variants[0]))

/* ---- set-up ---- */

static int64_t idx(const lay_t *L, int x, int y, int z, int i)
{
    const int64_t b = x / L->bx + L->nxb * ((int64_t)(y / 4) + L->ny * (z / 4));
    return i * L->d + b * L->bx * 16 + x % L->bx + L->bx * (y % 4 + 4 * (z % 4));
}

/* the state after collision of a smooth field with a deterministic non-equilibrium part */
static void init_node(int n, int x, int y, int z, double *g)
{
    const double k = 2 * 3.14159265358979 / n;
    const double rho = 1 + 0.01 * sin(k * x) * cos(k * z), u[3] = {0.03 * sin(k * y), 0.02 * cos(k * x), 0.01 * sin(k * z)};
    EQUIL(TESS_FLUID_INCOMPRESSIBLE, rho, u, g);
    for (int i = 0; i < Q; i++) {
        uint32_t hsh = (uint32_t)(((x * 73856093u) ^ (y * 19349663u) ^ (z * 83492791u)) + 2654435761u * (uint32_t)i);
        hsh ^= hsh >> 13, hsh *= 0x5bd1e995u, hsh ^= hsh >> 15;
        g[i] += 1e-4 * ((double)(hsh & 0xffff) / 65536.0 - 0.5);
    }
}

static void lay_init(lay_t *L, const variant_t *v, int n)
{
    memset(L, 0, sizeof *L);
    L->bx = v->bx, L->uz = v->uz, L->vec = v->vec, L->n = n;
    L->nxb = n / v->bx, L->ny = n / 4, L->nz = n / 4;
    L->nb = (int64_t)L->nxb * L->ny * L->nz;
    L->nu = L->nb * (4 / v->uz);
    int64_t lines = L->nb * v->bx * 16 / 8;
    if (lines % 2 == 0)
        lines++;
    L->d = lines * 8;
    const size_t bytes = ((size_t)(Q * L->d + 16) * 8 + (2u << 20) - 1) / (2u << 20) * (2u << 20);
    L->mem = aligned_alloc(2u << 20, bytes);
    madvise(L->mem, bytes, MADV_HUGEPAGE);
    L->f = L->mem + 8; /* a line before: the unaligned row loads at a - 1 */
    L->nbr = malloc(sizeof(int32_t) * 27 * L->nb);
    for (int bz = 0; bz < L->nz; bz++)
        for (int by = 0; by < L->ny; by++)
            for (int bxi = 0; bxi < L->nxb; bxi++) {
                const int64_t b = bxi + L->nxb * ((int64_t)by + L->ny * bz);
                for (int s = 0; s < 27; s++) {
                    const int dx = s % 3 - 1, dy = s / 3 % 3 - 1, dz = s / 9 - 1;
                    const int X = (bxi + dx + L->nxb) % L->nxb, Y = (by + dy + L->ny) % L->ny,
                              Z = (bz + dz + L->nz) % L->nz;
                    L->nbr[27 * b + s] = (int32_t)(X + L->nxb * ((int64_t)Y + L->ny * Z));
                }
            }
    L->wet = malloc(sizeof(uint64_t) * L->nu);
    for (int64_t u = 0; u < L->nu; u++)
        L->wet[u] = ~(uint64_t)0;
    L->p.tau = 0.6;
    L->p.collision = TESS_COLLISION_LBGK;
    L->p.fluid = TESS_FLUID_INCOMPRESSIBLE;
    build_prefetch(L);
    /* first touch by the sweep's threads, in the sweep's order */
#pragma omp parallel for schedule(static) num_threads(nthr)
    for (int64_t u = 0; u < L->nu; u++) {
        const int nun = L->bx * 4 * L->uz;
        for (int i = 0; i < Q; i++)
            memset(L->f + i * L->d + u * nun, 0, nun * sizeof(double));
    }
#pragma omp parallel for schedule(static) num_threads(nthr)
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                double g[Q];
                init_node(n, x, y, z, g);
                for (int i = 0; i < Q; i++)
                    L->f[idx(L, x, y, z, i)] = g[i];
            }
}

/* AB reference, node-major: g'(x)_i = collide(g(x - c_j)_j)_i */
static double *reference(int n, int steps)
{
    const int64_t nn = (int64_t)n * n * n;
    double *g = malloc(sizeof(double) * Q * nn), *h = malloc(sizeof(double) * Q * nn);
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++)
                init_node(n, x, y, z, g + Q * (x + (int64_t)n * (y + (int64_t)n * z)));
    tess_params_t p;
    memset(&p, 0, sizeof p);
    p.tau = 0.6, p.collision = TESS_COLLISION_LBGK, p.fluid = TESS_FLUID_INCOMPRESSIBLE;
    for (int s = 0; s < steps; s++) {
        for (int z = 0; z < n; z++)
            for (int y = 0; y < n; y++)
                for (int x = 0; x < n; x++) {
                    double fl[Q];
                    for (int i = 0; i < Q; i++) {
                        const int X = (x - cxs[i] + n) % n, Y = (y - cys[i] + n) % n, Z = (z - czs[i] + n) % n;
                        fl[i] = g[Q * (X + (int64_t)n * (Y + (int64_t)n * Z)) + i];
                    }
                    COLLIDE(&p, TESS_COLLISION_LBGK, TESS_FLUID_INCOMPRESSIBLE, 0, fl);
                    memcpy(h + Q * (x + (int64_t)n * (y + (int64_t)n * z)), fl, sizeof fl);
                }
        double *t = g;
        g = h, h = t;
    }
    free(h);
    return g;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmpd(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return fprintf(stderr, "usage: %s check [N] | time VARIANT [N] [steps] [reps]\n", argv[0]), 2;
    if (getenv("AA_PFDIST"))
        pf_dist = atoi(getenv("AA_PFDIST"));
    if (getenv("AA_PF"))
        use_pf = atoi(getenv("AA_PF"));
    if (getenv("AA_ODD_PARTS"))
        odd_parts = atoi(getenv("AA_ODD_PARTS"));
    if (getenv("AA_COLLIDE_ONLY"))
        collide_only = atoi(getenv("AA_COLLIDE_ONLY"));
    if (getenv("AA_THREADS"))
        nthr = atoi(getenv("AA_THREADS"));
    if (!strcmp(argv[1], "check")) {
        const int n = argc > 2 ? atoi(argv[2]) : 32, steps = 6;
        /* AA_CHECK_STEPS: the layouts' step count (the reference's stays 6): 4 must report differences */
        const int lsteps = getenv("AA_CHECK_STEPS") ? atoi(getenv("AA_CHECK_STEPS")) : steps;
        if (n % 32)
            return fprintf(stderr, "check: N must be a multiple of 32 (the widest block)\n"), 2;
        double *ref = reference(n, steps);
        int bad = 0;
        for (int v = 0; v < NVAR; v++) {
            lay_t L;
            lay_init(&L, &variants[v], n);
            for (int s = 0; s < lsteps; s++)
                variants[v].sweep(&L, s % 2 == 0);
            int64_t diff = 0;
            double maxd = 0;
            for (int z = 0; z < n; z++)
                for (int y = 0; y < n; y++)
                    for (int x = 0; x < n; x++)
                        for (int i = 0; i < Q; i++) {
                            const double a = L.f[idx(&L, x, y, z, i)],
                                         r = ref[Q * (x + (int64_t)n * (y + (int64_t)n * z)) + i];
                            if (memcmp(&a, &r, sizeof a))
                                diff++, maxd = fmax(maxd, fabs(a - r));
                        }
            printf("D3Q%d %3d^3 %d AA steps, variant %-4s against %d AB steps: %lld values differ (max %.3g)\n", Q,
                   n, lsteps, variants[v].name, steps, (long long)diff, maxd);
            bad += diff != 0;
            free(L.mem), free(L.nbr), free(L.wet);
        }
        free(ref);
        return bad != 0;
    }
    if (!strcmp(argv[1], "lines")) { /* distinct 64-byte lines a unit's pull touches, per 64 nodes (the first unit
                                       * of a block; the swapped store touches the same) */
        for (int v = 0; v < NVAR; v++) {
            const int bx = variants[v].bx, uz = variants[v].uz;
            static uint8_t seen[27 * Q * 64];
            memset(seen, 0, sizeof seen);
            int own = 0, other = 0, ends = 0;
            for (int i = 0; i < Q; i++)
                for (int z = 0; z < uz; z++)
                    for (int y = 0; y < 4; y++) {
                        const int zu = z - czs[i], yu = y - cys[i];
                        const int sz = zu < 0 ? -1 : zu >= 4 ? 1 : 0, sy = yu < 0 ? -1 : yu >= 4 ? 1 : 0;
                        const int row = bx * ((yu - 4 * sy) + 4 * (zu - 4 * sz));
                        const int sa = 13 + 3 * sy + 9 * sz, sb = sa + (cxs[i] > 0 ? -1 : 1);
                        for (int o = row; o < row + bx; o += 8)
                            if (!seen[(sa * Q + i) * 64 + o / 8]++)
                                *(sa == 13 && o < uz * 4 * bx ? &own : &other) += 1;
                        const int bend = row + (cxs[i] > 0 ? bx - 1 : 0);
                        if (cxs[i] != 0 && !seen[(sb * Q + i) * 64 + bend / 8]++)
                            ends++;
                    }
            const double sc = 64.0 / (bx * 4 * uz);
            printf("D3Q%d %-4s unit %2dx4x%d: lines per 64 nodes %4.0f = own rows %4.0f + other rows %4.0f + x end values %4.0f\n",
                   Q, variants[v].name, bx, uz, sc * (own + other + ends), sc * own, sc * other, sc * ends);
        }
        return 0;
    }
    if (!strcmp(argv[1], "time") && argc > 2) {
        int v = 0;
        while (v < NVAR && strcmp(variants[v].name, argv[2]))
            v++;
        if (v == NVAR)
            return fprintf(stderr, "unknown variant %s\n", argv[2]), 2;
        const int n = argc > 3 ? atoi(argv[3]) : 128, steps = argc > 4 ? atoi(argv[4]) : 20,
                  reps = argc > 5 ? atoi(argv[5]) : 3;
        if (n % variants[v].bx || n % 4)
            return fprintf(stderr, "N must be a multiple of %d and 4\n", variants[v].bx), 2;
        lay_t L;
        lay_init(&L, &variants[v], n);
        variants[v].sweep(&L, 1), variants[v].sweep(&L, 0);
        double m[16], to = 0, te = 0;
        for (int r = 0; r < reps && r < 16; r++) {
            const double t0 = cpu_now();
            for (int s = 0; s < steps; s++) {
                const double t1 = cpu_now();
                variants[v].sweep(&L, s % 2 == 0);
                *(s % 2 == 0 ? &to : &te) += cpu_now() - t1;
            }
            m[r] = (double)n * n * n * steps / ((cpu_now() - t0) / nthr) / 1e6;
        }
        qsort(m, reps, sizeof m[0], cmpd);
        /* ns of CPU time per node update, odd and even steps apart */
        const double upd = (double)n * n * n * steps * reps / 2;
        if (getenv("AA_VERBOSE"))
            printf("prefetch lines a unit: even %d, odd %d %d %d %d (unit z parts)\n", L.npf[0][0], L.npf[1][0],
                   L.npf[1][1], L.npf[1][2], L.npf[1][3]);
        printf("D3Q%d %s %d^3 %d thr MLUPS/%dcpu-s %.1f (reps", Q, variants[v].name, n, nthr, nthr, m[reps / 2]);
        for (int r = 0; r < reps; r++)
            printf(" %.1f", m[r]);
        printf(") cpu-ns/node odd %.2f even %.2f\n", 1e9 * to / upd, 1e9 * te / upd);
        return 0;
    }
    return 2;
}
