/* The state a range of tiles at a time (what a GPU backend's initialise_from, upload, download and MR check see)
 * against the whole state at once, bitwise, on every lattice and precision:
 *  - tess_state_equilibrium_tiles over chunks of 7 tiles, put back in canonical order by tess_state_convert, equals
 *    tess_state_equilibrium, from a uniform start and from dense fields;
 *  - the uniform start (two equilibria computed once, copied) equals the per-node path given fields that hold the
 *    same uniform values;
 *  - tess_state_mr_convert by chunks (from tile-major chunks, and from and to the canonical state) equals one pass
 *    over every tile (D2Q9, D3Q19, D3Q27; D3Q13 has no MR).
 * Tolerance: none (memcmp): the same functions on the same inputs, only the order of the tiles differs. */
#include "tess_lattice.h"
#include "tess_state.h"
#include "tess_state_mr.h"
#include "tess_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK = 7 };

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

static int check_lattice(tess_lattice_id lat, tess_precision prec)
{
    const tess_lattice_t *L = tess_lattice_get(lat);
    const int flat = lat == TESS_LATTICE_D2Q9;
    tess_geometry_t g;
    tess_params_t p;
    tess_test_mixed_case(&g, &p, TESS_COLLISION_LBGK, 0, 7);
    tess_geometry_free(&g);
    tess_test_mixed_geometry(&g, 21, 18, flat ? 1 : 8, 7, 3, 18, 0.25); /* 21 x 18: padding in x and y */
    p.lattice = lat;
    tess_tiling_t t;
    tess_error_t err = {0};
    if (tess_tiling_build(&t, &g, &p, &err) != TESS_OK) {
        fprintf(stderr, "%s\n", err.msg);
        exit(1);
    }
    const size_t vs = tess_precision_size(prec), n = tess_state_count(&t), tile = (size_t)t.q * 64 * vs;
    const size_t nn = (size_t)g.nx * g.ny * g.nz;
    char *whole = xmalloc(n * vs), *chunked = xmalloc(n * vs), *staging = xmalloc(CHUNK * tile);
    double *rho = xmalloc(nn * sizeof *rho), *u = xmalloc(3 * nn * sizeof *u);
    const double rho0 = 1.013, u0[3] = {0.021, -0.013, 0.007};
    char what[160];
    int ok = 1;
    for (int dense = 0; dense < 2; dense++) {
        tess_test_rng r;
        tess_test_rng_seed(&r, 11);
        for (size_t i = 0; i < nn; i++) {
            rho[i] = 1.0 + 0.04 * (tess_test_uniform(&r) - 0.5);
            for (int c = 0; c < 3; c++)
                u[3 * i + c] = 0.06 * (tess_test_uniform(&r) - 0.5);
        }
        const double *fr = dense ? rho : NULL, *fu = dense ? u : NULL;
        tess_state_equilibrium(&t, &p, prec, whole, rho0, u0, fr, fu);
        memset(chunked, 0xff, n * vs);
        for (int32_t k0 = 0; k0 < t.ntiles; k0 += CHUNK) {
            const int32_t k1 = t.ntiles - k0 < CHUNK ? t.ntiles : k0 + CHUNK;
            tess_state_equilibrium_tiles(&t, &p, prec, k0, k1, staging, rho0, u0, fr, fu);
            tess_state_convert(&t, prec, chunked, staging, k0, k1, 0);
        }
        snprintf(what, sizeof what, "%s %s: equilibrium by chunks of %d tiles = whole (%s start, %zu values)",
                 L->name, tess_precision_name(prec), CHUNK, dense ? "dense-field" : "uniform", n);
        ok &= tess_test_true(what, memcmp(whole, chunked, n * vs) == 0);
    }
    /* uniform shortcut against the per-node path with fields equal to rho0, u0 everywhere */
    for (size_t i = 0; i < nn; i++) {
        rho[i] = rho0;
        for (int c = 0; c < 3; c++)
            u[3 * i + c] = u0[c];
    }
    tess_state_equilibrium(&t, &p, prec, whole, rho0, u0, NULL, NULL);
    tess_state_equilibrium(&t, &p, prec, chunked, rho0, u0, rho, u);
    snprintf(what, sizeof what, "%s %s: uniform start = per-node equilibria of the same values", L->name,
             tess_precision_name(prec));
    ok &= tess_test_true(what, memcmp(whole, chunked, n * vs) == 0);
    if (lat != TESS_LATTICE_D3Q13) {
        const int nm = tess_state_node_values(TESS_PATTERN_MR, lat, t.q);
        const size_t ms_tile = (size_t)nm * 64 * vs;
        void *state = tess_test_random_state(&t, &p, prec, 5);
        char *ms = xmalloc((size_t)t.ntiles * ms_tile), *ms2 = xmalloc((size_t)t.ntiles * ms_tile);
        char *ms_chunk = xmalloc(CHUNK * ms_tile);
        tess_state_mr_convert(&t, prec, state, 1, ms, 0, t.ntiles, 1);
        memset(ms2, 0xff, (size_t)t.ntiles * ms_tile);
        for (int32_t k0 = 0; k0 < t.ntiles; k0 += CHUNK) { /* from tile-major chunks of populations */
            const int32_t k1 = t.ntiles - k0 < CHUNK ? t.ntiles : k0 + CHUNK;
            tess_state_convert(&t, prec, state, staging, k0, k1, 1);
            tess_state_mr_convert(&t, prec, staging, 0, ms_chunk, k0, k1, 1);
            memcpy(ms2 + (size_t)k0 * ms_tile, ms_chunk, (size_t)(k1 - k0) * ms_tile);
        }
        snprintf(what, sizeof what, "%s %s: MR moments from tile-major chunks = from the whole canonical state",
                 L->name, tess_precision_name(prec));
        ok &= tess_test_true(what, memcmp(ms, ms2, (size_t)t.ntiles * ms_tile) == 0);
        memset(ms2, 0xff, (size_t)t.ntiles * ms_tile);
        for (int32_t k0 = 0; k0 < t.ntiles; k0 += CHUNK) { /* from the canonical state, chunk by chunk */
            const int32_t k1 = t.ntiles - k0 < CHUNK ? t.ntiles : k0 + CHUNK;
            tess_state_mr_convert(&t, prec, state, 1, ms2 + (size_t)k0 * ms_tile, k0, k1, 1);
        }
        snprintf(what, sizeof what, "%s %s: MR moments by canonical chunks = one pass", L->name,
                 tess_precision_name(prec));
        ok &= tess_test_true(what, memcmp(ms, ms2, (size_t)t.ntiles * ms_tile) == 0);
        tess_state_mr_convert(&t, prec, whole, 1, ms, 0, t.ntiles, 0);
        memset(chunked, 0xff, n * vs);
        for (int32_t k0 = 0; k0 < t.ntiles; k0 += CHUNK) {
            const int32_t k1 = t.ntiles - k0 < CHUNK ? t.ntiles : k0 + CHUNK;
            tess_state_mr_convert(&t, prec, chunked, 1, ms + (size_t)k0 * ms_tile, k0, k1, 0);
        }
        snprintf(what, sizeof what, "%s %s: populations rebuilt from the moments by chunks = one pass", L->name,
                 tess_precision_name(prec));
        ok &= tess_test_true(what, memcmp(whole, chunked, n * vs) == 0);
        free(state);
        free(ms);
        free(ms2);
        free(ms_chunk);
    }
    free(whole);
    free(chunked);
    free(staging);
    free(rho);
    free(u);
    tess_tiling_free(&t);
    tess_geometry_free(&g);
    return ok;
}

int main(void)
{
    const tess_lattice_id lats[4] = {TESS_LATTICE_D2Q9, TESS_LATTICE_D3Q13, TESS_LATTICE_D3Q19, TESS_LATTICE_D3Q27};
    for (int l = 0; l < 4; l++)
        for (int pr = 0; pr < 2; pr++)
            check_lattice(lats[l], pr ? TESS_PRECISION_SINGLE : TESS_PRECISION_DOUBLE);
    return tess_test_result("test_state_chunks");
}
