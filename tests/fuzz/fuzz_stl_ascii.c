/* ASCII STL (any text; a file that happens to have a binary STL's exact size is read as binary). */
#include "fuzz_stl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_stl_file(tess_fuzz_file("s.stl", data, size));
    return 0;
}
