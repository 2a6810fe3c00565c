/* The `tessera` command's subcommands. Each takes the arguments after its name (argv[0] is the
 * subcommand) and returns the process exit status (tess_status_exit_code of what went wrong). */
#ifndef TESS_CLI_H
#define TESS_CLI_H

#include "tess_backend.h"
#include "tess_error.h"
#include <stddef.h>

int tess_cmd_run(int argc, char **argv);
int tess_cmd_info(int argc, char **argv);
int tess_cmd_bench(int argc, char **argv); /* core/cli/cmd_bench.c (the lead's) */
int tess_cmd_validate(int argc, char **argv);
int tess_cmd_partition(int argc, char **argv); /* core/cli/cmd_partition.c: docs/mpi.md */

/* Finds a case: a path that exists, else <name>.ini in $TESSERA_CASES, else in the source tree's cases/
 * folder (compiled in). TESS_ERR_INPUT listing the places tried when none exists. */
tess_status tess_case_find(const char *name, char *path, size_t len, tess_error_t *err);

/* Resolves a backend name: "auto" is the first GPU backend of the build whose create succeeds with cfg
 * (a device is present), otherwise cpu. */
const tess_backend_ops_t *tess_backend_choose(const char *name, const tess_backend_config_t *cfg, tess_error_t *err);

#endif
