/* Checked size arithmetic for readers: every count x size that a file's contents decide goes through these,
 * so a crafted header fails with a message instead of wrapping around to a small allocation. */
#ifndef TESS_CHECKED_H
#define TESS_CHECKED_H

#include <stddef.h>

/* *out = a * b; returns 1, or 0 (and *out = SIZE_MAX) when the product does not fit in size_t. */
static inline int tess_mul_size(size_t a, size_t b, size_t *out)
{
    if (__builtin_mul_overflow(a, b, out)) {
        *out = (size_t)-1;
        return 0;
    }
    return 1;
}

/* *out = a + b; returns 1, or 0 (and *out = SIZE_MAX) on overflow. */
static inline int tess_add_size(size_t a, size_t b, size_t *out)
{
    if (__builtin_add_overflow(a, b, out)) {
        *out = (size_t)-1;
        return 0;
    }
    return 1;
}

/* *out = a * b * c; returns 1, or 0 on overflow. */
static inline int tess_mul3_size(size_t a, size_t b, size_t c, size_t *out)
{
    size_t ab;
    return tess_mul_size(a, b, &ab) && tess_mul_size(ab, c, out);
}

#endif
