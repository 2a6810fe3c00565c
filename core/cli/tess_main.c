/* `tessera <command> ...`: dispatch only; each command lives in its own cmd_*.c. */
#include "tess_cli.h"
#include <stdio.h>
#include <string.h>

#ifndef TESS_VERSION
#define TESS_VERSION "unknown"
#endif

static void usage(FILE *f)
{
    fprintf(f, "usage: tessera <command> [options]\n"
               "commands:\n"
               "  run CASE.ini [--backend auto|cpu|cuda|hip] [--precision double|single] [--pattern ab|aa|mr]\n"
               "               [--steps N] [--out DIR] [--overwrite] [--set section.key=value]... [--threads N]\n"
               "               [--quiet] [--checkpoint-every N] [--restart FILE] [--check BACKEND[:PATTERN]\n"
               "               [--check-tol X]]\n"
               "  info         version, lattices, collisions, patterns, backends, CPU topology\n"
               "  bench ...    performance measurements\n"
               "  validate ... physics validation against analytic and published data (--quick: the CI subset)\n"
               "  --version    the version\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "run") == 0)
        return tess_cmd_run(argc - 1, argv + 1);
    if (strcmp(cmd, "info") == 0)
        return tess_cmd_info(argc - 1, argv + 1);
    if (strcmp(cmd, "bench") == 0)
        return tess_cmd_bench(argc - 1, argv + 1);
    if (strcmp(cmd, "validate") == 0)
        return tess_cmd_validate(argc - 1, argv + 1);
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        printf("tessera %s\n", TESS_VERSION);
        return 0;
    }
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "tessera: unknown command '%s': expected run, info, bench or validate\n", cmd);
    return 2;
}
