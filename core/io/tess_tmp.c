#define _POSIX_C_SOURCE 200809L
#include "tess_tmp.h"
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* A run has at most a few files open at once (fields, monitor, summary, restart): 16 slots are plenty. */
#define TESS_TMP_SLOTS 16

static struct {
    volatile sig_atomic_t used; /* set after the name is complete, cleared before the slot is reused */
    char path[1200];
} slots[TESS_TMP_SLOTS];

int tess_tmp_name(const char *path, char *out, size_t len)
{
    const int n = snprintf(out, len, "%s.%ld.tmp", path, (long)getpid());
    return n > 0 && (size_t)n < len;
}

int tess_tmp_register(const char *tmp_path)
{
    if (strlen(tmp_path) >= sizeof slots[0].path)
        return -1;
    for (int i = 0; i < TESS_TMP_SLOTS; i++)
        if (!slots[i].used) {
            memcpy(slots[i].path, tmp_path, strlen(tmp_path) + 1);
            slots[i].used = 1;
            return i;
        }
    return -1;
}

void tess_tmp_unregister(int slot)
{
    if (slot >= 0 && slot < TESS_TMP_SLOTS)
        slots[slot].used = 0;
}

void tess_tmp_unlink_all(void)
{
    for (int i = 0; i < TESS_TMP_SLOTS; i++)
        if (slots[i].used)
            (void)unlink(slots[i].path);
}

/* The pid of a temporary's name "<name>.<pid>.tmp", or 0 when the name is not one. */
static long tmp_pid(const char *name)
{
    const size_t n = strlen(name);
    if (n < 7 || strcmp(name + n - 4, ".tmp") != 0)
        return 0;
    size_t i = n - 4;
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
        i--;
    if (i == n - 4 || i < 2 || name[i - 1] != '.')
        return 0;
    return strtol(name + i, NULL, 10);
}

int tess_tmp_remove_stale(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int removed = 0;
    for (struct dirent *e; (e = readdir(d));) {
        const long pid = tmp_pid(e->d_name);
        /* A live process (another run writing into the same folder) keeps its files. */
        if (pid <= 0 || (kill((pid_t)pid, 0) == 0 || errno == EPERM))
            continue;
        char path[2400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        removed += unlink(path) == 0;
    }
    closedir(d);
    return removed;
}
