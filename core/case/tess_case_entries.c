#include "tess_case_entries.h"
#include "tess_input_file.h"
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libinih is built without INI_HANDLER_LINENO on Debian, and with a line buffer of INI_MAX_LINE (200) bytes
 * that cuts longer lines and reports the pieces as later lines. So the file is read here: its lines are
 * checked (length, NUL bytes) and counted, and handed to ini_parse_stream one by one, so the handler knows
 * the line it is looking at (it runs right after its line was read) and no line is ever cut. */
typedef struct {
    const char *p, *end; /* the rest of the file */
    int line;
    tess_entries_t *es;
    tess_error_t *err;
    tess_status st;
} reader_t;

static char *next_line(char *str, int num, void *stream)
{
    reader_t *r = stream;
    if (r->p >= r->end || num < 2)
        return NULL;
    const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
    size_t n = nl ? (size_t)(nl - r->p) + 1 : (size_t)(r->end - r->p);
    if (n > (size_t)num - 1) /* never: lines were checked against TESS_CASE_LINE_MAX < num - 1 */
        n = (size_t)num - 1;
    memcpy(str, r->p, n);
    str[n] = 0;
    r->p += n;
    r->line++;
    return str;
}

/* Finds the first line longer than TESS_CASE_LINE_MAX characters (a CR before the newline counts) or holding a
 * NUL byte; TESS_OK when there is none. */
static tess_status check_lines(const char *path, const char *text, size_t len, tess_error_t *err)
{
    int line = 1;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || text[i] == '\n') {
            if (i - start > TESS_CASE_LINE_MAX)
                return tess_fail(err, TESS_ERR_INPUT,
                                 "%s:%d: line of %zu characters: expected at most %d characters a line", path, line,
                                 i - start, TESS_CASE_LINE_MAX);
            line++;
            start = i + 1;
        } else if (text[i] == 0) {
            return tess_fail(err, TESS_ERR_INPUT, "%s:%d: a NUL byte (column %zu): expected a text file", path, line,
                             i - start + 1);
        }
    }
    return TESS_OK;
}

static void copy(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src);
}

static tess_entry_t *add(tess_entries_t *es, const char *section, const char *key, const char *value, int line)
{
    if (es->n == es->cap) {
        const int cap = es->cap ? 2 * es->cap : 64;
        tess_entry_t *e = realloc(es->e, (size_t)cap * sizeof *e);
        if (!e)
            return NULL;
        es->e = e;
        es->cap = cap;
    }
    tess_entry_t *e = &es->e[es->n++];
    memset(e, 0, sizeof *e);
    copy(e->section, sizeof e->section, section);
    copy(e->key, sizeof e->key, key);
    copy(e->value, sizeof e->value, value);
    e->line = line;
    int known = 0;
    for (int i = 0; i < es->nsec; i++)
        known |= strcmp(es->sections[i], section) == 0;
    if (!known && es->nsec < (int)(sizeof es->sections / sizeof es->sections[0]))
        copy(es->sections[es->nsec++], sizeof es->sections[0], section);
    return e;
}

static tess_entry_t *lookup(tess_entries_t *es, const char *section, const char *key)
{
    for (int i = 0; i < es->n; i++)
        if (strcmp(es->e[i].section, section) == 0 && strcmp(es->e[i].key, key) == 0)
            return &es->e[i];
    return NULL;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    reader_t *r = user;
    if (!section[0])
        return (r->st = tess_fail(r->err, TESS_ERR_INPUT, "%s:%d: key '%s' outside any [section]", r->es->file,
                                  r->line, name)),
               0;
    /* (Values fit: a line holds at most TESS_CASE_LINE_MAX characters.) */
    if (strlen(section) >= sizeof r->es->e[0].section)
        return (r->st = tess_fail(r->err, TESS_ERR_INPUT, "%s:%d: section name of %zu characters, expected at most %zu",
                                  r->es->file, r->line, strlen(section), sizeof r->es->e[0].section - 1)),
               0;
    if (strlen(name) >= sizeof r->es->e[0].key)
        return (r->st = tess_fail(r->err, TESS_ERR_INPUT, "%s:%d: key '%s' in [%s]: key name of %zu characters, expected at "
                                  "most %zu", r->es->file, r->line, name, section, strlen(name), sizeof r->es->e[0].key - 1)),
               0;
    const tess_entry_t *prev = lookup(r->es, section, name);
    if (prev)
        return (r->st = tess_fail(r->err, TESS_ERR_INPUT, "%s:%d: key '%s' in [%s] given twice (first on line %d)",
                                  r->es->file, r->line, name, section, prev->line)),
               0;
    if (!add(r->es, section, name, value, r->line))
        return (r->st = tess_fail(r->err, TESS_ERR_NOMEM, "out of memory reading %s", r->es->file)), 0;
    return 1;
}

tess_status tess_entries_read(tess_entries_t *es, const char *path, tess_error_t *err)
{
    memset(es, 0, sizeof *es);
    es->file = path;
    char *text;
    size_t len;
    tess_status st = tess_input_file_read(path, "the case file", TESS_CASE_FILE_MAX, &text, &len, err);
    if (st != TESS_OK)
        return st;
    if ((st = check_lines(path, text, len, err)) != TESS_OK) {
        free(text);
        return st;
    }
    reader_t r = {text, text + len, 0, es, err, TESS_OK};
    const int rc = ini_parse_stream(next_line, &r, handler, &r);
    free(text);
    if (r.st != TESS_OK)
        return r.st;
    if (rc > 0)
        return tess_fail(err, TESS_ERR_INPUT, "%s:%d: expected '[section]', 'key = value' or a comment", path, rc);
    if (rc < 0)
        return tess_fail(err, TESS_ERR_IO, "%s: cannot read the case file", path);
    return TESS_OK;
}

tess_status tess_entries_override(tess_entries_t *es, const char *spec, tess_error_t *err)
{
    const char *eq = strchr(spec, '=');
    const char *dot = eq ? memchr(spec, '.', (size_t)(eq - spec)) : NULL;
    char section[96], key[64];
    if (!eq || !dot) {
        return tess_fail(err, TESS_ERR_INPUT, "--set %s: expected section.key=value", spec);
    }
    /* The section is everything up to the last dot before '=', so [solid.ball] reads solid.ball.radius=4. */
    for (const char *p = dot; p < eq; p++)
        if (*p == '.')
            dot = p;
    const size_t ls = (size_t)(dot - spec), lk = (size_t)(eq - dot - 1);
    if (ls == 0 || lk == 0 || ls >= sizeof section || lk >= sizeof key || strlen(eq + 1) >= sizeof es->e[0].value)
        return tess_fail(err, TESS_ERR_INPUT, "--set %s: expected section.key=value", spec);
    memcpy(section, spec, ls);
    section[ls] = 0;
    memcpy(key, dot + 1, lk);
    key[lk] = 0;
    tess_entry_t *e = lookup(es, section, key);
    if (e) {
        copy(e->value, sizeof e->value, eq + 1);
        e->line = 0;
        return TESS_OK;
    }
    if (!add(es, section, key, eq + 1, 0))
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory applying --set %s", spec);
    return TESS_OK;
}

void tess_entries_free(tess_entries_t *es)
{
    free(es->e);
    es->e = NULL;
    es->n = es->cap = 0;
}

tess_entry_t *tess_entry_find(tess_entries_t *es, const char *section, const char *key)
{
    tess_entry_t *e = lookup(es, section, key);
    if (e)
        e->used = 1;
    return e;
}

const char *tess_entry_origin(const tess_entries_t *es, const tess_entry_t *e, char *buf, size_t len)
{
    if (e->line > 0)
        snprintf(buf, len, "%s:%d", es->file, e->line);
    else
        snprintf(buf, len, "--set %s.%s", e->section, e->key);
    return buf;
}

tess_status tess_entry_fail(const tess_entries_t *es, const tess_entry_t *e, tess_error_t *err, const char *fmt, ...)
{
    char what[512], origin[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    tess_entry_origin(es, e, origin, sizeof origin);
    if (e->line > 0)
        return tess_fail(err, TESS_ERR_INPUT, "%s: key '%s' in [%s]: expected %s, got '%s'", origin, e->key, e->section,
                         what, e->value);
    return tess_fail(err, TESS_ERR_INPUT, "%s: expected %s, got '%s'", origin, what, e->value);
}

static tess_status missing(const tess_entries_t *es, const char *s, const char *k, const char *what, tess_error_t *err)
{
    return tess_fail(err, TESS_ERR_INPUT, "%s: [%s]: missing key '%s' (%s)", es->file, s, k, what);
}

int tess_parse_number(const char *s, double *out, const char **end)
{
    char *e;
    errno = 0;
    const double v = strtod(s, &e);
    if (e == s || errno == ERANGE || !isfinite(v))
        return 0;
    for (const char *p = s; p < e; p++)
        if (!strchr("0123456789+-.eE \t", *p))
            return 0;
    *out = v;
    *end = e;
    return 1;
}

static int blank(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == 0;
}

tess_status tess_get_double(tess_entries_t *es, const char *s, const char *k, double lo, double hi, int lo_open,
                            int required, double *out, int *given, tess_error_t *err)
{
    char what[128];
    if (hi >= INFINITY)
        snprintf(what, sizeof what, "a number %s %g", lo_open ? ">" : ">=", lo);
    else if (lo <= -INFINITY)
        snprintf(what, sizeof what, "a number <= %g", hi);
    else
        snprintf(what, sizeof what, "a number in %s%g, %g]", lo_open ? "(" : "[", lo, hi);
    if (lo <= -INFINITY && hi >= INFINITY)
        snprintf(what, sizeof what, "a number");
    if (given)
        *given = 0;
    tess_entry_t *e = tess_entry_find(es, s, k);
    if (!e)
        return required ? missing(es, s, k, what, err) : TESS_OK;
    double v;
    const char *end;
    if (!tess_parse_number(e->value, &v, &end) || !blank(end) || v < lo || v > hi || (lo_open && v == lo))
        return tess_entry_fail(es, e, err, "%s", what);
    *out = v;
    if (given)
        *given = 1;
    return TESS_OK;
}

tess_status tess_get_long(tess_entries_t *es, const char *s, const char *k, long lo, long hi, int required, long *out,
                          tess_error_t *err)
{
    char what[128];
    snprintf(what, sizeof what, "an integer in [%ld, %ld]", lo, hi);
    tess_entry_t *e = tess_entry_find(es, s, k);
    if (!e)
        return required ? missing(es, s, k, what, err) : TESS_OK;
    char *end;
    errno = 0;
    const long v = strtol(e->value, &end, 10);
    if (end == e->value || errno == ERANGE || !blank(end) || v < lo || v > hi)
        return tess_entry_fail(es, e, err, "%s", what);
    *out = v;
    return TESS_OK;
}

tess_status tess_get_vec3(tess_entries_t *es, const char *s, const char *k, int required, double out[3], int *given,
                          tess_error_t *err)
{
    if (given)
        *given = 0;
    tess_entry_t *e = tess_entry_find(es, s, k);
    if (!e)
        return required ? missing(es, s, k, "three numbers", err) : TESS_OK;
    double v[3];
    const char *p = e->value;
    for (int i = 0; i < 3; i++) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (!tess_parse_number(p, &v[i], &p))
            return tess_entry_fail(es, e, err, "three numbers separated by spaces");
    }
    if (!blank(p))
        return tess_entry_fail(es, e, err, "three numbers separated by spaces");
    memcpy(out, v, sizeof v);
    if (given)
        *given = 1;
    return TESS_OK;
}

tess_status tess_get_choice(tess_entries_t *es, const char *s, const char *k, const char *const *choices, int *out,
                            int *given, tess_error_t *err)
{
    if (given)
        *given = 0;
    tess_entry_t *e = tess_entry_find(es, s, k);
    if (!e)
        return TESS_OK;
    char list[256] = "";
    for (int i = 0; choices[i]; i++) {
        if (strcmp(e->value, choices[i]) == 0) {
            *out = i;
            if (given)
                *given = 1;
            return TESS_OK;
        }
        strncat(list, i ? (choices[i + 1] ? ", " : " or ") : "", sizeof list - strlen(list) - 1);
        strncat(list, choices[i], sizeof list - strlen(list) - 1);
    }
    return tess_entry_fail(es, e, err, "%s", list);
}

tess_status tess_get_string(tess_entries_t *es, const char *s, const char *k, int required, char *out, size_t len,
                            tess_error_t *err)
{
    tess_entry_t *e = tess_entry_find(es, s, k);
    if (!e)
        return required ? missing(es, s, k, "a value", err) : TESS_OK;
    if (!e->value[0] || strlen(e->value) >= len)
        return tess_entry_fail(es, e, err, "a non-empty value of at most %zu characters", len - 1);
    snprintf(out, len, "%s", e->value);
    return TESS_OK;
}
