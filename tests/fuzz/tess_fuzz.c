#define _POSIX_C_SOURCE 200809L
#include "tess_fuzz.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

tess_status tess_fuzz_status;
char tess_fuzz_message[sizeof(((tess_error_t *)0)->msg)];

static char dir[512];

static void remove_dir(void)
{
    /* The targets write a few fixed names; remove them and the folder. */
    static const char *const names[] = {"case.ini", "s.stl", "v.vti", "v.raw", "init.vti", "r.tsr", NULL};
    char p[600];
    for (int i = 0; names[i]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

const char *tess_fuzz_file(const char *name, const void *data, size_t size)
{
    if (!dir[0]) {
        /* A memory file system where there is one: on a disk, writing the input costs 50 times the read. */
        const char *t = getenv("TMPDIR");
        if (!t || !t[0])
            t = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(dir, sizeof dir, "%s/tess_fuzz_XXXXXX", t);
        if (!mkdtemp(dir)) {
            perror("tess_fuzz: mkdtemp");
            abort();
        }
        atexit(remove_dir);
    }
    static char path[8][600];
    static int next;
    char *p = path[next++ % 8];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror("tess_fuzz: writing the input");
        abort();
    }
    return p;
}

void tess_fuzz_check(tess_status st, const tess_error_t *err, const char *must_name)
{
    tess_fuzz_status = st;
    tess_fuzz_message[0] = 0;
    if (st == TESS_OK)
        return;
    snprintf(tess_fuzz_message, sizeof tess_fuzz_message, "%s", err->msg);
    const char *bad = NULL;
    if (st != TESS_ERR_INPUT)
        bad = "status other than TESS_ERR_INPUT";
    else if (!err->msg[0] || strchr(err->msg, '\n'))
        bad = "message empty or more than one line";
    else if (must_name && !strstr(err->msg, must_name))
        bad = "message does not name the file";
    if (bad) {
        fprintf(stderr, "tess_fuzz: %s: status %d (%s): %s\n", bad, (int)st, tess_status_text(st), err->msg);
        abort();
    }
}
