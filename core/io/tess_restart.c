#include "tess_restart.h"
#include "tess_checked.h"
#include "tess_crc.h"
#include "tess_file.h"
#include "tess_fnv.h"
#include "tess_input_file.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char magic[8] = {'T', 'E', 'S', 'S', 'R', 'S', 'T', 0};

uint64_t tess_restart_hash(const tess_tiling_t *t, const tess_params_t *p)
{
    uint64_t h = TESS_FNV_OFFSET;
    const int32_t head[7] = {t->nx, t->ny, t->nz, t->periodic[0], t->periodic[1], t->periodic[2], t->ntiles};
    h = tess_fnv1a(h, head, sizeof head);
    h = tess_fnv1a(h, t->tile_corner, 3 * (size_t)t->ntiles * sizeof *t->tile_corner);
    h = tess_fnv1a(h, t->node_type, 64 * (size_t)t->ntiles);
    /* tess_params_t has no padding holes (int32 fields in fours, then doubles), so its bytes are its value. */
    return tess_fnv1a(h, p, sizeof *p);
}

static size_t value_size(uint32_t precision)
{
    return precision == TESS_PRECISION_SINGLE ? 4 : 8;
}

static void put_header(unsigned char *b, const tess_restart_header_t *h, uint32_t crc)
{
    const uint32_t vsize = (uint32_t)value_size(h->precision);
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
    memcpy(b + 56, &vsize, 4);
    memcpy(b + 60, &crc, 4);
}

/* CRC of the header (its CRC field as zero) followed by the values. */
static uint32_t file_crc(const unsigned char *header, const void *values, size_t bytes)
{
    unsigned char h[TESS_RESTART_HEADER_BYTES];
    memcpy(h, header, sizeof h);
    memset(h + 60, 0, 4);
    return tess_crc32(tess_crc32(0, h, sizeof h), values, bytes);
}

tess_status tess_restart_write(const char *path, const tess_restart_header_t *h, const void *pops, tess_error_t *err)
{
    unsigned char b[TESS_RESTART_HEADER_BYTES];
    const size_t esize = value_size(h->precision), bytes = (size_t)h->count * esize;
    put_header(b, h, 0);
    put_header(b, h, file_crc(b, pops, bytes));
    tess_file_t w;
    tess_status st = tess_file_begin(&w, path, err);
    if (st != TESS_OK)
        return st;
    fwrite(b, 1, sizeof b, w.f);
    fwrite(pops, 1, bytes, w.f);
    return tess_file_commit(&w, err);
}

static tess_status bad_file(const char *path, const char *what, tess_error_t *err)
{
    return tess_fail(err, TESS_ERR_INPUT, "%s: corrupt restart file: %s", path, what);
}

tess_status tess_restart_read_header(const char *path, tess_restart_header_t *out, uint32_t *crc_out,
                                     unsigned char raw[TESS_RESTART_HEADER_BYTES], tess_error_t *err)
{
    size_t size;
    tess_status st = tess_input_file_check(path, "the restart file", (size_t)-1, &size, err);
    if (st != TESS_OK)
        return st;
    FILE *f = fopen(path, "rb");
    if (!f)
        return tess_fail(err, TESS_ERR_INPUT, "%s: cannot open the restart file: %s", path, strerror(errno));
    unsigned char *b = raw;
    tess_restart_header_t h;
    const size_t hn = fread(b, 1, TESS_RESTART_HEADER_BYTES, f);
    fclose(f);
    if (hn < 8 || memcmp(b, magic, 8) != 0)
        return tess_fail(err, TESS_ERR_INPUT, "%s: not a tessera restart file (expected magic TESSRST)", path);
    memcpy(&h.version, b + 8, hn >= 12 ? 4 : 0);
    if (hn < 12 || h.version != TESS_RESTART_VERSION) {
        if (hn < 12)
            return bad_file(path, "the header is cut short", err);
        return tess_fail(err, TESS_ERR_INPUT, "%s: restart file version %u, this build reads version %u%s", path,
                         h.version, TESS_RESTART_VERSION,
                         h.version == 1 ? " (version 1 files carry no checksum: run again from the start)" : "");
    }
    if (hn != TESS_RESTART_HEADER_BYTES)
        return bad_file(path, "the header is cut short", err);
    uint32_t vsize, crc;
    memcpy(&h.precision, b + 12, 4);
    memcpy(&h.step, b + 16, 8);
    memcpy(&h.nx, b + 24, 4);
    memcpy(&h.ny, b + 28, 4);
    memcpy(&h.nz, b + 32, 4);
    memcpy(&h.ntiles, b + 36, 4);
    memcpy(&h.hash, b + 40, 8);
    memcpy(&h.count, b + 48, 8);
    memcpy(&vsize, b + 56, 4);
    memcpy(&crc, b + 60, 4);

    /* The file on its own: fields in range, then its size. */
    char detail[200] = "";
    size_t bytes = 0, want_size = 0;
    if (h.precision > 1)
        snprintf(detail, sizeof detail, "precision %u (expected 0 double or 1 single)", h.precision);
    else if (vsize != value_size(h.precision))
        snprintf(detail, sizeof detail, "value size %u for %s precision (expected %zu)", vsize,
                 h.precision ? "single" : "double", value_size(h.precision));
    else if (h.step < 0)
        snprintf(detail, sizeof detail, "step %lld (expected >= 0)", (long long)h.step);
    else if (h.nx <= 0 || h.ny <= 0 || h.nz <= 0 || h.ntiles < 0)
        snprintf(detail, sizeof detail, "sizes %d x %d x %d nodes, %d tiles (expected positive)", h.nx, h.ny, h.nz,
                 h.ntiles);
    else if (h.count > SIZE_MAX || !tess_mul_size((size_t)h.count, vsize, &bytes) ||
             !tess_add_size(bytes, TESS_RESTART_HEADER_BYTES, &want_size))
        snprintf(detail, sizeof detail, "the header's %llu values of %u bytes are more than any file holds",
                 (unsigned long long)h.count, vsize);
    else if (want_size != size)
        snprintf(detail, sizeof detail, "%zu bytes, the header's %llu values of %u bytes need %zu (%s)", size,
                 (unsigned long long)h.count, vsize, want_size, size > want_size ? "trailing bytes" : "truncated");
    if (detail[0])
        return bad_file(path, detail, err);
    *out = h;
    *crc_out = crc;
    return TESS_OK;
}

tess_status tess_restart_match(const char *path, const tess_restart_header_t *h, const tess_restart_header_t *expect,
                               tess_error_t *err)
{
    char detail[200] = "";
    const char *bad = NULL;
    if (h->precision != expect->precision)
        snprintf(detail, sizeof detail, "%s precision, the run uses %s", h->precision ? "single" : "double",
                 expect->precision ? "single" : "double"),
            bad = "precision";
    else if (h->nx != expect->nx || h->ny != expect->ny || h->nz != expect->nz)
        snprintf(detail, sizeof detail, "%dx%dx%d nodes, the case has %dx%dx%d", h->nx, h->ny, h->nz, expect->nx,
                 expect->ny, expect->nz),
            bad = "dims";
    else if (h->ntiles != expect->ntiles)
        snprintf(detail, sizeof detail, "%d tiles, the case has %d", h->ntiles, expect->ntiles), bad = "tiles";
    else if (h->count != expect->count)
        snprintf(detail, sizeof detail, "%llu population values, the case needs %llu (another lattice?)",
                 (unsigned long long)h->count, (unsigned long long)expect->count),
            bad = "values";
    else if (h->hash != expect->hash)
        snprintf(detail, sizeof detail, "geometry/physics hash %016llx, the case gives %016llx",
                 (unsigned long long)h->hash, (unsigned long long)expect->hash),
            bad = "hash";
    if (bad)
        return tess_fail(err, TESS_ERR_INPUT, "%s: restart file does not match the case (%s: %s)", path, bad, detail);
    return TESS_OK;
}

tess_status tess_restart_read(const char *path, const tess_restart_header_t *expect, tess_restart_header_t *got,
                              void *pops, tess_error_t *err)
{
    unsigned char b[TESS_RESTART_HEADER_BYTES];
    tess_restart_header_t h;
    uint32_t crc;
    tess_status st = tess_restart_read_header(path, &h, &crc, b, err);
    if (st != TESS_OK)
        return st;
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, TESS_RESTART_HEADER_BYTES, SEEK_SET) != 0) {
        if (f)
            fclose(f);
        return tess_fail(err, TESS_ERR_INPUT, "%s: cannot open the restart file: %s", path, strerror(errno));
    }
    const size_t bytes = (size_t)h.count * value_size(h.precision);
    /* Checksum: the values go straight into pops when the count is the case's, else through a buffer (the
     * file is then refused for not matching, but a corrupt file is reported as corrupt first). */
    unsigned char hz[TESS_RESTART_HEADER_BYTES];
    memcpy(hz, b, sizeof hz);
    memset(hz + 60, 0, 4);
    uint32_t c = tess_crc32(0, hz, sizeof hz);
    int read_ok = 1;
    if (pops && h.count == expect->count && h.precision == expect->precision) {
        read_ok = fread(pops, 1, bytes, f) == bytes;
        if (read_ok)
            c = tess_crc32(c, pops, bytes);
    } else {
        unsigned char buf[1 << 16];
        for (size_t left = bytes; read_ok && left;) {
            const size_t k = left < sizeof buf ? left : sizeof buf;
            read_ok = fread(buf, 1, k, f) == k;
            c = tess_crc32(c, buf, k);
            left -= k;
        }
    }
    fclose(f);
    if (!read_ok)
        return tess_fail(err, TESS_ERR_IO, "%s: cannot read the restart file", path);
    if (c != crc)
        return tess_fail(err, TESS_ERR_INPUT, "%s: corrupt restart file: CRC-32 %08x, the header says %08x", path,
                         (unsigned)c, (unsigned)crc);
    /* A sound file: does it belong to this case? */
    if ((st = tess_restart_match(path, &h, expect, err)) != TESS_OK)
        return st;
    *got = h;
    return TESS_OK;
}

uint32_t tess_restart_block_crc(const void *data, size_t bytes)
{
    return tess_crc32(0, data, bytes);
}

void tess_restart_header_bytes(const tess_restart_header_t *h, unsigned char b[TESS_RESTART_HEADER_BYTES])
{
    put_header(b, h, 0);
}

uint32_t tess_restart_crc_blocks(const unsigned char header[TESS_RESTART_HEADER_BYTES], const uint32_t *block_crc,
                                 int64_t n, size_t block, unsigned char out[TESS_RESTART_HEADER_BYTES])
{
    unsigned char hz[TESS_RESTART_HEADER_BYTES];
    memcpy(hz, header, sizeof hz);
    memset(hz + 60, 0, 4);
    const uint32_t c = tess_crc32_blocks(tess_crc32(0, hz, sizeof hz), block_crc, n, block);
    if (out) {
        memcpy(out, header, TESS_RESTART_HEADER_BYTES);
        memcpy(out + 60, &c, 4);
    }
    return c;
}
