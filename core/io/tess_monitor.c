#include "tess_monitor.h"
#include "tess_file.h"
#include <stdlib.h>
#include <string.h>

void tess_monitor_init(tess_monitor_t *m, const char *path)
{
    memset(m, 0, sizeof *m);
    snprintf(m->path, sizeof m->path, "%s", path);
}

tess_status tess_monitor_add(tess_monitor_t *m, const tess_monitor_row_t *row, tess_error_t *err)
{
    if (m->n == m->cap) {
        const int cap = m->cap ? 2 * m->cap : 256;
        tess_monitor_row_t *r = realloc(m->rows, (size_t)cap * sizeof *r);
        if (!r)
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory for monitor rows");
        m->rows = r;
        m->cap = cap;
    }
    m->rows[m->n++] = *row;
    tess_file_t w;
    tess_status st = tess_file_begin(&w, m->path, err);
    if (st != TESS_OK)
        return st;
    fprintf(w.f, "%s\n", TESS_MONITOR_HEADER);
    for (int i = 0; i < m->n; i++) {
        const tess_monitor_row_t *r = &m->rows[i];
        fprintf(w.f, "%ld,%.6f,%.4f,%.10e,%.15e,%.6e\n", r->step, r->wall_s, r->mlups, r->max_u, r->mean_rho, r->du_rel);
    }
    return tess_file_commit(&w, err);
}

void tess_monitor_free(tess_monitor_t *m)
{
    free(m->rows);
    m->rows = NULL;
    m->n = m->cap = 0;
}
