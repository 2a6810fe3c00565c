#define _POSIX_C_SOURCE 200809L
#include "tess_input_file.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

tess_status tess_input_file_check(const char *path, const char *what, size_t max_bytes, size_t *size,
                                  tess_error_t *err)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return tess_fail(err, TESS_ERR_INPUT, "%s: cannot open %s: %s", path, what, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return tess_fail(err, TESS_ERR_INPUT, "%s: cannot read %s: it is a folder, not a regular file", path, what);
    if (!S_ISREG(st.st_mode))
        return tess_fail(err, TESS_ERR_INPUT, "%s: cannot read %s: not a regular file (a device, FIFO or socket)",
                         path, what);
    if (st.st_size < 0 || (unsigned long long)st.st_size > max_bytes)
        return tess_fail(err, TESS_ERR_INPUT, "%s: %s of %lld bytes, more than the %zu bytes accepted", path,
                         what, (long long)st.st_size, max_bytes);
    *size = (size_t)st.st_size;
    return TESS_OK;
}

tess_status tess_input_file_read(const char *path, const char *what, size_t max_bytes, char **buf, size_t *len,
                                 tess_error_t *err)
{
    *buf = NULL;
    *len = 0;
    size_t size = 0;
    tess_status st = tess_input_file_check(path, what, max_bytes, &size, err);
    if (st != TESS_OK)
        return st;
    FILE *f = fopen(path, "rb");
    if (!f)
        return tess_fail(err, TESS_ERR_INPUT, "%s: cannot open %s: %s", path, what, strerror(errno));
    char *b = malloc(size + 1);
    if (!b) {
        fclose(f);
        return tess_fail(err, TESS_ERR_NOMEM, "%s: out of memory for %zu bytes (%s)", path, size, what);
    }
    const size_t got = fread(b, 1, size, f);
    /* A file that changed size since stat: read what is there, but never more than was allocated. */
    const int more = got == size && fgetc(f) != EOF;
    const int bad = ferror(f);
    fclose(f);
    if (bad || more) {
        free(b);
        return tess_fail(err, TESS_ERR_IO, "%s: cannot read %s (%s)", path, what,
                         bad ? "read error" : "the file grew while being read");
    }
    b[got] = 0;
    *buf = b;
    *len = got;
    return TESS_OK;
}
