/* The matrix suite (tess_test_matrix.h) on the CPU backend: every pattern, bitwise against the per-node reference
 * (the C code is compiled without contraction), and 1 thread against 2. */
#include "tess_test_matrix.h"

extern const tess_backend_ops_t tess_backend_cpu;

static int cpu_available(const tess_matrix_hooks_t *h, char *why, size_t len)
{
    (void)h, (void)why, (void)len;
    return 1;
}

static int cpu_supports(tess_pattern pattern)
{
    return pattern == TESS_PATTERN_AB || pattern == TESS_PATTERN_AA || pattern == TESS_PATTERN_MR;
}

int main(int argc, char **argv)
{
    const tess_matrix_hooks_t h = {"cpu", &tess_backend_cpu, cpu_available, cpu_supports, 1, 2};
    return tess_matrix_main(&h, argc, argv);
}
