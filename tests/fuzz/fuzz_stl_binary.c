/* Binary STL: the input's triangle count (bytes 80..83) is set to the number of whole 50-byte records after
 * the header and the rest cut off, so that nearly every input is read as binary and the fuzzer spends its
 * time on the triangles (inputs under 84 bytes go in as they are). */
#include "fuzz_stl.h"
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 84) {
        fuzz_stl_file(tess_fuzz_file("s.stl", data, size));
        return 0;
    }
    const size_t n = (size - 84) / 50, len = 84 + 50 * n;
    unsigned char *b = malloc(len);
    if (!b)
        return 0;
    memcpy(b, data, len);
    const uint32_t n32 = (uint32_t)n;
    for (int k = 0; k < 4; k++)
        b[80 + k] = (unsigned char)(n32 >> (8 * k));
    fuzz_stl_file(tess_fuzz_file("s.stl", b, len));
    free(b);
    return 0;
}
