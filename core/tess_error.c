#include "tess_error.h"
#include <stdarg.h>
#include <stdio.h>

tess_status tess_fail(tess_error_t *err, tess_status code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        /* One line, whatever a quoted piece of a bad file held: control characters become '?'. */
        for (char *p = err->msg; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
        err->code = code;
    }
    return code;
}

const char *tess_status_text(tess_status code)
{
    switch (code) {
#define TESS_ERROR_TEXT(name, status, text) case name: return text;
        TESS_ERROR_LIST(TESS_ERROR_TEXT)
#undef TESS_ERROR_TEXT
    }
    return "unknown error";
}

int tess_status_exit_code(tess_status code)
{
    switch (code) {
#define TESS_ERROR_EXIT(name, status, text) case name: return status;
        TESS_ERROR_LIST(TESS_ERROR_EXIT)
#undef TESS_ERROR_EXIT
    }
    return 1;
}
