#include "tess_crc.h"
#include <zlib.h>

uint32_t tess_crc32(uint32_t crc, const void *data, size_t n)
{
    const unsigned char *p = data;
    uLong c = crc;
    while (n) {
        const size_t k = n < (1u << 30) ? n : (1u << 30);
        c = crc32(c, p, (uInt)k);
        p += k;
        n -= k;
    }
    return (uint32_t)c;
}

uint32_t tess_crc32_blocks(uint32_t crc, const uint32_t *block_crc, int64_t n, size_t block)
{
    /* CRC(A B) from CRC(A), CRC(B) and B's length: the operator for a block's length made once. */
    const uLong op = crc32_combine_gen((z_off_t)block);
    uLong c = crc;
    for (int64_t k = 0; k < n; k++)
        c = crc32_combine_op(c, block_crc[k], op);
    return (uint32_t)c;
}
