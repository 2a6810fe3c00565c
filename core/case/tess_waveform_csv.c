#include "tess_waveform_csv.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Splits the line into at most 3 fields at commas, semicolons and blanks; returns the number of fields. */
static int fields(char *line, char *f[3])
{
    int n = 0;
    char *p = line;
    while (*p) {
        while (*p == ',' || *p == ';' || isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        if (n == 3)
            return 4;
        f[n++] = p;
        while (*p && *p != ',' && *p != ';' && !isspace((unsigned char)*p))
            p++;
        if (*p)
            *p++ = 0;
    }
    return n;
}

/* Whether s is one number in C syntax (nothing after it); *v receives it. */
static int number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == 0;
}

tess_status tess_waveform_csv_read(const char *path, const char *origin, tess_waveform_t *w, tess_error_t *err)
{
    memset(w, 0, sizeof *w);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return tess_fail(err, TESS_ERR_INPUT, "%s: cannot open the waveform file %s: %s", origin, path, strerror(errno));
    char line[1024];
    int lineno = 0, rows = 0, header_allowed = 1, last_line = 0;
    tess_status st = TESS_OK;
    while (fgets(line, sizeof line, fp)) {
        lineno++;
        const size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n' && !feof(fp)) {
            st = tess_fail(err, TESS_ERR_INPUT, "%s: %s:%d: line longer than %d characters", origin, path, lineno,
                           (int)sizeof line - 2);
            break;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char show[80];
        snprintf(show, sizeof show, "%.79s", line); /* the row as written, cut to 79 characters */
        show[strcspn(show, "\r\n")] = 0;
        char *f[3];
        const int nf = fields(line, f);
        if (nf == 0)
            continue;
        double t, v;
        const int tnum = number(f[0], &t);
        if (header_allowed && !tnum) { /* a header row: "time,value" */
            header_allowed = 0;
            continue;
        }
        header_allowed = 0;
        if (nf != 2 || !tnum || !number(f[1], &v)) {
            st = tess_fail(err, TESS_ERR_INPUT, "%s: %s:%d: expected two numbers 'time,value', got '%s'", origin, path,
                           lineno, show);
            break;
        }
        if (!isfinite(t) || !isfinite(v)) {
            st = tess_fail(err, TESS_ERR_INPUT, "%s: %s:%d: expected finite numbers, got '%s'", origin, path, lineno,
                           show);
            break;
        }
        if (rows == TESS_WAVEFORM_ROWS) {
            st = tess_fail(err, TESS_ERR_INPUT, "%s: %s:%d: more than %d rows (resample the waveform to at most %d)",
                           origin, path, lineno, TESS_WAVEFORM_ROWS, TESS_WAVEFORM_ROWS);
            break;
        }
        if (rows > 0 && !(t > w->t[rows - 1])) {
            st = tess_fail(err, TESS_ERR_INPUT, "%s: %s:%d: expected a time greater than the previous row's %.17g, got %.17g",
                           origin, path, lineno, w->t[rows - 1], t);
            break;
        }
        w->t[rows] = t;
        w->v[rows] = v;
        rows++;
        last_line = lineno;
    }
    if (st == TESS_OK && ferror(fp))
        st = tess_fail(err, TESS_ERR_IO, "%s: %s: read error", origin, path);
    fclose(fp);
    if (st != TESS_OK)
        return st;
    if (rows < 2)
        return tess_fail(err, TESS_ERR_INPUT, "%s: %s: expected at least two rows 'time,value' (one period), found %d",
                         origin, path, rows);
    w->n = rows;
    /* The last row closes the period: its value must be the first row's (to the 12th digit of the largest value,
     * so that "1" and "1.0" or a value written with one digit less agree); it then takes that value exactly. */
    const double scale = tess_waveform_max_abs(w);
    if (fabs(w->v[rows - 1] - w->v[0]) > 1e-12 * (scale > 0.0 ? scale : 1.0))
        return tess_fail(err, TESS_ERR_INPUT,
                         "%s: %s:%d: expected the last row to close the period (value %.17g, the first row's, at time "
                         "%.17g = first time + period), got %.17g",
                         origin, path, last_line, w->v[0], w->t[rows - 1], w->v[rows - 1]);
    w->v[rows - 1] = w->v[0];
    return TESS_OK;
}

double tess_waveform_max_abs(const tess_waveform_t *w)
{
    double m = 0.0;
    for (int i = 0; i < w->n; i++)
        m = fabs(w->v[i]) > m ? fabs(w->v[i]) : m;
    return m;
}
