/* The cores of each MPI rank of a node (tess_cpu_rank_bind.h). */
#include "tess_cpu_rank_bind.h"
#include <stdio.h>
#include <stdlib.h>

/* A whole decimal integer >= 0 from the environment variable, or -1. */
static int env_int(const char *name)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return -1;
    char *end;
    const long x = strtol(v, &end, 10);
    return *end == 0 && x >= 0 && x <= 1 << 20 ? (int)x : -1;
}

void tess_cpu_rank_local(int *local, int *nlocal)
{
    static const char *const names[][2] = {{"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"},
                                           {"MPI_LOCALRANKID", "MPI_LOCALNRANKS"}};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const int r = env_int(names[k][0]), n = env_int(names[k][1]);
        if (r >= 0 && n > r) {
            *local = r;
            *nlocal = n;
            return;
        }
    }
    *local = 0;
    *nlocal = 1;
}

int tess_cpu_rank_share(int ncores, int local, int nlocal, int *first, int *count)
{
    if (ncores < 1 || nlocal < 1 || local < 0 || local >= nlocal || nlocal > ncores)
        return 0;
    /* Integer blocks that differ by at most one core, in order: together exactly the cores 0 .. ncores - 1. */
    const long lo = (long)local * ncores / nlocal, hi = (long)(local + 1) * ncores / nlocal;
    *first = (int)lo;
    *count = (int)(hi - lo);
    return 1;
}

static char binding[160] = "not bound yet";

void tess_cpu_rank_binding(char *buf, size_t len)
{
    snprintf(buf, len, "%s", binding);
}

void tess_cpu_rank_binding_set(const char *line)
{
    snprintf(binding, sizeof binding, "%s", line);
}
