/* .vti voxel files ([voxels.NAME] file = v.vti): point array "type", 8^3 nodes. */
#include "fuzz_voxels.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_voxel_case("v.vti", "", data, size);
    return 0;
}
