/* The key/value entries of a case file and its --set overrides, with where each came from, and typed
 * getters that validate a value and fill a one-line error naming its origin. Internal to core/case. */
#ifndef TESS_CASE_ENTRIES_H
#define TESS_CASE_ENTRIES_H

#include "tess_error.h"

typedef struct {
    char section[96];
    char key[64];
    char value[512];
    int line;      /* line in the case file; 0 for an override */
    int used;      /* set by the getters; entries never used are unknown keys */
} tess_entry_t;

typedef struct {
    const char *file;  /* the case file, for messages */
    tess_entry_t *e;
    int n, cap;
    char sections[64][96]; /* section names in first-appearance order */
    int nsec;
} tess_entries_t;

/* Longest case-file line (characters before the newline), and largest case file. libinih's line buffer is
 * 200 bytes (the newline and a NUL take two); longer lines are an error naming the line. */
#define TESS_CASE_LINE_MAX 198
#define TESS_CASE_FILE_MAX ((size_t)16 << 20)

/* Reads the file (with libinih); keys given twice in one section, lines over TESS_CASE_LINE_MAX characters and
 * NUL bytes are errors naming the line. */
tess_status tess_entries_read(tess_entries_t *es, const char *path, tess_error_t *err);
/* Applies "section.key=value": replaces the file's value or adds an entry. */
tess_status tess_entries_override(tess_entries_t *es, const char *spec, tess_error_t *err);
void tess_entries_free(tess_entries_t *es);

/* strtod for case values: a finite decimal number only (no nan/inf, no hexadecimal 0x1p0); returns 1 and sets
 * *out and *end (after the number), or 0. The caller checks what follows. */
int tess_parse_number(const char *s, double *out, const char **end);

/* The entry, marked used, or NULL when absent. */
tess_entry_t *tess_entry_find(tess_entries_t *es, const char *section, const char *key);
/* Fails with "<origin>: key 'k' in [s]: expected <what>, got '<value>'". */
tess_status tess_entry_fail(const tess_entries_t *es, const tess_entry_t *e, tess_error_t *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* "<file>:<line>" or "--set section.key" into buf. */
const char *tess_entry_origin(const tess_entries_t *es, const tess_entry_t *e, char *buf, size_t len);

/* Typed getters: absent keys leave *out at its default and return TESS_OK unless required. Bounds are
 * inclusive unless the _open flag says otherwise; the messages state the accepted range. */
tess_status tess_get_double(tess_entries_t *es, const char *s, const char *k, double lo, double hi, int lo_open,
                            int required, double *out, int *given, tess_error_t *err);
tess_status tess_get_long(tess_entries_t *es, const char *s, const char *k, long lo, long hi, int required, long *out,
                          tess_error_t *err);
tess_status tess_get_vec3(tess_entries_t *es, const char *s, const char *k, int required, double out[3], int *given,
                          tess_error_t *err);
/* One of the words in `choices` (NULL-terminated); *out is its index. */
tess_status tess_get_choice(tess_entries_t *es, const char *s, const char *k, const char *const *choices, int *out,
                            int *given, tess_error_t *err);
tess_status tess_get_string(tess_entries_t *es, const char *s, const char *k, int required, char *out, size_t len,
                            tess_error_t *err);

#endif
