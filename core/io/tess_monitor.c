#include "tess_monitor.h"
#include "tess_file.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void tess_monitor_init(tess_monitor_t *m, const char *path)
{
    memset(m, 0, sizeof *m);
    snprintf(m->path, sizeof m->path, "%s", path);
}

void tess_monitor_units(tess_monitor_t *m, double dt, double u_scale, double rho_scale)
{
    m->physical = 1;
    m->dt = dt;
    m->u_scale = u_scale;
    m->rho_scale = rho_scale;
}

tess_status tess_monitor_add(tess_monitor_t *m, const tess_monitor_row_t *row, tess_error_t *err)
{
    if (m->n == m->cap) {
        const int cap = m->cap ? 2 * m->cap : 256;
        tess_monitor_row_t *r = realloc(m->rows, (size_t)cap * sizeof *r);
        if (!r)
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory for monitor rows");
        m->rows = r;
        if (m->nextra) {
            double *e = realloc(m->extra, (size_t)cap * (size_t)m->nextra * sizeof *e);
            if (!e)
                return tess_fail(err, TESS_ERR_NOMEM, "out of memory for monitor rows");
            m->extra = e;
        }
        m->cap = cap;
    }
    for (int k = 0; k < m->nextra; k++)
        m->extra[(size_t)m->n * m->nextra + k] = row->extra ? row->extra[k] : NAN;
    m->rows[m->n] = *row;
    m->rows[m->n++].extra = NULL;
    tess_file_t w;
    tess_status st = tess_file_begin(&w, m->path, err);
    if (st != TESS_OK)
        return st;
    fprintf(w.f, "%s%s\n", m->physical ? TESS_MONITOR_HEADER_PHYSICAL : TESS_MONITOR_HEADER,
            m->extra_header ? m->extra_header : "");
    for (int i = 0; i < m->n; i++) {
        const tess_monitor_row_t *r = &m->rows[i];
        if (m->physical)
            fprintf(w.f, "%ld,%.15e,%.6f,%.4f,%.10e,%.15e,%.6e", r->step, (double)r->step * m->dt, r->wall_s, r->mlups,
                    r->max_u * m->u_scale, r->mean_rho * m->rho_scale, r->du_rel);
        else
            fprintf(w.f, "%ld,%.6f,%.4f,%.10e,%.15e,%.6e", r->step, r->wall_s, r->mlups, r->max_u, r->mean_rho,
                    r->du_rel);
        for (int k = 0; k < m->nextra; k++)
            fprintf(w.f, ",%.15e", m->extra[(size_t)i * m->nextra + k]);
        fputc('\n', w.f);
    }
    return tess_file_commit(&w, err);
}

tess_status tess_monitor_columns(tess_monitor_t *m, const char *const *names, int n, tess_error_t *err)
{
    size_t len = 1;
    for (int k = 0; k < n; k++)
        len += strlen(names[k]) + 1;
    char *h = malloc(len);
    if (!h)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for monitor columns");
    h[0] = 0;
    for (int k = 0; k < n; k++) {
        strcat(h, ",");
        strcat(h, names[k]);
    }
    free(m->extra_header);
    free(m->extra);
    m->extra_header = h;
    m->extra = NULL;
    m->nextra = n;
    m->n = m->cap = 0; /* rows and columns go together: set the columns first */
    return TESS_OK;
}

void tess_monitor_free(tess_monitor_t *m)
{
    free(m->extra_header);
    free(m->extra);
    m->extra_header = NULL;
    m->extra = NULL;
    m->nextra = 0;
    free(m->rows);
    m->rows = NULL;
    m->n = m->cap = 0;
}
