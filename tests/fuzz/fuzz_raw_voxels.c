/* Raw voxel files ([voxels.NAME] file = v.raw, dims = 8 8 8): 512 bytes, material indices. */
#include "fuzz_voxels.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_voxel_case("v.raw", "dims = 8 8 8\n", data, size);
    return 0;
}
