#include "tess_vti.h"
#include "tess_checked.h"
#include "tess_file.h"
#include "tess_input_file.h"
#include <limits.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_name[] = {"Float64", "Float32", "UInt8"};
static const size_t type_size[] = {8, 4, 1};

tess_status tess_vti_write(const char *path, const int dims[3], const double origin[3], double spacing,
                           const tess_vti_array_t *arrays, int narrays, tess_error_t *err)
{
    return tess_vti_write_at(path, dims, origin, spacing, NAN, arrays, narrays, err);
}

tess_status tess_vti_write_at(const char *path, const int dims[3], const double origin[3], double spacing, double time,
                              const tess_vti_array_t *arrays, int narrays, tess_error_t *err)
{
    /* TimeValue: the field data array VTK's readers and ParaView take as the dataset's time. */
    const tess_vti_field_t t = {"TimeValue", time};
    return tess_vti_write_fields(path, dims, origin, spacing, &t, isnan(time) ? 0 : 1, arrays, narrays, err);
}

/* The XML and the appended arrays of point extent ext (also the WholeExtent) into w; the arrays hold its nodes. */
static void emit(tess_file_t *w, const int32_t ext[6], const double origin[3], double spacing,
                 const tess_vti_field_t *fields, int nfields, const tess_vti_array_t *arrays, int narrays)
{
    const size_t n = (size_t)(ext[1] - ext[0] + 1) * (size_t)(ext[3] - ext[2] + 1) * (size_t)(ext[5] - ext[4] + 1);
    fprintf(w->f, "<?xml version=\"1.0\"?>\n"
                  "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
                  "  <ImageData WholeExtent=\"%d %d %d %d %d %d\" Origin=\"%.17g %.17g %.17g\" Spacing=\"%.17g %.17g %.17g\">\n",
            ext[0], ext[1], ext[2], ext[3], ext[4], ext[5], origin[0], origin[1], origin[2], spacing,
            spacing, spacing);
    if (nfields > 0) {
        fprintf(w->f, "    <FieldData>\n");
        for (int k = 0; k < nfields; k++)
            fprintf(w->f, "      <DataArray type=\"Float64\" Name=\"%s\" NumberOfTuples=\"1\" format=\"ascii\">%.17g"
                          "</DataArray>\n", fields[k].name, fields[k].value);
        fprintf(w->f, "    </FieldData>\n");
    }
    fprintf(w->f, "    <Piece Extent=\"%d %d %d %d %d %d\">\n      <PointData", ext[0], ext[1], ext[2], ext[3], ext[4],
            ext[5]);
    for (int a = 0; a < narrays; a++)
        if (arrays[a].ncomp == 1) {
            fprintf(w->f, " Scalars=\"%s\"", arrays[a].name);
            break;
        }
    for (int a = 0; a < narrays; a++)
        if (arrays[a].ncomp == 3) {
            fprintf(w->f, " Vectors=\"%s\"", arrays[a].name);
            break;
        }
    fprintf(w->f, ">\n");
    uint64_t offset = 0;
    for (int a = 0; a < narrays; a++) {
        fprintf(w->f,
                "        <DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" format=\"appended\" "
                "offset=\"%llu\"/>\n",
                type_name[arrays[a].type], arrays[a].name, arrays[a].ncomp, (unsigned long long)offset);
        offset += 8 + n * (size_t)arrays[a].ncomp * type_size[arrays[a].type];
    }
    fprintf(w->f, "      </PointData>\n      <CellData>\n      </CellData>\n    </Piece>\n  </ImageData>\n"
                  "  <AppendedData encoding=\"raw\">\n   _");
    /* Block = UInt64 byte count, then the values; x86 and the GPUs' hosts are little-endian as declared. */
    for (int a = 0; a < narrays; a++) {
        const uint64_t bytes = (uint64_t)n * (uint64_t)arrays[a].ncomp * type_size[arrays[a].type];
        fwrite(&bytes, sizeof bytes, 1, w->f);
        fwrite(arrays[a].data, 1, (size_t)bytes, w->f);
    }
    fprintf(w->f, "\n  </AppendedData>\n</VTKFile>\n");
}

tess_status tess_vti_write_fields(const char *path, const int dims[3], const double origin[3], double spacing,
                                  const tess_vti_field_t *fields, int nfields, const tess_vti_array_t *arrays,
                                  int narrays, tess_error_t *err)
{
    tess_file_t w;
    tess_status st = tess_file_begin(&w, path, err);
    if (st != TESS_OK)
        return st;
    const int32_t ext[6] = {0, dims[0] - 1, 0, dims[1] - 1, 0, dims[2] - 1};
    emit(&w, ext, origin, spacing, fields, nfields, arrays, narrays);
    return tess_file_commit(&w, err);
}

tess_status tess_vti_write_piece(tess_file_t *w, const char *path, const int32_t ext[6], const double origin[3],
                                 double spacing, const tess_vti_field_t *fields, int nfields,
                                 const tess_vti_array_t *arrays, int narrays, tess_error_t *err)
{
    tess_status st = tess_file_begin(w, path, err);
    if (st != TESS_OK)
        return st;
    emit(w, ext, origin, spacing, fields, nfields, arrays, narrays);
    if (fflush(w->f) != 0 || ferror(w->f)) {
        tess_file_abort(w);
        return tess_fail(err, TESS_ERR_IO, "%s: write failed (disk full?)", path);
    }
    return TESS_OK;
}

/* ---- reader ---------------------------------------------------------------------------------------- */

typedef struct {
    const char *path;
    char *buf;
    size_t len;
    const char *xml_end; /* start of the appended data (or end of file) */
} vti_file_t;

/* Value of attribute `name` inside the tag starting at `tag` (up to its '>'), copied into out. */
static int attr(const char *tag, const char *name, char *out, size_t len)
{
    const char *end = strchr(tag, '>');
    const size_t nl = strlen(name);
    /* Searched within the tag only: strstr would scan on to the end of the file for every tag that lacks the
     * attribute (quadratic in a file of many such tags). */
    for (const char *p = tag; end && p < end; p++) {
        while (p + nl <= end && memcmp(p, name, nl) != 0)
            p++;
        if (p + nl > end)
            return 0;
        if ((p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n' || p[-1] == '\r') && p[nl] == '=' && p[nl + 1] == '"') {
            const char *v = p + nl + 2, *q = memchr(v, '"', (size_t)(end - v));
            if (!q || (size_t)(q - v) >= len)
                return 0;
            memcpy(out, v, (size_t)(q - v));
            out[q - v] = 0;
            return 1;
        }
    }
    return 0;
}

static int b64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

/* Decodes `need` bytes of base64 starting at p, group by group, so that streams encoded in one piece and
 * streams whose header and data were encoded separately (padding in the middle) both decode. */
static int b64_decode(const char *p, const char *end, unsigned char *out, size_t need)
{
    size_t got = 0;
    while (got < need) {
        int v[4], k = 0, pad = 0;
        while (k < 4) {
            if (p >= end)
                return 0;
            const char c = *p++;
            if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
                continue;
            if (c == '=') {
                v[k++] = 0;
                pad++;
                continue;
            }
            const int x = b64_value(c);
            if (x < 0)
                return 0;
            v[k++] = x;
        }
        const unsigned char b[3] = {(unsigned char)(v[0] << 2 | v[1] >> 4), (unsigned char)((v[1] & 15) << 4 | v[2] >> 2),
                                    (unsigned char)((v[2] & 3) << 6 | v[3])};
        for (int i = 0; i < 3 - pad && got < need; i++)
            out[got++] = b[i];
    }
    return 1;
}

static int type_info(const char *t, size_t *size)
{
    static const char *names[] = {"Float64", "Float32", "UInt8", "Int8", "UInt16", "Int16", "UInt32", "Int32",
                                  "UInt64", "Int64"};
    static const size_t sizes[] = {8, 4, 1, 1, 2, 2, 4, 4, 8, 8};
    for (int i = 0; i < 10; i++)
        if (strcmp(t, names[i]) == 0) {
            *size = sizes[i];
            return i;
        }
    return -1;
}

static double convert(int type, const unsigned char *p)
{
    switch (type) {
    case 0: { double v; memcpy(&v, p, 8); return v; }
    case 1: { float v; memcpy(&v, p, 4); return v; }
    case 2: return *p;
    case 3: return (int8_t)*p;
    case 4: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 5: { int16_t v; memcpy(&v, p, 2); return v; }
    case 6: { uint32_t v; memcpy(&v, p, 4); return v; }
    case 7: { int32_t v; memcpy(&v, p, 4); return v; }
    case 8: { uint64_t v; memcpy(&v, p, 8); return (double)v; }
    default: { int64_t v; memcpy(&v, p, 8); return (double)v; }
    }
}

/* The largest .vti file read: 1 MiB of XML plus 512 bytes a domain node (ten components of 25-character ascii
 * values, or many binary arrays, per node), and never over 16 GiB: a file far larger than the domain's data
 * is refused before it is read into memory. */
#define VTI_MAX_BYTES ((size_t)1 << 34)

static tess_status load(vti_file_t *v, const char *path, size_t max_nodes, tess_error_t *err)
{
    v->path = path;
    size_t max_bytes;
    if (!tess_mul_size(max_nodes, 512, &max_bytes) || !tess_add_size(max_bytes, (size_t)1 << 20, &max_bytes) ||
        max_bytes > VTI_MAX_BYTES)
        max_bytes = VTI_MAX_BYTES;
    tess_status st = tess_input_file_read(path, "VTK file", max_bytes, &v->buf, &v->len, err);
    if (st != TESS_OK)
        return st;
    /* XML parsing stops where appended binary data could contain anything. */
    const char *ad = strstr(v->buf, "<AppendedData");
    v->xml_end = ad ? ad : v->buf + v->len;
    return TESS_OK;
}

/* A whole decimal integer in [lo, hi] from *p (leading blanks skipped); advances *p. */
static int read_long(const char **p, long long lo, long long hi, long long *out)
{
    char *e;
    errno = 0;
    const long long x = strtoll(*p, &e, 10);
    if (e == *p || errno == ERANGE || x < lo || x > hi)
        return 0;
    *out = x;
    *p = e;
    return 1;
}

tess_status tess_vti_read_field(const char *path, const char *name, size_t max_nodes, double *value, int *found,
                                tess_error_t *err)
{
    *found = 0;
    vti_file_t v = {0};
    tess_status st = load(&v, path, max_nodes, err);
    if (st != TESS_OK)
        return st;
    const char *fd = strstr(v.buf, "<FieldData");
    const char *end = fd && fd < v.xml_end ? strstr(fd, "</FieldData>") : NULL;
    char nm[128];
    for (const char *p = fd; end && p < end; p += 10) {
        p = strstr(p, "<DataArray");
        if (!p || p >= end)
            break;
        if (!attr(p, "Name", nm, sizeof nm) || strcmp(nm, name) != 0)
            continue;
        const char *gt = strchr(p, '>');
        char *stop = NULL;
        const double x = gt && gt < end ? strtod(gt + 1, &stop) : NAN;
        while (stop && (*stop == ' ' || *stop == '\n' || *stop == '\r' || *stop == '\t'))
            stop++;
        if (!stop || stop == gt + 1 || strncmp(stop, "</DataArray>", 12) != 0 || !isfinite(x)) {
            st = tess_fail(err, TESS_ERR_INPUT, "%s: field data '%s': expected one finite number in ascii format", path,
                           name);
            break;
        }
        *value = x;
        *found = 1;
        break;
    }
    free(v.buf);
    return st;
}

tess_status tess_vti_read(const char *path, const char *name, int ncomp, size_t max_nodes, int dims[3], double **data,
                          int *ncomp_out, tess_error_t *err)
{
    vti_file_t v = {0};
    tess_status st = load(&v, path, max_nodes, err);
    if (st != TESS_OK)
        return st;
    char val[256];
    const char *vf = strstr(v.buf, "<VTKFile");
    const char *im = strstr(v.buf, "<ImageData");
    st = TESS_ERR_INPUT;
    if (!vf || !im || vf > v.xml_end || im > v.xml_end || !attr(vf, "type", val, sizeof val) ||
        strcmp(val, "ImageData") != 0) {
        tess_fail(err, st, "%s: expected a VTK XML ImageData file (<VTKFile type=\"ImageData\">)", path);
        goto out;
    }
    if (attr(vf, "compressor", val, sizeof val)) {
        tess_fail(err, st, "%s: compressed data (%s) is not supported: write the file without a compressor", path, val);
        goto out;
    }
    if (attr(vf, "byte_order", val, sizeof val) && strcmp(val, "LittleEndian") != 0) {
        tess_fail(err, st, "%s: expected byte_order=\"LittleEndian\", got '%s'", path, val);
        goto out;
    }
    size_t hsize = 4;
    if (attr(vf, "header_type", val, sizeof val))
        hsize = strcmp(val, "UInt64") == 0 ? 8 : 4;
    /* Extents as 64-bit values: a WholeExtent near INT_MIN/INT_MAX must not overflow dims, and the node count
     * must not exceed the domain's (max_nodes) before anything is allocated for it. */
    long long ext[6];
    int ext_ok = attr(im, "WholeExtent", val, sizeof val);
    const char *ep = val;
    for (int i = 0; ext_ok && i < 6; i++)
        ext_ok = read_long(&ep, INT_MIN, INT_MAX, &ext[i]);
    if (!ext_ok || ext[1] < ext[0] || ext[3] < ext[2] || ext[5] < ext[4]) {
        tess_fail(err, st, "%s: <ImageData> needs WholeExtent=\"x0 x1 y0 y1 z0 z1\" (integers, x0 <= x1, ...)", path);
        goto out;
    }
    long long ldims[3];
    for (int a = 0; a < 3; a++)
        ldims[a] = ext[2 * a + 1] - ext[2 * a] + 1;
    size_t n;
    if (ldims[0] > INT_MAX || ldims[1] > INT_MAX || ldims[2] > INT_MAX ||
        !tess_mul3_size((size_t)ldims[0], (size_t)ldims[1], (size_t)ldims[2], &n) || n > max_nodes) {
        tess_fail(err, st, "%s: WholeExtent \"%s\" gives %lldx%lldx%lld nodes, more than the domain's %zu", path, val,
                  ldims[0], ldims[1], ldims[2], max_nodes);
        goto out;
    }
    for (int a = 0; a < 3; a++)
        dims[a] = (int)ldims[a];
    const char *pd = strstr(v.buf, "<PointData");
    const char *da = NULL;
    char nm[128];
    for (const char *p = pd; p && p < v.xml_end; p += 10) {
        p = strstr(p, "<DataArray");
        if (!p || p >= v.xml_end)
            break;
        if (attr(p, "Name", nm, sizeof nm) && strcmp(nm, name) == 0) {
            da = p;
            break;
        }
    }
    if (!pd || !da) {
        tess_fail(err, st, "%s: no point-data array named '%s'", path, name);
        goto out;
    }
    char type[32] = "", format[32] = "ascii";
    int nc = 1;
    size_t esize = 0;
    if (attr(da, "NumberOfComponents", val, sizeof val)) {
        const char *cp = val;
        long long x;
        nc = read_long(&cp, 1, 64, &x) ? (int)x : 0;
    }
    attr(da, "format", format, sizeof format);
    const int ti = attr(da, "type", type, sizeof type) ? type_info(type, &esize) : -1;
    if (ti < 0) {
        tess_fail(err, st, "%s: array '%s': unsupported type '%s'", path, name, type);
        goto out;
    }
    if (nc < 1 || (ncomp > 0 && nc != ncomp)) {
        tess_fail(err, st, "%s: array '%s': expected %d components, got %d", path, name, ncomp, nc);
        goto out;
    }
    /* Bounded by the file: raw data needs `bytes` bytes of it, base64 4/3 as many, ascii at least one
     * character and one separator a value; so the allocations below stay within a few times the file size. */
    size_t count, bytes, obytes;
    if (!tess_mul_size(n, (size_t)nc, &count) || !tess_mul_size(count, esize, &bytes) ||
        !tess_mul_size(count, sizeof(double), &obytes) ||
        (strcmp(format, "ascii") == 0 ? count > v.len / 2 + 1 : bytes > v.len)) {
        tess_fail(err, st, "%s: array '%s': %dx%dx%d nodes of %d %s values need more data than the %zu-byte file holds",
                  path, name, dims[0], dims[1], dims[2], nc, type, v.len);
        goto out;
    }
    double *out = malloc(obytes ? obytes : 1);
    unsigned char *raw = NULL;
    if (!out) {
        st = tess_fail(err, TESS_ERR_NOMEM, "%s: out of memory for array '%s'", path, name);
        goto out;
    }
    const char *body = strchr(da, '>') + 1;
    if (strcmp(format, "ascii") == 0) {
        char *p = (char *)body;
        for (size_t i = 0; i < count; i++) {
            char *e;
            out[i] = strtod(p, &e);
            if (e == p) {
                free(out);
                tess_fail(err, st, "%s: array '%s': expected %zu ascii values, found %zu", path, name, count, i);
                goto out;
            }
            p = e;
        }
    } else {
        raw = malloc(hsize + bytes);
        if (!raw) {
            free(out);
            st = tess_fail(err, TESS_ERR_NOMEM, "%s: out of memory for array '%s'", path, name);
            goto out;
        }
        int ok = 0;
        if (strcmp(format, "binary") == 0) {
            ok = b64_decode(body, v.xml_end, raw, hsize + bytes);
        } else if (strcmp(format, "appended") == 0 && v.xml_end < v.buf + v.len) {
            char enc[32] = "base64";
            attr(v.xml_end, "encoding", enc, sizeof enc);
            const char *us = strchr(v.xml_end, '_');
            long long off = 0;
            const char *op = val;
            if (attr(da, "offset", val, sizeof val) && !read_long(&op, 0, LLONG_MAX, &off))
                off = -1;
            const char *end = v.buf + v.len;
            if (us && off >= 0 && (unsigned long long)off <= (size_t)(end - (us + 1))) {
                const char *start = us + 1 + off;
                if (strcmp(enc, "raw") == 0) {
                    if (hsize + bytes <= (size_t)(end - start)) {
                        memcpy(raw, start, hsize + bytes);
                        ok = 1;
                    }
                } else {
                    ok = b64_decode(start, end, raw, hsize + bytes);
                }
            }
        }
        uint64_t declared = 0;
        if (ok) {
            if (hsize == 8)
                memcpy(&declared, raw, 8);
            else {
                uint32_t d32;
                memcpy(&d32, raw, 4);
                declared = d32;
            }
        }
        if (!ok || declared != bytes) {
            free(out);
            free(raw);
            tess_fail(err, st, "%s: array '%s': expected %zu bytes of %s data for %dx%dx%d nodes, %s", path, name, bytes,
                      format, dims[0], dims[1], dims[2], ok ? "the block header says otherwise" : "the file is shorter");
            goto out;
        }
        for (size_t i = 0; i < count; i++)
            out[i] = convert(ti, raw + hsize + i * esize);
        free(raw);
    }
    *data = out;
    if (ncomp_out)
        *ncomp_out = nc;
    st = TESS_OK;
out:
    free(v.buf);
    return st;
}
