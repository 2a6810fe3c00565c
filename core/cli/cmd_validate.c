/* `tessera validate [--backend X] [--precision Y] [--quick] [--out DIR]`: runs the validation suite
 * (core/validate/, one file per validation), writes DIR/report.md with one row per check and the plots
 * (gnuplot, when it is on PATH). Exit status 0 when every check passes, 1 when one fails, 2 on bad
 * arguments (docs/validation.md). */
#define _POSIX_C_SOURCE 200809L /* popen, clock_gettime */
#include "tess_cli.h"
#include "tess_file.h"
#include "tess_validate.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef TESS_VERSION
#define TESS_VERSION "unknown"
#endif
#ifndef TESS_SOURCE_CASES_DIR
#define TESS_SOURCE_CASES_DIR ""
#endif

typedef struct {
    const char *name, *title;
    tess_status (*fn)(tess_vctx_t *, tess_error_t *);
    int quick; /* part of --quick (in its reduced form) */
} validation_t;

static const validation_t validations[] = {
    {"poiseuille3d", "Plane Poiseuille flow, D3Q19, body force and pressure driven", tess_validate_poiseuille3d, 1},
    {"poiseuille2d", "Plane Poiseuille flow, D2Q9, body force and pressure driven", tess_validate_poiseuille2d, 1},
    {"cavity2d", "Lid-driven cavity, D2Q9, against Ghia et al. (1982)", tess_validate_cavity2d, 1},
    {"cylinder2d", "Flow past a cylinder, Schaefer-Turek 2D-1 and 2D-2", tess_validate_cylinder2d, 0},
    {"sphere", "Sphere in a pipe, D3Q13 and D3Q19, against Toelke and Krafczyk (2008)", tess_validate_sphere_pipe, 0},
    {"porous", "Random-sphere porous media: porosity, eta_t, permeability", tess_validate_porous, 1},
    {"womersley", "Womersley flow in a pipe (pressure waveform, Womersley inlet), wall shear stress, D3Q19",
     tess_validate_womersley, 1},
};
#define NVALIDATIONS (int)(sizeof validations / sizeof validations[0])

static const char usage[] =
    "usage: tessera validate [--backend auto|cpu|cuda|hip] [--precision double|single] [--quick] [--out DIR]\n"
    "                        [--threads N] [--only NAME[:PART],...] [--quiet]\n"
    "Runs the validation cases and writes DIR/report.md (default DIR: out/validate) with plots.\n"
    "Validations: poiseuille3d, poiseuille2d, cavity2d, cylinder2d, sphere, porous, womersley (--quick: a\n"
    "reduced set);\n"
    "sphere:PART runs a part of the sphere: lattices (D3Q19, D3Q13), walls (bounce-back, bouzidi-linear),\n"
    "Reynolds numbers (Re1, Re10, Re50) joined by '+'; names of one kind are alternatives\n"
    "(sphere:D3Q13+bounce-back+Re10+Re50).\n"
    "Exit status 0: every check passed; 1: a check failed; 2: bad arguments. docs/validation.md has the details.\n";

typedef struct {
    const char *backend, *precision, *out, *only;
    int quick, quiet, threads, help;
} vopts_t;

static int bad_arg(const char *fmt, const char *a)
{
    fprintf(stderr, "tessera validate: ");
    fprintf(stderr, fmt, a);
    fprintf(stderr, " (see tessera validate --help)\n");
    return 2;
}

/* Whether validation NAME is selected; part receives the PART of an entry NAME:PART ("" for the whole). */
static int selected(const vopts_t *o, const char *name, char *part, size_t part_len)
{
    part[0] = 0;
    if (!o->only)
        return 1;
    const size_t n = strlen(name);
    for (const char *s = o->only; *s;) {
        const char *comma = strchr(s, ',');
        const size_t len = comma ? (size_t)(comma - s) : strlen(s);
        const char *colon = memchr(s, ':', len);
        const size_t nlen = colon ? (size_t)(colon - s) : len;
        if (nlen == n && strncmp(s, name, n) == 0) {
            if (colon)
                snprintf(part, part_len, "%.*s", (int)(len - nlen - 1), colon + 1);
            return 1;
        }
        s += len + (comma ? 1 : 0);
    }
    return 0;
}

static int parse(vopts_t *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    o->backend = "auto";
    o->precision = "double";
    o->out = "out/validate";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            o->help = 1;
            return 0;
        }
        if (strcmp(a, "--quick") == 0) {
            o->quick = 1;
            continue;
        }
        if (strcmp(a, "--quiet") == 0) {
            o->quiet = 1;
            continue;
        }
        char name[64];
        const char *eq = strchr(a, '='), *val;
        if (strncmp(a, "--", 2) != 0)
            return bad_arg("unexpected argument '%s'", a);
        snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a);
        static const char *const known[] = {"--backend", "--precision", "--out", "--threads", "--only", NULL};
        int opt = 0;
        while (known[opt] && strcmp(known[opt], name) != 0)
            opt++;
        if (!known[opt])
            return bad_arg("unknown option '%s' (expected --backend, --precision, --quick, --out, --threads, --only, "
                           "--quiet)",
                           name);
        if (eq) {
            val = eq + 1;
        } else {
            if (i + 1 >= argc)
                return bad_arg("option %s needs a value", a);
            val = argv[++i];
        }
        if (strcmp(name, "--backend") == 0) {
            o->backend = val;
        } else if (strcmp(name, "--precision") == 0) {
            if (strcmp(val, "double") != 0 && strcmp(val, "single") != 0)
                return bad_arg("--precision: expected double or single, got '%s'", val);
            o->precision = val;
        } else if (strcmp(name, "--out") == 0) {
            if (!val[0] || strchr(val, '\''))
                return bad_arg("--out: expected a folder name without quotes, got '%s'", val);
            o->out = val;
        } else if (strcmp(name, "--threads") == 0) {
            char *end;
            errno = 0;
            const long t = strtol(val, &end, 10);
            if (errno || end == val || *end || t < 0 || t > 4096)
                return bad_arg("--threads: expected an integer 0..4096, got '%s'", val);
            o->threads = (int)t;
        } else { /* --only */
            o->only = val;
            /* Every listed name must be a validation. */
            for (const char *s = val; *s;) {
                const char *comma = strchr(s, ',');
                const size_t len = comma ? (size_t)(comma - s) : strlen(s);
                const char *colon = memchr(s, ':', len);
                const size_t nlen = colon ? (size_t)(colon - s) : len;
                int found = 0;
                for (int k = 0; k < NVALIDATIONS; k++)
                    found |= strlen(validations[k].name) == nlen && strncmp(s, validations[k].name, nlen) == 0;
                if (!found)
                    return bad_arg("--only: unknown validation in '%s' (expected poiseuille3d, poiseuille2d, cavity2d, "
                                   "cylinder2d, sphere, porous, womersley)",
                                   val);
                if (colon) { /* only the sphere has parts */
                    int ok = nlen == 6 && strncmp(s, "sphere", 6) == 0;
                    /* PART is one or more of the names joined by '+' (sphere:D3Q19+bounce-back) */
                    for (const char *t = colon + 1; ok && t < s + len;) {
                        const char *plus = memchr(t, '+', (size_t)(s + len - t));
                        const size_t tlen = plus ? (size_t)(plus - t) : (size_t)(s + len - t);
                        ok = tess_validate_sphere_part_known(t, tlen);
                        t += tlen + (plus ? 1 : 0);
                    }
                    if (!ok)
                        return bad_arg("--only: unknown part in '%s' (expected sphere:PART with PART one or more of "
                                       "D3Q19, D3Q13, bounce-back, bouzidi-linear, Re1, Re10, Re50 joined by '+')",
                                       val);
                }
                s += len + (comma ? 1 : 0);
            }
        }
    }
    return 0;
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The source tree's commit, "unknown" outside a git checkout (an installed binary). */
static void git_commit(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    if (!TESS_SOURCE_CASES_DIR[0] || strchr(TESS_SOURCE_CASES_DIR, '\''))
        return;
    char cmd[1400];
    snprintf(cmd, sizeof cmd,
             "cd '%s/..' 2>/dev/null && git rev-parse --short=12 HEAD 2>/dev/null && "
             "git status --porcelain --untracked-files=no 2>/dev/null | head -n 1",
             TESS_SOURCE_CASES_DIR);
    FILE *p = popen(cmd, "r");
    if (!p)
        return;
    char line[128] = "", dirty[256] = "";
    if (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = 0;
        if (fgets(dirty, sizeof dirty, p) && dirty[0])
            snprintf(buf, len, "%s (with uncommitted changes)", line);
        else if (line[0])
            snprintf(buf, len, "%s", line);
    }
    pclose(p);
}

static int on_path(const char *exe)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char dir[1024];
    for (const char *s = path; *s;) {
        const char *colon = strchr(s, ':');
        const size_t len = colon ? (size_t)(colon - s) : strlen(s);
        snprintf(dir, sizeof dir, "%.*s/%s", (int)len, s, exe);
        if (len && access(dir, X_OK) == 0)
            return 1;
        s += len + (colon ? 1 : 0);
    }
    return 0;
}

/* Runs gnuplot on every registered script; returns how many PNGs were made. */
static int make_plots(tess_vctx_t *v, int *have_gnuplot)
{
    *have_gnuplot = on_path("gnuplot");
    if (!*have_gnuplot)
        return 0;
    int made = 0;
    for (int i = 0; i < v->nplot; i++) {
        char cmd[1400], png[1200];
        snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot '%s.gp' 2>> gnuplot.log", v->out, v->plot[i]);
        snprintf(png, sizeof png, "%s/%s.png", v->out, v->plot[i]);
        struct stat st;
        if (system(cmd) == 0 && stat(png, &st) == 0 && st.st_size > 0)
            made++;
        else
            tess_v_note(v, "gnuplot failed on %s.gp (see gnuplot.log)", v->plot[i]);
    }
    return made;
}

static const char *status_word(tess_vstatus s)
{
    return s == TESS_V_PASS ? "pass" : s == TESS_V_FAIL ? "**FAIL**" : s == TESS_V_INFO ? "reported" : "not run";
}

/* Table cells must not contain '|'. */
static void cell(FILE *f, const char *s)
{
    fputc(' ', f);
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputs(" |", f);
}

static tess_status write_report(tess_vctx_t *v, const vopts_t *o, double wall, int have_gnuplot, int made,
                                tess_error_t *err)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/report.md", v->out);
    tess_file_t w;
    tess_status st = tess_file_begin(&w, path, err);
    if (st != TESS_OK)
        return st;
    FILE *f = w.f;
    int n[4] = {0};
    for (int i = 0; i < v->ncheck; i++)
        n[v->check[i].status]++;
    char date[64], commit[320], threads[64];
    const time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &tm);
    git_commit(commit, sizeof commit);
    fprintf(f, "# Tessera validation report\n\n");
    fprintf(f, "- command: `tessera validate%s --backend %s --precision %s%s`\n", o->quick ? " --quick" : "", o->backend,
            o->precision, o->only ? " --only ..." : "");
    fprintf(f, "- mode: %s\n", o->quick ? "quick (reduced set)" : "full");
    if (o->threads)
        snprintf(threads, sizeof threads, "%d", o->threads);
    else
        snprintf(threads, sizeof threads, "OpenMP default (1 for cases under 65536 nodes)");
    fprintf(f, "- backend: %s; precision: %s; threads: %s\n", v->backend_used, o->precision, threads);
    fprintf(f, "- date: %s; tessera %s; git commit: %s\n", date, TESS_VERSION, commit);
    fprintf(f, "- wall time: %.0f s\n", wall);
    fprintf(f, "- result: %d passed, %d failed, %d reported without a reference, %d not run\n\n", n[TESS_V_PASS],
            n[TESS_V_FAIL], n[TESS_V_INFO], n[TESS_V_NOT_RUN]);
    fprintf(f, "| validation | quantity | value | reference | error | tolerance | result |\n");
    fprintf(f, "|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < v->ncheck; i++) {
        const tess_vcheck_t *c = &v->check[i];
        fputc('|', f);
        cell(f, c->group);
        cell(f, c->quantity);
        cell(f, c->value);
        cell(f, c->reference);
        cell(f, c->error);
        cell(f, c->tolerance);
        cell(f, status_word(c->status));
        fputc('\n', f);
    }
    fprintf(f, "\nErrors are relative unless the tolerance says otherwise; docs/validation.md explains each check "
               "and its tolerance.\n\n## Set-up\n\n");
    for (int i = 0; i < v->nnote; i++)
        fprintf(f, "- %s\n", v->note[i]);
    fprintf(f, "\n## Plots\n\n");
    if (!have_gnuplot)
        fprintf(f, "Plots skipped: gnuplot is not on PATH (Debian package gnuplot-nox). The data files (*.dat) and "
                   "gnuplot scripts (*.gp) are in this folder: `gnuplot NAME.gp` makes NAME.png.\n");
    else if (v->nplot == 0)
        fprintf(f, "No plots (no validation produced data).\n");
    for (int i = 0; have_gnuplot && i < v->nplot; i++)
        fprintf(f, "![%s](%s.png)\n\n", v->plot[i], v->plot[i]);
    if (have_gnuplot && made < v->nplot)
        fprintf(f, "%d of %d plots failed (gnuplot.log).\n", v->nplot - made, v->nplot);
    return tess_file_commit(&w, err);
}

int tess_cmd_validate(int argc, char **argv)
{
    vopts_t o;
    int rc = parse(&o, argc, argv);
    if (rc)
        return rc;
    if (o.help) {
        fputs(usage, stdout);
        return 0;
    }
    tess_error_t err = {0};
    /* Resolve the backend once ("auto" picks a GPU when there is one): every case runs on it. */
    tess_backend_config_t cfg = {0};
    cfg.precision = strcmp(o.precision, "single") == 0 ? TESS_PRECISION_SINGLE : TESS_PRECISION_DOUBLE;
    cfg.threads = o.threads;
    const tess_backend_ops_t *ops = tess_backend_choose(o.backend, &cfg, &err);
    if (!ops) {
        fprintf(stderr, "tessera validate: --backend: %s\n", err.msg);
        return 2;
    }
    tess_vctx_t *v = calloc(1, sizeof *v);
    if (!v) {
        fprintf(stderr, "tessera validate: out of memory\n");
        return tess_status_exit_code(TESS_ERR_NOMEM);
    }
    v->backend = ops->name;
    v->precision = o.precision;
    v->quick = o.quick;
    v->threads = o.threads;
    v->out = o.out;
    v->verbose = !o.quiet;
    snprintf(v->backend_used, sizeof v->backend_used, "%s", ops->name);
    tess_status st = tess_mkdirs(o.out, &err);
    const double t0 = wall_seconds();
    for (int k = 0; k < NVALIDATIONS && st == TESS_OK; k++) {
        const validation_t *val = &validations[k];
        if (!selected(&o, val->name, v->part, sizeof v->part))
            continue;
        if (o.quick && !val->quick) {
            tess_v_note(v, "%s: full mode only (tessera validate without --quick)", val->title);
            continue;
        }
        tess_v_log(v, "%s", val->title);
        st = val->fn(v, &err);
    }
    int have_gnuplot = 0, made = 0;
    if (st == TESS_OK) {
        made = make_plots(v, &have_gnuplot);
        st = write_report(v, &o, wall_seconds() - t0, have_gnuplot, made, &err);
    }
    if (st != TESS_OK) {
        fprintf(stderr, "tessera validate: %s\n", err.msg);
        free(v);
        return tess_status_exit_code(st);
    }
    int failed = 0, passed = 0;
    for (int i = 0; i < v->ncheck; i++) {
        failed += v->check[i].status == TESS_V_FAIL;
        passed += v->check[i].status == TESS_V_PASS;
    }
    printf("tessera validate: %d checks passed, %d failed; report in %s/report.md\n", passed, failed, o.out);
    free(v);
    return failed ? 1 : 0;
}
