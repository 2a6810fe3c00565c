/* Non-temporal (streaming) block copy for whole tiles of output: the AB step overwrites every value of the
 * destination tile, so reading the old lines into cache first (write-allocate) is wasted bandwidth. */
#ifndef TESS_CPU_STREAM_H
#define TESS_CPU_STREAM_H

#include <stddef.h>
#include <string.h>
#if defined(__AVX__) || defined(__SSE2__)
#include <immintrin.h>
#endif

/* Copies bytes (a multiple of 64) from src to dst, both 64-byte aligned. Call tess_cpu_stream_fence() before
 * another thread may read dst. */
static inline void tess_cpu_stream_copy(void *dst, const void *src, size_t bytes)
{
#if defined(__AVX__)
    for (size_t b = 0; b < bytes; b += 32)
        _mm256_stream_pd((double *)((char *)dst + b), _mm256_load_pd((const double *)((const char *)src + b)));
#elif defined(__SSE2__)
    for (size_t b = 0; b < bytes; b += 16)
        _mm_stream_pd((double *)((char *)dst + b), _mm_load_pd((const double *)((const char *)src + b)));
#else
    memcpy(dst, src, bytes);
#endif
}

static inline void tess_cpu_stream_fence(void)
{
#if defined(__AVX__) || defined(__SSE2__)
    _mm_sfence();
#endif
}

#endif
