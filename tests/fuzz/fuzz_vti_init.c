/* .vti initial fields ([init] file): the field data of a file in physical units (tessera_units_dx), then the
 * arrays "density" (1 component) and "velocity" (3) of an 8^3 domain, read as tess_sim reads them (the domain's
 * node count bounds the file's). */
#include "tess_fuzz.h"
#include "tess_vti.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = tess_fuzz_file("init.vti", data, size);
    double dx;
    int found;
    tess_error_t ferr;
    tess_fuzz_check(tess_vti_read_field(path, TESS_VTI_UNITS_DX, 512, &dx, &found, &ferr), &ferr, path);
    static const char *const names[2] = {"density", "velocity"};
    for (int a = 0; a < 2; a++) {
        int dims[3];
        double *v = NULL;
        tess_error_t err;
        const tess_status st = tess_vti_read(path, names[a], a ? 3 : 1, 512, dims, &v, NULL, &err);
        tess_fuzz_check(st, &err, path);
        if (st != TESS_OK)
            break;
        free(v);
    }
    return 0;
}
