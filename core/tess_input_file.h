/* Input files read whole (case files, STL, .vti): the path must name a regular file (a folder, a FIFO or a
 * device is refused before it is opened, so nothing blocks or reads forever) no larger than a bound the
 * caller gives; the buffer is then exactly the file plus a terminating NUL. */
#ifndef TESS_INPUT_FILE_H
#define TESS_INPUT_FILE_H

#include "tess_error.h"
#include <stddef.h>

/* TESS_ERR_INPUT "<path>: cannot read <what>: <reason>" (what: "STL file", "the case file") unless path is a regular file of at most
 * max_bytes bytes; *size receives its size. */
tess_status tess_input_file_check(const char *path, const char *what, size_t max_bytes, size_t *size,
                                  tess_error_t *err);

/* Checks as above, then reads the file into *buf (malloc'd, len + 1 bytes, NUL-terminated; free it). */
tess_status tess_input_file_read(const char *path, const char *what, size_t max_bytes, char **buf, size_t *len,
                                 tess_error_t *err);

#endif
