#include "tess_case_analysis.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* "probe.NAME" / "line.NAME": the NAME, else NULL. */
static const char *probe_name(const char *section, int *is_line)
{
    static const char *const kinds[2] = {"probe.", "line."};
    for (int k = 0; k < 2; k++)
        if (strncmp(section, kinds[k], strlen(kinds[k])) == 0 && section[strlen(kinds[k])]) {
            *is_line = k;
            return section + strlen(kinds[k]);
        }
    return NULL;
}

int tess_case_analysis_section(const char *section)
{
    int is_line;
    return strcmp(section, "wss") == 0 || strcmp(section, "average") == 0 || probe_name(section, &is_line) != NULL;
}

/* A point inside the box (node coordinates, 0 .. n - 1 per axis), else an error naming the key. */
static tess_status inside(tess_entries_t *es, const tess_case_t *c, const char *s, const char *k, const double v[3],
                          tess_error_t *err)
{
    const int n[3] = {c->geometry.nx, c->geometry.ny, c->geometry.nz};
    for (int a = 0; a < 3; a++)
        if (!(v[a] >= 0.0 && v[a] <= n[a] - 1))
            return tess_entry_fail(es, tess_entry_find(es, s, k), err,
                                   "a point inside the domain (node coordinates 0..%d, 0..%d, 0..%d)", n[0] - 1,
                                   n[1] - 1, n[2] - 1);
    return TESS_OK;
}

static tess_status read_probe(tess_entries_t *es, tess_case_t *c, const char *s, const char *name, int is_line,
                              tess_error_t *err)
{
    tess_case_analysis_t *an = &c->analysis;
    if (an->nprobe >= TESS_CASE_MAX_PROBES)
        return tess_fail(err, TESS_ERR_INPUT, "%s: [%s]: too many probe and line sections (at most %d)", es->file, s,
                         TESS_CASE_MAX_PROBES);
    if (strlen(name) >= sizeof an->probe[0].name)
        return tess_fail(err, TESS_ERR_INPUT, "%s: [%s]: the name is longer than %zu characters", es->file, s,
                         sizeof an->probe[0].name - 1);
    for (const char *p = name; *p; p++)
        if (*p == '/' || *p == '\\' || *p == ' ')
            return tess_fail(err, TESS_ERR_INPUT, "%s: [%s]: the name names a file: no spaces or slashes", es->file, s);
    for (int i = 0; i < an->nprobe; i++)
        if (strcmp(an->probe[i].name, name) == 0 && an->probe[i].is_line == is_line)
            return tess_fail(err, TESS_ERR_INPUT, "%s: [%s]: a section of that name exists already", es->file, s);
    tess_case_probe_t *pr = &an->probe[an->nprobe];
    tess_status st;
    memset(pr, 0, sizeof *pr);
    snprintf(pr->name, sizeof pr->name, "%s", name);
    pr->is_line = is_line;
    pr->every = 1;
    if ((st = tess_get_long(es, s, "every", 1, 2000000000L, 0, &pr->every, err)) != TESS_OK)
        return st;
    if (is_line) {
        if ((st = tess_get_vec3(es, s, "start", 1, pr->a, NULL, err)) != TESS_OK)
            return st;
        if ((st = inside(es, c, s, "start", pr->a, err)) != TESS_OK)
            return st;
        if ((st = tess_get_vec3(es, s, "end", 1, pr->b, NULL, err)) != TESS_OK)
            return st;
        if ((st = inside(es, c, s, "end", pr->b, err)) != TESS_OK)
            return st;
        long points = 0;
        if ((st = tess_get_long(es, s, "points", 2, 100000, 1, &points, err)) != TESS_OK)
            return st;
        pr->points = (int)points;
    } else {
        if ((st = tess_get_vec3(es, s, "point", 1, pr->a, NULL, err)) != TESS_OK)
            return st;
        if ((st = inside(es, c, s, "point", pr->a, err)) != TESS_OK)
            return st;
        memcpy(pr->b, pr->a, sizeof pr->b);
        pr->points = 1;
    }
    an->nprobe++;
    return TESS_OK;
}

tess_status tess_case_analysis_read(tess_entries_t *es, tess_case_t *c, tess_error_t *err)
{
    tess_case_analysis_t *an = &c->analysis;
    memset(an, 0, sizeof *an);
    tess_status st;
    static const char *const yesno[] = {"no", "yes", NULL};
    if ((st = tess_get_choice(es, "wss", "enabled", yesno, &an->wss, NULL, err)) != TESS_OK)
        return st;
    if (an->wss && c->params.lattice == TESS_LATTICE_D3Q13)
        return tess_entry_fail(es, tess_entry_find(es, "wss", "enabled"), err,
                               "no on D3Q13 (its MRT relaxes the stress at two viscous rates; wall shear stress needs "
                               "D3Q19, D2Q9 or D3Q27)");
    for (int i = 0; i < es->nsec; i++) {
        int is_line;
        const char *name = probe_name(es->sections[i], &is_line);
        if (strcmp(es->sections[i], "average") == 0)
            an->average = 1;
        else if (name)
            if ((st = read_probe(es, c, es->sections[i], name, is_line, err)) != TESS_OK)
                return st;
    }
    an->average_every = 1;
    if ((st = tess_get_long(es, "average", "start", 0, 2000000000L, an->average, &an->average_start, err)) != TESS_OK)
        return st;
    if ((st = tess_get_long(es, "average", "every", 1, 2000000000L, 0, &an->average_every, err)) != TESS_OK)
        return st;
    return TESS_OK;
}
