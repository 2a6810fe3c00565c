#include "tess_pvd.h"
#include "tess_file.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tess_status push(tess_pvd_t *p, long step, double time, const char *file, tess_error_t *err)
{
    if (p->n == p->cap) {
        const int cap = p->cap ? 2 * p->cap : 64;
        tess_pvd_entry_t *e = realloc(p->e, (size_t)cap * sizeof *e);
        if (!e)
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the entries of %s", p->path);
        p->e = e;
        p->cap = cap;
    }
    tess_pvd_entry_t *e = &p->e[p->n++];
    e->step = step;
    e->time = time;
    snprintf(e->file, sizeof e->file, "%s", file);
    return TESS_OK;
}

/* Our own lines only: <DataSet timestep="T" step="N" group="" part="0" file="F"/>. */
static tess_status read_existing(tess_pvd_t *p, long keep_before, tess_error_t *err)
{
    FILE *f = fopen(p->path, "r");
    if (!f)
        return TESS_OK;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        double time;
        long step;
        char file[64];
        if (sscanf(line, " <DataSet timestep=\"%lg\" step=\"%ld\" group=\"\" part=\"0\" file=\"%63[^\"]\"", &time, &step,
                   file) != 3 || step >= keep_before)
            continue;
        const tess_status st = push(p, step, time, file, err);
        if (st != TESS_OK) {
            fclose(f);
            return st;
        }
    }
    fclose(f);
    return TESS_OK;
}

tess_status tess_pvd_open(tess_pvd_t *p, const char *path, long keep_before, tess_error_t *err)
{
    memset(p, 0, sizeof *p);
    if (strlen(path) >= sizeof p->path)
        return tess_fail(err, TESS_ERR_IO, "%s: path too long", path);
    snprintf(p->path, sizeof p->path, "%s", path);
    return keep_before >= 0 ? read_existing(p, keep_before, err) : TESS_OK;
}

tess_status tess_pvd_add(tess_pvd_t *p, long step, double time, const char *file, tess_error_t *err)
{
    int i = 0;
    while (i < p->n && p->e[i].step != step)
        i++;
    if (i < p->n) {
        p->e[i].time = time;
        snprintf(p->e[i].file, sizeof p->e[i].file, "%s", file);
    } else {
        const tess_status st = push(p, step, time, file, err);
        if (st != TESS_OK)
            return st;
    }
    tess_file_t w;
    tess_status st = tess_file_begin(&w, p->path, err);
    if (st != TESS_OK)
        return st;
    fprintf(w.f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
                 "  <Collection>\n");
    for (int k = 0; k < p->n; k++)
        fprintf(w.f, "    <DataSet timestep=\"%.17g\" step=\"%ld\" group=\"\" part=\"0\" file=\"%s\"/>\n", p->e[k].time,
                p->e[k].step, p->e[k].file);
    fprintf(w.f, "  </Collection>\n</VTKFile>\n");
    return tess_file_commit(&w, err);
}

void tess_pvd_free(tess_pvd_t *p)
{
    free(p->e);
    p->e = NULL;
    p->n = p->cap = 0;
}
