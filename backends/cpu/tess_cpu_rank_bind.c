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

/* Block j of k of the n cores from s: integer blocks that differ by at most one core, in order. */
static void block(int s, int n, int j, int k, int *first, int *count)
{
    const long lo = (long)j * n / k, hi = (long)(j + 1) * n / k;
    *first = s + (int)lo;
    *count = (int)(hi - lo);
}

int tess_cpu_rank_share(int ncores, const int *domain_cores, int ndomains, int local, int nlocal, int *first,
                        int *count)
{
    if (ncores < 1 || nlocal < 1 || local < 0 || local >= nlocal || nlocal > ncores)
        return 0;
    long sum = 0;
    int ok = domain_cores && ndomains > 1;
    for (int d = 0; ok && d < ndomains; d++) {
        ok = domain_cores[d] >= 1;
        sum += domain_cores[d];
    }
    if (ok && sum == ncores) {
        if (nlocal % ndomains == 0) { /* k ranks in each domain */
            const int k = nlocal / ndomains, d = local / k;
            int s = 0, fits = 1;
            for (int e = 0; e < ndomains; e++)
                fits &= domain_cores[e] >= k;
            for (int e = 0; e < d; e++)
                s += domain_cores[e];
            if (fits) {
                block(s, domain_cores[d], local % k, k, first, count);
                return 1;
            }
        } else if (ndomains % nlocal == 0) { /* m whole domains for each rank */
            const int m = ndomains / nlocal;
            int s = 0, n = 0;
            for (int e = 0; e < local * m; e++)
                s += domain_cores[e];
            for (int e = local * m; e < (local + 1) * m; e++)
                n += domain_cores[e];
            *first = s;
            *count = n;
            return 1;
        }
    }
    block(0, ncores, local, nlocal, first, count);
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
