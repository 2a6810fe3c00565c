/* `tessera bench`: measures the backend's copy bandwidth, then MLUPS for a matrix of cases and settings, and
 * relates them through the bytes-per-update model (tile paper eq. 10: every population read once and written
 * once, 2 * q * size bytes per fluid node update; 2 * 10 * size for the moment representation). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "tess_case.h"
#include "tess_cli.h"
#include "tess_file.h"
#include "tess_sim.h"
#include "cpu_dist_xfer.h"
#include "tess_mpi.h"
#include "tess_state.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_MAX_LIST 16

typedef struct {
    int n;
    char item[BENCH_MAX_LIST][48];
} bench_list;

typedef struct {
    const char *backend, *case_name, *csv, *plot_dir, *out_dir;
    bench_list patterns, precisions, sizes, porosities, variants, collisions, layouts, mr_layers;
    const char *fluid;
    int steps, reps, threads, quiet;
    const char *sets[32];
    int nsets;
} bench_opts;

typedef struct {
    char case_name[TESS_CASE_NAME_MAX];
    int size;
    double porosity; /* requested porosity (spheres), -1 otherwise */
    double porosity_real, eta_t;
    long nodes, wet, tiles;
    char pattern[8], precision[8], variant[16], collision[16], layout[16], lattice[8], wall[20];
    int mr_layer; /* MR nodes per layer; 0 = chosen from the cache size */
    double mlups, mlups_min, mlups_max, bytes_per_update, gbs, frac_copy, frac_peak;
    double bytes_per_node; /* the backend's bytes_allocated over the fluid nodes (device bytes on a GPU) */
    tess_setup_t setup;    /* the set-up's stages (tess_setup.h) */
    size_t host_peak;      /* the process's peak host memory after the row (bytes) */
} bench_row;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Splits "a,b,c" into the list; returns 0, or -1 when there are too many items or an item is too long. */
static int list_parse(bench_list *l, const char *s)
{
    l->n = 0;
    while (*s) {
        const char *comma = strchr(s, ',');
        const size_t len = comma ? (size_t)(comma - s) : strlen(s);
        if (l->n == BENCH_MAX_LIST || len == 0 || len >= sizeof l->item[0])
            return -1;
        memcpy(l->item[l->n], s, len);
        l->item[l->n][len] = 0;
        l->n++;
        s += len + (comma ? 1 : 0);
    }
    return l->n ? 0 : -1;
}

static const char bench_usage[] =
    "usage: tessera bench [--backend B] [--pattern ab,aa,mr] [--precision double,single] [--case cavity3d|spheres|FILE] "
    "[--size N,...] [--porosity P,...] [--variant full,propagation,readwrite|all] [--collision lbgk,mrt,regularized] "
    "[--fluid incompressible|quasi] [--mr-layer N,...] [--steps N] [--reps N] "
    "[--threads N] [--set section.key=value] [--out DIR] [--csv FILE] [--plot DIR]\n"
    "Lists are comma-separated; every combination is measured. The CSV goes to DIR/bench.csv (DIR: --out, default\n"
    "out/bench) unless --csv names a file.\n";

/* Bad options get one line; `tessera bench --help` prints the usage. */
static int usage_error(const char *what)
{
    fprintf(stderr, "tessera bench: %s (see tessera bench --help)\n", what);
    return 2;
}

/* Whole-string integer and number parsing: "12x" or "" are errors, not 12 or 0. */
static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_number(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    const double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= lo && v <= hi))
        return -1;
    *out = v;
    return 0;
}

static int list_check_ints(const bench_list *l, long lo, long hi)
{
    long v;
    for (int i = 0; i < l->n; i++)
        if (parse_int(l->item[i], lo, hi, &v) != 0)
            return -1;
    return 0;
}

static int parse_opts(int argc, char **argv, bench_opts *o)
{
    memset(o, 0, sizeof *o);
    o->backend = "auto";
    o->case_name = "cavity3d";
    o->fluid = "incompressible";
    o->reps = 5;
    list_parse(&o->patterns, "ab");
    list_parse(&o->precisions, "double");
    list_parse(&o->variants, "full");
    list_parse(&o->collisions, "lbgk");
    list_parse(&o->layouts, "xyz"); /* every backend's copies hold L_XYZ (the CSV's layout column) */
    list_parse(&o->mr_layers, "0");
    o->csv = NULL; /* DIR/bench.csv */
    o->out_dir = "out/bench";
    for (int a = 1; a < argc; a++) {
        const char *k = argv[a];
        if (strcmp(k, "--help") == 0 || strcmp(k, "-h") == 0) {
            fputs(bench_usage, stdout);
            return -1;
        }
        if (a + 1 >= argc) {
            char msg[128];
            snprintf(msg, sizeof msg, "option %s needs a value", k);
            return usage_error(msg);
        }
        const char *v = argv[++a];
        int bad = 0;
        if (strcmp(k, "--backend") == 0)
            o->backend = v;
        else if (strcmp(k, "--case") == 0)
            o->case_name = v;
        else if (strcmp(k, "--csv") == 0)
            o->csv = v;
        else if (strcmp(k, "--out") == 0)
            o->out_dir = v;
        else if (strcmp(k, "--plot") == 0)
            o->plot_dir = v;
        else if (strcmp(k, "--fluid") == 0)
            o->fluid = v;
        else if (strcmp(k, "--pattern") == 0)
            bad = list_parse(&o->patterns, v);
        else if (strcmp(k, "--precision") == 0)
            bad = list_parse(&o->precisions, v);
        else if (strcmp(k, "--size") == 0)
            bad = list_parse(&o->sizes, v) || list_check_ints(&o->sizes, 4, 4096);
        else if (strcmp(k, "--mr-layer") == 0)
            bad = list_parse(&o->mr_layers, v) || list_check_ints(&o->mr_layers, 0, 1 << 24);
        else if (strcmp(k, "--porosity") == 0) {
            bad = list_parse(&o->porosities, v);
            for (int i = 0; i < o->porosities.n && !bad; i++) {
                double p;
                bad = parse_number(o->porosities.item[i], 0.0, 1.0, &p);
            }
        }
        else if (strcmp(k, "--variant") == 0)
            bad = list_parse(&o->variants, strcmp(v, "all") == 0 ? "full,propagation,readwrite" : v);
        else if (strcmp(k, "--collision") == 0)
            bad = list_parse(&o->collisions, v);
        else if (strcmp(k, "--steps") == 0 || strcmp(k, "--reps") == 0 || strcmp(k, "--threads") == 0) {
            long n;
            bad = parse_int(v, strcmp(k, "--threads") == 0 ? 0 : 1, strcmp(k, "--reps") == 0 ? 63 : 1000000000, &n);
            if (!bad)
                *(k[2] == 's' ? &o->steps : k[2] == 'r' ? &o->reps : &o->threads) = (int)n;
        }
        else if (strcmp(k, "--set") == 0) {
            if (o->nsets == 32)
                return usage_error("too many --set options (32 at most)");
            o->sets[o->nsets++] = v;
        } else {
            char msg[160];
            snprintf(msg, sizeof msg, "unknown option '%s'", k);
            return usage_error(msg);
        }
        if (bad) {
            char msg[200];
            snprintf(msg, sizeof msg, "option %s: invalid value '%s'", k, v);
            return usage_error(msg);
        }
    }
    return 0;
}

static int variant_from_name(const char *s, tess_kernel_variant *v)
{
    if (strcmp(s, "full") == 0)
        *v = TESS_KERNEL_FULL;
    else if (strcmp(s, "propagation") == 0)
        *v = TESS_KERNEL_PROPAGATION_ONLY;
    else if (strcmp(s, "readwrite") == 0)
        *v = TESS_KERNEL_READ_WRITE_ONLY;
    else
        return -1;
    return 0;
}

/* Overrides that resize the shipped benchmark cases; other cases are taken as they are. */
static int case_overrides(const bench_opts *o, int size, const char *porosity, char store[][96], const char **ov)
{
    int n = 0;
    if (size > 0) {
        snprintf(store[n++], 96, "domain.nx=%d", size);
        snprintf(store[n++], 96, "domain.ny=%d", size);
        snprintf(store[n++], 96, "domain.nz=%d", size);
        if (strcmp(o->case_name, "cavity2d") == 0) { /* D2Q9: size x size nodes, the top row the lid */
            snprintf(store[n - 1], 96, "domain.nz=1");
            snprintf(store[n++], 96, "wall.lid.min=0 %d 0", size - 1);
            snprintf(store[n++], 96, "wall.lid.max=%d %d 0", size - 1, size - 1);
            snprintf(store[n++], 96, "physics.length=%d", size);
        }
        if (strcmp(o->case_name, "cavity3d") == 0) {
            snprintf(store[n++], 96, "wall.lid.min=0 0 %d", size - 1);
            snprintf(store[n++], 96, "wall.lid.max=%d %d %d", size - 1, size - 1, size - 1);
            snprintf(store[n++], 96, "physics.length=%d", size - 1);
        }
    }
    if (porosity)
        snprintf(store[n++], 96, "spheres.bed.porosity=%s", porosity); /* cases/spheres.ini */
    for (int i = 0; i < n; i++)
        ov[i] = store[i];
    for (int i = 0; i < o->nsets; i++)
        ov[n + i] = o->sets[i];
    return n + o->nsets;
}

/* Under mpirun with several processes: a line per rank with its share, its MLUPS and the time in the halo
 * exchange (warm-up and repetitions together; docs/mpi.md). */
static tess_status print_ranks(tess_sim_t *sim, tess_error_t *err)
{
    tess_halo_rank_t *ranks = calloc((size_t)tess_mpi_size(), sizeof *ranks);
    if (!ranks)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the per-rank figures");
    int n = 0;
    double imbalance = 1.0;
    const tess_status st = tess_sim_ranks(sim, ranks, &imbalance, &n, err);
    if (st == TESS_OK && n > 1)
        printf("  %d MPI ranks, imbalance %.4f (max over mean fluid nodes), halo messages through %s\n", n, imbalance,
               tess_dist_xfer_name(ranks[0].transport));
    for (int r = 0; st == TESS_OK && r < n; r++) {
        const tess_halo_rank_t *k = &ranks[r];
        printf("  rank %d: %d tiles, %lld fluid nodes, %d halo tiles from %d ranks, %lld halo populations per step; "
               "%.2f MLUPS; exchange %.4f s of %.4f s stepping (%.1f %%), waiting %.4f s; %s\n",
               r, (int)k->tiles, (long long)k->wet, (int)k->halo_tiles, k->neighbours, (long long)k->halo_slots,
               k->step_s > 0 ? (double)k->wet * (double)k->steps / k->step_s / 1e6 : 0.0, k->exchange_s, k->step_s,
               k->step_s > 0 ? 100.0 * k->exchange_s / k->step_s : 0.0, k->wait_s, k->binding);
    }
    free(ranks);
    return st;
}

static int run_one(const bench_opts *o, const char *case_path, int size, const char *porosity, const char *pattern,
                   const char *precision, const char *variant, const char *collision, const char *layout,
                   int mr_layer, double copy_gbs, double peak_gbs, bench_row *row)
{
    tess_error_t err = {0};
    char store[16][96];
    const char *ov[48];
    int nov = case_overrides(o, size, porosity, store, ov);
    char extra[3][96];
    snprintf(extra[0], sizeof extra[0], "physics.collision=%s", collision);
    snprintf(extra[1], sizeof extra[1], "physics.fluid=%s", o->fluid);
    ov[nov++] = extra[0];
    ov[nov++] = extra[1];
    tess_case_t c;
    const double t_case = tess_setup_now();
    tess_status st = tess_case_load(case_path, ov, nov, &c, &err);
    const double case_s = tess_setup_now() - t_case;
    if (st != TESS_OK) {
        fprintf(stderr, "tessera bench: %s\n", err.msg);
        return tess_status_exit_code(st);
    }
    tess_backend_config_t cfg = {0};
    cfg.precision = strcmp(precision, "single") == 0 ? TESS_PRECISION_SINGLE : TESS_PRECISION_DOUBLE;
    cfg.threads = o->threads;
    cfg.mr_layer = mr_layer ? mr_layer : c.mr_layer; /* --mr-layer, else the case's [run] mr_layer */
    cfg.mr_copies = c.mr_copies;                      /* --set run.mr_copies=N */
    if (variant_from_name(variant, &cfg.variant) != 0 || tess_pattern_from_name(pattern, &cfg.pattern, &err) != TESS_OK ||
        (strcmp(precision, "single") != 0 && strcmp(precision, "double") != 0) ||
        strcmp(layout, "xyz") != 0) {
        fprintf(stderr, "tessera bench: invalid pattern '%s', precision '%s', variant '%s' or layout '%s'\n", pattern,
                precision, variant, layout);
        tess_case_free(&c);
        return 2;
    }
    const tess_backend_ops_t *ops = tess_backend_choose(o->backend, &cfg, &err);
    tess_sim_t *sim = NULL;
    if (!ops || (st = tess_sim_create(&c, ops, &cfg, &sim, &err)) != TESS_OK) {
        fprintf(stderr, "tessera bench: %s\n", err.msg);
        tess_case_free(&c);
        return tess_status_exit_code(ops ? st : err.code);
    }
    const tess_tiling_t *t = tess_sim_tiling(sim);
    /* Warm-up, then size each repetition to about half a second unless --steps says otherwise. */
    double t0 = now_seconds();
    st = tess_sim_step(sim, 2, &err);
    const double per_step = (now_seconds() - t0) / 2.0;
    int steps = o->steps > 0 ? o->steps : (int)fmin(2000.0, fmax(2.0, 0.5 / fmax(per_step, 1e-9)));
    steps += steps & 1; /* whole AA step pairs */
    double mlups[64];
    const int reps = o->reps < 64 ? o->reps : 64;
    for (int r = 0; r < reps && st == TESS_OK; r++) {
        t0 = now_seconds();
        st = tess_sim_step(sim, steps, &err);
        mlups[r] = (double)t->n_wet * steps / (now_seconds() - t0) / 1e6;
    }
    if (st != TESS_OK) {
        fprintf(stderr, "tessera bench: %s\n", err.msg);
        tess_sim_free(sim);
        tess_case_free(&c);
        return tess_status_exit_code(st);
    }
    if ((st = print_ranks(sim, &err)) != TESS_OK) {
        fprintf(stderr, "tessera bench: %s\n", err.msg);
        tess_sim_free(sim);
        tess_case_free(&c);
        return tess_status_exit_code(st);
    }
    qsort(mlups, (size_t)reps, sizeof mlups[0], cmp_double);
    memset(row, 0, sizeof *row);
    snprintf(row->case_name, sizeof row->case_name, "%s", c.name);
    row->size = size > 0 ? size : c.geometry.nx;
    row->porosity = porosity ? atof(porosity) : -1.0;
    row->nodes = (long)c.geometry.nx * c.geometry.ny * c.geometry.nz;
    row->wet = (long)t->n_wet;
    row->tiles = t->ntiles;
    row->porosity_real = (double)t->n_wet / (double)row->nodes;
    row->eta_t = t->eta_t;
    snprintf(row->pattern, sizeof row->pattern, "%s", pattern);
    snprintf(row->precision, sizeof row->precision, "%s", precision);
    snprintf(row->variant, sizeof row->variant, "%s", variant);
    snprintf(row->collision, sizeof row->collision, "%s", collision);
    snprintf(row->layout, sizeof row->layout, "%s", layout);
    const tess_lattice_t *lat = tess_lattice_get((tess_lattice_id)t->lattice);
    snprintf(row->lattice, sizeof row->lattice, "%s", lat ? lat->name : "?");
    static const char *const walls[] = {"bounce-back", "bouzidi-lin", "bouzidi-quad"};
    snprintf(row->wall, sizeof row->wall, "%s",
             c.params.wall >= 0 && c.params.wall <= TESS_WALL_BOUZIDI_QUADRATIC ? walls[c.params.wall] : "?");
    row->mr_layer = cfg.mr_layer;
    row->mlups = reps % 2 ? mlups[reps / 2] : 0.5 * (mlups[reps / 2 - 1] + mlups[reps / 2]);
    row->mlups_min = mlups[0];
    row->mlups_max = mlups[reps - 1];
    const double values = (double)tess_state_node_values(cfg.pattern, t->lattice, t->q);
    row->bytes_per_update = 2.0 * values * (double)tess_precision_size(cfg.precision);
    row->gbs = row->mlups * 1e6 * row->bytes_per_update / 1e9;
    row->frac_copy = copy_gbs > 0 ? row->gbs / copy_gbs : 0.0;
    row->frac_peak = peak_gbs > 0 ? row->gbs / peak_gbs : 0.0;
    row->bytes_per_node = t->n_wet > 0 ? (double)tess_sim_bytes_allocated(sim) / (double)t->n_wet : 0.0;
    row->setup = *tess_sim_setup(sim);
    row->setup.seconds[TESS_SETUP_CASE] = case_s;
    row->host_peak = tess_setup_host_peak();
    tess_sim_free(sim);
    tess_case_free(&c);
    return 0;
}

static void print_row(const bench_row *r)
{
    char por[16] = "-";
    if (r->porosity >= 0)
        snprintf(por, sizeof por, "%.2f", r->porosity_real);
    char layer[16] = "-";
    if (strcmp(r->pattern, "mr") == 0)
        snprintf(layer, sizeof layer, r->mr_layer ? "%d" : "auto", r->mr_layer);
    printf("%-9s %-5s %-12s %5d %6s %5.3f %-3s %-6s %-11s %-11s %-9s %6s %9.1f %6.0f %8.1f", r->case_name, r->lattice,
           r->wall, r->size, por, r->eta_t, r->pattern, r->precision, r->variant, r->collision, r->layout, layer, r->mlups,
           r->bytes_per_update, r->gbs);
    if (r->frac_copy > 0)
        printf(" %6.1f%%", 100.0 * r->frac_copy);
    else
        printf(" %7s", "n/a");
    if (r->frac_peak > 0)
        printf(" %6.1f%%", 100.0 * r->frac_peak);
    printf(" %7.1f\n", r->bytes_per_node);
    char setup[256];
    tess_setup_format(&r->setup, setup, sizeof setup);
    printf("  %s\n", setup);
    fflush(stdout);
}

static tess_status write_csv(const char *path, const bench_row *rows, int n, const char *device, double copy_gbs,
                             double peak_gbs, tess_error_t *err)
{
    char dir[1100];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = 0;
        tess_status dst = tess_mkdirs(dir, err);
        if (dst != TESS_OK)
            return dst;
    }
    tess_file_t w;
    tess_status st = tess_file_begin(&w, path, err);
    if (st != TESS_OK)
        return st;
    fprintf(w.f, "# device: %s; copy bandwidth %.1f GB/s", device, copy_gbs);
    if (peak_gbs > 0) /* the CPU backend knows no theoretical bandwidth */
        fprintf(w.f, "; theoretical %.1f GB/s", peak_gbs);
    fprintf(w.f, "\n");
    fprintf(w.f, "case,size,porosity,eta_t,nodes,fluid_nodes,tiles,pattern,precision,variant,collision,layout,"
                 "mr_layer,mlups_median,mlups_min,mlups_max,bytes_per_update,gb_per_s,fraction_of_copy,fraction_of_theoretical,"
                 "lattice,wall,bytes_per_fluid_node,setup_seconds,host_peak_bytes\n");
    for (int i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        fprintf(w.f, "%s,%d,%.4f,%.4f,%ld,%ld,%ld,%s,%s,%s,%s,%s,%d,%.2f,%.2f,%.2f,%.0f,%.2f,%.4f,%.4f,%s,%s,%.1f,%.3f,%zu\n",
                r->case_name,
                r->size, r->porosity_real, r->eta_t, r->nodes, r->wet, r->tiles, r->pattern, r->precision, r->variant,
                r->collision, r->layout, r->mr_layer, r->mlups, r->mlups_min, r->mlups_max, r->bytes_per_update, r->gbs,
                r->frac_copy, r->frac_peak, r->lattice, r->wall, r->bytes_per_node, tess_setup_total(&r->setup),
                r->host_peak);
    }
    return tess_file_commit(&w, err);
}

/* PNG plot through gnuplot (Debian's gnuplot-nox): median MLUPS against size or porosity, one line per series
 * (pattern, precision, variant, collision, layout, MR layer). The script, with the data inline, goes through a
 * file (no shell quoting); the picture through a temporary name, so a failed plot leaves nothing behind. */
static void series_key(const bench_row *r, char *buf, size_t len)
{
    snprintf(buf, len, "%s %s %s %s %s%s%d", r->pattern, r->precision, r->variant, r->collision, r->layout,
             strcmp(r->pattern, "mr") == 0 ? " layer " : "", strcmp(r->pattern, "mr") == 0 ? r->mr_layer : 0);
    if (strcmp(r->pattern, "mr") != 0)
        buf[strlen(buf) - 1] = 0; /* drop the placeholder digit */
}

static tess_status write_plot(const char *dir, const bench_row *rows, int n, int by_porosity, tess_error_t *err)
{
    tess_status st = tess_mkdirs(dir, err);
    if (st != TESS_OK)
        return st;
    char png[1100], tmp_png[1200], script_path[1200], cmd[2600];
    snprintf(png, sizeof png, "%s/mlups_vs_%s.png", dir, by_porosity ? "porosity" : "size");
    snprintf(tmp_png, sizeof tmp_png, "%s.tmp.png", png);
    snprintf(script_path, sizeof script_path, "%s/.mlups_plot.gp", dir);
    FILE *f = fopen(script_path, "w");
    if (!f)
        return tess_fail(err, TESS_ERR_IO, "%s: cannot write the gnuplot script", script_path);
    fprintf(f, "set terminal pngcairo size 1000,650 noenhanced\nset output '%s'\nset key outside right\nset grid\n"
               "set xlabel '%s'\nset ylabel 'MLUPS (median)'\nset yrange [0:*]\nset title 'tessera bench: %s'\nplot ",
            tmp_png, by_porosity ? "porosity (fluid fraction)" : "edge length (nodes)", rows[0].case_name);
    /* One series per distinct key, in order of first appearance. */
    int nseries = 0;
    char keys[64][96];
    for (int i = 0; i < n && nseries < 64; i++) {
        char k[96];
        series_key(&rows[i], k, sizeof k);
        int seen = 0;
        for (int j = 0; j < nseries; j++)
            seen |= strcmp(keys[j], k) == 0;
        if (!seen) {
            snprintf(keys[nseries], sizeof keys[nseries], "%s", k);
            fprintf(f, "%s'-' using 1:2 with linespoints title '%s'", nseries ? ", " : "", k);
            nseries++;
        }
    }
    fprintf(f, "\n");
    for (int j = 0; j < nseries; j++) {
        for (int i = 0; i < n; i++) {
            char k[96];
            series_key(&rows[i], k, sizeof k);
            if (strcmp(k, keys[j]) == 0)
                fprintf(f, "%g %g\n", by_porosity ? rows[i].porosity_real : (double)rows[i].size, rows[i].mlups);
        }
        fprintf(f, "e\n");
    }
    fclose(f);
    snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>&1", script_path);
    const int rc = system(cmd);
    remove(script_path);
    if (rc != 0) {
        remove(tmp_png);
        return tess_fail(err, TESS_ERR_IO, "gnuplot failed drawing %s (is gnuplot-nox installed? ci/install-deps.sh)", png);
    }
    if (rename(tmp_png, png) != 0) {
        remove(tmp_png);
        return tess_fail(err, TESS_ERR_IO, "%s: cannot rename the plot into place", png);
    }
    printf("plot: %s\n", png);
    return TESS_OK;
}

int tess_cmd_bench(int argc, char **argv)
{
    bench_opts o;
    int rc = parse_opts(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    tess_error_t err = {0};
    char case_path[TESS_CASE_PATH_MAX];
    if (tess_case_find(o.case_name, case_path, sizeof case_path, &err) != TESS_OK) {
        fprintf(stderr, "tessera bench: %s\n", err.msg);
        return 2;
    }
    const int spheres = strstr(o.case_name, "spheres") != NULL;
    if (o.sizes.n == 0)
        list_parse(&o.sizes, spheres ? "0" : "128");

    /* The reference: the device's copy bandwidth, measured once with the backend's own threads/streams. */
    tess_backend_config_t cfg = {0};
    cfg.threads = o.threads;
    const tess_backend_ops_t *ops = tess_backend_choose(o.backend, &cfg, &err);
    if (!ops) {
        fprintf(stderr, "tessera bench: %s\n", err.msg);
        return tess_status_exit_code(err.code);
    }
    tess_backend_t *be = NULL;
    if (ops->create(&cfg, &be, &err) != TESS_OK) {
        fprintf(stderr, "tessera bench: %s\n", err.msg);
        return tess_status_exit_code(err.code);
    }
    char device[256] = "";
    if (ops->describe)
        ops->describe(be, device, sizeof device);
    const size_t copy_bytes = strcmp(ops->name, "cpu") == 0 ? (size_t)1 << 30 : (size_t)4 << 30;
    double copy_gbs = ops->copy_bandwidth ? ops->copy_bandwidth(be, copy_bytes, &err) : 0.0;
    const double peak_gbs = ops->peak_bandwidth ? ops->peak_bandwidth(be) : 0.0;
    ops->destroy(be);
    printf("tessera bench: backend %s (%s)\n", ops->name, device[0] ? device : "no description");
    if (copy_gbs > 0)
        printf("copy bandwidth (read + write, median of 7): %.1f GB/s", copy_gbs);
    else
        printf("copy bandwidth: not measured by this backend");
    if (peak_gbs > 0)
        printf("; theoretical %.1f GB/s", peak_gbs);
    printf("\nbytes per update model: 2 x q x value size (AB, AA), 2 x stored moments x value size (MR); eta_t = tile "
           "utilisation; B/node = bytes allocated by the backend per fluid node\n");
    printf("%-9s %-5s %-12s %5s %6s %5s %-3s %-6s %-11s %-11s %-9s %6s %9s %6s %8s %7s%s %7s\n", "case", "lattice",
           "wall",
           "size", "poros", "eta_t", "pat",
           "prec", "variant", "collision", "layout", "layer", "MLUPS", "B/upd", "GB/s", "%copy",
           peak_gbs > 0 ? " %theor" : "", "B/node");

    /* Every combination of the lists, odometer style (the last list turns fastest). */
    const int npor = o.porosities.n ? o.porosities.n : 1;
    const bench_list *lists[8] = {&o.sizes, NULL, &o.patterns, &o.precisions, &o.variants, &o.collisions, &o.layouts,
                                  &o.mr_layers};
    int count[8], idx[8] = {0};
    long total = 1;
    for (int d = 0; d < 8; d++) {
        count[d] = d == 1 ? npor : lists[d]->n;
        total *= count[d];
    }
    bench_row *rows = calloc((size_t)total, sizeof *rows);
    if (!rows) {
        fprintf(stderr, "tessera bench: out of memory\n");
        return 4;
    }
    int nrows = 0, status = 0;
    for (long r = 0; r < total && !status; r++) {
        long rest = r;
        for (int d = 7; d >= 0; d--) {
            idx[d] = (int)(rest % count[d]);
            rest /= count[d];
        }
        status = run_one(&o, case_path, atoi(o.sizes.item[idx[0]]), o.porosities.n ? o.porosities.item[idx[1]] : NULL,
                         o.patterns.item[idx[2]], o.precisions.item[idx[3]], o.variants.item[idx[4]],
                         o.collisions.item[idx[5]], o.layouts.item[idx[6]], atoi(o.mr_layers.item[idx[7]]), copy_gbs,
                         peak_gbs, &rows[nrows]);
        if (!status)
            print_row(&rows[nrows++]);
    }
    char csv[1100];
    if (o.csv)
        snprintf(csv, sizeof csv, "%s", o.csv);
    else
        snprintf(csv, sizeof csv, "%s/bench.csv", o.out_dir);
    if (nrows > 0) {
        if (write_csv(csv, rows, nrows, device, copy_gbs, peak_gbs, &err) != TESS_OK) {
            fprintf(stderr, "tessera bench: %s\n", err.msg);
            status = status ? status : 3;
        } else if (o.plot_dir) {
            if (write_plot(o.plot_dir, rows, nrows, o.porosities.n > 0, &err) != TESS_OK) {
                fprintf(stderr, "tessera bench: %s\n", err.msg);
                status = tess_status_exit_code(err.code);
            }
        } else {
            printf("csv: %s\n", csv);
        }
    }
    free(rows);
    return status;
}
