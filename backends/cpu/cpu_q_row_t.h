/* One row of a tile (EX nodes at one y, z: 4 values, 8 for D2Q9) as one SIMD vector, for the row pulls and stores
 * of the engine's tile sweep (cpu_q_step_t.h). Included inside the lattice x precision template after CPU_Q_EX is
 * defined. Written with the GCC/clang vector extension (portable over SSE, AVX2 and AVX-512 and under clang, the
 * fuzz build), plus AVX-512 masked stores where the target has them. These only move values: no arithmetic, so
 * the bits are those of the scalar moves.
 *
 * A pull along x reads the upstream row shifted by c_x: for c_x > 0 node x takes x - 1, i.e. b[EX - 1] (the -x
 * neighbour tile's row) then a[0 .. EX - 2]; for c_x < 0, a[1 .. EX - 1] then b[0]. One shuffle of the two
 * aligned row loads replaces EX scalar moves. The store of the AA odd step writes the same locations back
 * (each node owns exactly the locations it read), so it must not touch a[EX - 1] (c_x > 0) or a[0] (c_x < 0),
 * which belong to nodes of another tile, maybe another thread's: a masked store, never a read-modify-write. */

typedef R TESS_QFN(cpu_q_row) __attribute__((vector_size(CPU_Q_EX * sizeof(R))));

/* The row that node x pulls, into v (EX values): a shifted by c_x with the end value from b. Rows pass by
 * pointer, never by value: a 64-byte vector argument has no AVX2 calling convention (gcc's -Wpsabi). */
static inline void TESS_QFN(cpu_q_row_pull)(R *v, const R *a, const R *b, int cx)
{
    TESS_QFN(cpu_q_row) va, vb, r;
    memcpy(&va, a, sizeof va);
    if (cx == 0) {
        memcpy(v, &va, sizeof va);
        return;
    }
    memcpy(&vb, b, sizeof vb);
#if CPU_Q_EX == 4
    if (cx > 0)
        r = __builtin_shufflevector(vb, va, 3, 4, 5, 6);
    else
        r = __builtin_shufflevector(va, vb, 1, 2, 3, 4);
#else
    if (cx > 0)
        r = __builtin_shufflevector(vb, va, 7, 8, 9, 10, 11, 12, 13, 14);
    else
        r = __builtin_shufflevector(va, vb, 1, 2, 3, 4, 5, 6, 7, 8);
#endif
    memcpy(v, &r, sizeof r);
}

/* Masked row stores by precision and row length, defined once (the template is included per lattice and
 * precision): the lanes of v whose bit is set in mask go to p, the others are not touched. */
#ifndef CPU_Q_ROW_MASKED_STORES
#define CPU_Q_ROW_MASKED_STORES
#if defined(__AVX512F__) && defined(__AVX512VL__)
#include <immintrin.h>
#define CPU_Q_MSTORE(name, T, N, intrin, vt)                                                                       \
    typedef T name##_v __attribute__((vector_size(N * sizeof(T))));                                              \
    static inline void name(T *p, const name##_v *v, unsigned mask)                                                \
    {                                                                                                              \
        intrin((void *)p, (__mmask8)mask, (vt)*v);                                                                 \
    }
CPU_Q_MSTORE(cpu_q_mstore_f64_4, double, 4, _mm256_mask_storeu_pd, __m256d)
CPU_Q_MSTORE(cpu_q_mstore_f32_4, float, 4, _mm_mask_storeu_ps, __m128)
CPU_Q_MSTORE(cpu_q_mstore_f64_8, double, 8, _mm512_mask_storeu_pd, __m512d)
CPU_Q_MSTORE(cpu_q_mstore_f32_8, float, 8, _mm256_mask_storeu_ps, __m256)
#undef CPU_Q_MSTORE
#define CPU_Q_HAVE_MSTORE 1
#else
#define CPU_Q_HAVE_MSTORE 0
#endif
#endif
#if CPU_Q_HAVE_MSTORE
#define CPU_Q_MSTORE_FN TESS_QCAT3(cpu_q_mstore, TESS_QP, CPU_Q_EX)
#endif

static inline void TESS_QFN(cpu_q_row_store_mask)(R *p, const TESS_QFN(cpu_q_row) *r, unsigned mask)
{
    const unsigned full = (1u << CPU_Q_EX) - 1;
    if (mask == full) {
        memcpy(p, r, sizeof *r);
        return;
    }
#if CPU_Q_HAVE_MSTORE
    CPU_Q_MSTORE_FN(p, r, mask);
#else
    R t[CPU_Q_EX];
    memcpy(t, r, sizeof t);
    for (int l = 0; l < CPU_Q_EX; l++)
        if (mask >> l & 1u)
            p[l] = t[l];
#endif
}
#undef CPU_Q_MSTORE_FN

/* The inverse of cpu_q_row_pull: the value of node x goes back where node x read it, for the nodes whose bit is
 * set in wet (bit x: node x of the row). */
static inline void TESS_QFN(cpu_q_row_push)(R *a, R *b, int cx, const R *vp, unsigned wet)
{
    const unsigned full = (1u << CPU_Q_EX) - 1;
    TESS_QFN(cpu_q_row) v;
    memcpy(&v, vp, sizeof v);
    if (cx == 0) {
        TESS_QFN(cpu_q_row_store_mask)(a, &v, wet);
        return;
    }
    if (cx > 0) { /* node x wrote to a[x - 1], node 0 to b[EX - 1] */
#if CPU_Q_EX == 4
        const TESS_QFN(cpu_q_row) r = __builtin_shufflevector(v, v, 1, 2, 3, 0);
#else
        const TESS_QFN(cpu_q_row) r = __builtin_shufflevector(v, v, 1, 2, 3, 4, 5, 6, 7, 0);
#endif
        TESS_QFN(cpu_q_row_store_mask)(a, &r, (wet >> 1) & (full >> 1));
        TESS_QFN(cpu_q_row_store_mask)(b, &r, (wet & 1u) << (CPU_Q_EX - 1));
        return;
    }
    /* node x wrote to a[x + 1], node EX - 1 to b[0] */
#if CPU_Q_EX == 4
    const TESS_QFN(cpu_q_row) r = __builtin_shufflevector(v, v, 3, 0, 1, 2);
#else
    const TESS_QFN(cpu_q_row) r = __builtin_shufflevector(v, v, 7, 0, 1, 2, 3, 4, 5, 6);
#endif
    TESS_QFN(cpu_q_row_store_mask)(a, &r, (wet << 1) & full & ~1u);
    TESS_QFN(cpu_q_row_store_mask)(b, &r, (wet >> (CPU_Q_EX - 1)) & 1u);
}
