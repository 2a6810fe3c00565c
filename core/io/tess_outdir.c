#define _XOPEN_SOURCE 700
#include "tess_outdir.h"
#include "tess_file.h"
#include "tess_tmp.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int ends_with(const char *s, const char *tail)
{
    const size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* fields_<anything>.vti or .pvti: the run's field series (tess's own names and any older run's). */
static int is_fields(const char *name)
{
    return strncmp(name, "fields_", 7) == 0 && (ends_with(name, ".vti") || ends_with(name, ".pvti"));
}

/* fields_, wss_ or average_<step>: the folder of a .pvti's pieces (tess_vti_pieces.h). */
static int is_pieces(const char *name)
{
    static const char *const prefix[] = {"fields_", "wss_", "average_"};
    for (int k = 0; k < 3; k++) {
        const size_t n = strlen(prefix[k]);
        char *end;
        if (strncmp(name, prefix[k], n) == 0 && strtol(name + n, &end, 10) >= 0 && end != name + n && *end == 0)
            return 1;
    }
    return 0;
}

/* The step of a per-step output (fields_, wss_ or average_<step>.vti / .vtp / .pvti, and the folder of a
 * .pvti's pieces, <prefix><step>), or -1 when name is none. */
static long stepped(const char *name)
{
    static const char *const prefix[] = {"fields_", "wss_", "average_"};
    for (int k = 0; k < 3; k++) {
        const size_t n = strlen(prefix[k]);
        if (strncmp(name, prefix[k], n) != 0)
            continue;
        char *end;
        const long step = strtol(name + n, &end, 10);
        if (end != name + n && step >= 0 &&
            (strcmp(end, ".vti") == 0 || strcmp(end, ".vtp") == 0 || strcmp(end, ".pvti") == 0 || *end == 0))
            return step;
    }
    return -1;
}

/* What --overwrite removes: every output a run writes (docs/reliability.md). The restart file being continued
 * from, and the averages saved with it, stay. */
static int is_output(const char *name)
{
    static const char *const fixed[] = {"monitor.csv", "summary.json", "fields.pvd", NULL};
    for (int k = 0; fixed[k]; k++)
        if (strcmp(name, fixed[k]) == 0)
            return 1;
    return is_fields(name) || stepped(name) >= 0 || ends_with(name, ".series") || ends_with(name, ".pvd") ||
           ((strncmp(name, "probe_", 6) == 0 || strncmp(name, "line_", 5) == 0) && ends_with(name, ".csv"));
}

/* 1 when restart names a file inside folder dir. */
static int restart_in(const char *dir, const char *restart)
{
    char rd[PATH_MAX], dd[PATH_MAX], tmp[PATH_MAX];
    if (!restart || strlen(restart) >= sizeof tmp || !realpath(dir, dd))
        return 0;
    snprintf(tmp, sizeof tmp, "%s", restart);
    char *slash = strrchr(tmp, '/');
    if (slash)
        *slash = 0;
    if (!realpath(slash ? (tmp[0] ? tmp : "/") : ".", rd))
        return 0;
    return strcmp(rd, dd) == 0;
}

/* The pieces' folder <prefix><step>: the pieces and their temporary files (a rank killed while writing), nothing
 * else; a folder with other files in it stays. */
static tess_status remove_pieces(const char *path, const char *name, tess_error_t *err)
{
    DIR *dp = opendir(path);
    if (!dp)
        return TESS_OK;
    const size_t n = strlen(name);
    tess_status st = TESS_OK;
    for (struct dirent *e; st == TESS_OK && (e = readdir(dp));)
        if (strncmp(e->d_name, name, n) == 0 && e->d_name[n] == '_' &&
            (ends_with(e->d_name, ".vti") || (strstr(e->d_name, ".vti.") && ends_with(e->d_name, ".tmp")))) {
            char f[3000];
            snprintf(f, sizeof f, "%s/%s", path, e->d_name);
            if (unlink(f) != 0 && errno != ENOENT)
                st = tess_fail(err, TESS_ERR_IO, "%s: cannot remove the old output: %s", f, strerror(errno));
        }
    closedir(dp);
    rmdir(path);
    return st;
}

static tess_status remove_file(const char *dir, const char *name, tess_error_t *err)
{
    char path[2400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat sb;
    if (is_pieces(name))
        return lstat(path, &sb) == 0 && S_ISDIR(sb.st_mode) ? remove_pieces(path, name, err) : TESS_OK;
    if (unlink(path) != 0 && errno != ENOENT)
        return tess_fail(err, TESS_ERR_IO, "%s: cannot remove the old output: %s", path, strerror(errno));
    return TESS_OK;
}

/* Counts the fields files of dir, removing what the mode asks for. */
static tess_status sweep(const char *dir, int overwrite, int restart_here, long restart_step, int *nfields,
                         char *first, size_t first_len, tess_error_t *err)
{
    DIR *dp = opendir(dir);
    if (!dp)
        return tess_fail(err, TESS_ERR_IO, "%s: cannot read the output folder: %s", dir, strerror(errno));
    tess_status st = TESS_OK;
    *nfields = 0;
    for (struct dirent *e; st == TESS_OK && (e = readdir(dp));) {
        const char *n = e->d_name;
        if (is_fields(n)) {
            if (!*nfields || strcmp(n, first) < 0)
                snprintf(first, first_len, "%s", n);
            ++*nfields;
        }
        if (overwrite) {
            char path[2400];
            snprintf(path, sizeof path, "%s/%s", dir, n);
            const int ckpt = strcmp(n, "restart.tsr") == 0 || strcmp(n, "average.restart") == 0;
            if (is_output(n) || (ckpt && !restart_here))
                st = remove_file(dir, n, err);
        } else if (restart_here && stepped(n) > restart_step) {
            /* Outputs after the restart step belong to the continuation that was cut off. */
            st = remove_file(dir, n, err);
        }
    }
    closedir(dp);
    return st;
}

tess_status tess_outdir_prepare(tess_outdir_t *d, const char *dir, int overwrite, const char *restart,
                                long restart_step, tess_error_t *err)
{
    memset(d, 0, sizeof *d);
    if (strlen(dir) >= sizeof d->path)
        return tess_fail(err, TESS_ERR_IO, "%s: path too long", dir);
    snprintf(d->path, sizeof d->path, "%s", dir);
    for (size_t n = strlen(d->path); n > 1 && d->path[n - 1] == '/'; n--)
        d->path[n - 1] = 0;
    dir = d->path;
    struct stat sb;
    if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        const int here = restart_in(dir, restart);
        int n = 0;
        char first[256] = "";
        /* Look first, remove only once the folder is known to be ours to change. */
        tess_status st = sweep(dir, 0, 0, 0, &n, first, sizeof first, err);
        if (st != TESS_OK)
            return st;
        if (n && !overwrite && !here)
            return tess_fail(err, TESS_ERR_INPUT,
                             "%s: holds the fields of another run (%s and %d more): choose another --out, add "
                             "--overwrite to replace them, or continue that run with --restart %s/restart.tsr",
                             dir, first, n - 1, dir);
        if ((overwrite || here) &&
            (st = sweep(dir, overwrite, here, restart_step, &n, first, sizeof first, err)) != TESS_OK)
            return st;
        tess_tmp_remove_stale(dir);
        return TESS_OK;
    }
    /* The first missing folder along the path is the top of what this run creates. */
    char buf[1100];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == 0) {
            const char c = *p;
            *p = 0;
            if (stat(buf, &sb) != 0) {
                snprintf(d->created, sizeof d->created, "%s", buf);
                break;
            }
            *p = c;
            if (!c)
                break;
        }
    }
    return tess_mkdirs(dir, err);
}

void tess_outdir_remove_if_empty(const tess_outdir_t *d)
{
    if (!d->created[0])
        return;
    char buf[1100];
    snprintf(buf, sizeof buf, "%s", d->path);
    /* rmdir(2) removes only empty folders: walk up from the leaf to the first folder this run made. */
    for (;;) {
        if (rmdir(buf) != 0 || strcmp(buf, d->created) == 0)
            return;
        char *slash = strrchr(buf, '/');
        if (!slash || slash == buf)
            return;
        *slash = 0;
    }
}
