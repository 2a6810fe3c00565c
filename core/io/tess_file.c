#define _POSIX_C_SOURCE 200809L
#include "tess_file.h"
#include "tess_tmp.h"
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

tess_status tess_file_begin(tess_file_t *w, const char *path, tess_error_t *err)
{
    if (strlen(path) >= sizeof w->path)
        return tess_fail(err, TESS_ERR_IO, "%s: path too long", path);
    snprintf(w->path, sizeof w->path, "%s", path);
    if (!tess_tmp_name(path, w->tmp, sizeof w->tmp))
        return tess_fail(err, TESS_ERR_IO, "%s: path too long", path);
    /* Listed before it exists, so that a second signal's handler can remove it (tess_signal.h). */
    w->slot = tess_tmp_register(w->tmp);
    w->f = fopen(w->tmp, "wb");
    if (!w->f) {
        const int e = errno;
        tess_tmp_unregister(w->slot);
        return tess_fail(err, TESS_ERR_IO, "%s: cannot create: %s", w->tmp, strerror(e));
    }
    return TESS_OK;
}

tess_status tess_file_commit(tess_file_t *w, tess_error_t *err)
{
    const int bad = ferror(w->f);
    const int closed = fclose(w->f);
    w->f = NULL;
    if (bad || closed != 0) {
        remove(w->tmp);
        tess_tmp_unregister(w->slot);
        return tess_fail(err, TESS_ERR_IO, "%s: write failed (disk full?)", w->path);
    }
    if (rename(w->tmp, w->path) != 0) {
        const int e = errno;
        remove(w->tmp);
        tess_tmp_unregister(w->slot);
        return tess_fail(err, TESS_ERR_IO, "%s: cannot rename the finished file into place: %s", w->path, strerror(e));
    }
    tess_tmp_unregister(w->slot);
    return TESS_OK;
}

void tess_file_abort(tess_file_t *w)
{
    if (w->f)
        fclose(w->f);
    w->f = NULL;
    remove(w->tmp);
    tess_tmp_unregister(w->slot);
}

tess_status tess_mkdirs(const char *path, tess_error_t *err)
{
    char buf[1100];
    if (strlen(path) >= sizeof buf)
        return tess_fail(err, TESS_ERR_IO, "%s: path too long", path);
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; ; p++) {
        if (*p == '/' || *p == 0) {
            const char c = *p;
            *p = 0;
            struct stat st;
            if (stat(buf, &st) != 0) {
                if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                    return tess_fail(err, TESS_ERR_IO, "%s: cannot create the folder: %s", buf, strerror(errno));
            } else if (!S_ISDIR(st.st_mode)) {
                return tess_fail(err, TESS_ERR_IO, "%s: exists and is not a folder", buf);
            }
            *p = c;
            if (!c)
                break;
        }
    }
    return TESS_OK;
}
