/* The engine's tile kernel for every lattice and precision, written once for CUDA and HIP (docs/architecture.md,
 * "GPU kernel"). The AB and AA patterns (docs/patterns.md): one thread per node, 64 threads per tile, one or two
 * tiles per block, the storage (t * Q + i) * 64 + local of core/tess_q_step.h. AA is the same kernel with the pull
 * and the store through the conventions of its odd and even steps (TESS_GPU_AA_ODD, TESS_GPU_AA_EVEN).
 *
 * What makes it fast is the tile paper's Algorithm 2: the 3x3x3 tile neighbourhood and the node codes of the
 * tile and its one-node halo (from the tile's own copy of its halo's node types, one coalesced run, made at upload:
 * tess_gpu_halo_place) are copied to shared memory behind the only barrier, so the pull of a bulk or
 * bounce-back node reads no node type from global memory and issues all its loads unconditionally. Boundaries
 * are data: a fluid node without links takes that plain path; a node with curved-wall links (Bouzidi) takes the
 * plain path and then a fix-up over its own link list; a D3Q19 Zou-He plane node takes the plain path and its
 * reconstruction; a non-equilibrium-extrapolation inlet/outlet node, which pulls its neighbour too, is left to a
 * list kernel that calls the core's whole per-node function. No physics is written here: every formula
 * is a core TESS_HD function (tess_q_bounce_back, tess_q_bouzidi or its two halves tess_q_bouzidi_coefs and
 * tess_q_bouzidi_apply, tess_q_collide_model, tess_q_node_step), and each path gives the bits of tess_q_node_step,
 * so CPU and GPU agree bitwise in the reproducible build. */
#ifndef TESS_GPU_TILE_STEP_H
#define TESS_GPU_TILE_STEP_H

#include "tess_gpu_constants.h"
#include "tess_gpu_link_slots.h"
#include <limits.h>
extern "C" {
#include "tess_q_step.h"
}

/* What the kernel reads besides the populations; device pointers. The link arrays are NULL when the tiling has
 * no curved links (every node then has none). */
typedef struct {
    const int32_t *neighbors;   /* 27 per tile */
    const uint8_t *node_type;   /* 64 per tile, local order */
    const uint8_t *halo_type;   /* per tile its halo's node types, halo_bits each (tess_gpu_halo_stride, _place) */
    const tess_link_t *links;   /* the tiling's curved-wall links, sorted by tile and node */
    const tess_gpu_link_slot_t *slots; /* per link: where its rule reads (tess_gpu_link_slots.h) */
    const tess_gpu_link_pack_t *packs; /* the same in 16 bytes (the AB kernel) */
    const int64_t *tile_link;   /* per tile: its first link; ntiles + 1 entries */
    void *link_val;             /* per link: its value this step (R), written and read by the tile's block */
    const int64_t *node_link;   /* per tile node: its first link */
    const uint8_t *node_nlink;  /* per tile node: its number of links */
    const int32_t *corner;      /* 3 per tile: box coordinates of its node (0, 0, 0) (profiled inlets) */
    int64_t step;               /* the step the sweep computes (waveform inlets and outlets, tess_q_grid_t) */
    int32_t ntiles;             /* the sweep updates tiles [k0, ntiles) (a distributed rank: a range of them) */
    int32_t k0;
    int32_t halo_pf;            /* the halo phase prefetches tile k + halo_pf's halo data (0: none; tess_gpu_q_halo_pf) */
    int32_t halo_bits;          /* bits a node type takes in halo_type: 2, 4 or 8 (tess_gpu_halo_bits) */
    int32_t halo_stride;        /* bytes between two tiles' halos in halo_type (tess_gpu_halo_stride) */
    uint32_t wet_mask;          /* bit m set where node type m is wet (tess_gpu_constants_t.wet, types below 32) */
} tess_gpu_q_args_t;

/* A tile's halo of one node (the tile and the nodes around it): HX x HY x HZ places, x fastest, place j at
 * (j % HX - 1, (j / HX) % HY - 1, j / (HX HY) - 1) of the tile (2D: one plane, z = 0). Its node types per tile (0:
 * no tile there) are packed in `bits` bits a place, place j in bits [bits j, bits (j + 1)) of the tile's 32-bit
 * words, and stored stride bytes apart, a multiple of 32 so that each tile's start is sector-aligned. A packed
 * kernel (tess_gpu_halo_packed) reads only this copy of the node types, mostly the node's own among them
 * (tess_gpu_q_own_from_halo); with 2 bits a 6 x 6 x 6 halo is two sectors instead of the seven of a byte a place
 * and the two of the tile's own types (docs/performance-notes.md, "The halo's node types in 2 or 4 bits"). */
static __host__ __device__ __forceinline__ int tess_gpu_halo_places(int ex, int ey, int ez)
{
    return (ex + 2) * (ey + 2) * (ez == 1 ? 1 : ez + 2);
}
static __host__ __device__ __forceinline__ int tess_gpu_halo_stride(int ex, int ey, int ez, int bits)
{
    return ((tess_gpu_halo_places(ex, ey, ez) * bits + 7) / 8 + 31) & ~31;
}
/* Whether the lattice's tile kernel reads the halo packed and the node's own type from it. D2Q9's reads a byte a
 * place and its own type from node_type, as before the packing: packed it measured 4.8% (FP64) and 1.6% (FP32)
 * slower on the H200, with the same registers (docs/performance-notes.md, "The halo's node types in 2 or 4 bits"). */
static __host__ __device__ constexpr bool tess_gpu_halo_packed(int lattice)
{
    return lattice != TESS_LATTICE_D2Q9;
}
/* The fewest bits (2, 4 or 8) that hold every node type up to max_type; 8 where the lattice's kernel reads bytes. */
static __host__ __device__ __forceinline__ int tess_gpu_halo_bits(int lattice, unsigned max_type)
{
    return !tess_gpu_halo_packed(lattice) ? 8 : max_type < 4u ? 2 : max_type < 16u ? 4 : 8;
}
/* The node type at place j of a tile's packed halo hw (B bits a place; B divides 32, so no place straddles). */
template <int B> static __device__ __forceinline__ unsigned tess_gpu_halo_type_at(const uint32_t *hw, int j)
{
    return (hw[(j * B) >> 5] >> ((j * B) & 31)) & ((1u << B) - 1u);
}
/* Places 4n to 4n + 3 of a tile's packed halo hw (B bits a place) into the shared node codes s_code (NH bytes,
 * 4-byte aligned; NH a multiple of 4), one 32-bit store: TESS_GPU_WET for a wet type, else the type (a dry node's
 * material). Four places a thread, so that no thread's decoding lengthens the halo phase: a word a thread (16
 * places of 2 bits) cost D2Q9 6% (FP64) and 11% (FP32) on the H200. BY_PLACE (tess_gpu_q_halo_by_place): places
 * n, n + 64, ... instead, a byte store each. */
template <int B, int NH, bool BY_PLACE>
static __device__ __forceinline__ void tess_gpu_halo_decode(const uint32_t *__restrict__ hw, int n, uint32_t wet_mask,
                                                            uint8_t *s_code)
{
    if (BY_PLACE) {
        for (int j = n; j < NH; j += 64) {
            const unsigned t = tess_gpu_halo_type_at<B>(hw, j);
            const bool wet = (B < 8 || t < 32u) && ((wet_mask >> (t & 31u)) & 1u);
            s_code[j] = wet ? (uint8_t)TESS_GPU_WET : (uint8_t)t;
        }
        return;
    }
    if (n >= NH / 4)
        return;
    const uint32_t w = hw[(4 * B * n) >> 5] >> ((4 * B * n) & 31);
    uint32_t out = 0;
    TESS_UNROLL
    for (int b = 0; b < 4; b++) {
        const unsigned t = (w >> (B * b)) & ((1u << B) - 1u);
        const bool wet = (B < 8 || t < 32u) && ((wet_mask >> (t & 31u)) & 1u);
        out |= (wet ? TESS_GPU_WET : t) << (8 * b);
    }
    *(uint32_t *)(s_code + 4 * n) = out;
}
/* Place j's neighbour slot (0 .. 26, tess_tiling_t.neighbors) and its node's local index in that tile. */
static __host__ __device__ __forceinline__ void tess_gpu_halo_place(int ex, int ey, int ez, int j, int *slot, int *local)
{
    const int hxn = ex + 2, hyn = ey + 2, zo = ez == 1 ? 0 : 1;
    const int hx = j % hxn - 1, hy = (j / hxn) % hyn - 1, hz = j / (hxn * hyn) - zo;
    const int sx = hx < 0 ? -1 : hx >= ex ? 1 : 0, sy = hy < 0 ? -1 : hy >= ey ? 1 : 0, sz = hz < 0 ? -1 : hz >= ez ? 1 : 0;
    *slot = (sx + 1) + 3 * (sy + 1) + 9 * (sz + 1);
    *local = (hx - sx * ex) + ex * ((hy - sy * ey) + ey * (hz - sz * ez));
}

/* A lattice at compile time: the core's per-node functions of one lattice and precision, its tile extent and
 * its direction tables. */
template <typename R, int LATTICE> struct tess_gpu_q;
#define TESS_GPU_Q(R, LATTICE, NAME, Q, EX, EY, EZ, CX, CY, CZ, OPP)                                             \
    template <> struct tess_gpu_q<R, LATTICE> {                                                                   \
        enum { q = Q, ex = EX, ey = EY, ez = EZ };                                                                \
        static __device__ __forceinline__ int cx(int i) { const int t[Q] = CX; return t[i]; }                      \
        static __device__ __forceinline__ int cy(int i) { const int t[Q] = CY; return t[i]; }                      \
        static __device__ __forceinline__ int cz(int i) { const int t[Q] = CZ; return t[i]; }                      \
        static __device__ __forceinline__ int opp(int i) { const int t[Q] = OPP; return t[i]; }                    \
        static __device__ __forceinline__ void node_step(const tess_params_t *p, const tess_q_grid_t *g,           \
                                                         const R *f, int conv, int32_t k, int x, int y, int z,     \
                                                         const tess_link_t *links, int nlinks, R *out)             \
        {                                                                                                          \
            tess_q_node_step_##NAME(p, g, f, conv, k, x, y, z, links, nlinks, out);                                \
        }                                                                                                          \
        static __device__ __forceinline__ void pull(const tess_params_t *p, const tess_q_grid_t *g, const R *f,    \
                                                    int conv, int32_t k, int x, int y, int z,                      \
                                                    const tess_link_t *links, int nlinks, R *out)                  \
        {                                                                                                          \
            tess_q_pull_##NAME(p, g, f, conv, k, x, y, z, links, nlinks, out);                                     \
        }                                                                                                          \
        static __device__ __forceinline__ R slot_value(const tess_params_t *p, const R *f, int conv, int32_t k,    \
                                                       const tess_link_slot_t *s)                                 \
        {                                                                                                          \
            return tess_link_slot_value_##NAME(p, tess_pop_layout_tiles(), f, (const R *)0, conv, k, s);          \
        }                                                                                                          \
        static __device__ __forceinline__ int64_t slot(const tess_params_t *p, const tess_q_grid_t *g, int conv,   \
                                                       int32_t k, int x, int y, int z, int j)                      \
        {                                                                                                          \
            return tess_q_slot_##NAME(g, p, conv, k, x, y, z, j);                                                  \
        }                                                                                                          \
        static __device__ __forceinline__ void collide(const tess_params_t *p, int collision, R *f)               \
        {                                                                                                          \
            tess_q_collide_model_##NAME(p, collision, p->fluid, p->use_force, f);                                  \
        }                                                                                                          \
        static __device__ __forceinline__ R bounce_back(int i, R f_opp, const tess_material_t *wall)              \
        {                                                                                                          \
            return tess_q_bounce_back_##NAME(i, f_opp, wall);                                                      \
        }                                                                                                          \
        static __device__ __forceinline__ R bouzidi(int order, R q_, R fb, R fi, R fb1, R fb2, R fi1, int have1,  \
                                                    int have2, R wall)                                             \
        {                                                                                                          \
            return tess_q_bouzidi_##NAME(order, q_, fb, fi, fb1, fb2, fi1, have1, have2, wall);                    \
        }                                                                                                          \
        static __device__ __forceinline__ int bouzidi_coefs(int order, R q_, int have1, int have2, R c[3])       \
        {                                                                                                          \
            return tess_q_bouzidi_coefs_##NAME(order, q_, have1, have2, c);                                       \
        }                                                                                                          \
        static __device__ __forceinline__ R bouzidi_apply(int form, const R c[3], R fb, R fi, R fb1, R fb2, R fi1, \
                                                          R wall)                                                  \
        {                                                                                                          \
            return tess_q_bouzidi_apply_##NAME(form, c, fb, fi, fb1, fb2, fi1, wall);                             \
        }                                                                                                          \
        static __device__ __forceinline__ void slot_fill(const tess_params_t *p, const tess_q_grid_t *g, int32_t k, \
                                                         const tess_link_t *link, tess_link_slot_t *s)             \
        {                                                                                                          \
            tess_link_slot_fill_##NAME(p, g, k, link, s);                                                          \
        }                                                                                                          \
    }
/* Called once per lattice and precision (the lattice tables are brace lists: they must not pass through a second
 * macro's arguments). */
TESS_GPU_Q(double, TESS_LATTICE_D2Q9, d2q9_f64, 9, 8, 8, 1, TESS_D2Q9_CX, TESS_D2Q9_CY, TESS_D2Q9_CZ, TESS_D2Q9_OPP);
TESS_GPU_Q(float, TESS_LATTICE_D2Q9, d2q9_f32, 9, 8, 8, 1, TESS_D2Q9_CX, TESS_D2Q9_CY, TESS_D2Q9_CZ, TESS_D2Q9_OPP);
TESS_GPU_Q(double, TESS_LATTICE_D3Q13, d3q13_f64, 13, 4, 4, 4, TESS_D3Q13_CX, TESS_D3Q13_CY, TESS_D3Q13_CZ,
           TESS_D3Q13_OPP);
TESS_GPU_Q(float, TESS_LATTICE_D3Q13, d3q13_f32, 13, 4, 4, 4, TESS_D3Q13_CX, TESS_D3Q13_CY, TESS_D3Q13_CZ,
           TESS_D3Q13_OPP);
TESS_GPU_Q(double, TESS_LATTICE_D3Q19, d3q19_f64, 19, 4, 4, 4, TESS_D3Q19_CX, TESS_D3Q19_CY, TESS_D3Q19_CZ,
           TESS_D3Q19_OPP_TABLE);
TESS_GPU_Q(float, TESS_LATTICE_D3Q19, d3q19_f32, 19, 4, 4, 4, TESS_D3Q19_CX, TESS_D3Q19_CY, TESS_D3Q19_CZ,
           TESS_D3Q19_OPP_TABLE);
TESS_GPU_Q(double, TESS_LATTICE_D3Q27, d3q27_f64, 27, 4, 4, 4, TESS_D3Q27_CX, TESS_D3Q27_CY, TESS_D3Q27_CZ,
           TESS_D3Q27_OPP);
TESS_GPU_Q(float, TESS_LATTICE_D3Q27, d3q27_f32, 27, 4, 4, 4, TESS_D3Q27_CX, TESS_D3Q27_CY, TESS_D3Q27_CZ,
           TESS_D3Q27_OPP);
#undef TESS_GPU_Q

/* The Zou-He plane of D3Q19 (core tess_q_zou_he_plane); the other lattices have none (their inlets and outlets
 * are nee, from the list). */
template <typename R, int LATTICE> struct tess_gpu_q_zou_he {
    static __device__ __forceinline__ void apply(const tess_params_t *, const tess_material_t *, int64_t, R *) {}
};
template <> struct tess_gpu_q_zou_he<double, TESS_LATTICE_D3Q19> {
    static __device__ __forceinline__ void apply(const tess_params_t *p, const tess_material_t *m, int64_t step,
                                                 double *f)
    {
        tess_q_zou_he_plane_d3q19_f64(p, m, step, f);
    }
};
template <> struct tess_gpu_q_zou_he<float, TESS_LATTICE_D3Q19> {
    static __device__ __forceinline__ void apply(const tess_params_t *p, const tess_material_t *m, int64_t step,
                                                 float *f)
    {
        tess_q_zou_he_plane_d3q19_f32(p, m, step, f);
    }
};

/* The finite-difference inlet/outlet (method fd) of a node of the list kernel: its strain rate from the state the
 * step starts from (tess_q_fd_strain over src through the step's read convention: AB reads only the previous copy,
 * AA runs the list kernel as a pre-pass before its sweep writes), then the node with the closure
 * (tess_q_node_step_fd), as the CPU engine does. D3Q13 has no fd (tess_q_check_physics). */
template <typename R, int LATTICE> struct tess_gpu_q_fd {
    static __device__ __forceinline__ void step(const tess_params_t *, const tess_q_grid_t *, const R *, int, int32_t,
                                                int, int, int, const tess_link_t *, int, R *)
    {
    }
};
#define TESS_GPU_Q_FD(R, LATTICE, NAME)                                                                           \
    template <> struct tess_gpu_q_fd<R, LATTICE> {                                                                \
        static __device__ __forceinline__ void step(const tess_params_t *p, const tess_q_grid_t *g, const R *f,   \
                                                    int conv, int32_t k, int x, int y, int z,                    \
                                                    const tess_link_t *links, int nlinks, R *out)                \
        {                                                                                                        \
            double S[6];                                                                                         \
            tess_q_fd_strain_##NAME(p, g, f, (const R *)0, conv, k, x, y, z, S);                                 \
            tess_q_node_step_fd_##NAME(p, g, f, conv, k, x, y, z, links, nlinks, S, out);                        \
        }                                                                                                        \
    }
TESS_GPU_Q_FD(double, TESS_LATTICE_D2Q9, d2q9_f64);
TESS_GPU_Q_FD(float, TESS_LATTICE_D2Q9, d2q9_f32);
TESS_GPU_Q_FD(double, TESS_LATTICE_D3Q19, d3q19_f64);
TESS_GPU_Q_FD(float, TESS_LATTICE_D3Q19, d3q19_f32);
TESS_GPU_Q_FD(double, TESS_LATTICE_D3Q27, d3q27_f64);
TESS_GPU_Q_FD(float, TESS_LATTICE_D3Q27, d3q27_f32);
#undef TESS_GPU_Q_FD

/* Whether the plain sweep itself updates a node of this material (tess_gpu_q_open_step the others): fluid nodes,
 * and D3Q19's Zou-He planes, whose reconstruction needs only the node's own pulled populations. */
static __host__ __device__ __forceinline__ bool tess_gpu_q_in_sweep(int lattice, const tess_material_t *m)
{
    return m->kind == TESS_NODE_FLUID || (lattice == TESS_LATTICE_D3Q19 && m->method == TESS_BC_ZOU_HE);
}

/* The collision a kernel is specialised for, per lattice: each lattice's own models, and the one it has for any
 * other (D3Q13 runs its MRT; an unsupported model never reaches a kernel: tess_q_check_physics refuses it). */
template <int LATTICE, int COLL> struct tess_gpu_q_model {
    enum {
        value = COLL == TESS_GPU_MODEL_ANY ? COLL
                : LATTICE == TESS_LATTICE_D3Q13 ? TESS_COLLISION_MRT
                : LATTICE == TESS_LATTICE_D3Q27 && COLL == TESS_COLLISION_MRT ? TESS_COLLISION_LBGK
                                                                               : COLL
    };
};

/* The collision of a kernel: a model fixed at compile time (its kernel then carries only that model's code and
 * registers), or TESS_GPU_MODEL_ANY for p->collision at run time. */
template <typename L, int COLL, typename R>
static __device__ __forceinline__ void tess_gpu_q_collide(const tess_params_t *p, R *f)
{
    L::collide(p, COLL == TESS_GPU_MODEL_ANY ? p->collision : COLL, f);
}

/* The incoming population of curved-wall link l of tile k: tess_q_pull_from's Bouzidi rule with the data its packed
 * slot (tess_gpu_link_pack_t) names, the tile's neighbours nb from shared memory, the loads issued together. Called
 * by the tile's threads, one link each, in the link phase (tess_gpu_q_link_phase). */
template <typename R, int LATTICE>
static __device__ __forceinline__ R tess_gpu_q_link_packed(const R *__restrict__ src, const tess_gpu_link_pack_t pk,
                                                           const int32_t *nb, int32_t k, const tess_gpu_q_args_t &a,
                                                           int64_t l)
{
    typedef tess_gpu_q<R, LATTICE> L;
    enum { Q = L::q };
    const tess_params_t *p = &tess_gpu_c.p;
    const int order = p->wall == TESS_WALL_BOUZIDI_QUADRATIC ? 2 : 1;
    const unsigned i = (unsigned)(pk.bits & 31u), kd = (unsigned)(pk.bits >> 5) & 31u;
    const unsigned node = (unsigned)(pk.bits >> 10) & 63u;
    const unsigned c1 = (unsigned)(pk.bits >> 16) & 0xFFFu, c2 = (unsigned)(pk.bits >> 28) & 0xFFFu;
    const int have1 = (int)(c1 >> 11), have2 = (int)(c2 >> 11);
    const size_t t1 = have1 ? (size_t)nb[(c1 >> 6) & 31u] * Q * 64 + (c1 & 63u) : 0;
    const size_t t2 = have2 ? (size_t)nb[(c2 >> 6) & 31u] * Q * 64 + (c2 & 63u) : 0;
    const R fb = src[((size_t)k * Q + kd) * 64 + node], fi = src[((size_t)k * Q + i) * 64 + node];
    const R fb1 = have1 ? src[t1 + (size_t)kd * 64] : (R)0, fi1 = have1 ? src[t1 + (size_t)i * 64] : (R)0;
    const R fb2 = have2 ? src[t2 + (size_t)kd * 64] : (R)0;
    const R wall = (pk.bits >> 40) & 1u ? (sizeof(R) == 8 ? (R)a.slots[l].wall64 : (R)a.slots[l].wall32) : (R)0;
    return L::bouzidi(order, (R)pk.q, fb, fi, fb1, fb2, fi1, have1, have2, wall);
}

/* FP64's form of the same (V15, docs/performance-notes.md, "Bouzidi on the GPU"): the core's tess_q_bouzidi in its two
 * halves, the coefficients from q by tess_q_bouzidi_coefs (multiplications for q < 1/2, divisions only for q >= 1/2;
 * 32 bytes a link with them precomputed cost what the divisions saved), then only the loads the link's form reads
 * (q < 1/2: fb, fb1, fb2; q >= 1/2: fb, fi, fi1) and tess_q_bouzidi_apply: the bits of tess_q_bouzidi. */
template <typename R, int LATTICE>
static __device__ __forceinline__ R tess_gpu_q_link_coef(const R *__restrict__ src, const tess_gpu_link_pack_t &pk,
                                                         const int32_t *nb, int32_t k, const tess_gpu_q_args_t &a,
                                                         int64_t l)
{
    typedef tess_gpu_q<R, LATTICE> L;
    enum { Q = L::q };
    const uint64_t bits = pk.bits;
    const int order = tess_gpu_c.p.wall == TESS_WALL_BOUZIDI_QUADRATIC ? 2 : 1;
    const unsigned i = (unsigned)(bits & 31u), kd = (unsigned)(bits >> 5) & 31u;
    const unsigned node = (unsigned)(bits >> 10) & 63u;
    const unsigned c1 = (unsigned)(bits >> 16) & 0xFFFu, c2 = (unsigned)(bits >> 28) & 0xFFFu;
    R c[3];
    const int form = L::bouzidi_coefs(order, (R)pk.q, (int)(c1 >> 11), (int)(c2 >> 11), c);
    const bool before = form == TESS_BOUZIDI_BEFORE1 || form == TESS_BOUZIDI_BEFORE2;
    const bool after = form == TESS_BOUZIDI_AFTER1 || form == TESS_BOUZIDI_AFTER2;
    const size_t t1 = (size_t)nb[(c1 >> 6) & 31u] * Q * 64 + (c1 & 63u);
    const size_t t2 = (size_t)nb[(c2 >> 6) & 31u] * Q * 64 + (c2 & 63u);
    const R fb = src[((size_t)k * Q + kd) * 64 + node];
    const R fi = after ? src[((size_t)k * Q + i) * 64 + node] : (R)0;
    const R fb1 = before ? src[t1 + (size_t)kd * 64] : (R)0;
    const R fb2 = form == TESS_BOUZIDI_BEFORE2 ? src[t2 + (size_t)kd * 64] : (R)0;
    const R fi1 = form == TESS_BOUZIDI_AFTER2 ? src[t1 + (size_t)i * 64] : (R)0;
    const R wall = (bits >> 40) & 1u ? (sizeof(R) == 8 ? (R)a.slots[l].wall64 : (R)a.slots[l].wall32) : (R)0;
    return L::bouzidi_apply(form, c, fb, fi, fb1, fb2, fi1, wall);
}

/* Curved-wall link values a tile keeps in shared memory (2 KiB in FP64); a tile with more puts the rest in
 * global memory. */
#define TESS_GPU_TILE_LINKS 256

/* A tile's curved-wall links, between the tile kernel's two barriers (the link phase). AB's tile threads compute
 * them, one link each, after the first barrier (they address through the neighbourhood nb), into shared memory
 * (val; global memory beyond TESS_GPU_TILE_LINKS), with each node's first link and the directions of its links
 * (lfirst, lrank, lapply), which the nodes read behind the second barrier. Spread evenly over the tile's threads
 * rather than over the few nodes with links; from packed slots (16 bytes a link) (docs/performance-notes.md,
 * "Bouzidi on the GPU": V10, V14, V15). A link reads only the previous step's copy, as the pull does, so nothing
 * orders the two: where tess_gpu_q_pull_first says so the node's pull sends its loads out first, and the link
 * phase's dependent loads and its barrier wait while they are in flight (docs/performance-notes.md, "The pull
 * before the link phase"). AA's tile copies the values of tess_gpu_q_link_pass the same way (those beyond
 * TESS_GPU_TILE_LINKS stay where they are): its nodes then find their links as AB's do, one round trip in the link
 * phase instead of three dependent ones per node after the barrier (docs/performance-notes.md, "GPU AA's curved
 * links"). lrange (SRANGE): the tile's link range, loaded before the first barrier. */
template <typename R, int LATTICE, bool CALC, bool SRANGE, bool MASKS>
static __device__ __forceinline__ void tess_gpu_q_link_phase(const R *__restrict__ src, const tess_gpu_q_args_t &a,
                                                             int32_t k, int n, const int32_t *nb, R *val, int *lfirst,
                                                             unsigned *lrank, unsigned *lapply, const int64_t *lrange)
{
    enum { F64 = sizeof(R) == 8 };
    const int64_t l0 = SRANGE ? lrange[0] : a.tile_link[k],
                  l1 = SRANGE ? lrange[1] : a.tile_link[k + 1];
    for (int64_t l = l0 + n; F64 && l < l1; l += 64) {
        const int at = (int)(l - l0);
        const tess_gpu_link_pack_t pk = a.packs[l];
        const uint64_t bits = pk.bits;
        const unsigned dir = (unsigned)(bits & 31u), node = (unsigned)(bits >> 10) & 63u;
        if (CALC) {
            const R v = dir != TESS_GPU_PACK_NONE
                            ? tess_gpu_q_link_coef<R, LATTICE>(src, pk, nb, k, a, l)
                            : (R)0;
            if (at < TESS_GPU_TILE_LINKS)
                val[at] = v;
            else
                ((R *)a.link_val)[l] = v;
        } else if (at < TESS_GPU_TILE_LINKS && dir != TESS_GPU_PACK_NONE) {
            val[at] = ((const R *)a.link_val)[l];
        }
        /* a node's links are consecutive (sorted by tile and node): the same range whatever the order */
        const unsigned kd = (unsigned)(bits >> 5) & 31u;
        if (MASKS) {
            /* the node's first link brings the node's directions; a link that replaces nothing (rare)
             * marks its own */
            if ((bits >> TESS_GPU_PACK_FIRST) & 1u) {
                lfirst[node] = at;
                lrank[node] = (unsigned)(bits >> TESS_GPU_PACK_MASK) << 1;
            }
            if (dir == TESS_GPU_PACK_NONE)
                atomicOr(&lapply[node], 1u << kd);
        } else {
            atomicOr(&lrank[node], 1u << kd);
            if (dir != TESS_GPU_PACK_NONE)
                atomicOr(&lapply[node], 1u << kd);
            atomicMin(&lfirst[node], at);
        }
    }
    for (int64_t l = l0 + n; !F64 && l < l1; l += 64) {
        const int at = (int)(l - l0);
        const tess_gpu_link_pack_t pk = a.packs[l];
        const unsigned dir = (unsigned)(pk.bits & 31u), node = (unsigned)(pk.bits >> 10) & 63u;
        /* AA: the pre-pass's value (beyond TESS_GPU_TILE_LINKS it stays in a.link_val) */
        const R v = CALC && dir != TESS_GPU_PACK_NONE
                        ? tess_gpu_q_link_packed<R, LATTICE>(src, pk, nb, k, a, l)
                        : (R)0;
        if (at < TESS_GPU_TILE_LINKS && (CALC || dir != TESS_GPU_PACK_NONE))
            val[at] = CALC ? v : ((const R *)a.link_val)[l];
        else if (CALC && at >= TESS_GPU_TILE_LINKS)
            ((R *)a.link_val)[l] = v;
        const unsigned kd = (unsigned)(pk.bits >> 5) & 31u;
        atomicOr(&lrank[node], 1u << kd);
        if (dir != TESS_GPU_PACK_NONE)
            atomicOr(&lapply[node], 1u << kd);
        atomicMin(&lfirst[node], at);
    }
}

/* The patterns of the tile kernel: AB (two copies), and AA's odd and even steps on one copy (docs/patterns.md,
 * "AA"): the odd step reads through TESS_Q_CANON and writes through TESS_Q_SWAPPED, the even step the reverse. */
enum { TESS_GPU_AB = 0, TESS_GPU_AA_ODD = 1, TESS_GPU_AA_EVEN = 2 };

/* The conventions (core/tess_q_step.h) a pattern's step reads and writes through. */
static __host__ __device__ __forceinline__ int tess_gpu_read_conv(int pat)
{
    return pat == TESS_GPU_AA_EVEN ? TESS_Q_SWAPPED : TESS_Q_CANON;
}
static __host__ __device__ __forceinline__ int tess_gpu_write_conv(int pat)
{
    return pat == TESS_GPU_AA_ODD ? TESS_Q_SWAPPED : TESS_Q_CANON;
}

static __device__ __forceinline__ tess_q_grid_t tess_gpu_q_grid(const tess_gpu_q_args_t *a, int ex, int ey, int ez)
{
    tess_q_grid_t g;
    g.neighbors = a->neighbors;
    g.node_type = a->node_type;
    g.corner = a->corner;
    g.ex = ex;
    g.ey = ey;
    g.ez = ez;
    g.step = a->step;
    g.pop = tess_pop_layout_tiles(); /* the GPU's populations are tile-major */
    return g;
}

/* The same for lattice L's tile extent. */
template <typename L> static __device__ __forceinline__ tess_q_grid_t tess_gpu_q_grid(const tess_gpu_q_args_t &a)
{
    return tess_gpu_q_grid(&a, L::ex, L::ey, L::ez);
}

/* A listed node (64 tile + local): its tile, local index and coordinates. */
static __device__ __forceinline__ void tess_gpu_q_list_node(int64_t node, int ex, int ey, int32_t *k, int *n, int *x,
                                                            int *y, int *z)
{
    *k = (int32_t)(node >> 6);
    *n = (int)(node & 63);
    *x = *n % ex;
    *y = (*n / ex) % ey;
    *z = *n / (ex * ey);
}

/* One step of the inlet and outlet nodes (the tile kernel leaves them out): one thread per listed node
 * (64 k + local), the core's whole per-node function through global memory, reading src through convention conv;
 * only the pull for the propagation variant (no reconstruction, no collision). The read/write variant copies them
 * in the main kernel. AB (val NULL): after the tile kernel, into dst. AA: a pre-pass before the sweep, since the
 * gather reads other nodes' slots, into val (population i of listed node j at i nopen + j), which
 * tess_gpu_q_open_store writes back after the sweep. */
template <typename R, int LATTICE, int VARIANT>
__global__ void __launch_bounds__(64)
tess_gpu_q_open_step(const R *__restrict__ src, R *__restrict__ dst, const tess_gpu_q_args_t a,
                     const int64_t *__restrict__ open, int32_t nopen, int conv, R *__restrict__ val)
{
    typedef tess_gpu_q<R, LATTICE> L;
    const int32_t j = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (j >= nopen)
        return;
    const int64_t node = open[j];
    int32_t k;
    int n, x, y, z;
    tess_gpu_q_list_node(node, L::ex, L::ey, &k, &n, &x, &y, &z);
    const tess_params_t *p = &tess_gpu_c.p;
    R f[L::q];
    {
        const tess_q_grid_t g = tess_gpu_q_grid(&a, L::ex, L::ey, L::ez);
        const int nl = a.node_nlink ? (int)a.node_nlink[node] : 0;
        const tess_link_t *links = nl ? a.links + a.node_link[node] : a.links;
        const tess_material_t *own = &p->mat[a.node_type[node]];
        if (VARIANT == TESS_KERNEL_FULL && own->method == TESS_BC_FINITE_DIFFERENCE &&
            (own->kind == TESS_NODE_VELOCITY || own->kind == TESS_NODE_PRESSURE))
            tess_gpu_q_fd<R, LATTICE>::step(p, &g, src, conv, k, x, y, z, links, nl, f);
        else if (VARIANT == TESS_KERNEL_FULL)
            L::node_step(p, &g, src, conv, k, x, y, z, links, nl, f);
        else
            L::pull(p, &g, src, conv, k, x, y, z, links, nl, f);
    }
    TESS_UNROLL
    for (int i = 0; i < L::q; i++) {
        if (val)
            val[(size_t)i * nopen + j] = f[i];
        else
            dst[((size_t)k * L::q + i) * 64 + n] = f[i];
    }
}

/* AA, after the sweep: the inlet and outlet nodes' values of the pre-pass into their slots through the step's
 * write convention conv (a node's slots are its own: nothing else reads or writes them in the step). */
template <typename R, int LATTICE>
__global__ void __launch_bounds__(64)
tess_gpu_q_open_store(const R *__restrict__ val, R *__restrict__ f, const tess_gpu_q_args_t a,
                      const int64_t *__restrict__ open, int32_t nopen, int conv)
{
    typedef tess_gpu_q<R, LATTICE> L;
    const int32_t j = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (j >= nopen)
        return;
    int32_t k;
    int n, x, y, z;
    tess_gpu_q_list_node(open[j], L::ex, L::ey, &k, &n, &x, &y, &z);
    const tess_q_grid_t g = tess_gpu_q_grid(&a, L::ex, L::ey, L::ez);
    for (int i = 0; i < L::q; i++)
        f[L::slot(&tess_gpu_c.p, &g, conv, k, x, y, z, i)] = val[(size_t)i * nopen + j];
}

/* AA's curved-wall links: one thread per link, its value through the step's read convention into a.link_val, before
 * the sweep overwrites the slots it reads (a link reads its neighbours' populations, which other blocks update in
 * place). From the link's slot (the core's tess_link_slot_value: tess_q_pull_link's value, bit for bit), which
 * names the five populations' nodes: the loads go out together, where the walk through the grid cost dependent
 * round trips for each neighbour's tile and node type (docs/performance-notes.md, "GPU AA's curved links"). */
template <typename R, int LATTICE>
__global__ void __launch_bounds__(128)
tess_gpu_q_link_pass(const R *__restrict__ f, const tess_gpu_q_args_t a, const int32_t *__restrict__ link_tile,
                     int64_t nlinks, int conv)
{
    typedef tess_gpu_q<R, LATTICE> L;
    const int64_t l = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (l >= nlinks)
        return;
    const tess_gpu_link_slot_t s = a.slots[l];
    if (s.i == TESS_GPU_LINK_NONE)
        return;
    ((R *)a.link_val)[l] = L::slot_value(&tess_gpu_c.p, f, conv, link_tile[l], &s);
}

/* One step. AB (PAT TESS_GPU_AB): src holds the canonical post-collision state (slot i of node y is f*_i(y)), dst
 * receives the next one. AA (TESS_GPU_AA_ODD, TESS_GPU_AA_EVEN): src and dst are the one copy, read and written
 * through the step's conventions; a node reads and writes the same slots, which no other node touches in the step,
 * and every thread issues its loads before its stores, so the in-place update has no race (the restrict
 * qualifiers stay: no thread reads a slot another thread writes). Each thread has one node of local index
 * n = x + ex (y + ey z) of one of the block's tiles (paired, a warp holds a 16-node slab of each of two). Dry
 * nodes are neither read as fluid nor written: every copy starts with the state (as on the CPU). VARIANT:
 * TESS_KERNEL_FULL, or the measurement variants (propagation without collision; read and write
 * only). LINKS: whether the run has curved-wall links (Bouzidi); a kernel without carries none of their code or
 * registers, and the measurement variants pull with halfway walls only. AB computes the link values in the
 * kernel, between the first barrier and a second one; AA's tile reads those of tess_gpu_q_link_pass, which ran
 * before the sweep, at the same place. */

/* How the AA odd step finds its store addresses, by what measured faster on the H100 (docs/performance-notes.md,
 * "GPU AA", the third part): from the downstream nodes' wet bits and the node's few tiles re-read after the
 * collision (D3Q27 FP64 +1.1%, D3Q19 FP32 +5.1%, D3Q27 FP32 the same), else the pull's addresses recomputed from
 * the halo re-read through volatile (D3Q19 FP64, which lost 7.5% with the tiles; D2Q9 and D3Q13, not measured). */
template <typename R, int LATTICE> struct tess_gpu_q_tile_stores {
    enum { value = LATTICE == TESS_LATTICE_D3Q27 || (LATTICE == TESS_LATTICE_D3Q19 && sizeof(R) == 4) };
};

/* A register cap for the tile kernel: MINB blocks of the largest size resident per multiprocessor (CUDA's
 * launch bounds; 0: none). HIP's second bound means something else (waves per execution unit): left out. */
#if defined(TESS_GPU_CUDA)
#define TESS_GPU_BOUNDS(T, MINB) __launch_bounds__(T, MINB)
#else
#define TESS_GPU_BOUNDS(T, MINB) __launch_bounds__(T)
#endif

/* The cap of the LBGK kernel without curved links where it measured faster, as blocks of 64
 * TESS_GPU_MAX_TILES_PER_BLOCK threads per multiprocessor, i.e. at most 65536 / (128 value) registers a thread
 * (docs/performance-notes.md, "GPU AA" (the second part, H100) and "Register caps of the FP32 kernels on the H200"):
 * - D3Q19 FP64 odd step 128 -> 96 (20 bytes of spills); D3Q27 FP64 both steps 154 and 146 -> 128 (since LBGK adds
 *   the Guo term per direction and the odd step stores through its tiles, tess_gpu_q_tile_stores, they need 144
 *   and 126 uncapped); D3Q27 FP32 odd step 128 -> 96 (no spills). H100.
 * - D3Q19 FP32, AB and both AA steps, at 64 (8 blocks) without spills: on the H200, where the own-tile prefetch
 *   (tess_gpu_q_own_prefetch, tess_gpu_q_pair_pf) holds no register, 32 warps a multiprocessor (64 registers)
 *   hide more of the memory wait than 28 (71-72): AB +3.9% on the cavity and +5.0% on the sphere bed at porosity
 *   0.5, AA +3%. (On the H100, before the prefetch, the odd step at 64 spilled 32 bytes: +1.4% on the cavity,
 *   -2.7% on a bed.)
 * - D3Q27 FP32 AB at 72 (7 blocks) without spills: +3.7% on the H200 (at 64 it spills 72 bytes and lost 15%).
 * D3Q27 FP32's even step is not capped: at 72 it spills 80 bytes. Tighter FP64 caps spill and lost 4-31% on the
 * H200; the D3Q19 FP64 odd step relaxed to 128 (no spills, fewer warps) lost 7%. */
template <typename R, int LATTICE, int PAT> struct tess_gpu_q_cap {
    enum {
        value = LATTICE == TESS_LATTICE_D3Q19 && sizeof(R) == 4 ? 8
                : LATTICE == TESS_LATTICE_D3Q27 && sizeof(R) == 4 && PAT == TESS_GPU_AB ? 7
                : PAT == TESS_GPU_AB ? 0
                : LATTICE == TESS_LATTICE_D3Q19 && sizeof(R) == 8 && PAT == TESS_GPU_AA_ODD ? 5
                : LATTICE == TESS_LATTICE_D3Q27 && sizeof(R) == 8 ? 4
                : LATTICE == TESS_LATTICE_D3Q27 && sizeof(R) == 4 && PAT == TESS_GPU_AA_ODD ? 5
                                                                                         : 0
    };
};

/* The same for the regularized kernel without curved links: FP32 AB of D3Q19 and D3Q27 at 64 registers (8 blocks)
 * without spills, from 73 and 80: +11.8% and +5.8% on the H200's cavity ("Register caps of the FP32 kernels on the
 * H200"). D3Q27 FP32's AA odd step at 80 (6 blocks of 128) without spills: the halo's per-tile copy took it from 80
 * to 92 registers and 2.3% ("The halo's node types from a per-tile copy"). AA's other regularized kernels were not
 * measured with a cap. */
template <typename R, int LATTICE, int PAT> struct tess_gpu_q_reg_cap {
    enum {
        value = sizeof(R) == 4 && PAT == TESS_GPU_AB &&
                        (LATTICE == TESS_LATTICE_D3Q19 || LATTICE == TESS_LATTICE_D3Q27)
                    ? 8
                : sizeof(R) == 4 && PAT == TESS_GPU_AA_ODD && LATTICE == TESS_LATTICE_D3Q27 ? 6
                                                                                           : 0
    };
};

/* Whether a packed kernel (tess_gpu_halo_packed) reads the node's own type from the halo too. D3Q19 FP32 AA MRT's
 * odd step does not: with it, it grew from 72 to 94 registers and lost 3.9% on the H200 ("The halo's node types in
 * 2 or 4 bits"). */
template <typename R, int LATTICE, int COLL, int PAT> struct tess_gpu_q_own_from_halo {
    enum {
        value = !(LATTICE == TESS_LATTICE_D3Q19 && sizeof(R) == 4 && COLL == TESS_COLLISION_MRT &&
                  PAT == TESS_GPU_AA_ODD)
    };
};

/* Whether a packed kernel without curved links decodes its halo a place a thread and round (tess_gpu_halo_decode's
 * BY_PLACE) instead of four places a thread: D3Q27 FP64 AB regularized, which with four places grew from 95 to 102
 * registers and lost 0.7-1.0%; a place a thread keeps 95 and measured +1.9% over four places on the H200, where
 * other kernels lost up to 9.4% that way ("The halo's node types in 2 or 4 bits", variant W0). */
template <typename R, int LATTICE, int COLL, int PAT> struct tess_gpu_q_halo_by_place {
    enum {
        value = LATTICE == TESS_LATTICE_D3Q27 && sizeof(R) == 8 && COLL == TESS_COLLISION_REGULARIZED &&
                PAT == TESS_GPU_AB
    };
};

/* The same for the LBGK kernel with curved links: D3Q19 FP32 AB computes its links before the pull since V9
 * (docs/performance-notes.md, "Bouzidi on the GPU"), which took it from 64 to 80 registers; 7 blocks hold it at 72
 * without spills (8: 64 with 44 bytes of spill loads). D3Q19 FP64's AA odd step at 5 blocks of 128 (96 registers,
 * 16 bytes of spills; 124 without): +5.9% and +5.2% on the H200's sphere beds at porosity 0.3 and 0.5 with
 * quadratic links ("GPU AA's curved links"). FP32's AA odd steps at the registers they had before the halo's
 * packing (D3Q19 64, D3Q27 80), which took them to 78 and 90 and D3Q19 4% slower ("The halo's node types in 2 or 4
 * bits"). */
template <typename R, int LATTICE, int PAT> struct tess_gpu_q_links_cap {
    enum {
        value = LATTICE == TESS_LATTICE_D3Q19 && sizeof(R) == 4 && PAT == TESS_GPU_AB        ? 7
                : LATTICE == TESS_LATTICE_D3Q19 && sizeof(R) == 8 && PAT == TESS_GPU_AA_ODD ? 5
                : LATTICE == TESS_LATTICE_D3Q19 && sizeof(R) == 4 && PAT == TESS_GPU_AA_ODD ? 8
                : LATTICE == TESS_LATTICE_D3Q27 && sizeof(R) == 4 && PAT == TESS_GPU_AA_ODD ? 6
                                                                                      : 0
    };
};

/* Whether AA's odd step pairs tiles (PAIR in the kernel): two consecutive tiles a block (x-neighbours in the
 * tiling's z, y, x order wherever both lie in one row of tiles), each warp a z-plane of both, so that the x-shifted
 * row pieces of a direction on both sides of their shared face are loaded and stored by one warp instruction in
 * whole 32-byte sectors. Where it measured faster on the H100 (docs/performance-notes.md, "GPU AA: two x-neighbour
 * tiles per warp"): D3Q19 FP64 +4.0%; D3Q27 FP64 +0.2% (8 bytes of spills at its cap), FP32 -0.8% to -1.6%. */
template <typename R, int LATTICE, int PAT> struct tess_gpu_q_pair {
    enum { value = PAT == TESS_GPU_AA_ODD && LATTICE == TESS_LATTICE_D3Q19 && sizeof(R) == 8 };
};

/* Whether AA's odd step pairs tiles and sends the own tiles' populations towards L2 before the first barrier (PAIR
 * and PF_OWN) in the kernels without curved links (PAIRPF of tess_gpu_q_step, set by tess_gpu_pick_q_full):
 * D3Q27 FP64, whose odd step paired waits on memory at 16 warps an SM with the L2 fabric at 85%, where the
 * prefetches put bytes in flight without registers (docs/performance-notes.md, "GPU AA: PF1 in the paired D3Q27
 * FP64 odd step": LBGK +4.7% on the H100, paired alone +0.2%, PF1 alone -1.4%; regularized +9.3%); D3Q19 FP32
 * (the H200, "AB's own-tile prefetch on the H200": +2.1% on the cavity, +2.0% on the sphere bed at porosity 0.5,
 * with the masked plane index of tess_gpu_q_step; paired alone +1.0% and -3.3%). */
template <typename R, int LATTICE, int PAT> struct tess_gpu_q_pair_pf {
    enum {
        value = PAT == TESS_GPU_AA_ODD && ((LATTICE == TESS_LATTICE_D3Q27 && sizeof(R) == 8) ||
                                           (LATTICE == TESS_LATTICE_D3Q19 && sizeof(R) == 4))
    };
};

/* Tiles a block of the tile kernel sweeps whatever the configuration's tiles_per_block says (0: as it says): two
 * where AA's odd step pairs tiles. */
template <typename R, int LATTICE, int PAT> struct tess_gpu_q_tpb {
    enum { value = tess_gpu_q_pair<R, LATTICE, PAT>::value ? 2 : 0 };
};

/* Whether the tile kernel sends the tile's own Q direction blocks towards L2 before its first barrier (PF1): where it
 * measured faster on the H100 (docs/performance-notes.md, "GPU AA: the populations on their way before the
 * barriers"): the D3Q19 FP32 AA even step, whose pull reads only the own tile (its time -3.5%; the pair +1.6% on
 * the cavity, +2.2% on the sphere bed at porosity 0.5). It lost in every unpaired odd step (the fabric between the
 * L2's two partitions is at 95-97% of its peak there; the prefetches add to it; paired, D3Q27 FP64 gains:
 * tess_gpu_q_pair_pf) and in the FP64 even steps (-0.9% and -1.4%). On the H200 ("AB's own-tile prefetch on the
 * H200"): the FP32 AB sweep of D3Q19 and D3Q27 without curved links (the kernel leaves it out of the link kernels,
 * not measured with it), whose warps wait on memory at 71 registers: D3Q19 +8.6% on the cavity, +7.8% on the sphere
 * bed at porosity 0.5; D3Q27 LBGK +7.3%, regularized +3.0%. FP64 AB lost 6.2% with it (its fabric at 93% already). */
template <typename R, int LATTICE, int PAT> struct tess_gpu_q_own_prefetch {
    enum {
        value = sizeof(R) == 4 &&
                ((PAT == TESS_GPU_AA_EVEN && LATTICE == TESS_LATTICE_D3Q19) ||
                 (PAT == TESS_GPU_AB && (LATTICE == TESS_LATTICE_D3Q19 || LATTICE == TESS_LATTICE_D3Q27)))
    };
};

/* Whether AA's odd step stores without allocating L1 lines (st.global.L1::no_allocate; NA in the kernel) in the
 * kernels without curved links: where it measured faster on the H100 (docs/performance-notes.md, "GPU AA: an x-run
 * sweep for the odd step", call 3): D3Q19 FP64 (paired), LBGK +0.8% in the pair (odd step 2,103 -> 2,069 us, DRAM
 * bytes -1.6%); D3Q19 FP32 -0.3% and D3Q27 FP64 -0.5% (not taken). */
template <typename R, int LATTICE, int PAT> struct tess_gpu_q_store_na {
    enum { value = PAT == TESS_GPU_AA_ODD && LATTICE == TESS_LATTICE_D3Q19 && sizeof(R) == 8 };
};

/* A store of the AA odd step, with NA without allocating an L1 line (CUDA; HIP: a plain store). The same value
 * either way: a cache hint. */
template <bool NA, typename R> static __device__ __forceinline__ void tess_gpu_store(R *p, R v)
{
#if defined(TESS_GPU_CUDA)
    if constexpr (NA && sizeof(R) == 8)
        asm volatile("st.global.L1::no_allocate.f64 [%0], %1;" ::"l"(p), "d"((double)v));
    else if constexpr (NA)
        asm volatile("st.global.L1::no_allocate.f32 [%0], %1;" ::"l"(p), "f"((float)v));
    else
        *p = v;
#else
    *p = v;
#endif
}

/* How many tiles ahead a block's halo phase sends a later tile's neighbourhood and halo node types (the own types
 * among them: these kernels read no other) towards L2 (0: none), so that the halo phase of that tile's block, which
 * starts about three quarters of a block's life later, finds them there instead of in DRAM
 * (docs/performance-notes.md, "The halo phase prefetching a later tile's halo data"). Where it measured faster on
 * the H200, LBGK only (the launcher passes 0 for the other collisions, and for curved links on D3Q27, not
 * measured): D3Q19 FP64 at 1,024 tiles, about 3/4 of the 1,320 tiles resident on 132 multiprocessors at 96
 * registers: AB +3.1%, AA +3.8% on the cavity, the bounce-back beds +1 to +2.3%, quadratic Bouzidi links AB +1.8 to
 * +2.4%, AA +1.0 to +1.4% (512 to 1,024 alike, 1,280 -0.3%); D3Q27 FP64 at 768 (1,056 tiles resident at 126
 * registers): AB +1.1%, AA +0.3%. FP32 lost 0.2-0.3%, regularized D3Q19 +0.5% / -1.1% (AB / AA); at 2,048 tiles
 * part of the lines were evicted before use (DRAM read +3%). */
template <typename R, int LATTICE> struct tess_gpu_q_halo_pf {
    enum {
        value = sizeof(R) != 8 ? 0 : LATTICE == TESS_LATTICE_D3Q19 ? 1024 : LATTICE == TESS_LATTICE_D3Q27 ? 768 : 0
    };
};

/* Whether a kernel with curved links sends the node's pull loads out before its link phase (PULL_FIRST), so that the
 * link phase's dependent loads and its barrier wait while they are in flight, or after the link phase's barrier.
 * By what measured faster on the H200 (docs/performance-notes.md, "The pull before the link phase"): every D3Q19
 * kernel (quadratic Bouzidi AB FP64 +5.9 / +4.7 / +3.1 / +1.6% at porosity 0.3 / 0.5 / 0.7 / 0.9, FP32 +7.2%,
 * regularized +3.9%, MRT +2.3% at porosity 0.3; AA +0.5 to +8.1%); on D3Q27 (porosity 0.5) the AB kernels (LBGK
 * FP64 +1.0%, FP32 +4.2%, regularized FP32 +3.0%) but the regularized FP64 one (-2.0%; after: +1.5%), and of the AA
 * kernels only the regularized FP64 ones (+1.4%; LBGK FP64 -3.5% and FP32 -5.4%, the odd step at 134 and 108
 * registers; regularized FP32 +0.6%, after: +1.3%). D2Q9 and D3Q13 with curved links were not measured: after. */
template <typename R, int LATTICE, int COLL, int PAT> struct tess_gpu_q_pull_first {
    enum {
        value = LATTICE == TESS_LATTICE_D3Q19 ||
                (LATTICE == TESS_LATTICE_D3Q27 &&
                 (PAT == TESS_GPU_AB) != (sizeof(R) == 8 && COLL == TESS_COLLISION_REGULARIZED))
    };
};

/* Prefetch the 32-byte sector at p into L2: the load goes out, no register waits for it. CUDA only (HIP: nothing). */
__device__ __forceinline__ void tess_gpu_prefetch_l2(const void *p)
{
#if defined(TESS_GPU_CUDA)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#else
    (void)p;
#endif
}

/* PAIRPF: pair tiles and prefetch the own tile (tess_gpu_q_pair_pf), besides what tess_gpu_q_pair and
 * tess_gpu_q_own_prefetch say; launched with two tiles a block (tess_gpu_launch_step). */
template <typename R, int LATTICE, int COLL, int VARIANT, bool LINKS, int PAT, int MINB = 0, bool PAIRPF = false>
__global__ void TESS_GPU_BOUNDS(64 * TESS_GPU_MAX_TILES_PER_BLOCK, MINB)
tess_gpu_q_step(const R *__restrict__ src, R *__restrict__ dst, const tess_gpu_q_args_t a)
{
    typedef tess_gpu_q<R, LATTICE> L;
    enum {
        Q = L::q, EX = L::ex, EY = L::ey, EZ = L::ez,
        HX = EX + 2, HY = EY + 2, ZO = EZ == 1 ? 0 : 1, HZ = EZ + 2 * ZO, NH = HX * HY * HZ,
        /* the tile's curved links in the halo phase: AB computes their values there, AA reads those of
         * tess_gpu_q_link_pass (CALC: computed) */
        CALC = LINKS && PAT == TESS_GPU_AB,
        TL = LINKS ? TESS_GPU_MAX_TILES_PER_BLOCK : 1,
        /* FP64 (V14-V15, docs/performance-notes.md, "Bouzidi on the GPU"): only the loads each link's form reads,
         * the tile's link range from shared memory, and (D2Q9 to D3Q19) each node's link directions on its first
         * link's slot, so no shared-memory atomics. FP32 keeps V13's link phase: it lost
         * 3.2% at porosity 0.3 with the range and the directions. */
        F64 = sizeof(R) == 8,
        SRANGE = LINKS && F64,
        MASKS = F64 && Q <= TESS_GPU_PACK_MASK_Q,
        PAIR = (PAIRPF || tess_gpu_q_pair<R, LATTICE, PAT>::value) && EX * EY == 16, /* two tiles a block */
        PF_OWN = (PAIRPF || (tess_gpu_q_own_prefetch<R, LATTICE, PAT>::value && !LINKS)) &&
                 VARIANT == TESS_KERNEL_FULL,
        SECTORS = Q * 64 * (int)sizeof(R) / 32, /* of a tile's populations */
        NA = tess_gpu_q_store_na<R, LATTICE, PAT>::value && !LINKS && VARIANT == TESS_KERNEL_FULL,
        PULL_FIRST = LINKS && tess_gpu_q_pull_first<R, LATTICE, COLL, PAT>::value,
        PACKED = tess_gpu_halo_packed(LATTICE), /* the halo's types in halo_bits bits */
        OWN_HALO = PACKED && tess_gpu_q_own_from_halo<R, LATTICE, COLL, PAT>::value,
        BY_PLACE = !LINKS && tess_gpu_q_halo_by_place<R, LATTICE, COLL, PAT>::value
    };
    __shared__ int32_t s_nb[TESS_GPU_MAX_TILES_PER_BLOCK][27];
    __shared__ __align__(4) uint8_t s_code[TESS_GPU_MAX_TILES_PER_BLOCK][NH];
    /* LINKS: per link of the tile its value, and per node its first link and the directions (link.dir) of its
     * links (s_lrank) and of those that replace a population (s_lapply, not TESS_GPU_PACK_NONE; with MASKS the
     * directions of those that do not), so that a node reads no link array in global memory after the barrier;
     * (SRANGE) the tile's range of links, loaded before the first barrier */
    __shared__ R s_val[TL][LINKS ? TESS_GPU_TILE_LINKS : 1];
    __shared__ int s_lfirst[TL][LINKS ? 64 : 1];
    __shared__ unsigned s_lrank[TL][LINKS ? 64 : 1], s_lapply[TL][LINKS ? 64 : 1];
    __shared__ int64_t s_lrange[TL][SRANGE ? 2 : 1];
    /* Thread n of tile t of the block is node n (one or two tiles: tiles_per_block), or with PAIR (tess_gpu_q_pair)
     * each warp takes one z-plane (16 nodes) of both tiles of the block. Fixed at compile time, so that the
     * compiler recomputes the node from the thread index instead of keeping it across the collision. Either way
     * each node does the same operations: the same bits. The paired plane index masked to the tile's four (the
     * block has 128 threads; the mask tells the compiler n < 64) gave different code that measured faster on the
     * H200 in D3Q19 FP32's odd step (+3.8%) and D3Q27 FP64's (regularized +5.8%, LBGK +0.4%), slower in D3Q19
     * FP64's (-1.3% on the cavity, +2.8% on the bed): not there (docs/performance-notes.md, "AB's own-tile
     * prefetch on the H200"). */
    const unsigned tid = threadIdx.x;
    const int local = PAIR ? (int)((tid >> 4) & 1u) : (int)(tid >> 6);
    const unsigned plane = LATTICE == TESS_LATTICE_D3Q19 && F64 ? tid >> 5 : (tid >> 5) & 3u;
    const int n = PAIR ? (int)((tid & 15u) | (plane << 4)) : (int)(tid & 63u);
    const int32_t k = a.k0 + (int32_t)(blockIdx.x * (blockDim.x >> 6)) + local;
    const bool active = k < a.ntiles;
    const int x = n % EX, y = (n / EX) % EY, z = n / (EX * EY);
    const tess_gpu_constants_t *c = &tess_gpu_c;
    /* The node's type before the barrier, from the tile's packed halo (tess_gpu_halo_stride), whose words the block
     * loads anyway (OWN_HALO), so the tile's own node types are not read; else beside the halo's. */
    const uint32_t *const hw = (const uint32_t *)(a.halo_type + (size_t)a.halo_stride * (active ? k : 0));
    unsigned own_type = 0u;
    if (active && OWN_HALO) {
        const int j = ((z + ZO) * HY + (y + 1)) * HX + (x + 1);
        own_type = a.halo_bits == 2   ? tess_gpu_halo_type_at<2>(hw, j)
                   : a.halo_bits == 4 ? tess_gpu_halo_type_at<4>(hw, j)
                                      : tess_gpu_halo_type_at<8>(hw, j);
    } else if (active) {
        own_type = a.node_type[64 * (size_t)k + n];
    }

    if (VARIANT != TESS_KERNEL_READ_WRITE_ONLY) {
        /* Algorithm 2, lines 1-4: the neighbourhood and the node codes of the tile and its halo. The codes come
         * from the tile's copy of its halo's node types (216 places, 100 in 2D, packed in 2 to 8 bits a place:
         * tess_gpu_halo_stride; one coalesced run) beside the
         * neighbourhood's loads, not through it: gathered from up to 27 tiles' node types behind the neighbourhood
         * and a second barrier, they cost a dependent round trip, a barrier and a quarter of the kernel's
         * instructions (H200: D3Q19 AB FP64 +5.3%, FP32 +10.2%; docs/performance-notes.md, "The halo's node
         * types from a per-tile copy"). */
        if (active && n < 27)
            s_nb[local][n] = a.neighbors[27 * (size_t)k + n];
        /* (PF_OWN) the tile's own Q direction blocks (contiguous) on their way to L2 while the neighbourhood and the
         * node codes are loaded, one 32-byte sector a thread and round (D3Q19 FP32: 152 sectors, 3 rounds; D3Q27
         * FP64: 432, 7); no register waits for them */
        if (PF_OWN && active) {
            const char *base = (const char *)(src + (size_t)k * Q * 64);
            TESS_UNROLL
            for (int s = n; s < SECTORS; s += 64)
                tess_gpu_prefetch_l2(base + 32 * (size_t)s);
        }
        /* (SRANGE) the tile's link range beside the neighbourhood, so that the link phase starts from shared
         * memory (one dependent round trip less; in registers it cost V11 1.6%), and threads 27 to 63 each send
         * one 32-byte sector of the tile's packed link records (two links; the first 74) towards L2 while the
         * neighbourhood's loads are in flight: the link phase's first load then hits L2 instead of DRAM, with no
         * register held across the barrier (V16, docs/performance-notes.md, "Bouzidi on the GPU": +1.4% at
         * porosity 0.3) */
        if (SRANGE && active && n >= 27) {
            const int64_t l0 = a.tile_link[k], l1 = a.tile_link[k + 1];
            if (n < 29)
                s_lrange[local][n - 27] = n == 27 ? l0 : l1;
            const uintptr_t at = ((uintptr_t)(a.packs + l0) & ~(uintptr_t)31) + 32 * (uintptr_t)(n - 27);
            if (at < (uintptr_t)(a.packs + l1))
                tess_gpu_prefetch_l2((const void *)at);
        }
        if (LINKS) {
            if (!MASKS)
                s_lfirst[local][n] = INT_MAX;
            s_lrank[local][n] = 0u;
            s_lapply[local][n] = 0u;
        }
        /* the neighbourhood and halo node types of tile k + halo_pf towards L2, one sector a thread (6 to 11
         * sectors; tess_gpu_q_halo_pf) */
        if (a.halo_pf > 0 && active && k + a.halo_pf < a.ntiles && n < 12) {
            const int32_t kf = k + a.halo_pf;
            const char *at;
            const char *end;
            int j;
            if (n < 5) {
                at = (const char *)(a.neighbors + 27 * (size_t)kf);
                end = at + 27 * sizeof(int32_t);
                j = n;
            } else {
                at = (const char *)(a.halo_type + (size_t)a.halo_stride * kf);
                end = at + a.halo_stride;
                j = n - 5;
            }
            const char *s = (const char *)((uintptr_t)at & ~(uintptr_t)31) + 32 * j;
            if (s < end)
                tess_gpu_prefetch_l2(s);
        }
        /* the codes of the tile and its halo, four places of the packed copy a thread */
        if (active && PACKED) {
            if (a.halo_bits == 2)
                tess_gpu_halo_decode<2, NH, BY_PLACE>(hw, n, a.wet_mask, s_code[local]);
            else if (a.halo_bits == 4)
                tess_gpu_halo_decode<4, NH, BY_PLACE>(hw, n, a.wet_mask, s_code[local]);
            else
                tess_gpu_halo_decode<8, NH, BY_PLACE>(hw, n, a.wet_mask, s_code[local]);
        } else if (active) {
            for (int j = n; j < NH; j += 64) {
                const unsigned type = a.halo_type[(size_t)a.halo_stride * k + j];
                s_code[local][j] = c->wet[type] ? (uint8_t)TESS_GPU_WET : (uint8_t)type;
            }
        }
        __syncthreads();
    }
    /* Dry nodes leave at once (nothing reads them as fluid), and so do inlet and outlet nodes, which are not swept
     * here (tess_gpu_q_open_step, over the list of such nodes); with curved links only after the link phase's
     * barrier. */
    const tess_params_t *p = &c->p;
    const bool wet = active && c->wet[own_type];
    const bool sweep =
        wet && (VARIANT == TESS_KERNEL_READ_WRITE_ONLY || tess_gpu_q_in_sweep(LATTICE, &p->mat[own_type]));
    if (!LINKS && !sweep)
        return;
    /* the tile's curved-wall links before the pull (tess_gpu_q_link_phase), where PULL_FIRST does not hold */
    if (LINKS && !PULL_FIRST) {
        if (active)
            tess_gpu_q_link_phase<R, LATTICE, CALC, SRANGE, MASKS>(src, a, k, n, s_nb[local], s_val[local],
                                                                   s_lfirst[local], s_lrank[local], s_lapply[local],
                                                                   s_lrange[local]);
        __syncthreads();
        if (!sweep)
            return;
    }
    R f[Q];
    unsigned wet_down = 0; /* AA odd step: bit j set where the downstream node x + c_j is wet */
    const bool own_load = sizeof(R) == 8 || PAT == TESS_GPU_AA_EVEN;
    if (VARIANT == TESS_KERNEL_READ_WRITE_ONLY) {
        TESS_UNROLL
        for (int i = 0; i < Q; i++)
            f[i] = src[((size_t)k * Q + i) * 64 + n];
    } else if (sweep) {
        /* The plain pull. Every load is issued unconditionally, so all Q are in flight together. Where the
         * upstream node is dry, FP64 loads the node's own f*_opp(i), which bounce-back then turns into f_i (one
         * load per link); FP32 loads a dummy value of the own tile at the same offset and f*_opp(i) afterwards:
         * the own-load's index arithmetic cost FP32 more than the saved load (tuned D3Q19 kernel, measured on
         * the H100; docs/performance-notes.md). The AA even step finds every incoming population in the node's
         * own slot opp(i), f*_opp(i) where the upstream node is dry (TESS_Q_SWAPPED): one load per direction. */
        {
            TESS_UNROLL
            for (int i = 0; i < Q; i++) {
                const int ux = x - L::cx(i), uy = y - L::cy(i), uz = z - L::cz(i);
                const unsigned code = s_code[local][(uz + ZO) * HX * HY + (uy + 1) * HX + (ux + 1)];
                /* the upstream node's neighbour slot and local index: EX, EY, EZ are powers of two */
                const int slot = ((ux + EX) / EX) + 3 * ((uy + EY) / EY) + 9 * ((uz + EZ) / EZ);
                const int ul = (ux & (EX - 1)) + EX * ((uy & (EY - 1)) + EY * (uz & (EZ - 1)));
                size_t at;
                if (PAT == TESS_GPU_AA_ODD && code == TESS_GPU_WET)
                    wet_down |= 1u << L::opp(i);
                if (PAT == TESS_GPU_AA_EVEN)
                    at = ((size_t)k * Q + L::opp(i)) * 64 + n;
                else if (own_load && code != TESS_GPU_WET)
                    at = ((size_t)k * Q + L::opp(i)) * 64 + n;
                else
                    at = ((size_t)(code == TESS_GPU_WET ? s_nb[local][slot] : k) * Q + i) * 64 + ul;
                f[i] = src[at];
            }
        }
    }
    /* (PULL_FIRST) the tile's curved-wall links after the pull has sent its loads out (tess_gpu_q_link_phase) */
    if (LINKS && PULL_FIRST) {
        if (active)
            tess_gpu_q_link_phase<R, LATTICE, CALC, SRANGE, MASKS>(src, a, k, n, s_nb[local], s_val[local],
                                                                   s_lfirst[local], s_lrank[local], s_lapply[local],
                                                                   s_lrange[local]);
        __syncthreads();
    }
    if (LINKS && !sweep)
        return;
    if (VARIANT != TESS_KERNEL_READ_WRITE_ONLY) {
        TESS_UNROLL
        for (int i = 0; i < Q; i++) {
            const int ux = x - L::cx(i), uy = y - L::cy(i), uz = z - L::cz(i);
            const unsigned code = s_code[local][(uz + ZO) * HX * HY + (uy + 1) * HX + (ux + 1)];
            if (code != TESS_GPU_WET) {
                const R f_opp = own_load ? f[i] : src[((size_t)k * Q + L::opp(i)) * 64 + n];
                f[i] = L::bounce_back(i, f_opp, &p->mat[code]);
            }
        }
        /* Curved-wall links: the values the tile's threads computed replace the bounce-back of those links
         * (tess_q_pull_from's rule). A node has at most one link a direction, in increasing link.dir
         * (tess_links_build), so the value of direction j is its link opp(j)'s rank among the node's links after
         * its first: a test of a bit per direction, where a loop over the node's links with a select per
         * direction (f stays in registers only if indexed by constants) cost 19% more instructions at porosity
         * 0.3 (docs/performance-notes.md, "Bouzidi on the GPU", V13). TESS_GPU_PACK_NONE or TESS_GPU_LINK_NONE:
         * no change, the upstream node is wet. AA reads the values of tess_gpu_q_link_pass. */
        if (LINKS) {
            const unsigned apply = MASKS ? s_lrank[local][n] & ~s_lapply[local][n] : s_lapply[local][n];
            if (apply) {
                const unsigned rank = s_lrank[local][n];
                const int first = s_lfirst[local][n];
                TESS_UNROLL
                for (int j = 1; j < Q; j++) {
                    const int d = L::opp(j);
                    if ((apply >> d) & 1u) {
                        const int at = first + __popc(rank & ((1u << d) - 1u));
                        f[j] = at < TESS_GPU_TILE_LINKS ? s_val[local][at]
                                                        : ((const R *)a.link_val)[(SRANGE ? s_lrange[local][0] : a.tile_link[k]) + at];
                    }
                }
            }
        }
        if (VARIANT == TESS_KERNEL_FULL) {
            const tess_material_t *own = &p->mat[own_type];
            if (own->kind != TESS_NODE_FLUID) /* a Zou-He plane node */
                tess_gpu_q_zou_he<R, LATTICE>::apply(p, own, a.step, f);
            tess_gpu_q_collide<L, COLL>(p, f);
        }
    }
    if (PAT == TESS_GPU_AA_ODD && VARIANT != TESS_KERNEL_READ_WRITE_ONLY &&
        tess_gpu_q_tile_stores<R, LATTICE>::value) {
        /* TESS_Q_SWAPPED: f*_i into slot opp(i) of the downstream node x + c_i when it is wet, else into slot i.
         * The store address of i is the pull's address of opp(i), but keeping the pull's Q addresses (or the
         * halo's Q node codes and neighbour ids) alive across the collision costs registers and spills. What the
         * stores need is small: whether each downstream node is wet (one bit each, from the pull's codes) and the
         * at most eight tiles the node's stores reach (its own and those across the faces it touches), read from
         * shared memory again after the collision through volatile, so that they are not kept from the pull.
         * ptxas, sm_90: D3Q27 FP64 128 registers without spills at its cap of 128 (the kept addresses: 88 bytes
         * of spill stores), D3Q19 FP32 72 without spills (the re-read: 4 bytes). */
        const volatile int32_t *vnb = s_nb[local];
        const int bx = x == 0 ? -1 : x == EX - 1 ? 1 : 0, by = y == 0 ? -1 : y == EY - 1 ? 1 : 0,
                  bz = EZ == 1 ? 0 : z == 0 ? -1 : z == EZ - 1 ? 1 : 0;
        const int32_t t100 = vnb[13 + bx], t010 = vnb[13 + 3 * by], t110 = vnb[13 + bx + 3 * by],
                      t001 = vnb[13 + 9 * bz], t101 = vnb[13 + bx + 9 * bz], t011 = vnb[13 + 3 * by + 9 * bz],
                      t111 = vnb[13 + bx + 3 * by + 9 * bz];
        TESS_UNROLL
        for (int i = 0; i < Q; i++) {
            const int cx = L::cx(i), cy = L::cy(i), cz = L::cz(i);
            /* whether x + c_i leaves the tile across the x, y, z face */
            const bool wx = cx != 0 && cx == bx, wy = cy != 0 && cy == by, wz = cz != 0 && cz == bz;
            const int32_t t = wz ? (wy ? (wx ? t111 : t011) : (wx ? t101 : t001))
                                 : (wy ? (wx ? t110 : t010) : (wx ? t100 : k));
            const int dx = x + cx, dy = y + cy, dz = z + cz;
            const int dl = (dx & (EX - 1)) + EX * ((dy & (EY - 1)) + EY * (dz & (EZ - 1)));
            const size_t at = (wet_down >> i) & 1u ? ((size_t)t * Q + L::opp(i)) * 64 + dl
                                                   : ((size_t)k * Q + i) * 64 + n;
            tess_gpu_store<NA>(dst + at, f[i]);
        }
        return;
    }
    if (PAT == TESS_GPU_AA_ODD && VARIANT != TESS_KERNEL_READ_WRITE_ONLY) {
        /* The store address of i is the pull's address of opp(i), from the neighbourhood read again through
         * volatile after a compiler barrier, so that the compiler recomputes it instead of keeping the pull's Q
         * addresses alive across the collision. */
        asm volatile("" ::: "memory");
        const volatile int32_t *nb = s_nb[local];
        const volatile uint8_t *codes = s_code[local];
        TESS_UNROLL
        for (int i = 0; i < Q; i++) {
            const int dx = x + L::cx(i), dy = y + L::cy(i), dz = z + L::cz(i);
            const unsigned code = codes[(dz + ZO) * HX * HY + (dy + 1) * HX + (dx + 1)];
            const int slot = ((dx + EX) / EX) + 3 * ((dy + EY) / EY) + 9 * ((dz + EZ) / EZ);
            const int dl = (dx & (EX - 1)) + EX * ((dy & (EY - 1)) + EY * (dz & (EZ - 1)));
            const size_t at = code == TESS_GPU_WET ? ((size_t)nb[slot] * Q + L::opp(i)) * 64 + dl
                                                   : ((size_t)k * Q + i) * 64 + n;
            tess_gpu_store<NA>(dst + at, f[i]);
        }
        return;
    }
    R *out = dst + (size_t)k * Q * 64;
    TESS_UNROLL
    for (int i = 0; i < Q; i++)
        out[i * 64 + n] = f[i];
}

#endif
