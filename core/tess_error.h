/* Error codes from one list (X-macro): the enum and the messages cannot drift apart. Library code returns
 * these and fills a tess_error_t with one line for the user; only the command-line program exits. */
#ifndef TESS_ERROR_H
#define TESS_ERROR_H

#include <stddef.h>

#define TESS_ERROR_LIST(X)                                                        \
    X(TESS_OK, 0, "success")                                                      \
    X(TESS_ERR_INPUT, 2, "invalid input")                                         \
    X(TESS_ERR_IO, 3, "input/output error")                                       \
    X(TESS_ERR_NOMEM, 4, "out of memory")                                         \
    X(TESS_ERR_DEVICE, 5, "device error")                                         \
    X(TESS_ERR_DIVERGED, 6, "simulation diverged")                                \
    X(TESS_ERR_UNSUPPORTED, 7, "not supported by this build or backend")          \
    X(TESS_ERR_CHECK, 8, "cross-check tolerance exceeded")

typedef enum {
#define TESS_ERROR_ENUM(name, status, text) name,
    TESS_ERROR_LIST(TESS_ERROR_ENUM)
#undef TESS_ERROR_ENUM
} tess_status;

typedef struct {
    tess_status code;
    char msg[1024];
} tess_error_t;

/* Records code and a printf-style one-line message (control characters, such as a newline quoted from a bad
 * input file, are replaced by '?'); returns code so callers can `return tess_fail(...)`. */
tess_status tess_fail(tess_error_t *err, tess_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
const char *tess_status_text(tess_status code);
/* Process exit status the command-line program uses for a code (bad input is 2). */
int tess_status_exit_code(tess_status code);

#endif
