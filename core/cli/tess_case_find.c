#define _POSIX_C_SOURCE 200809L
#include "tess_cli.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef TESS_SOURCE_CASES_DIR
#define TESS_SOURCE_CASES_DIR ""
#endif

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

tess_status tess_case_find(const char *name, char *path, size_t len, tess_error_t *err)
{
    if (is_file(name)) {
        snprintf(path, len, "%s", name);
        return TESS_OK;
    }
    const char *dirs[2] = {getenv("TESSERA_CASES"), TESS_SOURCE_CASES_DIR};
    const size_t nl = strlen(name);
    const int has_ext = nl > 4 && strcmp(name + nl - 4, ".ini") == 0;
    for (int i = 0; i < 2; i++) {
        if (!dirs[i] || !dirs[i][0] || strchr(name, '/'))
            continue;
        snprintf(path, len, "%s/%s%s", dirs[i], name, has_ext ? "" : ".ini");
        if (is_file(path))
            return TESS_OK;
    }
    return tess_fail(err, TESS_ERR_INPUT, "%s: no such case file (also looked for %.*s.ini in $TESSERA_CASES%s%s)", name,
                     (int)(has_ext ? nl - 4 : nl), name, TESS_SOURCE_CASES_DIR[0] ? " and " : "", TESS_SOURCE_CASES_DIR);
}
