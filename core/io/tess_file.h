/* Files that appear whole or not at all: every output is written to a temporary name in the same folder
 * and renamed over the final name once complete, so a crash or an error never leaves a partial file. The
 * temporary name ends in .tmp, which no output has (tess_tmp.h). */
#ifndef TESS_FILE_H
#define TESS_FILE_H

#include "tess_error.h"
#include <stdio.h>

typedef struct {
    FILE *f;
    char path[1100];
    char tmp[1200]; /* "<path>.<pid>.tmp" (tess_tmp.h) */
    int slot;       /* its place in the list of temporaries, -1 if none */
} tess_file_t;

tess_status tess_file_begin(tess_file_t *w, const char *path, tess_error_t *err);
/* Closes and renames; on any write error removes the temporary file and reports TESS_ERR_IO. */
tess_status tess_file_commit(tess_file_t *w, tess_error_t *err);
/* Closes and removes the temporary file. */
void tess_file_abort(tess_file_t *w);

/* Creates a folder and its parents (like mkdir -p). */
tess_status tess_mkdirs(const char *path, tess_error_t *err);

#endif
