/* `tessera run CASE.ini ...`: load the case, pick the backend, step to the end with monitor rows, field
 * outputs, checkpoints and an optional cross-check against a second backend (docs/outputs.md). */
#include "tess_analysis.h"
#include "tess_cli.h"
#include "tess_case.h"
#include "tess_field_output.h"
#include "tess_fields.h"
#include "tess_file.h"
#include "tess_forces.h"
#include "tess_memory.h"
#include "tess_monitor.h"
#include "tess_mpi.h"
#include "tess_outdir.h"
#include "tess_progress.h"
#include "tess_signal.h"
#include "tess_sim.h"
#include "tess_summary.h"
#include "tess_vti.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TESS_VERSION
#define TESS_VERSION "unknown"
#endif

#define MAX_OVERRIDES 128

typedef struct {
    const char *case_arg, *out_dir, *restart, *check;
    double check_tol;
    int has_check_tol, quiet, help, overwrite;
    const char *overrides[MAX_OVERRIDES];
    char own[MAX_OVERRIDES][600]; /* overrides built from the short options */
    const char *own_opt[MAX_OVERRIDES]; /* the short option ("--steps") each came from */
    int nover;
} opts_t;

typedef struct {
    opts_t o;
    tess_case_t c;
    tess_sim_t *sim, *ref;
    char out[1024], auto_note[16], check_pattern[16];
    size_t n;
    double *rho, *u, *rho_ref, *u_ref;
    uint8_t *solid;
    tess_monitor_t mon;
    tess_progress_t prog;
    double t0, t_step, t_last_row;
    double case_s;              /* reading the case (the set-up's first stage, tess_setup.h) */
    long first, last_row_step;
    long long n_wet;
    tess_field_diff_t worst;
    double tol;
    double *force, *force_cols; /* per body (3 each) and the monitor's force columns, when the case has bodies */
    double *force_scale;        /* per force column: lattice to output units (forces in N, or N/m in 2D) */
    tess_field_output_t fo;     /* fields_<step>.vti and fields.pvd in the case's units */
    tess_analysis_t *analysis;  /* wss, averages, probes (tess_analysis.h); NULL when the case has none */
    tess_outdir_t dir;
    int aa;                     /* the run or its reference uses the AA pattern: stops at even steps only */
    int sig;                    /* the signal that stopped the run early, 0 if none */
    long stop_step;             /* the step the run ended at */
    int mach_warned;            /* the Mach number warning was given (by the case or the run) */
} run_t;

static int fail(run_t *r, tess_status st, const tess_error_t *err)
{
    tess_progress_clear(&r->prog);
    fprintf(stderr, "tessera: %s\n", err->msg);
    return tess_status_exit_code(st);
}

static tess_status push(opts_t *o, tess_error_t *err, const char *opt, const char *key, const char *value)
{
    if (o->nover >= MAX_OVERRIDES)
        return tess_fail(err, TESS_ERR_INPUT, "too many --set options (at most %d)", MAX_OVERRIDES);
    o->own_opt[o->nover] = opt;
    snprintf(o->own[o->nover], sizeof o->own[0], "%s=%s", key, value);
    o->overrides[o->nover] = o->own[o->nover];
    o->nover++;
    return TESS_OK;
}

static tess_status parse_args(opts_t *o, int argc, char **argv, tess_error_t *err)
{
    static const struct {
        const char *opt, *key;
    } short_opts[] = {{"--backend", "run.backend"},   {"--precision", "run.precision"},
                      {"--pattern", "run.pattern"},   {"--steps", "run.steps"},
                      {"--threads", "run.threads"},   {"--checkpoint-every", "run.checkpoint_every"}};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] != '-') {
            if (o->case_arg)
                return tess_fail(err, TESS_ERR_INPUT, "run: unexpected argument '%s' (one case file only)", a);
            o->case_arg = a;
            continue;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            o->help = 1;
            return TESS_OK;
        }
        if (strcmp(a, "--quiet") == 0) {
            o->quiet = 1;
            continue;
        }
        if (strcmp(a, "--overwrite") == 0) {
            o->overwrite = 1;
            continue;
        }
        /* Every other option takes a value: --opt VALUE or --opt=VALUE. */
        char name[64];
        const char *eq = strchr(a, '='), *val;
        if (eq) {
            snprintf(name, sizeof name, "%.*s", (int)(eq - a), a);
            val = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", a);
            if (i + 1 >= argc)
                return tess_fail(err, TESS_ERR_INPUT, "run: option %s needs a value", a);
            val = argv[++i];
        }
        int done = 0;
        for (size_t k = 0; k < sizeof short_opts / sizeof short_opts[0]; k++)
            if (strcmp(name, short_opts[k].opt) == 0) {
                tess_status st = push(o, err, short_opts[k].opt, short_opts[k].key, val);
                if (st != TESS_OK)
                    return st;
                done = 1;
            }
        if (done)
            continue;
        if (strcmp(name, "--set") == 0) {
            if (o->nover >= MAX_OVERRIDES)
                return tess_fail(err, TESS_ERR_INPUT, "too many --set options (at most %d)", MAX_OVERRIDES);
            o->overrides[o->nover++] = val;
        } else if (strcmp(name, "--out") == 0) {
            o->out_dir = val;
        } else if (strcmp(name, "--restart") == 0) {
            o->restart = val;
        } else if (strcmp(name, "--check") == 0) {
            o->check = val;
        } else if (strcmp(name, "--check-tol") == 0) {
            char *end;
            o->check_tol = strtod(val, &end);
            if (end == val || *end || !(o->check_tol >= 0) || !isfinite(o->check_tol))
                return tess_fail(err, TESS_ERR_INPUT, "--check-tol: expected a number >= 0, got '%s'", val);
            o->has_check_tol = 1;
        } else {
            return tess_fail(err, TESS_ERR_INPUT,
                             "run: unknown option '%s' (expected --backend, --precision, --pattern, --steps, --out, "
                             "--overwrite, --set, --threads, --quiet, --checkpoint-every, --restart, --check, "
                             "--check-tol)",
                             name);
        }
    }
    if (!o->case_arg)
        return tess_fail(err, TESS_ERR_INPUT, "run: expected a case file (tessera run CASE.ini [options])");
    return TESS_OK;
}

static tess_status write_fields(run_t *r, long step, tess_error_t *err)
{
    return tess_field_output_write(&r->fo, step, r->rho, r->u, r->solid, err);
}

static tess_check_bounds_t bounds(const run_t *r)
{
    const tess_check_bounds_t b = {r->c.density_min, r->c.density_max, r->c.speed_max};
    return b;
}

static tess_status diverged(const run_t *r, long step, const int at[3], double rho, double u, tess_error_t *err)
{
    const tess_case_t *c = &r->c;
    return tess_fail(err, TESS_ERR_DIVERGED,
                     "diverged at step %ld: density %g, |u| %g at node (%d,%d,%d) (allowed: density %g..%g, "
                     "run.density_min/max; |u| up to %g, run.speed_max; finite values); the last good output stays "
                     "in %s",
                     step, rho, u, at[0], at[1], at[2], c->density_min, c->density_max, c->speed_max, r->out);
}

/* One warning line the first time the largest speed passes lattice Mach 0.3 (unless the case warned already). */
static void note_speed(run_t *r, long step, double u_max)
{
    if (r->mach_warned || !(tess_check_mach(u_max) > TESS_CHECK_MACH_WARN))
        return;
    r->mach_warned = 1;
    tess_progress_clear(&r->prog);
    fprintf(stderr,
            "tessera: warning: step %ld: largest |u| %.3g is lattice Mach number %.2f, above %.1f: compressibility "
            "errors grow as Ma^2 (the run stops above |u| = %g, run.speed_max)\n",
            step, u_max, tess_check_mach(u_max), TESS_CHECK_MACH_WARN, r->c.speed_max);
}

/* The divergence test between monitor rows: a reduction where the state lives; the node is looked up on the
 * host only when the test fails. */
static tess_status check_state(run_t *r, long step, tess_error_t *err)
{
    tess_check_t res;
    tess_status st = tess_sim_check(r->sim, &res, err);
    if (st != TESS_OK)
        return st;
    const tess_check_bounds_t b = bounds(r);
    if (tess_check_fails(&res, &b)) {
        int at[3] = {-1, -1, -1}, found = 0;
        double rho = NAN, u = NAN;
        if ((st = tess_sim_check_locate(r->sim, &b, at, &rho, &u, &found, err)) != TESS_OK)
            return st;
        if (!found) { /* the device's reduction saw what the host's fields do not: report the reduction */
            rho = res.nonfinite ? NAN : res.rho_min < b.rho_min ? res.rho_min : res.rho_max;
            u = res.u_max;
        }
        return diverged(r, step, at, rho, u, err);
    }
    note_speed(r, step, res.u_max);
    return TESS_OK;
}

/* Everything due at `step`: fields, divergence test, monitor row, output, cross-check, checkpoint. */
static tess_status events(run_t *r, long step, int at_start, int final, tess_error_t *err)
{
    const tess_case_t *c = &r->c;
    /* The first and last steps always get a monitor row and fields; in between the case's intervals. */
    const int mon = (c->monitor_every > 0 && step % c->monitor_every == 0) || final || at_start;
    const int out = (c->output_every > 0 && step % c->output_every == 0) || final || at_start;
    const int ckpt = !at_start && c->checkpoint_every > 0 && (step % c->checkpoint_every == 0 || final);
    /* The divergence test: every check_every steps and before a checkpoint, which must never hold a bad state. */
    const int chk = (c->check_every > 0 && step % c->check_every == 0) || ckpt;
    /* The dense fields on rank 0 only where something reads them: every rank makes its own field piece. */
    const int dense = out && (tess_field_output_dense(&r->fo) || r->ref);
    tess_status st;
    if (chk && !mon && !out && (st = check_state(r, step, err)) != TESS_OK)
        return st;
    if (mon || out) {
        /* Reduced where the state lives (every rank's own tiles under mpirun); the dense fields only for output. */
        const tess_check_bounds_t b = bounds(r);
        tess_sim_stats_t fs;
        if ((st = tess_sim_stats(r->sim, &b, mon, &fs, err)) != TESS_OK)
            return st;
        if (fs.bad)
            return diverged(r, step, fs.at, fs.bad_rho, fs.bad_u, err);
        note_speed(r, step, fs.m.max_u);
        if (dense && (st = tess_sim_fields(r->sim, r->rho, r->u, err)) != TESS_OK)
            return st;
        if (mon) {
            const double now = tess_wall_seconds();
            const double dt = r->t_step - r->t_last_row;
            tess_monitor_row_t row = {step, now - r->t0,
                                      dt > 0 ? (double)(step - r->last_row_step) * (double)r->n_wet / dt / 1e6 : 0.0,
                                      fs.m.max_u, fs.m.mean_rho, fs.m.du_rel, NULL};
            if (c->forces.nbody) {
                if ((st = tess_sim_forces(r->sim, c, r->force, err)) != TESS_OK)
                    return st;
                tess_forces_values(&c->forces, r->force, r->force_cols);
                for (int k = 0; k < r->mon.nextra; k++)
                    r->force_cols[k] *= r->force_scale[k];
                row.extra = r->force_cols;
            }
            r->t_last_row = r->t_step;
            r->last_row_step = step;
            if ((st = tess_monitor_add(&r->mon, &row, err)) != TESS_OK)
                return st;
        }
        if (out && (st = write_fields(r, step, err)) != TESS_OK)
            return st;
        if (out && r->ref) {
            if ((st = tess_sim_fields(r->ref, r->rho_ref, r->u_ref, err)) != TESS_OK)
                return st;
            tess_field_diff_t d = {0};
            tess_field_compare(c, r->rho, r->u, r->rho_ref, r->u_ref, &d);
            if (!r->o.quiet) {
                tess_progress_clear(&r->prog);
                printf("check step %ld: max abs diff %.3e (%s at (%d,%d,%d)), max rel diff %.3e (%s at (%d,%d,%d))\n", step,
                       d.abs, d.abs_field ? d.abs_field : "identical", d.abs_at[0], d.abs_at[1], d.abs_at[2], d.rel,
                       d.rel_field ? d.rel_field : "identical", d.rel_at[0], d.rel_at[1], d.rel_at[2]);
                fflush(stdout);
            }
            if (d.abs > r->worst.abs) {
                r->worst.abs = d.abs;
                r->worst.abs_field = d.abs_field;
                memcpy(r->worst.abs_at, d.abs_at, sizeof d.abs_at);
            }
            if (d.rel > r->worst.rel) {
                r->worst.rel = d.rel;
                r->worst.rel_field = d.rel_field;
                memcpy(r->worst.rel_at, d.rel_at, sizeof d.rel_at);
            }
        }
    }
    if (r->analysis &&
        (st = tess_analysis_event(r->analysis, step, out, ckpt, final, r->rho, r->u, dense, err)) != TESS_OK)
        return st;
    if (ckpt) {
        char path[1200];
        snprintf(path, sizeof path, "%s/restart.tsr", r->out);
        if ((st = tess_sim_save_restart(r->sim, path, err)) != TESS_OK)
            return st;
    }
    return TESS_OK;
}

/* The AA pattern holds canonical populations after even steps only, so every step at which the run reads
 * them (the end, each monitor row, output and checkpoint) must be even: refuse odd ones before stepping. */
static tess_status check_aa_steps(const run_t *r, const char *path, int aa, tess_error_t *err)
{
    if (!aa)
        return TESS_OK;
    const struct {
        const char *key, *what;
        long value;
    } keys[] = {{"steps", "number of steps", r->c.steps},
                {"output_every", "output interval", r->c.output_every},
                {"monitor_every", "monitor interval", r->c.monitor_every},
                {"checkpoint_every", "checkpoint interval", r->c.checkpoint_every},
                {"check_every", "divergence-test interval", r->c.check_every}};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (keys[k].value % 2 != 0)
            return tess_fail(err, TESS_ERR_INPUT, "%s: [run] %s: the AA pattern needs an even %s, got %ld", path,
                             keys[k].key, keys[k].what, keys[k].value);
    return TESS_OK;
}

/* The case loader names an override "--set run.steps"; one that came from a short option is named as typed. */
static void name_short_option(const opts_t *o, tess_error_t *err)
{
    for (int i = o->nover - 1; i >= 0; i--) {
        if (!o->own_opt[i] || o->overrides[i] != o->own[i])
            continue;
        char prefix[96];
        snprintf(prefix, sizeof prefix, "--set %.*s:", (int)(strchr(o->own[i], '=') - o->own[i]), o->own[i]);
        if (strncmp(err->msg, prefix, strlen(prefix)) == 0) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s:%s", o->own_opt[i], err->msg + strlen(prefix));
            snprintf(err->msg, sizeof err->msg, "%s", msg);
            return;
        }
    }
}

static tess_status setup(run_t *r, tess_error_t *err)
{
    char path[TESS_CASE_PATH_MAX];
    tess_status st = tess_case_find(r->o.case_arg, path, sizeof path, err);
    if (st != TESS_OK)
        return st;
    const double t_case = tess_setup_now();
    if ((st = tess_case_load(path, r->o.overrides, r->o.nover, &r->c, err)) != TESS_OK) {
        name_short_option(&r->o, err);
        return st;
    }
    r->case_s = tess_setup_now() - t_case;
    if (r->c.warning[0])
        fprintf(stderr, "tessera: warning: %s\n", r->c.warning);
    r->mach_warned = tess_check_mach(r->c.max_lattice_speed) > TESS_CHECK_MACH_WARN;
    tess_backend_config_t cfg = {0};
    cfg.precision = r->c.precision;
    cfg.threads = r->c.threads;
    cfg.mr_layer = r->c.mr_layer;
    cfg.mr_copies = r->c.mr_copies;
    if ((st = tess_pattern_from_name(r->c.pattern, &cfg.pattern, err)) != TESS_OK)
        return st;
    const tess_backend_ops_t *ops = tess_backend_choose(r->c.backend, &cfg, err);
    if (!ops)
        return TESS_ERR_INPUT;
    snprintf(r->auto_note, sizeof r->auto_note, "%s", strcmp(r->c.backend, "auto") == 0 ? " (auto)" : "");
    /* The dense output fields (density, velocity, previous velocity, solid flags, a reference's fields; the
     * converted copies are checked by tess_field_output_init) come on top of the simulation, which checks its
     * own memory after tiling. */
    const size_t nodes = (size_t)r->c.geometry.nx * r->c.geometry.ny * r->c.geometry.nz;
    const size_t per_node = 7 * sizeof(double) + 1 + (r->o.check ? 4 * sizeof(double) : 0);
    char what[1200];
    snprintf(what, sizeof what, "%s: output fields for %zu nodes", path, nodes);
    if ((st = tess_memory_check(nodes * per_node, what, err)) != TESS_OK)
        return st;
    int aa = cfg.pattern == TESS_PATTERN_AA; /* the run or its --check reference */
    if ((st = check_aa_steps(r, path, aa, err)) != TESS_OK)
        return st;
    if ((st = tess_sim_create(&r->c, ops, &cfg, &r->sim, err)) != TESS_OK) {
        /* Input errors found while tiling (periodic sizes) and a domain too large for the memory are the case
         * file's: say which one. */
        if ((st == TESS_ERR_INPUT || st == TESS_ERR_NOMEM) && strncmp(err->msg, path, strlen(path)) != 0) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            tess_fail(err, st, "%s: %s", path, msg);
        }
        return st;
    }
    if (r->o.check) {
        /* --check BACKEND[:PATTERN]: the reference may run another pattern (aa against ab, say). */
        char name[64];
        snprintf(name, sizeof name, "%s", r->o.check);
        char *colon = strchr(name, ':');
        tess_backend_config_t cfg2 = cfg;
        if (colon) {
            *colon = 0;
            if ((st = tess_pattern_from_name(colon + 1, &cfg2.pattern, err)) != TESS_OK) {
                char msg[sizeof err->msg];
                snprintf(msg, sizeof msg, "%s", err->msg);
                return tess_fail(err, TESS_ERR_INPUT, "--check: %s", msg);
            }
        }
        const tess_backend_ops_t *ops2 = tess_backend_choose(name, &cfg2, err);
        if (!ops2) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            return tess_fail(err, TESS_ERR_INPUT, "--check: %s", msg);
        }
        if ((st = tess_sim_create(&r->c, ops2, &cfg2, &r->ref, err)) != TESS_OK)
            return st;
        snprintf(r->check_pattern, sizeof r->check_pattern, "%s", colon ? colon + 1 : r->c.pattern);
        aa |= cfg2.pattern == TESS_PATTERN_AA;
    }
    if (r->ref && (st = check_aa_steps(r, path, aa, err)) != TESS_OK)
        return st;
    r->aa = aa;
    if (r->o.restart) {
        if ((st = tess_sim_load_restart(r->sim, r->o.restart, err)) != TESS_OK)
            return st;
        if (aa && tess_sim_step_count(r->sim) % 2 != 0)
            return tess_fail(err, TESS_ERR_INPUT, "%s: restart file is at step %ld: the AA pattern needs an even step",
                             r->o.restart, tess_sim_step_count(r->sim));
        if (r->ref && (st = tess_sim_load_restart(r->ref, r->o.restart, err)) != TESS_OK)
            return st;
        if (tess_sim_step_count(r->sim) > r->c.steps)
            return tess_fail(err, TESS_ERR_INPUT, "%s: restart file is at step %ld, beyond run.steps = %ld", r->o.restart,
                             tess_sim_step_count(r->sim), r->c.steps);
    }
    /* Rounding differences between backends and patterns accumulate with the steps: the default grows in proportion
     * beyond 100 steps (FP32, the 96^3 sphere bed, the CPU's MR against its AB: 2.5e-5 after 100 steps, 1.0e-4
     * after 1,000; docs/outputs.md). */
    const long checked = r->c.steps - tess_sim_step_count(r->sim);
    r->tol = r->o.has_check_tol ? r->o.check_tol
                                : (r->c.precision == TESS_PRECISION_SINGLE ? 1e-4 : 1e-10) *
                                      (checked > 100 ? (double)checked / 100.0 : 1.0);
    r->n = (size_t)r->c.geometry.nx * r->c.geometry.ny * r->c.geometry.nz;
    r->n_wet = tess_sim_tiling(r->sim)->n_wet;
    /* The output folder is made (or cleared, with --overwrite) only once the input is known to be good. */
    if (r->o.out_dir)
        snprintf(r->out, sizeof r->out, "%s", r->o.out_dir);
    else
        snprintf(r->out, sizeof r->out, "out/%s", r->c.name);
    if ((st = tess_analysis_create(&r->c, r->sim, r->out, r->o.restart, &r->analysis, err)) != TESS_OK)
        return st;
    if (tess_signal_pending())
        return TESS_OK; /* stopped before the first step: nothing to write, nothing made */
    if ((st = tess_outdir_prepare(&r->dir, r->out, r->o.overwrite, r->o.restart, tess_sim_step_count(r->sim), err)) !=
        TESS_OK)
        return st;
    if ((st = tess_field_output_init(&r->fo, &r->c, r->out, r->o.restart ? tess_sim_step_count(r->sim) : -1, err)) !=
        TESS_OK)
        return st;
    if (r->c.output_pieces && (st = tess_field_output_pieces(&r->fo, r->sim, err)) !=
        TESS_OK)
        return st;
    if (r->analysis)
        tess_analysis_pieces(r->analysis, (const int32_t(*)[6])r->fo.ext);
    /* The dense fields: for the single field file, the analysis and --check (a distributed run's field pieces
     * need none on rank 0). */
    if (tess_field_output_dense(&r->fo) || (r->analysis && tess_analysis_dense(r->analysis)) || r->ref) {
        r->rho = malloc(r->n * sizeof *r->rho);
        r->u = malloc(3 * r->n * sizeof *r->u);
        r->solid = malloc(r->n);
        if (!r->rho || !r->u || !r->solid)
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the output fields");
        for (size_t i = 0; i < r->n; i++)
            r->solid[i] = !tess_kind_is_wet(r->c.params.mat[r->c.geometry.type[i]].kind);
    }
    if (r->ref) {
        r->rho_ref = malloc(r->n * sizeof *r->rho_ref);
        r->u_ref = malloc(3 * r->n * sizeof *r->u_ref);
        if (!r->rho_ref || !r->u_ref)
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the output fields");
    }
    char mpath[1200];
    snprintf(mpath, sizeof mpath, "%s/monitor.csv", r->out);
    tess_monitor_init(&r->mon, mpath);
    /* A [units] case with physical output: time, speeds, densities and forces in its units (docs/outputs.md). */
    const tess_units_t *un = &r->c.units;
    const int si = un->active && un->physical_output;
    if (si)
        tess_monitor_units(&r->mon, un->dt, tess_units_velocity_scale(un), un->rho);
    if (r->c.forces.nbody) {
        static char names[TESS_FORCES_MAX_COLUMNS][80];
        const char *cols[TESS_FORCES_MAX_COLUMNS];
        const int ncol = tess_forces_columns(&r->c.forces, names);
        /* A lattice force is mass dx / dt^2 with the mass rho0 dx^3 of a node (rho0 dx^2 per unit depth in 2D). */
        const int d2 = r->c.params.lattice == TESS_LATTICE_D2Q9;
        const double fs = si ? un->rho * pow(un->dx, d2 ? 3 : 4) / (un->dt * un->dt) : 1.0;
        r->force = calloc(3 * (size_t)r->c.forces.nbody, sizeof *r->force);
        r->force_cols = calloc((size_t)ncol, sizeof *r->force_cols);
        r->force_scale = calloc((size_t)ncol, sizeof *r->force_scale);
        if (!r->force || !r->force_cols || !r->force_scale)
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the forces on bodies");
        for (int k = 0; k < ncol; k++) {
            const int force_col = names[k][0] == 'F';
            r->force_scale[k] = force_col ? fs : 1.0;
            if (si && force_col) {
                const size_t len = strlen(names[k]);
                snprintf(names[k] + len, sizeof names[k] - len, "%s", d2 ? "_N_m" : "_N");
            }
            cols[k] = names[k];
        }
        if ((st = tess_monitor_columns(&r->mon, cols, ncol, err)) != TESS_OK)
            return st;
    }
    return TESS_OK;
}

/* After the first SIGINT or SIGTERM: the state at the step reached (AA: one step more to an even step, where the
 * populations are canonical) is tested and saved as a checkpoint when checkpointing is on. */
static tess_status stop_early(run_t *r, long *step, tess_error_t *err)
{
    tess_status st;
    if (r->aa && *step % 2 != 0) {
        if ((st = tess_sim_step(r->sim, 1, err)) != TESS_OK ||
            (r->ref && (st = tess_sim_step(r->ref, 1, err)) != TESS_OK))
            return st;
        ++*step;
    }
    /* Never checkpoint a diverged state over the last good one. */
    if ((st = check_state(r, *step, err)) != TESS_OK)
        return st;
    if (r->c.checkpoint_every > 0) {
        /* The analysis's checkpoint companions (average.restart, probe files) go with restart.tsr. */
        if (r->analysis &&
            (st = tess_analysis_event(r->analysis, *step, 0, 1, 0, r->rho, r->u, 0, err)) != TESS_OK)
            return st;
        char path[1200];
        snprintf(path, sizeof path, "%s/restart.tsr", r->out);
        if ((st = tess_sim_save_restart(r->sim, path, err)) != TESS_OK)
            return st;
    }
    return TESS_OK;
}

static tess_status run_loop(run_t *r, tess_error_t *err)
{
    const tess_case_t *c = &r->c;
    long step = tess_sim_step_count(r->sim);
    const long last = c->steps;
    r->first = r->last_row_step = r->stop_step = step;
    r->t0 = tess_wall_seconds();
    r->t_step = r->t_last_row = 0.0;
    tess_status st = events(r, step, 1, step == last, err);
    if (st != TESS_OK)
        return st;
    long chunk = 1;
    while (step < last) {
        long next = last;
        const long every[4] = {c->output_every, c->monitor_every, c->checkpoint_every, c->check_every};
        for (int k = 0; k < 4; k++)
            if (every[k] > 0 && (step / every[k] + 1) * every[k] < next)
                next = (step / every[k] + 1) * every[k];
        if (r->analysis && tess_analysis_next(r->analysis, step) < next)
            next = tess_analysis_next(r->analysis, step);
        /* A signal is looked at between chunks: a run stops within one chunk (0.05 to 0.2 s, or one step). */
        while (step < next && !tess_signal_pending()) {
            const long n = next - step < chunk ? next - step : chunk;
            const double t = tess_wall_seconds();
            if ((st = tess_sim_step(r->sim, (int)n, err)) != TESS_OK)
                return st;
            const double dt = tess_wall_seconds() - t;
            r->t_step += dt;
            if (r->ref && (st = tess_sim_step(r->ref, (int)n, err)) != TESS_OK)
                return st;
            step += n;
            r->stop_step = step;
            /* Chunks of 0.05 to 0.2 s keep the progress line moving and signals answered without costing time. */
            if (dt < 0.05 && chunk < 1000000)
                chunk *= 2;
            else if (dt > 0.2 && chunk > 1)
                chunk /= 2;
            const double mlups = r->t_step > 0 ? (double)(step - r->first) * (double)r->n_wet / r->t_step / 1e6 : 0.0;
            const double eta = mlups > 0 ? (double)(last - step) * (double)r->n_wet / (mlups * 1e6) : -1.0;
            tess_progress_update(&r->prog, tess_wall_seconds(), step, r->first, last, mlups, eta);
        }
        /* A signal after the last step changes nothing: the run completes. */
        if (tess_signal_pending() && step < last) {
            r->sig = tess_signal_pending();
            st = stop_early(r, &step, err);
            r->stop_step = step;
            return st;
        }
        if ((st = events(r, step, 0, step == last, err)) != TESS_OK)
            return st;
    }
    return TESS_OK;
}

static void free_run(run_t *r)
{
    tess_sim_free(r->sim);
    tess_sim_free(r->ref);
    tess_analysis_free(r->analysis);
    tess_case_free(&r->c);
    tess_monitor_free(&r->mon);
    tess_field_output_free(&r->fo);
    free(r->rho);
    free(r->u);
    free(r->solid);
    free(r->rho_ref);
    free(r->u_ref);
    free(r->force);
    free(r->force_cols);
    free(r->force_scale);
}

/* Frees the run, puts the signal handlers back and returns the exit status. After a signal the handlers stay
 * until the process exits: a second signal during the exit (a sanitizer's leak check can take seconds) then
 * still ends it with 128 + signal instead of the default action's kill. */
static int end_run(run_t *r, int code)
{
    free_run(r);
    free(r);
    if (!tess_signal_pending())
        tess_signal_restore();
    return code;
}

/* An error: one line; a folder this run made and left empty goes again. */
static int end_failed(run_t *r, tess_status st, const tess_error_t *err)
{
    const int code = fail(r, st, err);
    tess_outdir_remove_if_empty(&r->dir);
    return end_run(r, code);
}

int tess_cmd_run(int argc, char **argv)
{
    run_t *r = calloc(1, sizeof *r);
    if (!r) {
        fprintf(stderr, "tessera: out of memory\n");
        return tess_status_exit_code(TESS_ERR_NOMEM);
    }
    tess_error_t err = {0};
    tess_status st = parse_args(&r->o, argc, argv, &err);
    tess_progress_init(&r->prog, r->o.quiet);
    if (st == TESS_OK && r->o.help) {
        printf("usage: tessera run CASE.ini [--backend auto|cpu|cuda|hip] [--precision double|single]\n"
               "                    [--pattern ab|aa|mr] [--steps N] [--out DIR] [--overwrite]\n"
               "                    [--set section.key=value]... [--threads N] [--quiet] [--checkpoint-every N]\n"
               "                    [--restart FILE] [--check BACKEND[:PATTERN] [--check-tol X]]\n"
               "case keys: docs/case-format.md; output files: docs/outputs.md; signals, divergence and output\n"
               "folders: docs/reliability.md\n");
        free(r);
        return 0;
    }
    tess_signal_install();
    if (st == TESS_OK)
        st = setup(r, &err);
    if (st != TESS_OK)
        return end_failed(r, st, &err);
    if (tess_signal_pending()) {
        const int sig = tess_signal_pending();
        fprintf(stderr, "tessera run: %s before the first step: stopped, nothing written\n", tess_signal_name(sig));
        return end_run(r, tess_signal_exit_code(sig));
    }
    const tess_tiling_t *t = tess_sim_tiling(r->sim);
    char dev[256];
    tess_sim_describe(r->sim, dev, sizeof dev);
    /* The device line of the CPU's AA and MR patterns names the pattern already: say it once. */
    printf("tessera run: case %s (%s): %dx%dx%d nodes, %lld fluid, %d tiles (eta_t %.3f), tau %.6g; backend %s%s%s%s%s, "
           "%s%s%s%s%s%s%s; steps %ld..%ld; output in %s\n",
           r->c.name, r->c.path, t->nx, t->ny, t->nz, (long long)t->n_wet, t->ntiles, t->eta_t, r->c.params.tau,
           tess_sim_backend(r->sim)->name, r->auto_note, dev[0] ? " [" : "", dev, dev[0] ? "]" : "", tess_precision_name(r->c.precision),
           strstr(dev, "pattern ") ? "" : ", pattern ", strstr(dev, "pattern ") ? "" : r->c.pattern,
           r->ref ? ", cross-check against " : "", r->ref ? tess_sim_backend(r->ref)->name : "",
           r->ref ? ":" : "", r->ref ? r->check_pattern : "",
           tess_sim_step_count(r->sim), r->c.steps, r->out);
    if (r->c.units.active) {
        char conv[512];
        tess_units_describe(&r->c.units, conv, sizeof conv);
        printf("tessera run: units: %s; outputs in %s units\n", conv, r->c.units.physical_output ? "the case's" : "lattice");
    }
    fflush(stdout);
    st = run_loop(r, &err);
    tess_progress_clear(&r->prog);
    if (st != TESS_OK)
        return end_failed(r, st, &err);
    const long steps = r->stop_step - r->first;
    const double wall = tess_wall_seconds() - r->t0;
    const double mlups = r->t_step > 0 ? (double)steps * (double)r->n_wet / r->t_step / 1e6 : 0.0;
    const size_t bytes = tess_sim_bytes_allocated(r->sim);
    tess_summary_t sum = {TESS_VERSION, r->c.name, r->c.path, tess_sim_backend(r->sim)->name,
                                tess_precision_name(r->c.precision), r->c.pattern, dev,
                                t->nx, t->ny, t->nz, r->c.threads,
                                (long long)t->nx * t->ny * t->nz, (long long)t->n_wet, t->ntiles, t->eta_t,
                                steps, r->first, r->stop_step, mlups, wall, bytes, &r->c.forces, r->force,
                                r->c.units.active ? &r->c.units : NULL, r->sig ? tess_signal_name(r->sig) : NULL,
                                0, 1.0, NULL, r->fo.files, r->fo.ext ? tess_mpi_size() : 0, r->fo.bytes,
                                r->fo.seconds, NULL, tess_setup_host_peak(),
                                r->fo.sim ? r->fo.compute_seconds : -1.0};
    tess_setup_t setup = *tess_sim_setup(r->sim);
    setup.seconds[TESS_SETUP_CASE] = r->case_s;
    sum.setup = &setup;
    /* A distributed run's balance and exchange per rank (docs/mpi.md). */
    tess_halo_rank_t *ranks = calloc((size_t)tess_mpi_size(), sizeof *ranks);
    if (!ranks)
        st = tess_fail(&err, TESS_ERR_NOMEM, "out of memory for the per-rank figures");
    else
        st = tess_sim_ranks(r->sim, ranks, &sum.imbalance, &sum.nranks, &err);
    if (st != TESS_OK) {
        free(ranks);
        return end_failed(r, st, &err);
    }
    sum.ranks = ranks;
    char spath[1200];
    snprintf(spath, sizeof spath, "%s/summary.json", r->out);
    st = tess_summary_write(spath, &sum, &err);
    free(ranks);
    if (st != TESS_OK)
        return end_failed(r, st, &err);
    if (r->sig) {
        if (r->c.checkpoint_every > 0)
            fprintf(stderr,
                    "tessera run: %s: stopped at step %ld; wrote %s/restart.tsr and summary.json; continue with "
                    "--restart %s/restart.tsr\n",
                    tess_signal_name(r->sig), r->stop_step, r->out, r->out);
        else
            fprintf(stderr, "tessera run: %s: stopped at step %ld; wrote %s/summary.json (no checkpoint: "
                    "--checkpoint-every N writes one)\n", tess_signal_name(r->sig), r->stop_step, r->out);
        return end_run(r, tess_signal_exit_code(r->sig));
    }
    printf("tessera run: done: %ld steps in %.2f s (%.2f s stepping), %.2f MLUPS (fluid nodes), %.1f MB allocated "
           "(%.0f B per fluid node)\n",
           steps, wall, r->t_step, mlups, (double)bytes / 1e6, t->n_wet ? (double)bytes / (double)t->n_wet : 0.0);
    int code = 0;
    if (r->ref) {
        const tess_field_diff_t *w = &r->worst;
        printf("cross-check %s:%s vs %s:%s: max abs diff %.3e (%s at (%d,%d,%d)), max rel diff %.3e (%s at (%d,%d,%d)), "
               "tolerance %.1e relative\n",
               tess_sim_backend(r->sim)->name, r->c.pattern, tess_sim_backend(r->ref)->name, r->check_pattern, w->abs,
               w->abs_field ? w->abs_field : "identical", w->abs_at[0], w->abs_at[1], w->abs_at[2], w->rel,
               w->rel_field ? w->rel_field : "identical", w->rel_at[0], w->rel_at[1], w->rel_at[2], r->tol);
        if (!(w->rel <= r->tol)) {
            fprintf(stderr, "tessera: %s: relative difference %.3e exceeds %.1e\n", tess_status_text(TESS_ERR_CHECK),
                    w->rel, r->tol);
            code = tess_status_exit_code(TESS_ERR_CHECK);
        }
    }
    return end_run(r, code);
}
