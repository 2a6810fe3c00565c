#include "tess_cli.h"
#include <string.h>

const tess_backend_ops_t *tess_backend_choose(const char *name, const tess_backend_config_t *cfg, tess_error_t *err)
{
    if (strcmp(name, "auto") != 0)
        return tess_backend_find(name, err);
    int n;
    const tess_backend_ops_t *const *list = tess_backend_list(&n);
    /* A GPU backend is usable when it can be created: its create fails without a device (or for a pattern
     * other than AB). */
    for (int i = 0; i < n; i++) {
        if (strcmp(list[i]->name, "cpu") == 0)
            continue;
        tess_backend_t *be = NULL;
        tess_error_t ignored;
        if (list[i]->create(cfg, &be, &ignored) == TESS_OK) {
            list[i]->destroy(be);
            return list[i];
        }
    }
    return tess_backend_find("cpu", err);
}
