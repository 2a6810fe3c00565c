/* STL reading: ASCII and binary hold the same surface; binary files whose header starts with "solid" are
 * read as binary; truncated and malformed files give one line naming the file, the line or triangle, and
 * what was expected; the rotation order of the case file (x, then y, then z). */
#include "tess_stl.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, long *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)*len + 1);
    if (fread(b, 1, (size_t)*len, f) != (size_t)*len)
        *len = -1;
    fclose(f);
    b[*len] = 0;
    return b;
}

static void spill(const char *path, const char *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    fwrite(b, 1, len, f);
    fclose(f);
}

/* Reads `path` expecting failure; checks the message contains `want`. */
static void expect_error(const char *what, const char *path, const char *want)
{
    tess_stl_mesh_t m;
    tess_error_t err;
    const tess_status st = tess_stl_read(path, &m, &err);
    char label[1400];
    snprintf(label, sizeof label, "%s: TESS_ERR_INPUT with a message containing \"%s\" (got \"%s\")", what, want,
             st == TESS_OK ? "no error" : err.msg);
    tess_test_true(label, st == TESS_ERR_INPUT && strstr(err.msg, want) != NULL && !strchr(err.msg, '\n'));
    if (st == TESS_OK)
        tess_stl_free(&m);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    char p[2][2048], tmp[2048];
    for (int file = 0; file < 2; file++) {
        const char *names[2][2] = {{"sphere.stl", "sphere_binary.stl"}, {"bent_tube.stl", "bent_tube_binary.stl"}};
        tess_stl_mesh_t m[2];
        tess_error_t err;
        for (int b = 0; b < 2; b++) {
            snprintf(p[b], sizeof p[b], "%s/%s", argv[1], names[file][b]);
            if (tess_stl_read(p[b], &m[b], &err) != TESS_OK) {
                printf("FAIL %s\n", err.msg);
                return 1;
            }
        }
        const size_t want = file == 0 ? 1280 : 960;
        char label[256];
        snprintf(label, sizeof label, "%s and %s: %zu triangles each (generator: %zu)", names[file][0], names[file][1],
                 m[0].ntri, want);
        tess_test_true(label, m[0].ntri == want && m[1].ntri == want);
        /* The ASCII file has each float32 to 9 significant digits, which reads back within half a unit of
         * the 9th digit: relative 5e-9 of the coordinate (the unit surfaces have |coordinates| <= 7). */
        double dmax = 0;
        for (size_t i = 0; i < 9 * m[0].ntri && m[0].ntri == m[1].ntri; i++)
            dmax = fmax(dmax, fabs(m[0].v[i] - m[1].v[i]));
        snprintf(label, sizeof label, "%s: largest ASCII - binary coordinate difference", names[file][0]);
        tess_test_close(label, dmax, 0.0, 7 * 5e-9);
        tess_stl_free(&m[0]);
        tess_stl_free(&m[1]);
    }

    /* Malformed files, made from the shipped ones. */
    long len;
    snprintf(p[0], sizeof p[0], "%s/sphere_binary.stl", argv[1]);
    char *bin = slurp(p[0], &len);
    snprintf(tmp, sizeof tmp, "%s/truncated_binary.stl", argv[2]);
    spill(tmp, bin, (size_t)len - 10);
    expect_error("binary STL cut by 10 bytes", tmp, "binary STL header says 1280 triangles (84 + 50 x 1280 = 64084 bytes), the file has 64074 bytes");
    /* 60 bytes of a header that starts with "solid" and holds no zero byte: read as ASCII, which ends early. */
    spill(tmp, bin, 60);
    expect_error("60 bytes of a binary header starting with 'solid'", tmp, ":1: ASCII STL ends early: expected 'facet' or 'endsolid'");
    char zeros[60] = {0};
    spill(tmp, zeros, sizeof zeros);
    expect_error("60 zero bytes", tmp, "60 bytes: too short for a binary STL (84-byte header) and not an ASCII STL");
    free(bin);
    snprintf(p[0], sizeof p[0], "%s/sphere.stl", argv[1]);
    char *asc = slurp(p[0], &len);
    /* Line 5 is the second "vertex" of the first facet. */
    char *bad = malloc((size_t)len + 1), *l5 = bad;
    memcpy(bad, asc, (size_t)len + 1);
    for (int i = 0; i < 4; i++)
        l5 = strchr(l5, '\n') + 1;
    char *v = strstr(l5, "vertex");
    memcpy(v, "vortex", 6);
    snprintf(tmp, sizeof tmp, "%s/bad_keyword.stl", argv[2]);
    spill(tmp, bad, strlen(bad));
    char want[2300];
    snprintf(want, sizeof want, "%s:5: ASCII STL: expected 'vertex', got 'vortex'", tmp);
    expect_error("ASCII with a misspelt keyword on line 5", tmp, want);
    strcpy(bad, asc);
    v = strstr(strstr(bad, "vertex") + 1, " ");
    v[1] = 'x'; /* "vertex x..." */
    snprintf(tmp, sizeof tmp, "%s/bad_number.stl", argv[2]);
    spill(tmp, bad, strlen(bad));
    expect_error("ASCII with a bad number on line 4", tmp, ":4: ASCII STL: expected a finite number (vertex coordinate)");
    snprintf(tmp, sizeof tmp, "%s/cut_ascii.stl", argv[2]);
    spill(tmp, asc, 300); /* inside the second facet */
    expect_error("ASCII cut inside a facet", tmp, "ASCII STL ends early: expected");
    spill(tmp, "solid x\nendsolid x\n", 19);
    expect_error("ASCII without triangles", tmp, "holds no triangles");
    spill(tmp, "hello world, this is not an STL file at all\n", 44);
    expect_error("text that is not STL", tmp, "not an ASCII STL");
    /* Accepted: a byte-order mark, "nan" facet normals (unused), -0 and 0 for the same corner (one vertex). */
    {
        const char *ok = "\xEF\xBB\xBFsolid t\nfacet normal nan nan nan\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n"
                         "vertex 0 1 0\nendloop\nendfacet\nendsolid t\n";
        spill(tmp, ok, strlen(ok));
        tess_stl_mesh_t m;
        tess_error_t err;
        const tess_status st = tess_stl_read(tmp, &m, &err);
        tess_test_true("ASCII with a byte-order mark and a nan facet normal: one triangle", st == TESS_OK && m.ntri == 1);
        if (st == TESS_OK)
            tess_stl_free(&m);
    }
    snprintf(tmp, sizeof tmp, "%s/does_not_exist.stl", argv[2]);
    expect_error("missing file", tmp, "cannot open STL file");
    free(bad);
    free(asc);

    /* Rotation order: about x first, then y, then z; quarter turns are exact. */
    tess_stl_transform_t t;
    tess_stl_transform_identity(&t);
    const double ey[3] = {0, 1, 0}, ex[3] = {1, 0, 0};
    double o[3];
    t.rotate[0] = 90;
    tess_stl_transform_direction(&t, ey, o);
    tess_test_true("rotate 90 0 0 takes +y to +z exactly", o[0] == 0 && o[1] == 0 && o[2] == 1);
    t.rotate[1] = 90;
    tess_stl_transform_direction(&t, ey, o);
    tess_test_true("rotate 90 90 0 takes +y to +z (x first), then to +x (y second), exactly",
                   o[0] == 1 && o[1] == 0 && o[2] == 0);
    tess_stl_transform_identity(&t);
    t.rotate[2] = 30;
    t.scale = 2;
    t.translate[0] = 1;
    tess_stl_transform_point(&t, ex, o);
    tess_test_close("scale 2, rotate 0 0 30, translate 1 0 0 of (1, 0, 0): x = 1 + 2 cos 30", o[0], 1 + sqrt(3.0), 1e-15);
    tess_test_close("... y = 2 sin 30", o[1], 1.0, 1e-15);
    return tess_test_result("test_stl_read");
}
