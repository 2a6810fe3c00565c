/* FNV-1a, 64 bits (Fowler, Noll, Vo): the hash and checksum of Tessera's binary files. Start from
 * TESS_FNV_OFFSET and feed the bytes in order. */
#ifndef TESS_FNV_H
#define TESS_FNV_H

#include <stddef.h>
#include <stdint.h>

#define TESS_FNV_OFFSET 0xcbf29ce484222325ull

static inline uint64_t tess_fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

#endif
