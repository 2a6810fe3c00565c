/* The STL files shipped in cases/stl/ are exactly what tess_stl_gen writes (so they can be regenerated and
 * nobody edits them by hand). */
#include "tess_stl_shapes.h"
#include "tess_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long slurp(const char *path, char **out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    *out = malloc((size_t)len + 1);
    if (fread(*out, 1, (size_t)len, f) != (size_t)len)
        len = -1;
    fclose(f);
    return len;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    char cmd[4096];
    /* tess_stl_gen sits next to this test in the build folder */
    snprintf(cmd, sizeof cmd, "%s/tess_stl_gen %s", argv[2], argv[2]);
    tess_test_true("tess_stl_gen runs", system(cmd) == 0);
    const char *names[] = {"sphere.stl", "sphere_binary.stl", "bent_tube.stl", "bent_tube_binary.stl"};
    for (int i = 0; i < 4; i++) {
        char a[2048], b[2048], label[256];
        char *da = NULL, *db = NULL;
        snprintf(a, sizeof a, "%s/%s", argv[1], names[i]);
        snprintf(b, sizeof b, "%s/%s", argv[2], names[i]);
        const long la = slurp(a, &da), lb = slurp(b, &db);
        snprintf(label, sizeof label, "cases/stl/%s (%ld bytes) is byte for byte the generator's output (%ld bytes)",
                 names[i], la, lb);
        tess_test_true(label, la > 0 && la == lb && memcmp(da, db, (size_t)la) == 0);
        free(da);
        free(db);
    }
    return tess_test_result("test_stl_files");
}
