/* The GPU engines this build runs distributed (core/tess_dist_engine.h), handed to the distributed driver
 * (backends/cpu/cpu_dist.h) by main() on every rank; CMake passes TESS_HAVE_<NAME> for the backends built. */
#include "cpu_dist.h"
#include "tess_dist_engine.h"
#include "tess_dist_engines.h"

#ifdef TESS_HAVE_CUDA
extern const tess_dist_engine_t tess_dist_engine_cuda;
#endif
#ifdef TESS_HAVE_HIP
extern const tess_dist_engine_t tess_dist_engine_hip;
#endif

void tess_dist_engines_register(void)
{
    static const tess_dist_engine_t *const list[] = {
        &tess_dist_engine_cpu,
#ifdef TESS_HAVE_CUDA
        &tess_dist_engine_cuda,
#endif
#ifdef TESS_HAVE_HIP
        &tess_dist_engine_hip,
#endif
    };
    tess_cpu_dist_engines(list, (int)(sizeof list / sizeof list[0]));
}
