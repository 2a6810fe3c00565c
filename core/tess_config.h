/* Compiler portability for code shared by the host (C11) and the GPU compilers (CUDA, HIP). */
#ifndef TESS_CONFIG_H
#define TESS_CONFIG_H

#if defined(__CUDACC__) || defined(__HIPCC__)
#define TESS_HD __host__ __device__
#define TESS_GPU_COMPILER 1
#else
#define TESS_HD
#endif

/* Physics functions are called per node; they must inline into every backend's loop (the CPU's SIMD loops
 * vectorise only when the whole node update is inlined). */
#if defined(__GNUC__) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define TESS_INLINE static inline __attribute__((always_inline))
#else
#define TESS_INLINE static inline
#endif

#if defined(__CUDACC__) || defined(__HIPCC__)
#define TESS_RESTRICT __restrict__
#else
#define TESS_RESTRICT restrict
#endif

/* Full unrolling of the loops over directions lets the compilers fold the lattice constants. */
#if defined(__CUDACC__) || defined(__HIPCC__)
#define TESS_UNROLL _Pragma("unroll")
#elif defined(__clang__)
#define TESS_UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define TESS_UNROLL _Pragma("GCC unroll 32")
#else
#define TESS_UNROLL
#endif

/* A product rounded on its own, never fused with a later addition into a multiply-add, even in the CUDA fast build
 * (nvcc contracts there): for a product that one kernel keeps in registers and adds to at once while another
 * stores it and adds to the value read back, so that both round alike (tess_mr_coeffs). The C code never
 * contracts (-ffp-contract=off). HIP's __fmul_rn may be a plain product that the compiler can still fuse; HIP
 * keeps such products in memory in every kernel, so its kernels agree. */
#if defined(__CUDA_ARCH__)
#define TESS_MUL_ALONE_f64(a, b) __dmul_rn((a), (b))
#define TESS_MUL_ALONE_f32(a, b) __fmul_rn((a), (b))
#else
#define TESS_MUL_ALONE_f64(a, b) ((a) * (b))
#define TESS_MUL_ALONE_f32(a, b) ((a) * (b))
#endif

#define TESS_VERSION_STRING "0.1.0"

#endif
