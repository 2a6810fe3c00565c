/* The outputs in parts that a distributed run combines on rank 0 (docs/mpi.md, "Outputs without the global
 * copy"), checked without MPI:
 *  - the restart file's CRC-32 from the header's bytes and per-block CRC-32s (tess_restart_crc_blocks, zlib's
 *    crc32_combine) must equal, bit for bit, zlib's CRC-32 of the whole header-and-values byte string and the
 *    CRC that tess_restart_write stores, for double and single precision blocks of a random state;
 *  - the monitor's per-tile partials (tess_tile_stats) combined in tile order must give the mean density, the
 *    largest speed and du_rel of a direct sum over the wet nodes, to 1e-13 relative (two summation orders of
 *    about 10^4 terms of size 1: each within n eps = 2e-12 of the exact sum in the worst case, in practice
 *    sqrt(n) eps; the largest speed, a maximum, exactly). */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include "tess_restart.h"
#include "tess_state.h"
#include "tess_test.h"
#include "tess_tile_stats.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static void crc_case(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec)
{
    void *pops = tess_test_random_state(t, p, prec, 11);
    const size_t vs = tess_precision_size(prec), block = (size_t)t->q * 64 * vs;
    const tess_restart_header_t h = {TESS_RESTART_VERSION, (uint32_t)prec, 42, t->nx, t->ny, t->nz, t->ntiles,
                                     0x1234567890abcdefull, (uint64_t)tess_state_count(t)};
    unsigned char hb[TESS_RESTART_HEADER_BYTES], out[TESS_RESTART_HEADER_BYTES];
    tess_restart_header_bytes(&h, hb);
    uint32_t *bc = malloc((size_t)t->ntiles * sizeof *bc);
    for (int32_t k = 0; k < t->ntiles; k++)
        bc[k] = tess_restart_block_crc((const char *)pops + (size_t)k * block, block);
    const uint32_t combined = tess_restart_crc_blocks(hb, bc, t->ntiles, block, out);
    uLong direct = crc32(0L, Z_NULL, 0);
    direct = crc32(direct, hb, sizeof hb);
    direct = crc32(direct, pops, (uInt)(block * (size_t)t->ntiles));
    char what[160];
    snprintf(what, sizeof what, "%s: CRC-32 from %d tile blocks %08x equals the whole file's %08x",
             prec == TESS_PRECISION_SINGLE ? "single" : "double", t->ntiles, (unsigned)combined, (unsigned)direct);
    tess_test_true(what, combined == (uint32_t)direct);
    /* The header bytes carrying it equal those of the single-process writer's file. */
    char path[] = "/tmp/tess_test_crc_XXXXXX";
    const int fd = mkstemp(path);
    tess_error_t err;
    unsigned char file_head[TESS_RESTART_HEADER_BYTES] = {0};
    int same = 0;
    if (fd >= 0 && tess_restart_write(path, &h, pops, &err) == TESS_OK) {
        FILE *f = fopen(path, "rb");
        same = f && fread(file_head, 1, sizeof file_head, f) == sizeof file_head &&
               memcmp(file_head, out, sizeof out) == 0;
        if (f)
            fclose(f);
    }
    if (fd >= 0) {
        close(fd);
        remove(path);
    }
    snprintf(what, sizeof what, "%s: the combined header equals tess_restart_write's, CRC field included",
             prec == TESS_PRECISION_SINGLE ? "single" : "double");
    tess_test_true(what, same);
    free(bc);
    free(pops);
}

static void stats_case(const tess_tiling_t *t, const tess_params_t *p)
{
    void *a = tess_test_random_state(t, p, TESS_PRECISION_DOUBLE, 3), *b = tess_test_random_state(t, p, TESS_PRECISION_DOUBLE, 4);
    const size_t n = 64 * (size_t)t->ntiles;
    double *rho = malloc(n * sizeof *rho), *u = malloc(3 * n * sizeof *u), *rho_b = malloc(n * sizeof *rho_b),
           *u_prev = malloc(3 * n * sizeof *u_prev), *part = malloc(TESS_TILE_STATS_N * (size_t)t->ntiles * sizeof *part);
    tess_state_fields(t, p, TESS_PRECISION_DOUBLE, a, rho, u);
    tess_state_fields(t, p, TESS_PRECISION_DOUBLE, b, rho_b, u_prev);
    tess_tile_stats(t, t->ntiles, p, rho, u, u_prev, part);
    tess_tile_stats_t s;
    tess_tile_stats_combine(part, t->ntiles, 1, &s);
    double sum = 0, wet = 0, u2max = 0, num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        if (!tess_kind_is_wet(p->mat[t->node_type[i]].kind))
            continue;
        const double *v = u + 3 * i, *w = u_prev + 3 * i;
        sum += rho[i];
        wet += 1;
        u2max = fmax(u2max, v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        for (int c = 0; c < 3; c++) {
            num += (v[c] - w[c]) * (v[c] - w[c]);
            den += v[c] * v[c];
        }
    }
    tess_test_close("mean density from per-tile sums", s.mean_rho, sum / wet, 1e-13 * fabs(sum / wet));
    tess_test_true("largest speed from per-tile maxima: exactly", s.max_u == sqrt(u2max));
    tess_test_close("du_rel from per-tile sums", s.du_rel, sqrt(num / den), 1e-13 * sqrt(num / den));
    tess_tile_stats_combine(part, t->ntiles, 0, &s);
    tess_test_true("du_rel without a previous row: NaN", isnan(s.du_rel));
    free(a);
    free(b);
    free(rho);
    free(u);
    free(rho_b);
    free(u_prev);
    free(part);
}

int main(void)
{
    tess_geometry_t g;
    tess_params_t p;
    tess_test_mixed_case(&g, &p, TESS_COLLISION_LBGK, 0, 5);
    tess_tiling_t t;
    tess_error_t err;
    if (tess_tiling_build(&t, &g, &p, &err) != TESS_OK) {
        tess_test_true(err.msg, 0);
        return tess_test_result("test_output_parts");
    }
    crc_case(&t, &p, TESS_PRECISION_DOUBLE);
    crc_case(&t, &p, TESS_PRECISION_SINGLE);
    stats_case(&t, &p);
    tess_tiling_free(&t);
    tess_geometry_free(&g);
    return tess_test_result("test_output_parts");
}
