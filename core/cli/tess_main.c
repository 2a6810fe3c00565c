/* `tessera <command> ...`: dispatch only; each command lives in its own cmd_*.c. */
#include "tess_cli.h"
#include "cpu_dist.h"
#include "tess_dist_engines.h"
#include "tess_mpi.h"
#include "tess_signal.h"
#include "tess_sim_dist.h"
#include "tess_vti_pieces.h"
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
               "  info         version, lattices, collisions, patterns, backends, CPU topology, MPI\n"
               "  partition CASE.ini --ranks N[,N...] [--per-rank] [--set section.key=value]...\n"
               "               the case's tiles among N MPI ranks: imbalance and halo volume (docs/mpi.md)\n"
               "  bench ...    performance measurements\n"
               "  validate ... physics validation against analytic and published data (--quick: the CI subset)\n"
               "  --version    the version\n");
}

/* Under a launcher with several processes: `run` and `bench` are distributed (rank 0 runs the command, the other
 * ranks serve its engine: backends/cpu/cpu_dist.h); `validate` is not, and a build without MPI cannot be:
 * rank 0 says so, every rank exits 2 (otherwise each would compute the whole case and write the same files). */
static int refuse_distributed(const char *cmd)
{
    const int n = tess_mpi_started() ? tess_mpi_size() : tess_mpi_launch_size();
    if (tess_mpi_rank() == 0)
        fprintf(stderr, "tessera %s: %d MPI processes, but %s: run one process (mpirun -np 1, or no launcher); "
                "docs/mpi.md\n", cmd, n,
                tess_mpi_built() ? "this command does not run distributed" : "this tessera was built without MPI");
    return 2;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    const int several = (tess_mpi_started() ? tess_mpi_size() : tess_mpi_launch_size()) > 1;
    const int computes = strcmp(cmd, "run") == 0 || strcmp(cmd, "bench") == 0;
    if (several && (strcmp(cmd, "validate") == 0 || (computes && !tess_mpi_started())))
        return refuse_distributed(cmd);
    if (several && computes && tess_mpi_rank() != 0) {
        /* A signal reaches every rank: the serving ones leave the stop to rank 0's run (docs/reliability.md). */
        tess_signal_install();
        tess_cpu_dist_set_service(tess_vti_pieces_serve); /* the field outputs' pieces (docs/outputs.md) */
        return tess_cpu_dist_serve();
    }
    /* The reports (info, partition) come once, from rank 0. */
    if (tess_mpi_rank() != 0 && (strcmp(cmd, "info") == 0 || strcmp(cmd, "partition") == 0))
        return 0;
    if (strcmp(cmd, "run") == 0)
        return tess_cmd_run(argc - 1, argv + 1);
    if (strcmp(cmd, "info") == 0)
        return tess_cmd_info(argc - 1, argv + 1);
    if (strcmp(cmd, "bench") == 0)
        return tess_cmd_bench(argc - 1, argv + 1);
    if (strcmp(cmd, "validate") == 0)
        return tess_cmd_validate(argc - 1, argv + 1);
    if (strcmp(cmd, "partition") == 0)
        return tess_cmd_partition(argc - 1, argv + 1);
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        printf("tessera %s\n", TESS_VERSION);
        return 0;
    }
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "tessera: unknown command '%s': expected run, info, partition, bench or validate\n", cmd);
    return 2;
}

int main(int argc, char **argv)
{
    tess_mpi_init(&argc, &argv);
    tess_dist_engines_register();
    tess_sim_dist_register(); /* what every rank computes from its own tiles (docs/mpi.md) */
    const int code = dispatch(argc, argv);
    tess_cpu_dist_release(code);
    tess_mpi_finalize();
    return code;
}
