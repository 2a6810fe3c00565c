#include "tess_restart.h"
#include "tess_file.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char magic[8] = {'T', 'E', 'S', 'S', 'R', 'S', 'T', 0};

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t tess_restart_hash(const tess_tiling_t *t, const tess_params_t *p)
{
    uint64_t h = 0xcbf29ce484222325ull;
    const int32_t head[7] = {t->nx, t->ny, t->nz, t->periodic[0], t->periodic[1], t->periodic[2], t->ntiles};
    h = fnv(h, head, sizeof head);
    h = fnv(h, t->tile_corner, 3 * (size_t)t->ntiles * sizeof *t->tile_corner);
    h = fnv(h, t->node_type, 64 * (size_t)t->ntiles);
    /* tess_params_t has no padding holes (int32 fields in fours, then doubles), so its bytes are its value. */
    return fnv(h, p, sizeof *p);
}

static void put_header(unsigned char *b, const tess_restart_header_t *h)
{
    memcpy(b, magic, 8);
    memcpy(b + 8, &h->version, 4);
    memcpy(b + 12, &h->precision, 4);
    memcpy(b + 16, &h->step, 8);
    memcpy(b + 24, &h->nx, 4);
    memcpy(b + 28, &h->ny, 4);
    memcpy(b + 32, &h->nz, 4);
    memcpy(b + 36, &h->ntiles, 4);
    memcpy(b + 40, &h->hash, 8);
    memcpy(b + 48, &h->count, 8);
}

tess_status tess_restart_write(const char *path, const tess_restart_header_t *h, const void *pops, tess_error_t *err)
{
    unsigned char b[56];
    put_header(b, h);
    tess_file_t w;
    tess_status st = tess_file_begin(&w, path, err);
    if (st != TESS_OK)
        return st;
    const size_t esize = h->precision == TESS_PRECISION_SINGLE ? 4 : 8;
    fwrite(b, 1, sizeof b, w.f);
    fwrite(pops, esize, (size_t)h->count, w.f);
    return tess_file_commit(&w, err);
}

tess_status tess_restart_read(const char *path, const tess_restart_header_t *expect, tess_restart_header_t *got,
                              void *pops, tess_error_t *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return tess_fail(err, TESS_ERR_INPUT, "%s: cannot open the restart file: %s", path, strerror(errno));
    unsigned char b[56];
    tess_restart_header_t h;
    if (fread(b, 1, sizeof b, f) != sizeof b || memcmp(b, magic, 8) != 0) {
        fclose(f);
        return tess_fail(err, TESS_ERR_INPUT, "%s: not a tessera restart file (expected magic TESSRST)", path);
    }
    memcpy(&h.version, b + 8, 4);
    memcpy(&h.precision, b + 12, 4);
    memcpy(&h.step, b + 16, 8);
    memcpy(&h.nx, b + 24, 4);
    memcpy(&h.ny, b + 28, 4);
    memcpy(&h.nz, b + 32, 4);
    memcpy(&h.ntiles, b + 36, 4);
    memcpy(&h.hash, b + 40, 8);
    memcpy(&h.count, b + 48, 8);
    const char *bad = NULL;
    char detail[160] = "";
    if (h.version != TESS_RESTART_VERSION)
        snprintf(detail, sizeof detail, "version %u, this build reads version %u", h.version, TESS_RESTART_VERSION),
            bad = "version";
    else if (h.precision != expect->precision)
        snprintf(detail, sizeof detail, "%s precision, the run uses %s", h.precision ? "single" : "double",
                 expect->precision ? "single" : "double"),
            bad = "precision";
    else if (h.nx != expect->nx || h.ny != expect->ny || h.nz != expect->nz)
        snprintf(detail, sizeof detail, "%dx%dx%d nodes, the case has %dx%dx%d", h.nx, h.ny, h.nz, expect->nx,
                 expect->ny, expect->nz),
            bad = "dims";
    else if (h.ntiles != expect->ntiles || h.count != expect->count)
        snprintf(detail, sizeof detail, "%d tiles, the case has %d", h.ntiles, expect->ntiles), bad = "tiles";
    else if (h.hash != expect->hash)
        snprintf(detail, sizeof detail, "geometry/physics hash %016llx, the case gives %016llx",
                 (unsigned long long)h.hash, (unsigned long long)expect->hash),
            bad = "hash";
    if (bad) {
        fclose(f);
        return tess_fail(err, TESS_ERR_INPUT, "%s: restart file does not match the case (%s: %s)", path, bad, detail);
    }
    const size_t esize = h.precision == TESS_PRECISION_SINGLE ? 4 : 8;
    const size_t n = fread(pops, esize, (size_t)h.count, f);
    fclose(f);
    if (n != h.count)
        return tess_fail(err, TESS_ERR_INPUT, "%s: restart file truncated (%zu of %llu values)", path, n,
                         (unsigned long long)h.count);
    *got = h;
    return TESS_OK;
}
