/* Restart files: read against the header a 4x4x4 D3Q19 case would expect (1 tile, 19 x 64 values, the
 * precision the input claims). The expected geometry/physics hash is taken from the input itself, so that
 * inputs get past it to the data; a hash mismatch is a plain comparison that the CLI tests cover. */
#include "tess_fuzz.h"
#include "tess_restart.h"
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = tess_fuzz_file("r.tsr", data, size);
    tess_restart_header_t want = {TESS_RESTART_VERSION, 0, 0, 4, 4, 4, 1, 0, 19 * 64};
    if (size >= 16 && data[12] == 1)
        want.precision = 1;
    if (size >= 48)
        memcpy(&want.hash, data + 40, 8);
    static double pops[19 * 64];
    tess_restart_header_t got;
    tess_error_t err;
    tess_fuzz_check(tess_restart_read(path, &want, &got, pops, &err), &err, path);
    return 0;
}
