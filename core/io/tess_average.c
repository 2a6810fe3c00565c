#include "tess_average.h"
#include "tess_file.h"
#include "tess_fnv.h"
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

/* ---- companion file ----------------------------------------------------------------------------------- */

static const char magic[8] = {'T', 'E', 'S', 'S', 'A', 'V', 'G', 0};

typedef struct {
    char magic[8];
    uint32_t version, reserved;
    int64_t step, start, every, samples, last;
    uint64_t n, nw, hash;
} avg_header_t;

/* The sums as (pointer, count) blocks in file order. */
static int blocks(const tess_average_t *a, double **ptr, size_t *count)
{
    ptr[0] = a->rho, count[0] = a->n;
    ptr[1] = a->u, count[1] = 3 * a->n;
    ptr[2] = a->wss, count[2] = 3 * (size_t)a->nw;
    ptr[3] = a->wss_mag, count[3] = (size_t)a->nw;
    return 4;
}

tess_status tess_average_save(const tess_average_t *a, const char *path, long step, uint64_t hash, tess_error_t *err)
{
    avg_header_t h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, magic, sizeof magic);
    h.version = 1;
    h.step = step;
    h.start = a->start;
    h.every = a->every;
    h.samples = a->samples;
    h.last = a->last;
    h.n = a->n;
    h.nw = (uint64_t)a->nw;
    h.hash = hash;
    tess_file_t w;
    tess_status st = tess_file_begin(&w, path, err);
    if (st != TESS_OK)
        return st;
    uint64_t sum = tess_fnv1a(TESS_FNV_OFFSET, &h, sizeof h);
    fwrite(&h, sizeof h, 1, w.f);
    double *ptr[4];
    size_t count[4];
    for (int b = 0, nb = blocks(a, ptr, count); b < nb; b++) {
        fwrite(ptr[b], sizeof(double), count[b], w.f);
        sum = tess_fnv1a(sum, ptr[b], count[b] * sizeof(double));
    }
    fwrite(&sum, sizeof sum, 1, w.f);
    return tess_file_commit(&w, err);
}

tess_status tess_average_load(tess_average_t *a, const char *path, long step, uint64_t hash, tess_error_t *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return tess_fail(err, TESS_ERR_INPUT,
                         "%s: cannot open the time averages of the restart (%s); the checkpoint of a run with "
                         "[average] writes it next to restart.tsr",
                         path, strerror(errno));
    avg_header_t h;
    tess_status st = TESS_OK;
    if (fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, magic, sizeof magic) != 0 || h.version != 1)
        st = tess_fail(err, TESS_ERR_INPUT, "%s: not a version-1 time-average file (magic TESSAVG)", path);
    else if (h.step != step)
        st = tess_fail(err, TESS_ERR_INPUT, "%s: time averages of step %lld, but the restart file is at step %ld", path,
                       (long long)h.step, step);
    else if (h.hash != hash || h.n != a->n || h.nw != (uint64_t)a->nw)
        st = tess_fail(err, TESS_ERR_INPUT,
                       "%s: time averages of another case (geometry, physics or wall nodes differ)", path);
    else if (h.start != a->start || h.every != a->every)
        st = tess_fail(err, TESS_ERR_INPUT,
                       "%s: time averages from [average] start = %lld, every = %lld; the case now says %ld, %ld", path,
                       (long long)h.start, (long long)h.every, a->start, a->every);
    if (st == TESS_OK) {
        uint64_t sum = tess_fnv1a(TESS_FNV_OFFSET, &h, sizeof h), stored = 0;
        double *ptr[4];
        size_t count[4];
        for (int b = 0, nb = blocks(a, ptr, count); b < nb && st == TESS_OK; b++) {
            if (fread(ptr[b], sizeof(double), count[b], f) != count[b])
                st = tess_fail(err, TESS_ERR_INPUT, "%s: truncated (expected %zu sums in block %d)", path, count[b], b);
            else
                sum = tess_fnv1a(sum, ptr[b], count[b] * sizeof(double));
        }
        if (st == TESS_OK && (fread(&stored, sizeof stored, 1, f) != 1 || stored != sum))
            st = tess_fail(err, TESS_ERR_INPUT, "%s: checksum mismatch (the file is damaged)", path);
        a->samples = h.samples;
        a->last = h.last;
    }
    fclose(f);
    return st;
}
