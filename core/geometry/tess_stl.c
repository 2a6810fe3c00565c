#include "tess_stl.h"
#include "tess_checked.h"
#include "tess_input_file.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tess_stl_add(tess_stl_mesh_t *m, const double a[3], const double b[3], const double c[3], int32_t tag)
{
    if (m->ntri == m->cap) {
        const size_t cap = m->cap ? 2 * m->cap : 256;
        size_t vbytes, tbytes;
        if (!tess_mul_size(cap, 9 * sizeof *m->v, &vbytes) || !tess_mul_size(cap, sizeof *m->tag, &tbytes))
            return -1;
        double *v = realloc(m->v, vbytes);
        if (!v)
            return -1;
        m->v = v;
        int32_t *t = realloc(m->tag, tbytes);
        if (!t)
            return -1;
        m->tag = t;
        m->cap = cap;
    }
    double *v = m->v + 9 * m->ntri;
    for (int k = 0; k < 3; k++) {
        v[k] = a[k];
        v[3 + k] = b[k];
        v[6 + k] = c[k];
    }
    m->tag[m->ntri++] = tag;
    return 0;
}

void tess_stl_free(tess_stl_mesh_t *m)
{
    free(m->v);
    free(m->tag);
    memset(m, 0, sizeof *m);
}

/* ---- ASCII ------------------------------------------------------------------------------------------ */

typedef struct {
    const char *s, *end;
    int line;
    char tok[64];
    int tok_line;
} lexer_t;

/* Next whitespace-separated word into l->tok (truncated); 0 at the end of the text. */
static int next_word(lexer_t *l)
{
    while (l->s < l->end && (*l->s == ' ' || *l->s == '\t' || *l->s == '\r' || *l->s == '\n' || *l->s == '\f' || *l->s == '\v')) {
        if (*l->s == '\n')
            l->line++;
        l->s++;
    }
    if (l->s >= l->end)
        return 0;
    size_t n = 0;
    l->tok_line = l->line;
    while (l->s < l->end && !(*l->s == ' ' || *l->s == '\t' || *l->s == '\r' || *l->s == '\n' || *l->s == '\f' || *l->s == '\v')) {
        if (n + 1 < sizeof l->tok)
            l->tok[n++] = *l->s;
        l->s++;
    }
    l->tok[n] = 0;
    return 1;
}

static void skip_line(lexer_t *l)
{
    while (l->s < l->end && *l->s != '\n')
        l->s++;
}

static tess_status expect(lexer_t *l, const char *path, const char *word, tess_error_t *err)
{
    if (!next_word(l))
        return tess_fail(err, TESS_ERR_INPUT, "%s:%d: ASCII STL ends early: expected '%s'", path, l->line, word);
    if (strcmp(l->tok, word) != 0)
        return tess_fail(err, TESS_ERR_INPUT, "%s:%d: ASCII STL: expected '%s', got '%s'", path, l->tok_line, word,
                         l->tok);
    return TESS_OK;
}

/* A number; coordinates must be finite, facet normals (unused) may be anything strtod reads, "nan" included. */
static tess_status number(lexer_t *l, const char *path, const char *what, int finite, double *out, tess_error_t *err)
{
    if (!next_word(l))
        return tess_fail(err, TESS_ERR_INPUT, "%s:%d: ASCII STL ends early: expected a number (%s)", path, l->line, what);
    char *e;
    errno = 0;
    *out = strtod(l->tok, &e);
    if (e == l->tok || *e || (finite && (errno == ERANGE || !isfinite(*out))))
        return tess_fail(err, TESS_ERR_INPUT, "%s:%d: ASCII STL: expected a finite number (%s), got '%s'", path,
                         l->tok_line, what, l->tok);
    return TESS_OK;
}

#define TRY(expr)                                                                                                  \
    do {                                                                                                           \
        tess_status st_ = (expr);                                                                                  \
        if (st_ != TESS_OK)                                                                                        \
            return st_;                                                                                            \
    } while (0)

/* solid NAME { facet normal n n n outer loop vertex x y z (3x) endloop endfacet } endsolid NAME, one or
 * more solids in a file. */
static tess_status parse_ascii(const char *text, size_t len, const char *path, tess_stl_mesh_t *m, tess_error_t *err)
{
    lexer_t l = {text, text + len, 1, "", 1};
    int solids = 0;
    while (next_word(&l)) {
        if (strcmp(l.tok, "solid") != 0)
            return tess_fail(err, TESS_ERR_INPUT, "%s:%d: ASCII STL: expected 'solid', got '%s'", path, l.tok_line,
                             l.tok);
        skip_line(&l); /* the solid's name */
        solids++;
        for (;;) {
            if (!next_word(&l))
                return tess_fail(err, TESS_ERR_INPUT, "%s:%d: ASCII STL ends early: expected 'facet' or 'endsolid'",
                                 path, l.line);
            if (strcmp(l.tok, "endsolid") == 0) {
                skip_line(&l);
                break;
            }
            if (strcmp(l.tok, "facet") != 0)
                return tess_fail(err, TESS_ERR_INPUT, "%s:%d: ASCII STL: expected 'facet' or 'endsolid', got '%s'",
                                 path, l.tok_line, l.tok);
            TRY(expect(&l, path, "normal", err));
            double v[3][3], n;
            for (int k = 0; k < 3; k++)
                TRY(number(&l, path, "normal component", 0, &n, err));
            TRY(expect(&l, path, "outer", err));
            TRY(expect(&l, path, "loop", err));
            for (int c = 0; c < 3; c++) {
                TRY(expect(&l, path, "vertex", err));
                for (int k = 0; k < 3; k++)
                    TRY(number(&l, path, "vertex coordinate", 1, &v[c][k], err));
            }
            TRY(expect(&l, path, "endloop", err));
            TRY(expect(&l, path, "endfacet", err));
            if (tess_stl_add(m, v[0], v[1], v[2], -1) != 0)
                return tess_fail(err, TESS_ERR_NOMEM, "%s: out of memory reading the triangles", path);
        }
    }
    if (!solids)
        return tess_fail(err, TESS_ERR_INPUT, "%s: empty file: expected an ASCII STL ('solid ...') or a binary STL",
                         path);
    return TESS_OK;
}

/* ---- binary ----------------------------------------------------------------------------------------- */

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float lef32(const unsigned char *p)
{
    const uint32_t u = le32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* 80-byte header, uint32 count, then per triangle 12 little-endian float32 (normal, 3 corners) and a
 * uint16 attribute count. */
static tess_status parse_binary(const unsigned char *b, uint32_t n, const char *path, tess_stl_mesh_t *m,
                                tess_error_t *err)
{
    for (uint32_t t = 0; t < n; t++) {
        const unsigned char *r = b + 84 + 50 * (size_t)t + 12;
        double v[3][3];
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++) {
                v[c][k] = lef32(r + 12 * c + 4 * k);
                if (!isfinite(v[c][k]))
                    return tess_fail(err, TESS_ERR_INPUT,
                                     "%s: binary STL triangle %u: corner %d has a coordinate that is not a finite "
                                     "number",
                                     path, t, c);
            }
        if (tess_stl_add(m, v[0], v[1], v[2], -1) != 0)
            return tess_fail(err, TESS_ERR_NOMEM, "%s: out of memory reading %u triangles", path, n);
    }
    return TESS_OK;
}

tess_status tess_stl_read(const char *path, tess_stl_mesh_t *m, tess_error_t *err)
{
    memset(m, 0, sizeof *m);
    char *text;
    size_t ulen;
    /* A regular file (a folder is named as one) of at most 16 GiB: about 340 million binary triangles. */
    tess_status rs = tess_input_file_read(path, "STL file", (size_t)1 << 34, &text, &ulen, err);
    if (rs != TESS_OK)
        return rs;
    unsigned char *b = (unsigned char *)text;
    const long len = (long)ulen;
    tess_status st;
    const uint32_t n = len >= 84 ? le32(b + 80) : 0;
    /* Binary by size: headers beginning with "solid" are common, so the first word proves nothing. */
    const int binary = len >= 84 && (uint64_t)len == 84 + 50 * (uint64_t)n;
    const size_t bom = len >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF ? 3 : 0; /* UTF-8 byte-order mark */
    size_t i = bom;
    while (i < (size_t)len && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n'))
        i++;
    const int says_solid = (size_t)len - i >= 5 && memcmp(b + i, "solid", 5) == 0;
    if (binary)
        st = parse_binary(b, n, path, m, err);
    else if (says_solid && memchr(b, 0, (size_t)len) == NULL)
        st = parse_ascii((const char *)b + bom, (size_t)len - bom, path, m, err);
    else if (len < 84)
        st = tess_fail(err, TESS_ERR_INPUT,
                       "%s: %ld bytes: too short for a binary STL (84-byte header) and not an ASCII STL ('solid ...')",
                       path, len);
    else
        st = tess_fail(err, TESS_ERR_INPUT,
                       "%s: binary STL header says %u triangles (84 + 50 x %u = %llu bytes), the file has %ld bytes "
                       "(truncated or not an STL file)",
                       path, n, n, (unsigned long long)(84 + 50 * (uint64_t)n), len);
    free(b);
    if (st == TESS_OK && m->ntri == 0)
        st = tess_fail(err, TESS_ERR_INPUT, "%s: the STL file holds no triangles", path);
    if (st != TESS_OK)
        tess_stl_free(m);
    return st;
}

/* ---- transform -------------------------------------------------------------------------------------- */

void tess_stl_transform_identity(tess_stl_transform_t *t)
{
    memset(t, 0, sizeof *t);
    t->scale = 1.0;
}

/* cos and sin of an angle in degrees, exact at multiples of 90 so that quarter turns keep grid-aligned
 * surfaces grid-aligned. */
static void cos_sin_deg(double deg, double *c, double *s)
{
    const double q = deg / 90.0;
    if (q == floor(q) && fabs(q) < 1e9) {
        static const double cs[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
        const long k = ((long)q % 4 + 4) % 4;
        *c = cs[k][0];
        *s = cs[k][1];
        return;
    }
    const double r = deg * (3.14159265358979323846 / 180.0);
    *c = cos(r);
    *s = sin(r);
}

void tess_stl_rotation(const tess_stl_transform_t *t, double r[3][3])
{
    double cx, sx, cy, sy, cz, sz;
    cos_sin_deg(t->rotate[0], &cx, &sx);
    cos_sin_deg(t->rotate[1], &cy, &sy);
    cos_sin_deg(t->rotate[2], &cz, &sz);
    /* Rz Ry Rx */
    r[0][0] = cz * cy;
    r[0][1] = cz * sy * sx - sz * cx;
    r[0][2] = cz * sy * cx + sz * sx;
    r[1][0] = sz * cy;
    r[1][1] = sz * sy * sx + cz * cx;
    r[1][2] = sz * sy * cx - cz * sx;
    r[2][0] = -sy;
    r[2][1] = cy * sx;
    r[2][2] = cy * cx;
}

static void apply(const double r[3][3], double s, const double tr[3], const double p[3], double out[3])
{
    double q[3];
    for (int i = 0; i < 3; i++)
        q[i] = r[i][0] * (s * p[0]) + r[i][1] * (s * p[1]) + r[i][2] * (s * p[2]) + tr[i];
    memcpy(out, q, sizeof q);
}

void tess_stl_transform_point(const tess_stl_transform_t *t, const double p[3], double out[3])
{
    double r[3][3];
    tess_stl_rotation(t, r);
    apply(r, t->scale, t->translate, p, out);
}

void tess_stl_transform_direction(const tess_stl_transform_t *t, const double d[3], double out[3])
{
    double r[3][3];
    const double zero[3] = {0, 0, 0};
    tess_stl_rotation(t, r);
    apply(r, 1.0, zero, d, out);
}

void tess_stl_mesh_transform(tess_stl_mesh_t *m, const tess_stl_transform_t *t)
{
    double r[3][3];
    tess_stl_rotation(t, r);
    for (size_t i = 0; i < 3 * m->ntri; i++)
        apply(r, t->scale, t->translate, m->v + 3 * i, m->v + 3 * i);
}

double tess_stl_signed_volume(const tess_stl_mesh_t *m)
{
    double v = 0.0;
    for (size_t t = 0; t < m->ntri; t++) {
        const double *a = m->v + 9 * t, *b = a + 3, *c = a + 6;
        v += a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
    }
    return v / 6.0;
}

void tess_stl_bounds(const tess_stl_mesh_t *m, double lo[3], double hi[3])
{
    for (int k = 0; k < 3; k++) {
        lo[k] = INFINITY;
        hi[k] = -INFINITY;
    }
    for (size_t i = 0; i < 3 * m->ntri; i++)
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], m->v[3 * i + k]);
            hi[k] = fmax(hi[k], m->v[3 * i + k]);
        }
}
