#include "tess_backend.h"
#include <stdio.h>
#include <string.h>

/* Each built backend defines its table; CMake passes TESS_HAVE_<NAME> for those that were built. */
extern const tess_backend_ops_t tess_backend_cpu;
#ifdef TESS_HAVE_CUDA
extern const tess_backend_ops_t tess_backend_cuda;
#endif
#ifdef TESS_HAVE_HIP
extern const tess_backend_ops_t tess_backend_hip;
#endif

static const tess_backend_ops_t *const built[] = {
    &tess_backend_cpu,
#ifdef TESS_HAVE_CUDA
    &tess_backend_cuda,
#endif
#ifdef TESS_HAVE_HIP
    &tess_backend_hip,
#endif
};

const tess_backend_ops_t *const *tess_backend_list(int *count)
{
    *count = (int)(sizeof built / sizeof built[0]);
    return built;
}

const tess_backend_ops_t *tess_backend_find(const char *name, tess_error_t *err)
{
    int n;
    const tess_backend_ops_t *const *list = tess_backend_list(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(list[i]->name, name) == 0)
            return list[i];
    char names[256] = "";
    for (int i = 0; i < n; i++) {
        strncat(names, i ? ", " : "", sizeof names - strlen(names) - 1);
        strncat(names, list[i]->name, sizeof names - strlen(names) - 1);
    }
    tess_fail(err, TESS_ERR_INPUT, "unknown backend '%s': this build has %s", name, names);
    return NULL;
}
