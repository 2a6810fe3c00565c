/* The moment representation (pattern mr) on the GPU, written once for CUDA and HIP (docs/gpu.md, "MR"): the stored
 * moments of the regularized collision (10 per node, 6 for D2Q9; core/tess_q_step_t.h's tess_q_mr_load layout (t *
 * nm + s) * 64 + local) are the only state in device memory; populations live in registers only.
 *
 * One block per group of tiles (one tile, 2x2x1 or 2x2x2). The block gathers the moments of its tiles and of the
 * one-node halo around them (the tile map in shared memory, as the AB kernel does), turns every gathered node's
 * moments into the coefficients of its Hermite expansion once (tess_mr_coeffs, partial sums included) and keeps
 * them in shared memory (TESS_GPU_MR_ROWS of them);
 * each node then rebuilds every incoming population from its upstream node's coefficients
 * (tess_q_hermite_population), bounces back from its own where the upstream node is dry (tess_q_bounce_back, moving
 * walls included), sums the moments (tess_q_hermite_moments), collides in moment space (tess_q_moment_collide, body
 * force included) and writes its moments. Two copies of the moments (ping-pong: the gather reads only the old one,
 * so no block races another), or on the 3D lattices one copy plus a few tile layers (mr_copies; the instances with
 * ONE true), the blocks ordered by tickets and per-layer counters (tess_gpu_mr_order.h).
 *
 * Nodes the plain path cannot update (inlets and outlets of every method but D3Q19's Zou-He planes in the group
 * kernel, nodes with curved-wall links under a Bouzidi rule) are computed again afterwards by a list kernel, one
 * thread each, through the core's whole MR node function (tess_q_node_step_mr_fd, with the fd strain rate from
 * the old moments); it overwrites what the plain path wrote there. No physics is written here: every formula is a
 * core TESS_HD function, applied in the order of the CPU's MR, so the two agree to round-off (bitwise in the
 * reproducible build: test_gpu_mr and test_gpu_mr_parts on the device, ci/gpu-check.sh). */
#ifndef TESS_GPU_MR_H
#define TESS_GPU_MR_H

#include "tess_gpu_mr_order.h"

/* The core's MR functions of one lattice and precision (D2Q9, D3Q19, D3Q27: the lattices with a regularized
 * collision). */
template <typename R, int LATTICE> struct tess_gpu_mr;
#define TESS_GPU_MR(R, LATTICE, NAME, P)                                                                          \
    template <> struct tess_gpu_mr<R, LATTICE> {                                                                  \
        enum { nm = LATTICE == TESS_LATTICE_D2Q9 ? 6 : TESS_MR_NM };                                              \
        static __host__ __device__ __forceinline__ void load(const R *ms, int32_t k, int local, R *m)            \
        {                                                                                                          \
            tess_q_mr_load_##NAME(ms, k, local, m);                                                                \
        }                                                                                                          \
        static __host__ __device__ __forceinline__ void store(R *ms, int32_t k, int local, const R *m)           \
        {                                                                                                          \
            tess_q_mr_store_##NAME(ms, k, local, m);                                                               \
        }                                                                                                          \
        static __host__ __device__ __forceinline__ void coeffs(const R *m, R *h) { tess_mr_coeffs_##P(m, h); }     \
        static __host__ __device__ __forceinline__ void partials(R *h) { tess_mr_partials_##P(h); }                \
        static __host__ __device__ __forceinline__ R population(int i, const R *h)                               \
        {                                                                                                          \
            return tess_q_hermite_population_##NAME(i, h);                                                         \
        }                                                                                                          \
        static __host__ __device__ __forceinline__ void moments(const R *f, R *m)                                \
        {                                                                                                          \
            tess_q_hermite_moments_##NAME(f, m);                                                                   \
        }                                                                                                          \
        static __device__ __forceinline__ void collide(const tess_params_t *p, R *m)                             \
        {                                                                                                          \
            tess_q_moment_collide_##NAME(p, p->fluid, p->use_force, m);                                            \
        }                                                                                                          \
        static __device__ __forceinline__ void node(const tess_params_t *p, const tess_q_grid_t *g, const R *ms,  \
                                                    int32_t k, int x, int y, int z, const tess_link_t *links,     \
                                                    int nlinks, bool fd, R *m)                                    \
        {                                                                                                          \
            double S[6];                                                                                           \
            if (fd)                                                                                                \
                tess_q_fd_strain_##NAME(p, g, (const R *)0, ms, TESS_Q_CANON, k, x, y, z, S);                      \
            tess_q_node_step_mr_fd_##NAME(p, g, ms, k, x, y, z, links, nlinks, fd ? S : (const double *)0, m);     \
        }                                                                                                          \
    }
TESS_GPU_MR(double, TESS_LATTICE_D2Q9, d2q9_f64, f64);
TESS_GPU_MR(float, TESS_LATTICE_D2Q9, d2q9_f32, f32);
TESS_GPU_MR(double, TESS_LATTICE_D3Q19, d3q19_f64, f64);
TESS_GPU_MR(float, TESS_LATTICE_D3Q19, d3q19_f32, f32);
TESS_GPU_MR(double, TESS_LATTICE_D3Q27, d3q27_f64, f64);
TESS_GPU_MR(float, TESS_LATTICE_D3Q27, d3q27_f32, f32);
#undef TESS_GPU_MR

/* The node type and moments of node l2 of a tile map's entry t2: t2 >= 0 a tile of the state src; -1 none (false);
 * with one copy (tess_gpu_mr_order.h), t2 <= -2 the tile k across the periodic z boundary, -2 - (2 k + b) with
 * b = 1 below the group and 0 above it, read from the saved plane where this phase overwrites it first
 * (b == phase; 3D lattices only). */
template <typename R, int LATTICE, bool ONE>
static __device__ __forceinline__ bool tess_gpu_mr_fetch(const R *__restrict__ src, const uint8_t *__restrict__ types,
                                                         const tess_gpu_mr_order_t &o, int32_t t2, int l2,
                                                         unsigned *type, R *m)
{
    int32_t k = t2;
    bool saved = false;
    if (ONE && t2 <= -2) {
        const int32_t v = -2 - t2;
        k = v >> 1;
        saved = (v & 1) == o.phase;
    }
    if (k < 0) {
        *type = 0u;
        return false;
    }
    *type = types[64 * (size_t)k + l2];
    if (ONE && saved) {
        const R *sv = (const R *)o.save + (size_t)(k - o.save_k0) * TESS_MR_NM * 16 + (l2 & 15);
        TESS_UNROLL
        for (int j = 0; j < TESS_MR_NM; j++)
            m[j] = sv[16 * j];
    } else {
        tess_gpu_mr<R, LATTICE>::load(src, k, l2, m);
    }
    return true;
}

/* The coefficient rows the padded kernels (the 2x2x2 group, the column sweep) keep per node: on CUDA 11, the ones
 * tess_q_hermite_population reads (tess_mr_partials: h_xx and h_yy only through the partial sums), so that a pull
 * reads fewer of them (D3Q19 71 a node instead of 91, D3Q27 135 instead of 171); 11 rows keep each kernel's
 * blocks a multiprocessor and its L1 (13 rows took the 2x2x2 group's carveout to 228 KB and its L1 to 28 KB:
 * -28%, docs/performance-notes.md, "GPU MR: partial sums"). On HIP the ten of the expansion (not measured on an
 * AMD GPU; an AMD LDS of 64 KB), the pull adds the partial sums up itself (tess_gpu_mr_pull). The packed groups
 * (2x2x1, one tile: static shared memory) keep ten. Row s holds coefficient tess_gpu_mr_row<ROWS>(s). */
#if defined(TESS_GPU_CUDA)
#define TESS_GPU_MR_ROWS 11
#else
#define TESS_GPU_MR_ROWS 10
#endif
template <int ROWS> static __host__ __device__ __forceinline__ constexpr int tess_gpu_mr_row(int s)
{
    static_assert(ROWS == 10 || ROWS == 11, "10 rows (h0 .. h9) or 11 (without h_xx, h_yy: the partial sums)");
    return ROWS == 11 && s >= 4 ? s + 2 : s;
}

/* Incoming population i of the node at index own of a block's coefficient rows (s_h: row s at s * stride, ROWS
 * rows of tess_mr_coeffs's TESS_MR_NH, TESS_GPU_MR_ROWS): from its upstream node up where that is wet, else
 * bounced back from the node's own coefficients (moving walls included). */
template <typename R, int LATTICE, int ROWS>
static __device__ __forceinline__ R tess_gpu_mr_pull(const R *s_h, int stride, const uint8_t *s_code, int i, int up,
                                                     int own, const tess_params_t *p)
{
    const unsigned code = s_code[up];
    /* Only the coefficients population i uses are read (the rest of h is dead after inlining); with ten rows the
     * partial sums come from them, the same additions. */
    R h[TESS_MR_NH];
    const int from = code == TESS_GPU_WET ? up : own;
    TESS_UNROLL
    for (int s = 0; s < ROWS; s++)
        h[tess_gpu_mr_row<ROWS>(s)] = s_h[s * stride + from];
    if (ROWS == 10)
        tess_gpu_mr<R, LATTICE>::partials(h);
    if (code == TESS_GPU_WET)
        return tess_gpu_mr<R, LATTICE>::population(i, h);
    return tess_gpu_q<R, LATTICE>::bounce_back(i, tess_gpu_mr<R, LATTICE>::population(tess_gpu_q<R, LATTICE>::opp(i), h),
                                               &p->mat[code]);
}

/* All Q incoming populations of the node at index own of a group's halo whose rows lie XP apart and planes PP
 * apart (tess_gpu_mr_halo), in direction order. */
template <typename R, int LATTICE, int XP, int PP, int ROWS>
static __device__ __forceinline__ void tess_gpu_mr_pull_node(const R *s_h, int stride, const uint8_t *s_code, int own,
                                                             const tess_params_t *p, R *f)
{
    typedef tess_gpu_q<R, LATTICE> L;
    TESS_UNROLL
    for (int i = 0; i < L::q; i++)
        f[i] = tess_gpu_mr_pull<R, LATTICE, ROWS>(s_h, stride, s_code, i,
                                                  own - L::cx(i) - XP * L::cy(i) - PP * L::cz(i), own, p);
}

/* The rest of a node's MR step from its incoming populations f: the moments, the collision in moment space, the
 * store of node n of tile k. */
template <typename R, int LATTICE>
static __device__ __forceinline__ void tess_gpu_mr_finish(const tess_params_t *p, const R *f, R *dst, int32_t k, int n)
{
    typedef tess_gpu_mr<R, LATTICE> M;
    R m[TESS_MR_NM];
    M::moments(f, m);
    M::collide(p, m);
    M::store(dst, k, n, m);
}

/* D3Q19 Zou-He planes in the group kernel (tess_gpu_mr_step with ZH): the reconstruction of a plane node's unknown
 * populations from its own pulled ones (core tess_q_zou_he_plane, the step after the pull as in the list kernel's
 * core node function, tess_q_gather_from). A plane without a waveform takes it inline on a copy of its material
 * whose axis and sign are fixed at compile time (one of six copies, chosen per node: the core's loops over the
 * normal then fold to the five unknown populations); the material is read from constant memory. With a waveform,
 * out of line on a copy of f (the inlet factor and outlet density would burden every copy). */
template <typename R, int LATTICE>
static __device__ __noinline__ void tess_gpu_mr_zou_he_out(const tess_params_t *p, unsigned type, int64_t step, R *g)
{
    tess_gpu_q_zou_he<R, LATTICE>::apply(p, &p->mat[type], step, g);
}

template <typename R, int LATTICE, int AXIS, int SIGN>
static __device__ __forceinline__ void tess_gpu_mr_zou_he_at(const tess_params_t *p, const tess_material_t *m, R *f)
{
    tess_material_t fixed = *m;
    fixed.axis = AXIS;
    fixed.sign = SIGN;
    fixed.waveform = 0;
    tess_gpu_q_zou_he<R, LATTICE>::apply(p, &fixed, 0, f);
}

template <typename R, int LATTICE>
static __device__ __forceinline__ void tess_gpu_mr_zou_he(const tess_params_t *p, unsigned type, int64_t step, R *f)
{
    enum { Q = tess_gpu_q<R, LATTICE>::q };
    const tess_material_t *m = &p->mat[type];
    if (m->waveform == 0) {
        switch (2 * m->axis + (m->sign > 0)) {
        case 0: tess_gpu_mr_zou_he_at<R, LATTICE, 0, -1>(p, m, f); break;
        case 1: tess_gpu_mr_zou_he_at<R, LATTICE, 0, 1>(p, m, f); break;
        case 2: tess_gpu_mr_zou_he_at<R, LATTICE, 1, -1>(p, m, f); break;
        case 3: tess_gpu_mr_zou_he_at<R, LATTICE, 1, 1>(p, m, f); break;
        case 4: tess_gpu_mr_zou_he_at<R, LATTICE, 2, -1>(p, m, f); break;
        default: tess_gpu_mr_zou_he_at<R, LATTICE, 2, 1>(p, m, f); break;
        }
        return;
    }
    R g[Q];
    TESS_UNROLL
    for (int i = 0; i < Q; i++)
        g[i] = f[i];
    tess_gpu_mr_zou_he_out<R, LATTICE>(p, type, step, g);
    TESS_UNROLL
    for (int i = 0; i < Q; i++)
        f[i] = g[i];
}

/* The tile map of a block: its GX x GY x GZ tiles (a group) and the tiles around them, (GX + 2) (GY + 2) (GZ + 2)
 * entries (x fastest; -1: no tile), then the GX GY GZ member tiles (-1: none at that place). A group of one tile
 * needs no map of its own: its map is the tiling's 27 neighbours (tess_gpu_q_args_t.neighbors). */
template <int GX, int GY, int GZ> struct tess_gpu_mr_group {
    enum { MX = GX + 2, MY = GY + 2, MZ = GZ + 2, NMAP = MX * MY * MZ, NT = GX * GY * GZ, STRIDE = NMAP + NT };
};

/* Where a block keeps the coefficients of its HX x HY x HZ halo nodes in shared memory: node (x, y, z) at
 * z PP + y XP + x of each coefficient's row of NHP values. Packed (XP = HX, PP = HX HY), a warp's 4 x 4 x 2 nodes
 * of one tile fall into 32 banks two by two in FP32: rows 10 apart put x + 10 y for y = 0 and 3 into one bank (the
 * loads made twice the wavefronts, the block kernels' limit on the H100: docs/performance-notes.md, "GPU MR
 * speed"). PAD: rows 12 apart put a plane's 16 nodes into 16 distinct banks, and planes 144 apart (16 mod 32) the
 * next plane's into the other 16, whatever the shift of the upstream direction; in FP64 a half-warp (one plane)
 * is one wavefront, so planes 120 apart suffice (within an AMD LDS's 64 KB for the column sweep's ring). PAD for
 * the 2x2x2 FP32 group (in dynamic shared memory: 11 rows, 63,360 B) and the column sweep's ring; the 2x2x1 FP64
 * group stays packed (48 KB static: padded it would need 57,600 B and lose a block per multiprocessor, which cost the
 * sphere bed 2.4%). On HIP FP32 planes are 120 apart too, so that an AMD LDS of 64 KB holds two column-sweep
 * blocks (2 x 28,800 B) as it did packed (not measured on an AMD GPU). */
#if defined(TESS_GPU_CUDA)
#define TESS_GPU_MR_PLANE32 144
#else
#define TESS_GPU_MR_PLANE32 120
#endif
template <typename R, int HX, int HY, int HZ, bool PAD, int ROWS> struct tess_gpu_mr_halo {
    enum {
        PADDED = PAD, XP = PAD ? 12 : HX, PP = !PAD ? HX * HY : sizeof(R) == 4 ? TESS_GPU_MR_PLANE32 : 120,
        NHP = HZ * PP,
        OK = HX <= XP && HY * XP <= PP
    };
    static_assert(OK, "a padded halo row or plane too short");
    static size_t shared_bytes() { return (size_t)ROWS * NHP * sizeof(R); }
};

/* The group kernel's halo (tess_gpu_mr_step): (EX GX + 2) x (EY GY + 2) x (EZ GZ + 2) nodes (2D: one plane),
 * padded for the 2x2x2 groups (FP32 only). */
template <typename R, int LATTICE, int GX, int GY, int GZ, int ROWS> struct tess_gpu_mr_block_halo {
    typedef tess_gpu_q<R, LATTICE> L;
    enum {
        HX = L::ex * GX + 2, HY = L::ey * GY + 2, HZ = L::ez == 1 ? 1 : L::ez * GZ + 2, PAD = GX * GY * GZ == 8
    };
    typedef tess_gpu_mr_halo<R, HX, HY, HZ, PAD, ROWS> H;
};

/* The group kernel's register cap (CUDA): the ZH instance at most at the registers of the instance without planes
 * (2x2x2 FP32 32: 3 blocks of 512 on the H100, held there by their 63,360 B of shared memory; 2x2x1 FP32 32, 8
 * blocks of 256; 2x2x1 FP64 64, 4 of 256); uncapped, the plane tiles' path took the 2x2x2 FP32 group to 50 registers
 * (2 blocks) and the 2x2x1 FP64 group to 66 (3 blocks); capped it needs no spills (ptxas, sm_90). One tile and the
 * instances without planes: no cap. */
template <typename R, int NT, bool ZH> struct tess_gpu_mr_zh_blocks {
    enum { value = ZH && NT > 1 ? (sizeof(R) == 4 ? 2048 : 1024) / (64 * NT) : 0 };
};

/* A distributed rank's step in parts (tess_gpu_dist.h; two copies only): one block's group, a group with a member
 * tile in the part's tile range [a.k0, a.ntiles), and for the column sweep the layers [j0, j1) of its column that
 * hold such members. The block writes only the part's tiles: the other members of its group are another part's
 * (or halo tiles, never stepped), so every tile is written once per step, by the part that owns it. */
struct tess_gpu_mr_part_t {
    int32_t group;
    int16_t j0, j1;
};

/* One MR step of the plain nodes: src holds the moments after the previous step, dst receives the next ones.
 * Block b updates group b: GX x GY x GZ tiles, thread 64 t + n is node n = x + ex (y + ey z) of member tile t
 * (x fastest). Larger groups gather fewer halo nodes per node (one tile: 216 for 64 nodes; 2x2x2 tiles: 1000 for
 * 512). map: the groups' tile maps (tess_gpu_mr_group); unused for one tile per group with two copies (the
 * tiling's neighbours are its map). Two copies (ONE false, o unused): dry nodes are neither read as fluid nor
 * written (both copies start with the state's moments, as on the CPU). One copy (src and dst the old and new places
 * in one array, tess_gpu_mr_order.h): the block's group comes from its ticket, it waits before its writes and
 * counts its layers done after them, and a dry node carries its moments over to the new place. part (two copies):
 * block b runs the group part[b].group and writes only tiles in [a.k0, a.ntiles); NULL: group b, every tile. */
template <typename R, int LATTICE, int GX, int GY, int GZ, bool ONE, bool ZH = false, int ROWS = 10>
__global__ void TESS_GPU_BOUNDS(64 * GX * GY * GZ, (tess_gpu_mr_zh_blocks<R, GX * GY * GZ, ZH>::value))
tess_gpu_mr_step(const R *__restrict__ src, R *__restrict__ dst, const tess_gpu_q_args_t a,
                 const int32_t *__restrict__ map, const tess_gpu_mr_order_t o,
                 const tess_gpu_mr_part_t *__restrict__ part)
{
    typedef tess_gpu_q<R, LATTICE> L;
    typedef tess_gpu_mr<R, LATTICE> M;
    typedef tess_gpu_mr_group<GX, GY, GZ> G;
    enum {
        Q = L::q, EX = L::ex, EY = L::ey, EZ = L::ez, BX = EX * GX, BY = EY * GY, BZ = EZ * GZ,
        HX = BX + 2, HY = BY + 2, ZO = EZ == 1 ? 0 : 1, HZ = BZ + 2 * ZO, NH = HX * HY * HZ, NTH = 64 * G::NT
    };
    typedef typename tess_gpu_mr_block_halo<R, LATTICE, GX, GY, GZ, ROWS>::H H;
    enum { PAD = H::PADDED, XP = H::XP, PP = H::PP, NHP = H::NHP };
    static_assert(PAD || ROWS == 10, "a packed halo keeps ten rows (static shared memory)");
    __shared__ int32_t s_map[G::STRIDE];
    __shared__ uint8_t s_code[NHP];
    __shared__ int32_t s_b;
    __shared__ uint8_t s_zh[ZH ? G::NT : 1]; /* ZH: whether member tile t holds a Zou-He node */
    /* The Hermite coefficients of the group's and halo's nodes, one row per coefficient (tess_gpu_mr_halo): static
     * where packed, dynamic (H::shared_bytes()) where padded. */
    __shared__ R s_hs[PAD ? 1 : ROWS][PAD ? 1 : NH];
    extern __shared__ double tess_gpu_mr_dyn[];
    R(*const s_h)[NHP] = PAD ? reinterpret_cast<R(*)[NHP]>(tess_gpu_mr_dyn) : reinterpret_cast<R(*)[NHP]>(&s_hs[0][0]);
    const int tid = (int)threadIdx.x;
    int32_t b = (int32_t)blockIdx.x;
    const tess_gpu_constants_t *c = &tess_gpu_c;

    if (ONE) {
        if (tid == 0)
            s_b = tess_gpu_mr_ticket(o);
        __syncthreads();
        b = s_b;
    } else if (part) {
        b = part[b].group;
    }
    if (G::NT == 1 && !ONE) {
        if (tid < 27)
            s_map[tid] = a.neighbors[27 * (size_t)b + tid];
        if (tid == 0)
            s_map[27] = b;
    } else {
        for (int j = tid; j < G::STRIDE; j += NTH)
            s_map[j] = map[(size_t)G::STRIDE * b + j];
    }
    __syncthreads();
    if (ZH && tid < G::NT) { /* read after the gather's barrier */
        const int32_t kt = s_map[G::NMAP + tid];
        s_zh[tid] = kt >= 0 ? c->mr_zh_tile[kt] : (uint8_t)0;
    }
    /* D3Q19's 2x2x2 group with two copies (the sphere bed's FP32 kernel): a place's type and moments are loaded in
     * one block, so that the moment loads go out with the type's (in the loop below they wait behind the type's wet
     * lookup: one dependent global round trip a place in the SASS), and only wet places get coefficients (a dry
     * place's are never read: tess_gpu_mr_pull takes the node's own). On the H100 the bed's FP32 step +2.8%; both
     * places' loads first gained nothing, and D3Q27 lost with it (docs/performance-notes.md, "GPU MR: the bed's
     * gather and group order"), so the other instances keep the loop below. */
    enum { SPLIT = !ONE && LATTICE == TESS_LATTICE_D3Q19 && G::NT == 8, PER = (NH + NTH - 1) / NTH };
    if (SPLIT) {
        TESS_UNROLL
        for (int r = 0; r < PER; r++) {
            const int j = tid + NTH * r;
            const int hx = j % HX - 1, hy = (j / HX) % HY - 1, hz = j / (HX * HY) - ZO;
            const int jp = PAD ? (hz + ZO) * PP + (hy + 1) * XP + (hx + 1) : j;
            const int ax = (hx + EX) / EX - 1, ay = (hy + EY) / EY - 1, az = (hz + EZ) / EZ - 1;
            const int ox = hx < 0 || hx >= BX, oy = hy < 0 || hy >= BY, oz = hz < 0 || hz >= BZ;
            const bool used = j < NH && (Q == 27 || EZ == 1 || ox + oy + oz < 3);
            const int32_t t2 = used ? s_map[(ax + 1) + G::MX * ((ay + 1) + G::MY * (az + 1))] : -1;
            const int l2 = (hx - ax * EX) + EX * ((hy - ay * EY) + EY * (hz - az * EZ));
            unsigned type = 0u;
            R m[TESS_MR_NM];
            if (t2 >= 0) {
                type = a.node_type[64 * (size_t)t2 + l2];
                M::load(src, t2, l2, m);
            }
            if (j >= NH)
                continue;
            const bool wet = c->wet[type];
            s_code[jp] = wet ? (uint8_t)TESS_GPU_WET : (uint8_t)type;
            if (t2 >= 0 && wet) {
                R h[TESS_MR_NH];
                M::coeffs(m, h);
                TESS_UNROLL
                for (int s = 0; s < ROWS; s++)
                    s_h[s][jp] = h[tess_gpu_mr_row<ROWS>(s)];
            }
        }
    }
    for (int j = tid; !SPLIT && j < NH; j += NTH) {
        const int hx = j % HX - 1, hy = (j / HX) % HY - 1, hz = j / (HX * HY) - ZO;
        const int jp = PAD ? (hz + ZO) * PP + (hy + 1) * XP + (hx + 1) : j; /* its place in s_h and s_code */
        /* the place of the node's tile in the map (-1 .. G) and its local coordinates */
        const int ax = (hx + EX) / EX - 1, ay = (hy + EY) / EY - 1, az = (hz + EZ) / EZ - 1;
        const int ox = hx < 0 || hx >= BX, oy = hy < 0 || hy >= BY, oz = hz < 0 || hz >= BZ;
        /* A halo corner is no lattice's neighbour in 3D but D3Q27's: D3Q19 leaves its corners out. */
        const bool used = Q == 27 || EZ == 1 || ox + oy + oz < 3;
        const int32_t t2 = used ? s_map[(ax + 1) + G::MX * ((ay + 1) + G::MY * (az + 1))] : -1;
        const int l2 = (hx - ax * EX) + EX * ((hy - ay * EY) + EY * (hz - az * EZ));
        /* The moments are loaded whatever the node type (a dry node of a stored tile holds valid values that
         * nobody uses), so the loads need not wait for the type's (in the C++; in the SASS of the two-copy path
         * they do, behind the wet lookup: see SPLIT above). */
        unsigned type;
        R m[TESS_MR_NM], h[TESS_MR_NH];
        if (!ONE) { /* two copies: t2 is a tile or -1 */
            type = t2 < 0 ? 0u : a.node_type[64 * (size_t)t2 + l2];
            s_code[jp] = c->wet[type] ? (uint8_t)TESS_GPU_WET : (uint8_t)type;
            if (t2 >= 0) {
                M::load(src, t2, l2, m);
                M::coeffs(m, h);
                TESS_UNROLL
                for (int s = 0; s < ROWS; s++)
                    s_h[s][jp] = h[tess_gpu_mr_row<ROWS>(s)];
            }
            continue;
        }
        if (tess_gpu_mr_fetch<R, LATTICE, ONE>(src, a.node_type, o, t2, l2, &type, m)) {
            M::coeffs(m, h);
            TESS_UNROLL
            for (int s = 0; s < ROWS; s++)
                s_h[s][jp] = h[tess_gpu_mr_row<ROWS>(s)];
        }
        s_code[jp] = c->wet[type] ? (uint8_t)TESS_GPU_WET : (uint8_t)type;
    }
    if (ONE && tid == 0) /* while the gather's loads are in flight */
        tess_gpu_mr_wait(o, o.grow[b], o.grow[b] + GZ - 1);
    __syncthreads();
    const int mt = tid >> 6, n = tid & 63;
    const int32_t k = s_map[G::NMAP + mt];
    const int x = n % EX, y = (n / EX) % EY, z = n / (EX * EY);
    const int gx = (mt % GX) * EX + x, gy = ((mt / GX) % GY) * EY + y, gz = (mt / (GX * GY)) * EZ + z;
    const int own = PAD ? (gz + ZO) * PP + (gy + 1) * XP + (gx + 1) : ((gz + ZO) * HY + (gy + 1)) * HX + (gx + 1);
    /* two copies: the part's tiles only (the whole range [0, ntiles) outside a distributed rank) */
    const bool mine = ONE ? k >= 0 : k >= a.k0 && k < a.ntiles;
    if (mine && s_code[own] == TESS_GPU_WET) {
        const tess_params_t *p = &c->p;
        R f[Q];
        if (ZH && s_zh[mt]) {
            /* ZH, a tile that holds Zou-He nodes (a branch per 64 threads; the other tiles take the plain path
             * below, main's code): the node's own type, issued before the pull, for its plane's reconstruction
             * after it */
            const unsigned own_type = a.node_type[64 * (size_t)k + n];
            tess_gpu_mr_pull_node<R, LATTICE, XP, PP, ROWS>(&s_h[0][0], NHP, s_code, own, p, f);
            if (c->mr_zou_he[own_type])
                tess_gpu_mr_zou_he<R, LATTICE>(p, own_type, a.step, f);
            tess_gpu_mr_finish<R, LATTICE>(p, f, dst, k, n);
        } else {
            tess_gpu_mr_pull_node<R, LATTICE, XP, PP, ROWS>(&s_h[0][0], NHP, s_code, own, p, f);
            tess_gpu_mr_finish<R, LATTICE>(p, f, dst, k, n);
        }
    } else if (ONE && k >= 0) {
        R m[TESS_MR_NM];
        M::load(src, k, n, m);
        M::store(dst, k, n, m);
    }
    if (ONE) {
        __syncthreads();
        if (tid == 0)
            tess_gpu_mr_done(o, o.grow[b], o.grow[b] + GZ - 1);
    }
}

/* The column sweep (3D lattices; cfg.mr_layer >= 1024): block b walks the C tile layers of group b (2 x 2 x C
 * tiles, tess_gpu_mr_group) upwards, one layer of 2 x 2 tiles (256 nodes) at a time. The coefficients of six
 * node planes of the 10 x 10 cross-section (the layer's four and one below and above) stay in a ring in shared
 * memory, so a layer gathers four new planes (400 nodes for 256 updated, against 1000 for 512 in a 2x2x2
 * group), and each thread issues the loads of the next layer's planes before it computes the current one, so
 * they are in flight during the computation (the latency behind a block's gather and its barrier was what held
 * the group kernel back). Per node the same core functions in the same order as tess_gpu_mr_step: the same bits.
 * Dynamic shared memory: ROWS coefficients (TESS_GPU_MR_ROWS) of 6 planes of 10 x 10 nodes, padded
 * (tess_gpu_mr_halo: 6 x 144 places in FP32, 11 rows 38,016 B; 6 x 120 in FP64, 63,360 B; opted in; on HIP 10 rows
 * of 6 x 120, 28,800 B / 57,600 B, within the 64 KB of an AMD LDS). Capped at 64
 * registers in FP32 (4 blocks a multiprocessor on the H100) and 128 in FP64 (2 blocks; D3Q27 spills 20 B); tighter
 * caps (5 / 3 blocks) spilled and lost 22-29% (docs/performance-notes.md, "GPU MR: tighter register caps"). */
template <typename R, int LATTICE, int ROWS> struct tess_gpu_mr_col {
    enum {
        EX = tess_gpu_q<R, LATTICE>::ex, EY = tess_gpu_q<R, LATTICE>::ey, EZ = tess_gpu_q<R, LATTICE>::ez, GX = 2,
        GY = 2, HX = EX * GX + 2, HY = EY * GY + 2, PL = HX * HY, RING = EZ + 2, NL = RING * PL, MX = GX + 2,
        MY = GY + 2, NTH = 64 * GX * GY, NEW = EZ * PL, PER = (NEW + NTH - 1) / NTH
    };
    /* the ring's places, padded against bank conflicts: rows XP apart, planes PP, RING planes of NR values */
    typedef tess_gpu_mr_halo<R, HX, HY, RING, true, ROWS> H;
    enum { XP = H::XP, PP = H::PP, NR = H::NHP };
    static size_t shared_bytes() { return H::shared_bytes(); }
};

/* Gathers the moments and node type of position e (0 .. NEW - 1 from plane p0 up) of a column group's planes:
 * the loads only (tess_gpu_mr_column_put turns them into coefficients in the ring). */
template <typename R, int LATTICE, bool ONE>
static __device__ __forceinline__ void tess_gpu_mr_column_get(const R *__restrict__ src, const tess_gpu_q_args_t &a,
                                                              const tess_gpu_mr_order_t &o,
                                                              const int32_t *__restrict__ gm, int p0, int e,
                                                              unsigned *type, R *m)
{
    typedef tess_gpu_mr_col<R, LATTICE, 10> C; /* the planes' geometry only */
    const int p = p0 + e / C::PL, j = e % C::PL;
    const int hx = j % C::HX - 1, hy = j / C::HX - 1;
    /* the node's tile place in the map (-1 .. G) and its local coordinates; plane -1 is layer -1's top */
    const int ax = (hx + C::EX) / C::EX - 1, ay = (hy + C::EY) / C::EY - 1, az = (p + C::EZ) / C::EZ - 1;
    const int32_t t2 = gm[(ax + 1) + C::MX * ((ay + 1) + C::MY * (az + 1))];
    const int l2 = (hx - ax * C::EX) + C::EX * ((hy - ay * C::EY) + C::EY * (p - az * C::EZ));
    if (!tess_gpu_mr_fetch<R, LATTICE, ONE>(src, a.node_type, o, t2, l2, type, m)) {
        TESS_UNROLL
        for (int s = 0; s < TESS_MR_NM; s++)
            m[s] = (R)0; /* no tile: a dry node whose coefficients nobody reads */
    }
}

template <typename R, int LATTICE, int ROWS>
static __device__ __forceinline__ void tess_gpu_mr_column_put(R *s_h, uint8_t *s_code, int p0, int e,
                                                              unsigned type, const R *m)
{
    typedef tess_gpu_mr_col<R, LATTICE, ROWS> C;
    typedef tess_gpu_mr<R, LATTICE> M;
    const int p = p0 + e / C::PL, j = e % C::PL;
    const int at = ((p + 1) % C::RING) * C::PP + (j / C::HX) * C::XP + j % C::HX;
    s_code[at] = tess_gpu_c.wet[type] ? (uint8_t)TESS_GPU_WET : (uint8_t)type;
    R h[TESS_MR_NH];
    M::coeffs(m, h);
    TESS_UNROLL
    for (int s = 0; s < ROWS; s++)
        s_h[s * C::NR + at] = h[tess_gpu_mr_row<ROWS>(s)];
}

/* part (two copies, tess_gpu_mr_part_t): block b walks the layers [part[b].j0, part[b].j1) of column part[b].group
 * (its first layer's planes gathered as the first layer's are) and writes only tiles in [a.k0, a.ntiles); NULL:
 * column b, every layer, every tile. */
template <typename R, int LATTICE, bool ONE, int ROWS>
__global__ void TESS_GPU_BOUNDS(256, sizeof(R) == 4 ? 4 : 2)
tess_gpu_mr_column(const R *__restrict__ src, R *__restrict__ dst, const tess_gpu_q_args_t a,
                   const int32_t *__restrict__ map, int nlayers, const tess_gpu_mr_order_t o,
                   const tess_gpu_mr_part_t *__restrict__ part)
{
    typedef tess_gpu_q<R, LATTICE> L;
    typedef tess_gpu_mr<R, LATTICE> M;
    typedef tess_gpu_mr_col<R, LATTICE, ROWS> C;
    /* places in the ring: rows XP apart, planes PP (tess_gpu_mr_col) */
    enum { Q = L::q, EX = L::ex, EY = L::ey, EZ = L::ez, XP = C::XP, PP = C::PP, NTH = C::NTH };
    static_assert(EZ > 1, "the column sweep is for the 3D lattices");
    extern __shared__ double tess_gpu_mr_dyn[];
    R *const s_h = reinterpret_cast<R *>(tess_gpu_mr_dyn); /* [ROWS][NR], one row per coefficient */
    __shared__ uint8_t s_code[C::NR];
    __shared__ int32_t s_b;
    const int tid = (int)threadIdx.x;
    int32_t b = (int32_t)blockIdx.x;
    int j0 = 0, j1 = nlayers; /* the layers the block walks */
    if (ONE) { /* one copy: the group from the ticket (tess_gpu_mr_order.h) */
        if (tid == 0)
            s_b = tess_gpu_mr_ticket(o);
        __syncthreads();
        b = s_b;
    } else if (part) {
        const tess_gpu_mr_part_t pt = part[b];
        b = pt.group;
        j0 = pt.j0;
        j1 = pt.j1;
    }
    const int l0 = ONE ? o.grow[b] : 0; /* the group's first tile layer */
    const int nmap = C::MX * C::MY * (nlayers + 2);
    const int32_t *__restrict__ gm = map + (size_t)b * (size_t)(nmap + 4 * nlayers);
    /* the first layer's six planes, EZ j0 - 1 .. EZ j0 + EZ (a plane's ring slot depends on the plane alone) */
    for (int e = tid; e < C::NL; e += NTH) {
        unsigned type;
        R m[TESS_MR_NM];
        tess_gpu_mr_column_get<R, LATTICE, ONE>(src, a, o, gm, EZ * j0 - 1, e, &type, m);
        tess_gpu_mr_column_put<R, LATTICE, ROWS>(s_h, s_code, EZ * j0 - 1, e, type, m);
    }
    int known = -1; /* thread 0: the last layer of the last complete wait range (tess_gpu_mr_wait_next) */
    if (ONE && tid == 0)
        tess_gpu_mr_wait_next(o, l0, -1, &known);
    __syncthreads();
    const int mt = tid >> 6, n = tid & 63;
    const int x = n % EX, y = (n / EX) % EY, z = n / (EX * EY);
    const int gx = (mt % 2) * EX + x, gy = (mt / 2) * EY + y;
    const int col = (gy + 1) * XP + (gx + 1);
    const tess_params_t *p = &tess_gpu_c.p;
    for (int j = j0; j < j1; j++) {
        /* the next layer's new planes EZ j + EZ + 1 .. EZ j + 2 EZ: loads issued now, stored after the layer */
        const int p0 = EZ * j + EZ + 1;
        const bool more = j + 1 < j1;
        int32_t have = 0; /* one copy: the count the next layer's writes wait for, read now */
        if (ONE && tid == 0 && more)
            have = tess_gpu_mr_peek(o.sync + 1 + o.hi[l0 + j + 1]);
        unsigned nt[C::PER];
        R nm[C::PER][TESS_MR_NM];
        TESS_UNROLL
        for (int r = 0; r < C::PER; r++) {
            const int e = tid + NTH * r;
            nt[r] = 0u;
            if (more && e < C::NEW)
                tess_gpu_mr_column_get<R, LATTICE, ONE>(src, a, o, gm, p0, e, &nt[r], nm[r]);
        }
        const int32_t k = gm[nmap + (mt % 2) + 2 * ((mt / 2) + 2 * j)];
        /* ring slot of plane EZ j - 1 + d is (base + d) mod RING */
        const int base = (EZ * j) % C::RING;
        int os = base + z + 1;
        os -= os >= C::RING ? C::RING : 0;
        const int own = os * PP + col;
        const bool mine = ONE ? k >= 0 : k >= a.k0 && k < a.ntiles; /* two copies: the part's tiles only */
        if (mine && s_code[own] == TESS_GPU_WET) {
            R f[Q];
            TESS_UNROLL
            for (int i = 0; i < Q; i++) {
                int us = base + z + 1 - L::cz(i);
                us -= us >= C::RING ? C::RING : 0;
                f[i] = tess_gpu_mr_pull<R, LATTICE, ROWS>(s_h, C::NR, s_code, i,
                                                          us * PP + col - L::cx(i) - XP * L::cy(i), own, p);
            }
            tess_gpu_mr_finish<R, LATTICE>(p, f, dst, k, n);
        } else if (ONE && k >= 0) { /* one copy: a dry node's moments move to the new place */
            R m[TESS_MR_NM];
            M::load(src, k, n, m);
            M::store(dst, k, n, m);
        }
        if (!more) {
            if (ONE) {
                __syncthreads();
                if (tid == 0)
                    tess_gpu_mr_done(o, l0 + j, l0 + j);
            }
            break;
        }
        __syncthreads(); /* every thread is done with the planes the next ones replace */
        if (ONE && tid == 0)
            tess_gpu_mr_done(o, l0 + j, l0 + j);
        TESS_UNROLL
        for (int r = 0; r < C::PER; r++) {
            const int e = tid + NTH * r;
            if (e < C::NEW)
                tess_gpu_mr_column_put<R, LATTICE, ROWS>(s_h, s_code, p0, e, nt[r], nm[r]);
        }
        if (ONE && tid == 0)
            tess_gpu_mr_wait_next(o, l0 + j + 1, have, &known);
        __syncthreads();
    }
}

/* The listed nodes (64 tile + local), after tess_gpu_mr_step: the core's whole MR node (inlets and outlets of
 * every method, curved-wall links) from the old moments, over what the plain step wrote. With one copy (vals not
 * NULL) it runs before the plain kernel and writes the moments to vals, j * TESS_MR_NM + s, which
 * tess_gpu_mr_scatter puts into the new state after it. */
template <typename R, int LATTICE>
__global__ void __launch_bounds__(64) tess_gpu_mr_list_step(const R *__restrict__ src, R *__restrict__ dst,
                                                            R *__restrict__ vals, const tess_gpu_q_args_t a,
                                                            const int64_t *__restrict__ list, int32_t nlist)
{
    typedef tess_gpu_q<R, LATTICE> L;
    typedef tess_gpu_mr<R, LATTICE> M;
    const int32_t j = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (j >= nlist)
        return;
    const int64_t node = list[j];
    const int32_t k = (int32_t)(node >> 6);
    const int n = (int)(node & 63);
    const int x = n % L::ex, y = (n / L::ex) % L::ey, z = n / (L::ex * L::ey);
    const tess_params_t *p = &tess_gpu_c.p;
    const tess_q_grid_t g = tess_gpu_q_grid<L>(a);
    const int nl = a.node_nlink ? (int)a.node_nlink[node] : 0;
    const tess_link_t *links = nl ? a.links + a.node_link[node] : a.links;
    const tess_material_t *mat = &p->mat[a.node_type[node]];
    const bool fd = mat->method == TESS_BC_FINITE_DIFFERENCE &&
                    (mat->kind == TESS_NODE_VELOCITY || mat->kind == TESS_NODE_PRESSURE);
    R m[TESS_MR_NM];
    M::node(p, &g, src, k, x, y, z, links, nl, fd, m);
    if (vals) {
        TESS_UNROLL
        for (int s = 0; s < TESS_MR_NM; s++)
            vals[(int64_t)j * TESS_MR_NM + s] = m[s];
    } else {
        M::store(dst, k, n, m);
    }
}

#endif
