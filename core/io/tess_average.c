#include "tess_average.h"
#include "tess_crc.h"
#include "tess_file.h"
#include "tess_input_file.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

tess_status tess_average_create(tess_average_t *a, size_t n, int64_t nw, long start, long every, tess_error_t *err)
{
    memset(a, 0, sizeof *a);
    a->n = n;
    a->nw = nw;
    a->start = start;
    a->every = every > 0 ? every : 1;
    a->last = -1;
    a->rho = calloc(n ? n : 1, sizeof *a->rho);
    a->u = calloc(3 * (n ? n : 1), sizeof *a->u);
    a->wss = calloc(3 * (size_t)(nw ? nw : 1), sizeof *a->wss);
    a->wss_mag = calloc((size_t)(nw ? nw : 1), sizeof *a->wss_mag);
    if (!a->rho || !a->u || !a->wss || !a->wss_mag) {
        tess_average_free(a);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the time averages of %zu nodes", n);
    }
    return TESS_OK;
}

void tess_average_free(tess_average_t *a)
{
    free(a->rho);
    free(a->u);
    free(a->wss);
    free(a->wss_mag);
    a->rho = a->u = a->wss = a->wss_mag = NULL;
}

int tess_average_due(const tess_average_t *a, long step)
{
    return step >= a->start && (step - a->start) % a->every == 0 && step > a->last;
}

long tess_average_next(const tess_average_t *a, long step)
{
    if (step < a->start)
        return a->start;
    return a->start + ((step - a->start) / a->every + 1) * a->every;
}

void tess_average_add(tess_average_t *a, long step, const double *rho, const double *u, const double *wss)
{
    for (size_t i = 0; i < a->n; i++)
        a->rho[i] += rho[i];
    for (size_t i = 0; i < 3 * a->n; i++)
        a->u[i] += u[i];
    for (int64_t m = 0; m < a->nw; m++) {
        const double *w = wss + 3 * m;
        a->wss[3 * m] += w[0];
        a->wss[3 * m + 1] += w[1];
        a->wss[3 * m + 2] += w[2];
        a->wss_mag[m] += sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    }
    a->samples++;
    a->last = step;
}

void tess_average_means(const tess_average_t *a, double *rho, double *u, double *wss, double *wss_mag, double *osi)
{
    const double s = a->samples > 0 ? 1.0 / (double)a->samples : 0.0;
    for (size_t i = 0; rho && i < a->n; i++)
        rho[i] = a->rho[i] * s;
    for (size_t i = 0; u && i < 3 * a->n; i++)
        u[i] = a->u[i] * s;
    for (int64_t m = 0; m < a->nw; m++) {
        const double *w = a->wss + 3 * m;
        if (wss)
            for (int c = 0; c < 3; c++)
                wss[3 * m + c] = w[c] * s;
        if (wss_mag)
            wss_mag[m] = a->wss_mag[m] * s;
        if (osi) {
            const double vec = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
            osi[m] = a->wss_mag[m] > 0.0 ? 0.5 * (1.0 - vec / a->wss_mag[m]) : 0.0;
        }
    }
}

tess_status tess_average_node_means(const tess_average_t *a, const int64_t *wnode, double *rho, double *u,
                                    double *wss, double *tawss, double *osi, double *wall, tess_error_t *err)
{
    const int64_t nw = a->nw;
    double *w = wss ? malloc(5 * (size_t)(nw ? nw : 1) * sizeof *w) : NULL;
    if (wss && !w)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the time averages' WSS means");
    tess_average_means(a, rho, u, w, w ? w + 3 * nw : NULL, w ? w + 4 * nw : NULL);
    if (wss) {
        memset(wss, 0, 3 * a->n * sizeof *wss);
        memset(tawss, 0, a->n * sizeof *tawss);
        memset(osi, 0, a->n * sizeof *osi);
        memset(wall, 0, a->n * sizeof *wall);
        for (int64_t m = 0; m < nw; m++) {
            const size_t i = (size_t)wnode[m];
            memcpy(wss + 3 * i, w + 3 * m, 3 * sizeof *wss);
            tawss[i] = w[3 * nw + m];
            osi[i] = w[4 * nw + m];
            wall[i] = 1.0;
        }
    }
    free(w);
    return TESS_OK;
}

int tess_average_arrays(const double *rho, const double *u, int wss, const double *wss_mean, const double *tawss,
                        const double *osi, const uint8_t *wall, tess_vti_array_t arrays[6])
{
    arrays[0] = (tess_vti_array_t){"density_mean", TESS_VTI_FLOAT64, 1, rho};
    arrays[1] = (tess_vti_array_t){"velocity_mean", TESS_VTI_FLOAT64, 3, u};
    if (!wss)
        return 2;
    arrays[2] = (tess_vti_array_t){"wss_mean", TESS_VTI_FLOAT64, 3, wss_mean};
    arrays[3] = (tess_vti_array_t){"tawss", TESS_VTI_FLOAT64, 1, tawss};
    arrays[4] = (tess_vti_array_t){"osi", TESS_VTI_FLOAT64, 1, osi};
    arrays[5] = (tess_vti_array_t){"wall", TESS_VTI_UINT8, 1, wall};
    return 6;
}

/* ---- companion file ----------------------------------------------------------------------------------- */

static const char magic[8] = {'T', 'E', 'S', 'S', 'A', 'V', 'G', 0};

void tess_average_header(const tess_average_t *a, const tess_average_expect_t *e, unsigned char out[TESS_AVERAGE_HEADER_BYTES])
{
    const uint32_t version = TESS_AVERAGE_VERSION, reserved = 0;
    const int64_t v[7] = {e->step, a->start, a->every, a->samples, a->last, e->ntiles, e->nw};
    memcpy(out, magic, 8);
    memcpy(out + 8, &version, 4);
    memcpy(out + 12, &reserved, 4);
    memcpy(out + 16, v, sizeof v);
    memcpy(out + 72, &e->hash, 8);
}

void tess_average_pack(const tess_average_t *a, int64_t k, int wss, void *block)
{
    double *b = block;
    if (wss) {
        memcpy(b, a->wss + 3 * k, 3 * sizeof *b);
        b[3] = a->wss_mag[k];
    } else {
        memcpy(b, a->rho + 64 * k, 64 * sizeof *b);
        memcpy(b + 64, a->u + 192 * k, 192 * sizeof *b);
    }
}

void tess_average_unpack(tess_average_t *a, int64_t k, int wss, const void *block)
{
    const double *b = block;
    if (wss) {
        memcpy(a->wss + 3 * k, b, 3 * sizeof *b);
        a->wss_mag[k] = b[3];
    } else {
        memcpy(a->rho + 64 * k, b, 64 * sizeof *b);
        memcpy(a->u + 192 * k, b + 64, 192 * sizeof *b);
    }
}

uint32_t tess_average_crc(const unsigned char header[TESS_AVERAGE_HEADER_BYTES], const uint32_t *tile_crc, int64_t ntiles,
                          const uint32_t *wss_crc, int64_t nw)
{
    const uint32_t c = tess_crc32_blocks(tess_crc32(0, header, TESS_AVERAGE_HEADER_BYTES), tile_crc, ntiles,
                                         TESS_AVERAGE_TILE_BYTES);
    return tess_crc32_blocks(c, wss_crc, nw, TESS_AVERAGE_WSS_BYTES);
}

tess_status tess_average_bad_crc(const char *path, uint32_t got, uint32_t stored, tess_error_t *err)
{
    return tess_fail(err, TESS_ERR_INPUT, "%s: corrupt time-average file: CRC-32 %08x, the file says %08x", path,
                     (unsigned)got, (unsigned)stored);
}

static tess_average_expect_t expect_of(const tess_average_t *a, long step, uint64_t hash)
{
    return (tess_average_expect_t){step, a->start, a->every, (int64_t)(a->n / 64), a->nw, hash};
}

tess_status tess_average_save(const tess_average_t *a, const char *path, long step, uint64_t hash, tess_error_t *err)
{
    const tess_average_expect_t e = expect_of(a, step, hash);
    unsigned char h[TESS_AVERAGE_HEADER_BYTES];
    tess_average_header(a, &e, h);
    tess_file_t w;
    tess_status st = tess_file_begin(&w, path, err);
    if (st != TESS_OK)
        return st;
    uint32_t crc = tess_crc32(0, h, sizeof h);
    fwrite(h, sizeof h, 1, w.f);
    double b[4 * 64];
    for (int pass = 0; pass < 2; pass++) /* the tiles' blocks, then the WSS nodes' */
        for (int64_t k = 0; k < (pass ? e.nw : e.ntiles); k++) {
            const size_t bytes = pass ? TESS_AVERAGE_WSS_BYTES : TESS_AVERAGE_TILE_BYTES;
            tess_average_pack(a, k, pass, b);
            fwrite(b, 1, bytes, w.f);
            crc = tess_crc32(crc, b, bytes);
        }
    fwrite(&crc, sizeof crc, 1, w.f);
    return tess_file_commit(&w, err);
}

tess_status tess_average_check(const char *path, const tess_average_expect_t *e, long *samples, long *last,
                               uint32_t *crc, unsigned char h[TESS_AVERAGE_HEADER_BYTES], tess_error_t *err)
{
    size_t size = 0;
    tess_status st = tess_input_file_check(path, "the time averages of the restart", (size_t)-1, &size, err);
    if (st != TESS_OK) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return tess_fail(err, TESS_ERR_INPUT, "%s (the checkpoint of a run with [average] writes it next to restart.tsr)",
                         msg);
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        return tess_fail(err, TESS_ERR_INPUT, "%s: cannot open the time averages of the restart (%s)", path,
                         strerror(errno));
    memset(h, 0, TESS_AVERAGE_HEADER_BYTES);
    const size_t hn = fread(h, 1, TESS_AVERAGE_HEADER_BYTES, f);
    uint32_t version = 0;
    int64_t v[7] = {0};
    uint64_t hash = 0;
    memcpy(&version, h + 8, hn >= 12 ? 4 : 0);
    memcpy(v, h + 16, sizeof v);
    memcpy(&hash, h + 72, 8);
    const uint64_t want = TESS_AVERAGE_HEADER_BYTES + (uint64_t)e->ntiles * TESS_AVERAGE_TILE_BYTES +
                          (uint64_t)e->nw * TESS_AVERAGE_WSS_BYTES + 4;
    if (hn < 12 || memcmp(h, magic, sizeof magic) != 0)
        st = tess_fail(err, TESS_ERR_INPUT, "%s: not a time-average file (magic TESSAVG)", path);
    else if (version != TESS_AVERAGE_VERSION)
        st = tess_fail(err, TESS_ERR_INPUT, "%s: time-average file version %u, this build reads version %u%s", path,
                       version, TESS_AVERAGE_VERSION,
                       version == 1 ? " (version 1 held the dense box: run again from the start)" : "");
    else if (hn != TESS_AVERAGE_HEADER_BYTES)
        st = tess_fail(err, TESS_ERR_INPUT, "%s: corrupt time-average file: the header is cut short", path);
    else if (v[0] != e->step)
        st = tess_fail(err, TESS_ERR_INPUT, "%s: time averages of step %lld, but the restart file is at step %lld", path,
                       (long long)v[0], (long long)e->step);
    else if (hash != e->hash || v[5] != e->ntiles || v[6] != e->nw)
        st = tess_fail(err, TESS_ERR_INPUT,
                       "%s: time averages of another case (geometry, physics or wall nodes differ)", path);
    else if (v[1] != e->start || v[2] != e->every)
        st = tess_fail(err, TESS_ERR_INPUT,
                       "%s: time averages from [average] start = %lld, every = %lld; the case now says %lld, %lld", path,
                       (long long)v[1], (long long)v[2], (long long)e->start, (long long)e->every);
    else if ((uint64_t)size != want)
        st = tess_fail(err, TESS_ERR_INPUT, "%s: corrupt time-average file: %zu bytes, %lld tiles and %lld WSS nodes "
                       "need %llu (%s)", path, size, (long long)e->ntiles, (long long)e->nw, (unsigned long long)want,
                       (uint64_t)size > want ? "trailing bytes" : "truncated");
    else if (fseek(f, (long)(want - 4), SEEK_SET) != 0 || fread(crc, sizeof *crc, 1, f) != 1)
        st = tess_fail(err, TESS_ERR_IO, "%s: cannot read the time-average file", path);
    fclose(f);
    if (st == TESS_OK) {
        *samples = (long)v[3];
        *last = (long)v[4];
    }
    return st;
}

tess_status tess_average_load(tess_average_t *a, const char *path, long step, uint64_t hash, tess_error_t *err)
{
    const tess_average_expect_t e = expect_of(a, step, hash);
    long samples, last;
    uint32_t stored;
    unsigned char h[TESS_AVERAGE_HEADER_BYTES];
    tess_status st = tess_average_check(path, &e, &samples, &last, &stored, h, err);
    if (st != TESS_OK)
        return st;
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, TESS_AVERAGE_HEADER_BYTES, SEEK_SET) != 0) {
        if (f)
            fclose(f);
        return tess_fail(err, TESS_ERR_IO, "%s: cannot read the time-average file", path);
    }
    a->samples = samples;
    a->last = last;
    uint32_t crc = tess_crc32(0, h, sizeof h);
    double b[4 * 64];
    for (int pass = 0; pass < 2 && st == TESS_OK; pass++)
        for (int64_t k = 0; k < (pass ? e.nw : e.ntiles) && st == TESS_OK; k++) {
            const size_t bytes = pass ? TESS_AVERAGE_WSS_BYTES : TESS_AVERAGE_TILE_BYTES;
            if (fread(b, 1, bytes, f) != bytes)
                st = tess_fail(err, TESS_ERR_IO, "%s: cannot read the time-average file", path);
            crc = tess_crc32(crc, b, bytes);
            tess_average_unpack(a, k, pass, b);
        }
    fclose(f);
    if (st == TESS_OK && crc != stored)
        st = tess_average_bad_crc(path, crc, stored, err);
    return st;
}
