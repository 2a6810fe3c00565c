/* Case files (INI): the input is the case file. The domain is overridden to 12x10x8 nodes (--set), so that
 * geometry sections run quickly and a fuzzed nx = 4096 does not make every input a 1e9-node allocation,
 * which the case legitimately needs; everything else in the file is as fuzzed. */
#include "tess_case.h"
#include "tess_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = tess_fuzz_file("case.ini", data, size);
    static const char *const set[] = {"domain.nx=12", "domain.ny=10", "domain.nz=8"};
    tess_case_t c;
    tess_error_t err;
    const tess_status st = tess_case_load(path, set, 3, &c, &err);
    /* Messages name the case file, or a --set option, or the STL/voxel file a section names. */
    tess_fuzz_check(st, &err, NULL);
    if (st == TESS_OK)
        tess_case_free(&c);
    return 0;
}
