/* Report rows, notes, data files and plot scripts of the validation suite. */
#include "tess_validate.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static tess_vcheck_t *add(tess_vctx_t *v, const char *group, const char *quantity)
{
    static tess_vcheck_t spill; /* more rows than the table holds: the last one is overwritten (never in practice) */
    tess_vcheck_t *c = v->ncheck < TESS_V_MAX_CHECKS ? &v->check[v->ncheck++] : &spill;
    memset(c, 0, sizeof *c);
    snprintf(c->group, sizeof c->group, "%s", group);
    snprintf(c->quantity, sizeof c->quantity, "%s", quantity);
    return c;
}

static void num(char *buf, size_t len, double x)
{
    if (isnan(x))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.4g", x);
}

void tess_v_check(tess_vctx_t *v, const char *group, const char *quantity, double value, const char *reference,
                  double error, const char *tolerance, int pass)
{
    tess_vcheck_t *c = add(v, group, quantity);
    num(c->value, sizeof c->value, value);
    snprintf(c->reference, sizeof c->reference, "%s", reference);
    num(c->error, sizeof c->error, error);
    snprintf(c->tolerance, sizeof c->tolerance, "%s", tolerance);
    /* NaN (a run that produced nothing) never passes. */
    c->status = pass && !isnan(value) ? TESS_V_PASS : TESS_V_FAIL;
    tess_v_log(v, "%s: %s = %s (reference %s, error %s, tolerance %s): %s", group, quantity, c->value, reference,
               c->error, tolerance, c->status == TESS_V_PASS ? "pass" : "FAIL");
}

void tess_v_info(tess_vctx_t *v, const char *group, const char *quantity, double value, const char *note)
{
    tess_vcheck_t *c = add(v, group, quantity);
    num(c->value, sizeof c->value, value);
    snprintf(c->reference, sizeof c->reference, "%s", note ? note : "-");
    snprintf(c->error, sizeof c->error, "-");
    snprintf(c->tolerance, sizeof c->tolerance, "-");
    c->status = TESS_V_INFO;
    tess_v_log(v, "%s: %s = %s", group, quantity, c->value);
}

void tess_v_not_run(tess_vctx_t *v, const char *group, const char *why)
{
    tess_vcheck_t *c = add(v, group, why);
    snprintf(c->value, sizeof c->value, "-");
    snprintf(c->reference, sizeof c->reference, "-");
    snprintf(c->error, sizeof c->error, "-");
    snprintf(c->tolerance, sizeof c->tolerance, "-");
    c->status = TESS_V_NOT_RUN;
    tess_v_log(v, "%s: not run: %s", group, why);
}

void tess_v_error(tess_vctx_t *v, const char *group, const char *what, const tess_error_t *err)
{
    char q[sizeof v->check[0].quantity];
    snprintf(q, sizeof q, "%.60s: %.400s", what, err->msg);
    tess_vcheck_t *c = add(v, group, q);
    snprintf(c->value, sizeof c->value, "-");
    snprintf(c->reference, sizeof c->reference, "-");
    snprintf(c->error, sizeof c->error, "-");
    snprintf(c->tolerance, sizeof c->tolerance, "-");
    c->status = TESS_V_FAIL;
    tess_v_log(v, "%s: FAIL: %s", group, q);
}

void tess_v_failed(tess_vctx_t *v, const char *group, const char *what, tess_status st, const tess_error_t *err)
{
    if (st == TESS_ERR_UNSUPPORTED)
        tess_v_not_run(v, group, err->msg);
    else
        tess_v_error(v, group, what, err);
}

void tess_v_note(tess_vctx_t *v, const char *fmt, ...)
{
    if (v->nnote >= TESS_V_MAX_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->note[v->nnote++], sizeof v->note[0], fmt, ap);
    va_end(ap);
}

void tess_v_log(tess_vctx_t *v, const char *fmt, ...)
{
    if (!v->verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("validate: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

FILE *tess_v_open(tess_vctx_t *v, const char *name)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", v->out, name);
    FILE *f = fopen(path, "w");
    if (!f)
        tess_v_note(v, "could not write %s", path);
    return f;
}

void tess_v_plot(tess_vctx_t *v, const char *name)
{
    if (v->nplot < TESS_V_MAX_PLOTS)
        snprintf(v->plot[v->nplot++], sizeof v->plot[0], "%s", name);
}
