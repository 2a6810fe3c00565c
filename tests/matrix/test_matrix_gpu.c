/* The matrix suite (tess_test_matrix.h) on a GPU backend (TESS_TEST_GPU_OPS: tess_backend_cuda or
 * tess_backend_hip): the AB and AA patterns against the per-node reference (which the CPU's AB and AA equal bit
 * for bit) and AA against the GPU's own AB after an even number of steps, bitwise in the reproducible build
 * (TESS_GPU_REPRODUCIBLE: no FMA contraction on either side), within the fast-build tolerance otherwise; MR
 * (backends/gpu/tess_gpu_mr.h) against the reference's AB with the regularized collision within the suite's MR
 * bound. Without a usable device every entry prints SKIPPED (exit 77). */
#include "tess_test_matrix.h"
#include <stdio.h>

#define TM_STR2(x) #x
#define TM_STR(x) TM_STR2(x)

extern const tess_backend_ops_t TESS_TEST_GPU_OPS;

/* A device error from create means no usable device here; any other outcome (a GPU without a kernel image for
 * it included) is for the checks to judge. */
static int gpu_available(const tess_matrix_hooks_t *h, char *why, size_t len)
{
    tess_backend_config_t cfg = {0};
    cfg.pattern = TESS_PATTERN_AB;
    tess_backend_t *be = NULL;
    tess_error_t err = {0};
    const tess_status st = h->ops->create(&cfg, &be, &err);
    if (be)
        h->ops->destroy(be);
    if (st == TESS_ERR_DEVICE) {
        snprintf(why, len, "%s backend unusable here: %s", TM_STR(TESS_TEST_GPU_OPS), err.msg);
        return 0;
    }
    return 1;
}

static int gpu_supports(tess_pattern pattern)
{
    return pattern == TESS_PATTERN_AB || pattern == TESS_PATTERN_AA || pattern == TESS_PATTERN_MR;
}

int main(int argc, char **argv)
{
#ifdef TESS_GPU_REPRODUCIBLE
    const int bitwise = 1;
#else
    const int bitwise = 0;
#endif
    const tess_matrix_hooks_t h = {TESS_MATRIX_GPU_NAME, &TESS_TEST_GPU_OPS, gpu_available, gpu_supports, bitwise, 0};
    return tess_matrix_main(&h, argc, argv);
}
