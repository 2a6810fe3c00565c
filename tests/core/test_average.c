/* The time-average accumulator (core/io/tess_average.c) on inputs built here:
 *  - a steady field sampled 7 times: the means equal the field (7 additions and one division by 7 of values
 *    below 1: 8 roundings, tolerance 16 eps relative) and OSI = 0 (|sum w| and sum |w| of identical vectors
 *    agree to the same round-off: tolerance 16 eps);
 *  - a purely oscillating WSS w(t) = A cos(2 pi t / T) e over whole periods (sum w = 0 to round-off): OSI = 0.5
 *    (tolerance 1e-12: the cosine sum over 16 samples cancels to ~ 16 eps of A), and TAWSS = A <|cos|>, with
 *    <|cos|> over the 16 samples computed here the same way;
 *  - a steady shear plus an oscillation of half its amplitude, reversing never: OSI = 0;
 *  - the companion file round trip: save, load into a fresh accumulator, equal sums byte for byte; a wrong
 *    step or hash is refused, and so are a flipped byte (CRC-32), a cut file (size) and a version-1 file;
 *  - the file's CRC-32 made from the header's and every block's own CRC-32 (what a distributed run's ranks
 *    combine, tess_average_crc) equals the one the single process wrote over the whole file. */
#include "tess_average.h"
#include "tess_crc.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    const double eps = 2.220446049250313e-16, pi = 3.14159265358979323846;
    tess_error_t err;
    enum { N = 128, NW = 3 }; /* two tiles of 64 nodes */
    double rho[N], u[3 * N], w[3 * NW];
    for (int i = 0; i < N; i++) {
        rho[i] = 1.0 + 0.01 * i;
        for (int c = 0; c < 3; c++)
            u[3 * i + c] = 0.01 * (i + 1) * (c + 1) / 7.0;
    }
    for (int m = 0; m < 3 * NW; m++)
        w[m] = 1e-4 * (m % 3 == 0 ? 1.0 : 0.3) / (m + 1);
    tess_average_t a;
    if (tess_average_create(&a, N, NW, 10, 5, &err) != TESS_OK) {
        printf("FAIL create: %s\n", err.msg);
        return 1;
    }
    tess_test_close("no sample before start (step 5)", tess_average_due(&a, 5), 0, 0);
    tess_test_close("next sample after step 5 is the start, 10", (double)tess_average_next(&a, 5), 10, 0);
    tess_test_close("next sample after step 10 is 15", (double)tess_average_next(&a, 10), 15, 0);
    for (long s = 10; s <= 40; s += 5)
        tess_average_add(&a, s, rho, u, w);
    tess_test_close("a sample already taken is not due again (step 40)", tess_average_due(&a, 40), 0, 0);
    double rm[N], um[3 * N], wm[3 * NW], tawss[NW], osi[NW];
    tess_average_means(&a, rm, um, wm, tawss, osi);
    double dr = 0, du = 0, dw = 0, o = 0;
    for (int i = 0; i < N; i++)
        dr = fmax(dr, fabs(rm[i] / rho[i] - 1));
    for (int i = 0; i < 3 * N; i++)
        du = fmax(du, fabs(um[i] / u[i] - 1));
    for (int m = 0; m < 3 * NW; m++)
        dw = fmax(dw, fabs(wm[m] / w[m] - 1));
    for (int m = 0; m < NW; m++)
        o = fmax(o, fabs(osi[m]));
    tess_test_close("steady: largest relative deviation of the mean density from the field", dr, 0, 16 * eps);
    tess_test_close("steady: largest relative deviation of the mean velocity from the field", du, 0, 16 * eps);
    tess_test_close("steady: largest relative deviation of the mean WSS from the field", dw, 0, 16 * eps);
    tess_test_close("steady: largest OSI", o, 0, 16 * eps);

    /* Companion file round trip. */
    const char *path = "test_average.restart";
    if (tess_average_save(&a, path, 40, 1234, &err) != TESS_OK) {
        printf("FAIL save: %s\n", err.msg);
        return 1;
    }
    tess_average_t b;
    tess_average_create(&b, N, NW, 10, 5, &err);
    const int loaded = tess_average_load(&b, path, 40, 1234, &err) == TESS_OK;
    tess_test_close("companion file loads", loaded, 1, 0);
    const int same = memcmp(a.rho, b.rho, sizeof rho) == 0 && memcmp(a.u, b.u, sizeof u) == 0 &&
                     memcmp(a.wss, b.wss, sizeof w) == 0 && memcmp(a.wss_mag, b.wss_mag, NW * sizeof(double)) == 0 &&
                     a.samples == b.samples && a.last == b.last;
    tess_test_close("companion file: sums, count and last step equal byte for byte", same, 1, 0);
    tess_test_close("companion file of step 40 refused for a restart at step 50",
                    tess_average_load(&b, path, 50, 1234, &err) == TESS_ERR_INPUT, 1, 0);
    printf("  (message: %s)\n", err.msg);
    tess_test_close("companion file of another case (hash) refused", tess_average_load(&b, path, 40, 99, &err) == TESS_ERR_INPUT,
                    1, 0);

    /* The whole file's CRC-32 from the blocks' own, as the ranks make it. */
    FILE *f = fopen(path, "rb");
    static unsigned char bytes[TESS_AVERAGE_HEADER_BYTES + 2 * TESS_AVERAGE_TILE_BYTES + NW * TESS_AVERAGE_WSS_BYTES + 4];
    const size_t nread = f ? fread(bytes, 1, sizeof bytes + 1, f) : 0;
    if (f)
        fclose(f);
    tess_test_close("companion file size: header, 2 tile blocks, 3 WSS blocks, CRC-32", (double)nread, (double)sizeof bytes, 0);
    uint32_t tcrc[2], wcrc[NW], stored;
    for (int k = 0; k < 2; k++)
        tcrc[k] = tess_crc32(0, bytes + TESS_AVERAGE_HEADER_BYTES + k * TESS_AVERAGE_TILE_BYTES, TESS_AVERAGE_TILE_BYTES);
    for (int m = 0; m < NW; m++)
        wcrc[m] = tess_crc32(0, bytes + TESS_AVERAGE_HEADER_BYTES + 2 * TESS_AVERAGE_TILE_BYTES + m * TESS_AVERAGE_WSS_BYTES,
                             TESS_AVERAGE_WSS_BYTES);
    memcpy(&stored, bytes + sizeof bytes - 4, 4);
    tess_test_close("CRC-32 combined from the blocks' equals the file's", tess_average_crc(bytes, tcrc, 2, wcrc, NW) == stored,
                    1, 0);
    tess_test_close("... and the CRC-32 of every byte before it", tess_crc32(0, bytes, sizeof bytes - 4) == stored, 1, 0);

    /* Damaged files: one line each, TESS_ERR_INPUT. */
    const char *bad = "test_average_bad.restart";
    for (int kind = 0; kind < 3; kind++) {
        unsigned char copy[sizeof bytes];
        memcpy(copy, bytes, sizeof bytes);
        size_t len = sizeof bytes;
        const char *what = kind == 0 ? "a flipped sum byte" : kind == 1 ? "a cut file" : "a version-1 file";
        const char *expect = kind == 0 ? "CRC-32" : kind == 1 ? "truncated" : "version 1";
        if (kind == 0)
            copy[TESS_AVERAGE_HEADER_BYTES + 100] ^= 0x10;
        else if (kind == 1)
            len -= 8;
        else
            copy[8] = 1;
        FILE *out = fopen(bad, "wb");
        if (out) {
            fwrite(copy, 1, len, out);
            fclose(out);
        }
        const int refused = tess_average_load(&b, bad, 40, 1234, &err) == TESS_ERR_INPUT && strstr(err.msg, expect);
        char label[120];
        snprintf(label, sizeof label, "%s refused naming it (%s)", what, expect);
        tess_test_close(label, refused, 1, 0);
        printf("  (message: %s)\n", err.msg);
    }
    remove(bad);
    remove(path);
    tess_average_free(&b);
    tess_average_free(&a);

    /* Purely oscillating and steady-plus-oscillating WSS over whole periods. */
    for (int kind = 0; kind < 2; kind++) {
        tess_average_create(&a, 1, 1, 0, 1, &err);
        const int T = 16;
        const double A = 2e-3, e[3] = {0.6, 0.0, 0.8};
        double abs_cos = 0.0;
        for (int s = 0; s < 2 * T; s++) {
            const double c = cos(2 * pi * s / T), amp = kind ? A * (1.0 + 0.5 * c) : A * c;
            const double ws[3] = {amp * e[0], amp * e[1], amp * e[2]};
            abs_cos += fabs(c);
            tess_average_add(&a, s, rho, u, ws);
        }
        tess_average_means(&a, rm, um, wm, tawss, osi);
        if (kind == 0) {
            tess_test_close("oscillating WSS over two periods: OSI", osi[0], 0.5, 1e-12);
            tess_test_close("oscillating WSS: TAWSS / (A <|cos|>)", tawss[0] / (A * abs_cos / (2 * T)), 1.0, 16 * eps);
        } else {
            tess_test_close("steady plus half-amplitude oscillation (never reversing): OSI", osi[0], 0.0, 16 * eps);
            tess_test_close("steady plus oscillation: TAWSS / A", tawss[0] / A, 1.0, 1e-12);
        }
        tess_average_free(&a);
    }
    return tess_test_result("test_average");
}
