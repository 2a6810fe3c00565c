/* The step launcher of one lattice, precision and pattern step (AB, AA odd, AA even): which instance of the tile
 * kernel a step runs (collision, variant, curved links) and the passes around it (docs/gpu.md). Included only by
 * the step translation units (backends/cuda/cuda_step.cu, backends/hip/hip_step.hip), each compiled once per
 * triple with TESS_GPU_STEP_R, TESS_GPU_STEP_LATTICE and TESS_GPU_STEP_PAT set, which instantiate
 * tess_gpu_launch_step for it: the kernels of a backend then compile in 24 parallel jobs instead of one (AB and
 * AA's two steps triple the instances, and one job of them all took over five minutes on the device machine).
 * Each translation unit has its own constant bank (no relocatable device code), which tess_gpu_bind_constants
 * fills before its first launch of a backend's constants. */
#ifndef TESS_GPU_LAUNCH_H
#define TESS_GPU_LAUNCH_H

#include "tess_gpu_backend.h"

/* The engine's kernel for a lattice, a collision, a variant and a pattern's step (tess_gpu_tile_step.h). */
template <typename R> using tess_gpu_q_kernel_t = void (*)(const R *, R *, const tess_gpu_q_args_t);

template <typename R, int LAT, bool LINKS, int PAT>
static tess_gpu_q_kernel_t<R> tess_gpu_pick_q_full(int collision)
{
    if (collision == TESS_COLLISION_MRT)
        return tess_gpu_q_step<R, LAT, tess_gpu_q_model<LAT, TESS_COLLISION_MRT>::value, TESS_KERNEL_FULL, LINKS, PAT, 0,
                               !LINKS && tess_gpu_q_pair_pf<R, LAT, PAT>::value>;
    /* Regularized and LBGK: with the register cap that measured faster (tess_gpu_q_reg_cap; tess_gpu_q_cap,
     * tess_gpu_q_links_cap). Every collision without links: paired with PF1 where tess_gpu_q_pair_pf says. */
    if (collision == TESS_COLLISION_REGULARIZED)
        return tess_gpu_q_step<R, LAT, tess_gpu_q_model<LAT, TESS_COLLISION_REGULARIZED>::value, TESS_KERNEL_FULL,
                               LINKS, PAT, LINKS ? 0 : (int)tess_gpu_q_reg_cap<R, LAT, PAT>::value,
                               !LINKS && tess_gpu_q_pair_pf<R, LAT, PAT>::value>;
    return tess_gpu_q_step<R, LAT, tess_gpu_q_model<LAT, TESS_COLLISION_LBGK>::value, TESS_KERNEL_FULL, LINKS, PAT,
                           LINKS ? (int)tess_gpu_q_links_cap<R, LAT, PAT>::value
                                 : (int)tess_gpu_q_cap<R, LAT, PAT>::value,
                           !LINKS && tess_gpu_q_pair_pf<R, LAT, PAT>::value>;
}

/* The measurement variants exist for AB only (tess_gpu_create refuses them with AA): fewer instances to compile. */
template <typename R, int LAT, int PAT>
static tess_gpu_q_kernel_t<R> tess_gpu_pick_q(tess_kernel_variant v, int collision, bool links)
{
    if constexpr (PAT == TESS_GPU_AB) {
        if (v == TESS_KERNEL_READ_WRITE_ONLY)
            return tess_gpu_q_step<R, LAT, TESS_GPU_MODEL_ANY, TESS_KERNEL_READ_WRITE_ONLY, false, TESS_GPU_AB>;
        if (v == TESS_KERNEL_PROPAGATION_ONLY)
            return tess_gpu_q_step<R, LAT, TESS_GPU_MODEL_ANY, TESS_KERNEL_PROPAGATION_ONLY, false, TESS_GPU_AB>;
    }
    return links ? tess_gpu_pick_q_full<R, LAT, true, PAT>(collision)
                 : tess_gpu_pick_q_full<R, LAT, false, PAT>(collision);
}

/* One step: one or two tiles (64 threads each) per block. AB: the sweep from one copy into the other, then the
 * inlet/outlet list kernel. AA, in place: the passes that read other nodes' slots (curved links, the inlet/outlet
 * nodes' whole gather) first, then the sweep, then the inlet/outlet values into their slots. The caller advances
 * the step count and the current copy. A distributed rank (tess_gpu_dist.h) runs a step in two parts, over the
 * tiles [sweep_k0, sweep_k1): the boundary tiles with the pre-passes (over its owned tiles; the inlet/outlet
 * values of the boundary and the interior tiles each in their own segment of open_val), then the interior. */
template <typename R, int LAT, int PAT> tess_status tess_gpu_launch_step(tess_backend_t *be, tess_error_t *err)
{
    const tess_status sc = tess_gpu_bind_constants(be, err);
    if (sc != TESS_OK)
        return sc;
    const bool links = be->node_nlink && be->consts.p.wall != TESS_WALL_BOUNCE_BACK;
    tess_gpu_q_args_t a = tess_gpu_args(be);
    /* the halo phase's prefetch of a later tile's halo data where it measured faster: LBGK, with curved links on
     * D3Q19 only (tess_gpu_q_halo_pf) */
    a.halo_pf = be->consts.p.collision == TESS_COLLISION_LBGK && (!links || LAT == TESS_LATTICE_D3Q19)
                    ? tess_gpu_q_halo_pf<R, LAT>::value
                    : 0;
    const int pat = PAT;
    const int rconv = tess_gpu_read_conv(pat), wconv = tess_gpu_write_conv(pat);
    (void)wconv; /* AA only */
    const bool aa = pat != TESS_GPU_AB;
    const R *src = (const R *)be->f[be->cur];
    R *dst = (R *)be->f[aa ? be->cur : 1 - be->cur];
    const bool full = be->cfg.variant == TESS_KERNEL_FULL;
    /* where AA's odd step pairs tiles: two (tess_gpu_q_tpb; tess_gpu_q_pair_pf: the kernels without links) */
    const bool pair_pf = tess_gpu_q_pair_pf<R, LAT, PAT>::value && full && !links;
    const unsigned tpb = (unsigned)(tess_gpu_q_tpb<R, LAT, PAT>::value > 0 || pair_pf ? 2 : be->tiles_per_block);
    const int32_t k0 = be->sweep_k0, k1 = be->sweep_k1;
    const unsigned blocks = (unsigned)(((size_t)(k1 - k0) + tpb - 1) / tpb);
    const bool open = be->nopen > 0 && be->cfg.variant != TESS_KERNEL_READ_WRITE_ONLY;
    const int32_t o0 = tess_gpu_open_first(be, k0), o1 = tess_gpu_open_first(be, k1);
    const unsigned ob = (unsigned)((o1 - o0 + 63) / 64);
    const int Q = be->shape.q;
    void (*const open_step)(const R *, R *, const tess_gpu_q_args_t, const int64_t *, int32_t, int, R *) =
        full ? tess_gpu_q_open_step<R, LAT, TESS_KERNEL_FULL>
             : tess_gpu_q_open_step<R, LAT, TESS_KERNEL_PROPAGATION_ONLY>;
    if constexpr (PAT != TESS_GPU_AB) {
        if (links && full && (be->sweep_part & 1) && be->nlinks_owned > 0)
            tess_gpu_q_link_pass<R, LAT><<<(unsigned)((be->nlinks_owned + 127) / 128), 128>>>(src, a, be->link_tile,
                                                                                             be->nlinks_owned, rconv);
        const int32_t seg[3] = {0, be->nbound, be->nowned}; /* one segment [0, ntiles) for a single rank */
        for (int s = 0; s < 2 && open && (be->sweep_part & 1); s++) {
            const int32_t s0 = tess_gpu_open_first(be, seg[s]), s1 = tess_gpu_open_first(be, seg[s + 1]);
            if (s1 > s0)
                open_step<<<(unsigned)((s1 - s0 + 63) / 64), 64>>>(src, dst, a, be->open + s0, s1 - s0, rconv,
                                                                   (R *)be->open_val + (size_t)Q * s0);
        }
    }
    if (blocks)
        tess_gpu_pick_q<R, LAT, PAT>(be->cfg.variant, be->consts.p.collision, links)<<<blocks, 64 * tpb>>>(src, dst, a);
    if constexpr (PAT != TESS_GPU_AB) {
        if (open && o1 > o0)
            tess_gpu_q_open_store<R, LAT><<<ob, 64>>>((const R *)be->open_val + (size_t)Q * o0, dst, a, be->open + o0,
                                                      o1 - o0, wconv);
    } else if (open && o1 > o0) {
        open_step<<<ob, 64>>>(src, dst, a, be->open + o0, o1 - o0, rconv, (R *)0);
    }
    TESS_GPU_TRY(gpuGetLastError(), err, "launching the step kernel");
    return TESS_OK;
}

#endif
