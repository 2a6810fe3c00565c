/* Temporary files of the atomic writes (core/io/tess_tmp.c, tess_file.c): they are named "<name>.<pid>.tmp", the
 * list a signal handler walks removes exactly the files in progress, and a run's clean-up removes the
 * temporaries of dead processes only. Counts and names compared exactly. */
#define _POSIX_C_SOURCE 200809L
#include "tess_file.h"
#include "tess_test.h"
#include "tess_tmp.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static void touch(const char *dir, const char *name)
{
    char p[600];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (f)
        fclose(f);
}

int main(void)
{
    char dir[] = "/tmp/tess_tmp_XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char path[600], want[700];
    tess_error_t err;
    snprintf(path, sizeof path, "%s/fields_000010.vti", dir);
    snprintf(want, sizeof want, "%s.%ld.tmp", path, (long)getpid());

    tess_file_t w;
    tess_test_true("tess_file_begin", tess_file_begin(&w, path, &err) == TESS_OK);
    fputs("partial", w.f);
    fflush(w.f);
    tess_test_true("the temporary is <name>.<pid>.tmp and exists", strcmp(w.tmp, want) == 0 && exists(w.tmp));
    tess_tmp_unlink_all(); /* what the second signal's handler does */
    tess_test_true("the handler's walk removes the file in progress", !exists(w.tmp) && !exists(path));
    tess_file_abort(&w);

    tess_test_true("a second write begins", tess_file_begin(&w, path, &err) == TESS_OK);
    fputs("whole", w.f);
    tess_test_true("and commits", tess_file_commit(&w, &err) == TESS_OK && exists(path) && !exists(want));
    tess_tmp_unlink_all();
    tess_test_true("the walk leaves committed files alone", exists(path));

    /* A dead process's temporary goes, a live one's (this process) stays, other names stay. */
    const pid_t child = fork();
    if (child == 0)
        _exit(0);
    waitpid(child, NULL, 0);
    char dead[128], live[128];
    snprintf(dead, sizeof dead, "restart.tsr.%ld.tmp", (long)child);
    snprintf(live, sizeof live, "monitor.csv.%ld.tmp", (long)getpid());
    touch(dir, dead);
    touch(dir, live);
    touch(dir, "notes.123.txt");
    touch(dir, "x.tmp");
    const int removed = tess_tmp_remove_stale(dir);
    char p[700];
    snprintf(p, sizeof p, "%s/%s", dir, dead);
    const int dead_gone = !exists(p);
    snprintf(p, sizeof p, "%s/%s", dir, live);
    const int live_kept = exists(p);
    tess_test_close("stale temporaries removed", removed, 1, 0);
    tess_test_true("the dead process's one is gone, the live one's, x.tmp and notes.123.txt stay", dead_gone && live_kept);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    return tess_test_result("test_tmp_files");
}
