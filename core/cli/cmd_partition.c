/* `tessera partition CASE --ranks N[,N...]`: how the case's tiles would be shared among N MPI ranks (docs/mpi.md),
 * so that a distributed run can be planned: the imbalance and the halo volume per rank count. */
#include "tess_case.h"
#include "tess_cli.h"
#include "tess_lattice.h"
#include "tess_partition.h"
#include "tess_tiling.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RANK_COUNTS 32
#define MAX_OVERRIDES 64

static void usage(FILE *f)
{
    fprintf(f, "usage: tessera partition CASE.ini --ranks N[,N...] [--per-rank] [--set section.key=value]...\n"
               "prints, for each rank count, the imbalance (max over mean wet nodes) and the halo volume (docs/mpi.md)\n");
}

static int parse_ranks(const char *s, int *ranks, int *n)
{
    *n = 0;
    while (*s) {
        char *end;
        errno = 0;
        const long v = strtol(s, &end, 10);
        if (end == s || errno || v < 1 || v > 1000000 || (*end && *end != ',') || *n >= MAX_RANK_COUNTS)
            return -1;
        ranks[(*n)++] = (int)v;
        s = *end ? end + 1 : end;
        if (*end && !*s)
            return -1;
    }
    return *n > 0 ? 0 : -1;
}

int tess_cmd_partition(int argc, char **argv)
{
    const char *case_arg = NULL, *overrides[MAX_OVERRIDES];
    int nover = 0, ranks[MAX_RANK_COUNTS], nranks = 0, per_rank = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--per-rank") == 0) {
            per_rank = 1;
            continue;
        }
        if (strcmp(a, "--ranks") == 0 || strncmp(a, "--ranks=", 8) == 0 || strcmp(a, "--set") == 0 ||
            strncmp(a, "--set=", 6) == 0) {
            const int is_set = a[2] == 's';
            const char *eq = strchr(a, '='), *val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
            if (!val) {
                fprintf(stderr, "tessera partition: option %s needs a value\n", a);
                return 2;
            }
            if (is_set) {
                if (nover >= MAX_OVERRIDES) {
                    fprintf(stderr, "tessera partition: too many --set options (at most %d)\n", MAX_OVERRIDES);
                    return 2;
                }
                overrides[nover++] = val;
            } else if (parse_ranks(val, ranks, &nranks) != 0) {
                fprintf(stderr, "tessera partition: --ranks '%s': expected up to %d rank counts from 1 to 1000000, "
                        "separated by commas\n", val, MAX_RANK_COUNTS);
                return 2;
            }
            continue;
        }
        if (a[0] == '-') {
            fprintf(stderr, "tessera partition: unknown option '%s': expected --ranks, --per-rank or --set\n", a);
            return 2;
        }
        if (case_arg) {
            fprintf(stderr, "tessera partition: unexpected argument '%s' (one case file only)\n", a);
            return 2;
        }
        case_arg = a;
    }
    if (!case_arg || !nranks) {
        fprintf(stderr, "tessera partition: %s\n", !case_arg ? "needs a case file" : "needs --ranks N[,N...]");
        usage(stderr);
        return 2;
    }

    tess_error_t err = {0};
    char path[TESS_CASE_PATH_MAX];
    tess_case_t c;
    tess_status st = tess_case_find(case_arg, path, sizeof path, &err);
    if (st == TESS_OK)
        st = tess_case_load(path, overrides, nover, &c, &err);
    if (st != TESS_OK) {
        fprintf(stderr, "tessera: %s\n", err.msg);
        return tess_status_exit_code(st);
    }
    tess_tiling_t t;
    if ((st = tess_tiling_build(&t, &c.geometry, &c.params, &err)) != TESS_OK) {
        tess_case_free(&c);
        fprintf(stderr, "tessera: %s: %s\n", path, err.msg);
        return tess_status_exit_code(st);
    }
    /* Every rank count checked before the first line: a refusal leaves no half-printed table. */
    for (int k = 0; k < nranks; k++)
        if (ranks[k] > t.ntiles) {
            fprintf(stderr, "tessera partition: %s: --ranks %d but the case has %d non-empty tiles: each rank needs at "
                    "least one tile\n", path, ranks[k], (int)t.ntiles);
            tess_tiling_free(&t);
            tess_case_free(&c);
            return 2;
        }
    printf("tessera partition: case %s (%s): %dx%dx%d nodes, %lld wet in %d tiles; %s, recursive coordinate "
           "bisection weighted by wet nodes\n",
           c.name, path, t.nx, t.ny, t.nz, (long long)t.n_wet, (int)t.ntiles,
           tess_lattice_get((tess_lattice_id)t.lattice)->name);
    printf("%6s %10s %17s %15s %22s %24s\n", "ranks", "imbalance", "tiles/rank", "halo tiles max",
           "halo populations max", "halo MB/step (double)");
    int code = 0;
    for (int k = 0; k < nranks && !code; k++) {
        tess_partition_t part;
        if ((st = tess_partition_build(&part, &t, &c.params, NULL, ranks[k], &err)) != TESS_OK) {
            fprintf(stderr, "tessera partition: %s: %s\n", path, err.msg);
            code = tess_status_exit_code(st);
            break;
        }
        int32_t tmin = INT32_MAX, tmax = 0, hmax = 0;
        int64_t pmax = 0, ptot = 0;
        for (int r = 0; r < part.nranks; r++) {
            const int32_t o = tess_partition_owned_count(&part, r), h = tess_partition_halo_count(&part, r);
            tmin = o < tmin ? o : tmin;
            tmax = o > tmax ? o : tmax;
            hmax = h > hmax ? h : hmax;
            pmax = part.halo_pops[r] > pmax ? part.halo_pops[r] : pmax;
            ptot += part.halo_pops[r];
        }
        char tiles[40];
        snprintf(tiles, sizeof tiles, "%d..%d", (int)tmin, (int)tmax);
        /* Every crossing population is sent once and received once each step: 8 bytes in double precision. */
        printf("%6d %10.5f %17s %15d %22lld %24.3f\n", ranks[k], part.imbalance, tiles, (int)hmax, (long long)pmax,
               8.0 * (double)ptot / 1e6);
        if (per_rank)
            for (int r = 0; r < part.nranks; r++)
                printf("  rank %d: %d tiles, %lld wet nodes, %d halo tiles, %lld halo populations\n", r,
                       (int)tess_partition_owned_count(&part, r), (long long)part.rank_weight[r],
                       (int)tess_partition_halo_count(&part, r), (long long)part.halo_pops[r]);
        tess_partition_free(&part);
    }
    tess_tiling_free(&t);
    tess_case_free(&c);
    return code;
}
