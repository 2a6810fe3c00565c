/* The GPU backend's operations, written once for CUDA and HIP. A backend source defines TESS_GPU_CUDA or
 * TESS_GPU_HIP, includes this file and exports its table with TESS_GPU_DEFINE_BACKEND. Every runtime call
 * goes through the aliases of tess_gpu_runtime.h and is checked; errors come back as one line. The record and the
 * helpers the step translation units share are in tess_gpu_backend.h. */
#ifndef TESS_GPU_OPS_H
#define TESS_GPU_OPS_H

#include "tess_gpu_backend.h"
#include "tess_gpu_check.h"
#include "tess_gpu_copy.h"

/* Both layouts keep a tile's values together, so a transfer goes in chunks of tiles through a small staging buffer
 * (160 MB for D3Q19 FP64): a second host copy of a billion-node state would not fit beside the first, and the host
 * need not hold the first either (initialise_from; docs/performance.md, "the largest boxes"). */
enum { TESS_GPU_TRANSFER_TILES = 16384 };

#include "tess_gpu_mr_host.h" /* the MR pattern's host side: needs the structure, TESS_GPU_TRY, tess_gpu_args */

/* Each tile's halo of node types (tess_gpu_halo_place; 0 where no tile is), packed bits a place
 * (tess_gpu_halo_stride), filled on the device from the uploaded neighbourhoods and node types: one thread a 32-bit
 * word, so a billion-node box needs neither a host copy (up to 224 bytes a tile) nor seconds of host time. */
static __global__ void __launch_bounds__(256)
tess_gpu_halo_fill(uint32_t *__restrict__ halo, const int32_t *__restrict__ neighbors,
                   const uint8_t *__restrict__ node_type, int64_t ntiles, int ex, int ey, int ez, int bits)
{
    const int places = tess_gpu_halo_places(ex, ey, ez), words = tess_gpu_halo_stride(ex, ey, ez, bits) / 4;
    const int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t k = e / words;
    const int w = (int)(e % words), per = 32 / bits;
    if (k >= ntiles)
        return;
    uint32_t word = 0;
    for (int i = 0; i < per && w * per + i < places; i++) {
        int slot, local;
        tess_gpu_halo_place(ex, ey, ez, w * per + i, &slot, &local);
        const int32_t t2 = neighbors[27 * k + slot];
        const uint32_t type = t2 < 0 ? 0u : node_type[64 * (int64_t)t2 + local];
        word |= type << (bits * i);
    }
    halo[e] = word;
}

TESS_GPU_OP tess_status tess_gpu_create(const tess_backend_config_t *cfg, tess_backend_t **out, tess_error_t *err)
{
    *out = NULL;
    if (cfg->pattern != TESS_PATTERN_AB && cfg->pattern != TESS_PATTERN_AA && cfg->pattern != TESS_PATTERN_MR)
        return tess_fail(err, TESS_ERR_UNSUPPORTED, "the GPU backends run the AB, AA and MR patterns only");
    if (cfg->pattern != TESS_PATTERN_AB && cfg->variant != TESS_KERNEL_FULL)
        return tess_fail(err, TESS_ERR_UNSUPPORTED,
                         "the GPU's kernel variants 'propagation' and 'readwrite' exist for the AB pattern only");
    if (cfg->tiles_per_block < 0 || cfg->tiles_per_block > TESS_GPU_MAX_TILES_PER_BLOCK)
        return tess_fail(err, TESS_ERR_INPUT, "tiles_per_block is %d; expected 0 (automatic), 1 or 2",
                         cfg->tiles_per_block);
    int count = 0;
    const gpuError_t rc = gpuGetDeviceCount(&count);
    if (rc != gpuSuccess || count == 0)
        return tess_fail(err, TESS_ERR_DEVICE, "no %s device available (%s)", TESS_GPU_RUNTIME_NAME,
                         rc != gpuSuccess ? gpuGetErrorString(rc) : "the runtime lists none");
    if (cfg->device < 0 || cfg->device >= count)
        return tess_fail(err, TESS_ERR_INPUT, "device %d requested but %d %s device%s present", cfg->device, count,
                         TESS_GPU_RUNTIME_NAME, count == 1 ? " is" : "s are");
    TESS_GPU_TRY(gpuSetDevice(cfg->device), err, "selecting the device");
    gpuDeviceProp_t prop;
    TESS_GPU_TRY(gpuGetDeviceProperties(&prop, cfg->device), err, "reading the device properties");
    /* A missing kernel image shows here, before any allocation, rather than at the first step. */
    gpuFuncAttributes attr;
    const gpuError_t rk = gpuFuncGetAttributes(&attr, (const void *)tess_gpu_copy);
    /* Unsupported rather than a device error: a GPU is present, so the tests must fail here, not skip. */
    if (rk == gpuErrorNoBinaryForGpu || rk == gpuErrorInvalidDeviceFunction)
        return tess_fail(err, TESS_ERR_UNSUPPORTED,
                         "%s (compute capability %d.%d) has no kernel image in this build (built for %s): add its "
                         "architecture to TESSERA_%s_ARCHITECTURES and rebuild",
                         prop.name, prop.major, prop.minor, TESS_GPU_ARCHITECTURES, TESS_GPU_RUNTIME_NAME);
    if (rk != gpuSuccess)
        return tess_gpu_fail(err, rk, "preparing the kernels");
    tess_backend_t *be = (tess_backend_t *)calloc(1, sizeof *be);
    if (!be)
        return tess_fail(err, TESS_ERR_NOMEM, "out of host memory creating the %s backend", TESS_GPU_RUNTIME_NAME);
    be->cfg = *cfg;
    /* The paper used two tiles per block for FP32 on Kepler (16 resident blocks per SM); on the H100 (32 blocks per
     * SM) one tile per block was as fast or faster in both precisions (docs/performance.md). */
    be->tiles_per_block = cfg->tiles_per_block ? cfg->tiles_per_block : 1;
    snprintf(be->device_name, sizeof be->device_name, "%s", prop.name);
    *out = be;
    return TESS_OK;
}

TESS_GPU_OP void tess_gpu_free_device(tess_backend_t *be)
{
    (void)gpuFree(be->f[0]);
    (void)gpuFree(be->f[1]);
    (void)gpuFree(be->neighbors);
    (void)gpuFree(be->node_type);
    (void)gpuFree(be->halo_type);
    (void)gpuFree(be->corner);
    (void)gpuFree(be->links);
    (void)gpuFree(be->node_link);
    (void)gpuFree(be->node_nlink);
    (void)gpuFree(be->link_tile);
    (void)gpuFree(be->tile_link);
    (void)gpuFree(be->link_val);
    (void)gpuFree(be->slots);
    (void)gpuFree(be->packs);
    (void)gpuFree(be->open);
    (void)gpuFree(be->mr_map);
    be->mr_map = NULL;
    (void)gpuFree(be->mr_sync);
    (void)gpuFree(be->mr_save);
    (void)gpuFree(be->mr_vals);
    (void)gpuFree(be->mr_zh_tile);
    be->mr_zh_tile = NULL;
    (void)gpuFree(be->mr_part);
    be->mr_part = NULL;
    be->mr_part_n[0] = be->mr_part_n[1] = 0;
    be->mr_part_bytes = 0;
    be->mr_sync = NULL;
    be->mr_save = NULL;
    be->mr_vals = NULL;
    be->mr_gap = 0;
    be->mr_save_n[0] = be->mr_save_n[1] = 0;
    (void)gpuFree(be->open_val);
    free(be->host_type);
    be->host_type = NULL;
    free(be->host_open);
    be->host_open = NULL;
    be->open = NULL;
    be->open_val = NULL;
    be->nopen = 0;
    be->f[0] = be->f[1] = NULL;
    be->neighbors = NULL;
    be->node_type = NULL;
    be->halo_type = NULL;
    be->corner = NULL;
    be->links = NULL;
    be->node_link = NULL;
    be->node_nlink = NULL;
    be->link_tile = NULL;
    be->tile_link = NULL;
    be->link_val = NULL;
    be->slots = NULL;
    be->packs = NULL;
    be->nlinks = 0;
    be->slots_ready = 0;
    be->bytes = 0;
    be->open_bytes = 0;
}

TESS_GPU_OP tess_status tess_gpu_upload_geometry(tess_backend_t *be, const tess_tiling_t *t, tess_error_t *err)
{
    tess_gpu_free_device(be);
    const size_t nt = t->ntiles > 0 ? (size_t)t->ntiles : 1;
    /* MR: its block shape, and the extra tiles an array of one copy of the moments would need (0: two copies only;
     * tess_gpu_mr_order.h) */
    const int64_t gap = be->cfg.pattern == TESS_PATTERN_MR ? tess_gpu_mr_plan(be, t) : 0;
    /* q populations per node, or the MR pattern's moments (tess_gpu_mr_host.h) */
    const size_t tbytes = (size_t)tess_state_node_values(be->cfg.pattern, t->lattice, t->q) * 64 *
                          tess_precision_size(be->cfg.precision);
    /* Curved links: the links and, per tile node, its range (tess_links_node_ranges). */
    const size_t nl = t->links.n > 0 ? (size_t)t->links.n : 0;
    const size_t lbytes =
        nl ? nl * (sizeof(tess_link_t) + sizeof(tess_gpu_link_slot_t) + sizeof(tess_gpu_link_pack_t) +
                   sizeof(int32_t) + sizeof(double)) +
                 nt * 64 * (sizeof(int64_t) + 1) + (nt + 1) * sizeof(int64_t)
           : 0;
    /* each tile's halo of node types (the tile kernel's; MR gathers its own), in as few bits as the tiling's
     * largest node type needs */
    unsigned max_type = 0;
    if (be->cfg.pattern != TESS_PATTERN_MR)
        for (size_t e = 0; e < (size_t)(t->ntiles > 0 ? t->ntiles : 0) * 64; e++)
            max_type = t->node_type[e] > max_type ? t->node_type[e] : max_type;
    be->halo_bits = tess_gpu_halo_bits(t->lattice, max_type);
    be->halo_stride = tess_gpu_halo_stride(t->ex, t->ey, t->ez, be->halo_bits);
    const size_t hstride = be->cfg.pattern == TESS_PATTERN_MR ? 0 : (size_t)be->halo_stride;
    const size_t rest = nt * (30 * sizeof(int32_t) + 64 + hstride) + lbytes;
    size_t free_b = 0, total_b = 0;
    TESS_GPU_TRY(gpuMemGetInfo(&free_b, &total_b), err, "querying device memory");
    /* MR's one copy where asked for (mr_copies 1), or by default where two copies would not fit: it runs slower
     * (docs/gpu.md, "MR") */
    if (gap > 0 && (be->cfg.mr_copies == 1 || (be->cfg.mr_copies == 0 && 2 * nt * tbytes + rest > free_b)))
        be->mr_gap = gap;
    const size_t fbytes = (nt + (size_t)be->mr_gap) * tbytes;
    const int copies = be->cfg.pattern == TESS_PATTERN_AA || be->mr_gap > 0 ? 1 : 2;
    const size_t need = copies * fbytes + rest;
    if (need > free_b)
        return tess_fail(err, TESS_ERR_NOMEM,
                         "out of device memory: %d tiles need %zu bytes (%.2f GiB) on %s, which has %zu bytes "
                         "(%.2f GiB) free of %zu",
                         t->ntiles, need, need / 1073741824.0, be->device_name, free_b, free_b / 1073741824.0,
                         total_b);
    gpuError_t rc = gpuMalloc(&be->f[0], fbytes);
    if (rc == gpuSuccess && copies == 2)
        rc = gpuMalloc(&be->f[1], fbytes);
    if (rc == gpuSuccess)
        rc = gpuMalloc((void **)&be->neighbors, nt * 27 * sizeof(int32_t));
    if (rc == gpuSuccess)
        rc = gpuMalloc((void **)&be->node_type, nt * 64);
    if (rc == gpuSuccess && hstride)
        rc = gpuMalloc((void **)&be->halo_type, nt * hstride);
    if (rc == gpuSuccess)
        rc = gpuMalloc((void **)&be->corner, nt * 3 * sizeof(int32_t));
    if (rc == gpuSuccess && nl)
        rc = gpuMalloc((void **)&be->links, nl * sizeof(tess_link_t));
    if (rc == gpuSuccess && nl)
        rc = gpuMalloc((void **)&be->node_link, nt * 64 * sizeof(int64_t));
    if (rc == gpuSuccess && nl)
        rc = gpuMalloc((void **)&be->node_nlink, nt * 64);
    if (rc == gpuSuccess && nl)
        rc = gpuMalloc((void **)&be->link_tile, nl * sizeof(int32_t));
    if (rc == gpuSuccess && nl)
        rc = gpuMalloc((void **)&be->slots, nl * sizeof(tess_gpu_link_slot_t));
    if (rc == gpuSuccess && nl)
        rc = gpuMalloc((void **)&be->packs, nl * sizeof(tess_gpu_link_pack_t));
    if (rc == gpuSuccess && nl)
        rc = gpuMalloc((void **)&be->tile_link, (nt + 1) * sizeof(int64_t));
    if (rc == gpuSuccess && nl)
        rc = gpuMalloc(&be->link_val, nl * tess_precision_size(be->cfg.precision));
    if (rc != gpuSuccess) {
        tess_gpu_free_device(be);
        (void)gpuGetLastError(); /* clear the sticky allocation error */
        return tess_fail(err, rc == gpuErrorMemoryAllocation ? TESS_ERR_NOMEM : TESS_ERR_DEVICE,
                         "allocating %zu bytes for %d tiles on %s failed (%s); %zu bytes were free", need, t->ntiles,
                         be->device_name, gpuGetErrorString(rc), free_b);
    }
    be->bytes = need;
    be->ntiles = t->ntiles;
    be->sweep_k0 = 0;
    be->sweep_k1 = be->nbound = be->nowned = t->ntiles;
    be->sweep_part = 3; /* TESS_DIST_FIRST | TESS_DIST_LAST */
    be->nlinks_owned = nl;
    memset(&be->shape, 0, sizeof be->shape);
    be->shape.lattice = t->lattice;
    be->shape.q = t->q;
    be->shape.ex = t->ex;
    be->shape.ey = t->ey;
    be->shape.ez = t->ez;
    if (nl && t->ntiles > 0) {
        int64_t *node_link = (int64_t *)malloc(nt * 64 * sizeof(int64_t));
        uint8_t *node_nlink = (uint8_t *)malloc(nt * 64);
        int32_t *link_tile = (int32_t *)malloc(nl * sizeof(int32_t));
        gpuError_t rl = node_link && node_nlink && link_tile ? gpuSuccess : gpuErrorMemoryAllocation;
        if (rl == gpuSuccess) {
            tess_links_node_ranges(t, node_link, node_nlink);
            for (int32_t k = 0; k < t->ntiles; k++)
                for (int64_t l = t->links.start[k]; l < t->links.start[k + 1]; l++)
                    link_tile[l] = k;
            rl = gpuMemcpy(be->links, t->links.link, nl * sizeof(tess_link_t), gpuMemcpyHostToDevice);
        }
        if (rl == gpuSuccess)
            rl = gpuMemcpy(be->node_link, node_link, nt * 64 * sizeof(int64_t), gpuMemcpyHostToDevice);
        if (rl == gpuSuccess)
            rl = gpuMemcpy(be->node_nlink, node_nlink, nt * 64, gpuMemcpyHostToDevice);
        if (rl == gpuSuccess)
            rl = gpuMemcpy(be->link_tile, link_tile, nl * sizeof(int32_t), gpuMemcpyHostToDevice);
        if (rl == gpuSuccess)
            rl = gpuMemcpy(be->tile_link, t->links.start, ((size_t)t->ntiles + 1) * sizeof(int64_t),
                           gpuMemcpyHostToDevice);
        const int host_ok = node_link && node_nlink && link_tile;
        free(node_link);
        free(node_nlink);
        free(link_tile);
        if (!host_ok)
            return tess_fail(err, TESS_ERR_NOMEM, "out of host memory for the link ranges of %d tiles", t->ntiles);
        TESS_GPU_TRY(rl, err, "uploading the curved-wall links");
        be->nlinks = (int64_t)nl;
    }
    if (t->ntiles > 0) {
        TESS_GPU_TRY(gpuMemcpy(be->neighbors, t->neighbors, (size_t)t->ntiles * 27 * sizeof(int32_t),
                               gpuMemcpyHostToDevice),
                     err, "uploading the tile neighbourhoods");
        TESS_GPU_TRY(gpuMemcpy(be->node_type, t->node_type, (size_t)t->ntiles * 64, gpuMemcpyHostToDevice), err,
                     "uploading the node types");
        be->host_type = (uint8_t *)malloc((size_t)t->ntiles * 64);
        if (!be->host_type)
            return tess_fail(err, TESS_ERR_NOMEM, "out of host memory for the node types of %d tiles", t->ntiles);
        memcpy(be->host_type, t->node_type, (size_t)t->ntiles * 64);
        TESS_GPU_TRY(gpuMemcpy(be->corner, t->tile_corner, (size_t)t->ntiles * 3 * sizeof(int32_t),
                               gpuMemcpyHostToDevice),
                     err, "uploading the tile corners");
    }
    if (t->ntiles > 0 && hstride) {
        /* each tile's halo of node types, so that the tile kernel reads it in one coalesced run (tess_gpu_halo_place);
         * a thread writes a whole word, the padding between tiles included (zero) */
        const size_t n = (size_t)t->ntiles * hstride / 4;
        tess_gpu_halo_fill<<<(unsigned)((n + 255) / 256), 256>>>((uint32_t *)be->halo_type, be->neighbors,
                                                               be->node_type, (int64_t)t->ntiles, t->ex, t->ey,
                                                               t->ez, be->halo_bits);
        TESS_GPU_TRY(gpuGetLastError(), err, "filling the halo node types");
    }
    if (be->cfg.pattern == TESS_PATTERN_MR)
        return tess_gpu_mr_upload(be, t, err);
    return TESS_OK;
}

/* Canonical storage <-> the device's. The device holds (t * q + i) * 64 + local (core/tess_q_step.h); only
 * D3Q19's canonical storage differs from that (tess_state_index: the per-direction layouts of tess_layout.h). */
TESS_GPU_OP int tess_gpu_converts(const tess_backend_t *be)
{
    return be->shape.lattice == TESS_LATTICE_D3Q19;
}


/* A state source (tess_state_fill_fn) over a whole canonical copy on the host. */
typedef struct {
    const tess_tiling_t *shape;
    tess_precision prec;
    void *canon;
} tess_gpu_canon_t;

TESS_GPU_OP void tess_gpu_fill_canon(void *ctx, int32_t k0, int32_t k1, void *tiles)
{
    const tess_gpu_canon_t *c = (const tess_gpu_canon_t *)ctx;
    tess_state_convert(c->shape, c->prec, c->canon, tiles, k0, k1, 1);
}

/* The populations from a source into every copy, a chunk of tiles at a time through one staging buffer. */
TESS_GPU_OP tess_status tess_gpu_upload(tess_backend_t *be, tess_state_fill_fn fill, void *ctx, tess_error_t *err)
{
    const size_t tile_bytes = (size_t)be->shape.q * 64 * tess_precision_size(be->cfg.precision);
    const int32_t chunk = be->ntiles < TESS_GPU_TRANSFER_TILES ? be->ntiles : TESS_GPU_TRANSFER_TILES;
    if (chunk == 0)
        return TESS_OK;
    char *staging = (char *)malloc((size_t)chunk * tile_bytes);
    if (!staging)
        return tess_fail(err, TESS_ERR_NOMEM, "out of host memory: %zu bytes for the upload's staging",
                         (size_t)chunk * tile_bytes);
    gpuError_t rc = gpuSuccess;
    for (int32_t k0 = 0; k0 < be->ntiles && rc == gpuSuccess; k0 += chunk) {
        const int32_t k1 = be->ntiles - k0 < chunk ? be->ntiles : k0 + chunk;
        const size_t off = (size_t)k0 * tile_bytes, len = (size_t)(k1 - k0) * tile_bytes;
        fill(ctx, k0, k1, staging);
        rc = gpuMemcpy((char *)be->f[0] + off, staging, len, gpuMemcpyHostToDevice);
    }
    free(staging);
    /* AB's second copy on the device: at memory speed instead of a second pass over the host link */
    if (rc == gpuSuccess && be->f[1])
        rc = gpuMemcpy(be->f[1], be->f[0], (size_t)be->ntiles * tile_bytes, gpuMemcpyDeviceToDevice);
    TESS_GPU_TRY(rc, err, "uploading the populations");
    return TESS_OK;
}

TESS_GPU_OP tess_status tess_gpu_transfer(tess_backend_t *be, void *host, int to_device, tess_error_t *err)
{
    const size_t vsize = tess_precision_size(be->cfg.precision), tile_bytes = (size_t)be->shape.q * 64 * vsize;
    const size_t bytes = (size_t)be->ntiles * tile_bytes;
    if (bytes == 0)
        return TESS_OK;
    gpuError_t rc = gpuSuccess;
    if (!tess_gpu_converts(be)) {
        if (to_device) {
            rc = gpuMemcpy(be->f[0], host, bytes, gpuMemcpyHostToDevice);
            if (rc == gpuSuccess && be->f[1])
                rc = gpuMemcpy(be->f[1], be->f[0], bytes, gpuMemcpyDeviceToDevice);
        } else {
            rc = gpuMemcpy(host, be->f[be->cur], bytes, gpuMemcpyDeviceToHost);
        }
        TESS_GPU_TRY(rc, err, to_device ? "uploading the populations" : "downloading the populations");
        return TESS_OK;
    }
    if (to_device) {
        tess_gpu_canon_t c = {&be->shape, be->cfg.precision, host};
        return tess_gpu_upload(be, tess_gpu_fill_canon, &c, err);
    }
    const int32_t chunk = be->ntiles < TESS_GPU_TRANSFER_TILES ? be->ntiles : TESS_GPU_TRANSFER_TILES;
    char *staging = (char *)malloc((size_t)chunk * tile_bytes);
    if (!staging)
        return tess_fail(err, TESS_ERR_NOMEM, "out of host memory: %zu bytes for the layout conversion",
                         (size_t)chunk * tile_bytes);
    for (int32_t k0 = 0; k0 < be->ntiles && rc == gpuSuccess; k0 += chunk) {
        const int32_t k1 = be->ntiles - k0 < chunk ? be->ntiles : k0 + chunk;
        const size_t off = (size_t)k0 * tile_bytes, len = (size_t)(k1 - k0) * tile_bytes;
        rc = gpuMemcpy(staging, (const char *)be->f[be->cur] + off, len, gpuMemcpyDeviceToHost);
        if (rc == gpuSuccess)
            tess_state_convert(&be->shape, be->cfg.precision, host, staging, k0, k1, 0);
    }
    free(staging);
    TESS_GPU_TRY(rc, err, "downloading the populations");
    return TESS_OK;
}

/* initialise and initialise_from: the state from a whole canonical copy (pops) or from a source (fill, ctx). */
TESS_GPU_OP tess_status tess_gpu_initialise_state(tess_backend_t *be, const tess_params_t *p, const void *pops,
                                                  tess_state_fill_fn fill, void *ctx, tess_error_t *err)
{
    if (!be->f[0])
        return tess_fail(err, TESS_ERR_INPUT, "initialise called before upload_geometry");
    if (p->lattice != be->shape.lattice)
        return tess_fail(err, TESS_ERR_INPUT, "the physics is for lattice %d but the tiling for lattice %d",
                         (int)p->lattice, be->shape.lattice);
    if (be->cfg.plain_xyz)
        return tess_fail(err, TESS_ERR_UNSUPPORTED,
                         "plain_xyz (the layout study) is gone: the GPU stores every direction in L_XYZ "
                         "(docs/performance.md)");
    const tess_status st = tess_q_check_physics(p, err);
    if (st != TESS_OK)
        return st;
    if (be->cfg.pattern == TESS_PATTERN_MR) {
        const tess_status so = tess_gpu_mr_opt_in(be, err);
        return so != TESS_OK ? so : tess_gpu_mr_initialise(be, p, pops, fill, ctx, err);
    }
    /* The inlet and outlet nodes the sweep leaves out: their own small kernel after it (boundaries as data). */
    (void)gpuFree(be->open);
    (void)gpuFree(be->open_val);
    be->bytes -= be->open_bytes;
    be->open_bytes = 0;
    be->open = NULL;
    be->open_val = NULL;
    be->nopen = 0;
    free(be->host_open);
    be->host_open = NULL;
    int64_t nopen = 0;
    for (int64_t j = 0; j < (int64_t)be->ntiles * 64; j++)
        nopen += be->host_type[j] < p->nmat && tess_q_kind_is_wet(p->mat[be->host_type[j]].kind) &&
                 !tess_gpu_q_in_sweep(p->lattice, &p->mat[be->host_type[j]]);
    if (nopen > 0) {
        int64_t *open = (int64_t *)malloc((size_t)nopen * sizeof *open);
        if (!open)
            return tess_fail(err, TESS_ERR_NOMEM, "out of host memory for %lld inlet/outlet nodes", (long long)nopen);
        int64_t m = 0;
        for (int64_t j = 0; j < (int64_t)be->ntiles * 64; j++)
            if (be->host_type[j] < p->nmat && tess_q_kind_is_wet(p->mat[be->host_type[j]].kind) &&
                !tess_gpu_q_in_sweep(p->lattice, &p->mat[be->host_type[j]]))
                open[m++] = j;
        gpuError_t rc = gpuMalloc((void **)&be->open, (size_t)nopen * sizeof *open);
        if (rc == gpuSuccess)
            rc = gpuMemcpy(be->open, open, (size_t)nopen * sizeof *open, gpuMemcpyHostToDevice);
        be->host_open = open; /* a tile range's nodes (tess_gpu_open_first) */
        TESS_GPU_TRY(rc, err, "uploading the inlet/outlet node list");
        be->nopen = (int32_t)nopen;
        be->open_bytes = (size_t)nopen * sizeof *open;
        if (be->cfg.pattern == TESS_PATTERN_AA) { /* the pre-pass's values (tess_gpu_q_open_step) */
            const size_t vb = (size_t)nopen * be->shape.q * tess_precision_size(be->cfg.precision);
            TESS_GPU_TRY(gpuMalloc(&be->open_val, vb), err, "allocating the inlet/outlet values of the AA pre-pass");
            be->open_bytes += vb;
        }
        be->bytes += be->open_bytes;
    }
    be->consts.p = *p;
    for (int m = 0; m < 256; m++)
        be->consts.wet[m] = (uint8_t)(m < p->nmat && tess_kind_is_wet(p->mat[m].kind));
    be->consts_id = ++tess_gpu_constants_next;
    be->slots_ready = 0; /* the slots depend on which materials are wet and on the wall rule */
    be->cur = 0;
    be->nsteps_done = 0;
    be->step = p->step0;
    /* Every copy starts from the state: dry nodes inside tiles are never written, so they keep it. */
    return pops ? tess_gpu_transfer(be, (void *)pops, 1, err) : tess_gpu_upload(be, fill, ctx, err);
}

TESS_GPU_OP tess_status tess_gpu_initialise(tess_backend_t *be, const tess_params_t *p, const void *pops,
                                            tess_error_t *err)
{
    return tess_gpu_initialise_state(be, p, pops, NULL, NULL, err);
}

/* The host never holds the whole state: the source fills one staging chunk at a time (tess_backend.h). */
TESS_GPU_OP tess_status tess_gpu_initialise_from(tess_backend_t *be, const tess_params_t *p, tess_state_fill_fn fill,
                                                 void *ctx, tess_error_t *err)
{
    return tess_gpu_initialise_state(be, p, NULL, fill, ctx, err);
}

/* The pattern's step that comes next: AB, or AA's odd step (the 1st, 3rd, ...) or even step. */
TESS_GPU_OP int tess_gpu_pattern_step(const tess_backend_t *be)
{
    if (be->cfg.pattern != TESS_PATTERN_AA)
        return TESS_GPU_AB;
    return be->nsteps_done % 2 == 0 ? TESS_GPU_AA_ODD : TESS_GPU_AA_EVEN;
}

/* One step of the engine's kernels for a lattice, precision and pattern step: defined in tess_gpu_launch.h, which
 * this unit does not include, and explicitly instantiated in one translation unit per triple
 * (backends/cuda/cuda_step.cu, backends/hip/hip_step.hip), so that the kernels compile in parallel. */
template <typename R, int LAT, int PAT> tess_status tess_gpu_launch_step(tess_backend_t *be, tess_error_t *err);

template <typename R, int LAT>
TESS_GPU_OP tess_status tess_gpu_launch_lattice(tess_backend_t *be, tess_error_t *err)
{
    switch (tess_gpu_pattern_step(be)) {
    case TESS_GPU_AA_ODD: return tess_gpu_launch_step<R, LAT, TESS_GPU_AA_ODD>(be, err);
    case TESS_GPU_AA_EVEN: return tess_gpu_launch_step<R, LAT, TESS_GPU_AA_EVEN>(be, err);
    default: return tess_gpu_launch_step<R, LAT, TESS_GPU_AB>(be, err);
    }
}

template <typename R>
TESS_GPU_OP tess_status tess_gpu_launch(tess_backend_t *be, tess_error_t *err)
{
    tess_status st = TESS_OK;
    if (be->cfg.pattern == TESS_PATTERN_MR) {
        tess_gpu_mr_launch<R>(be);
        TESS_GPU_TRY(gpuGetLastError(), err, "launching the MR step kernel");
    } else
        switch (be->shape.lattice) {
    case TESS_LATTICE_D2Q9: st = tess_gpu_launch_lattice<R, TESS_LATTICE_D2Q9>(be, err); break;
    case TESS_LATTICE_D3Q13: st = tess_gpu_launch_lattice<R, TESS_LATTICE_D3Q13>(be, err); break;
    case TESS_LATTICE_D3Q27: st = tess_gpu_launch_lattice<R, TESS_LATTICE_D3Q27>(be, err); break;
    default: st = tess_gpu_launch_lattice<R, TESS_LATTICE_D3Q19>(be, err); break;
    }
    if (st != TESS_OK)
        return st;
    if (!(be->sweep_part & 2)) /* a distributed rank's first part of a step (tess_gpu_dist.h) */
        return TESS_OK;
    if (be->cfg.pattern != TESS_PATTERN_AA)
        be->cur = 1 - be->cur;
    be->nsteps_done++;
    be->step++;
    return TESS_OK;
}

/* Before a step: the constants, and the link slots at the first step after initialise. */
TESS_GPU_OP tess_status tess_gpu_step_prepare(tess_backend_t *be, tess_error_t *err)
{
    const tess_status sc = tess_gpu_bind_constants(be, err);
    if (sc != TESS_OK)
        return sc;
    if (be->nlinks > 0 && !be->slots_ready) {
        const unsigned lb = (unsigned)((be->nlinks + 127) / 128);
        tess_q_grid_t g;
        memset(&g, 0, sizeof g);
        g.neighbors = be->neighbors;
        g.node_type = be->node_type;
        g.corner = be->corner;
        g.ex = be->shape.ex;
        g.ey = be->shape.ey;
        g.ez = be->shape.ez;
#define TESS_GPU_FILL(LAT)                                                                                         \
    tess_gpu_link_slots_fill<tess_gpu_q<double, LAT>><<<lb, 128>>>(be->links, be->link_tile, be->nlinks, g, be->slots, \
                                                        be->packs, be->cfg.precision == TESS_PRECISION_DOUBLE)
        switch (be->shape.lattice) {
        case TESS_LATTICE_D2Q9: TESS_GPU_FILL(TESS_LATTICE_D2Q9); break;
        case TESS_LATTICE_D3Q13: TESS_GPU_FILL(TESS_LATTICE_D3Q13); break;
        case TESS_LATTICE_D3Q27: TESS_GPU_FILL(TESS_LATTICE_D3Q27); break;
        default: TESS_GPU_FILL(TESS_LATTICE_D3Q19); break;
        }
#undef TESS_GPU_FILL
        TESS_GPU_TRY(gpuGetLastError(), err, "launching the link-slot kernel");
        be->slots_ready = 1;
    }
    return TESS_OK;
}

TESS_GPU_OP tess_status tess_gpu_step(tess_backend_t *be, int nsteps, tess_error_t *err)
{
    if (!be->f[0])
        return tess_fail(err, TESS_ERR_INPUT, "step called before upload_geometry and initialise");
    if (be->ntiles == 0 || nsteps <= 0)
        return TESS_OK;
    const tess_status sc = tess_gpu_step_prepare(be, err);
    if (sc != TESS_OK)
        return sc;
    for (int s = 0; s < nsteps; s++) {
        const tess_status st = be->cfg.precision == TESS_PRECISION_SINGLE ? tess_gpu_launch<float>(be, err)
                                                                            : tess_gpu_launch<double>(be, err);
        if (st != TESS_OK)
            return st;
    }
    TESS_GPU_TRY(gpuDeviceSynchronize(), err, "running the step kernel");
    return TESS_OK;
}

/* AA's copy holds the canonical state after an even number of steps only (docs/patterns.md, "AA"), as the CPU's. */
TESS_GPU_OP tess_status tess_gpu_canonical(const tess_backend_t *be, tess_error_t *err)
{
    if (be->cfg.pattern == TESS_PATTERN_AA && be->nsteps_done % 2 != 0)
        return tess_fail(err, TESS_ERR_UNSUPPORTED,
                         "the AA pattern holds canonical populations after even steps only (%lld steps done)",
                         (long long)be->nsteps_done);
    return TESS_OK;
}

TESS_GPU_OP tess_status tess_gpu_download_populations(tess_backend_t *be, void *pops, tess_error_t *err)
{
    if (be->cfg.pattern == TESS_PATTERN_MR)
        return tess_gpu_mr_transfer(be, pops, 0, err);
    const tess_status st = tess_gpu_canonical(be, err);
    return st != TESS_OK ? st : tess_gpu_transfer(be, pops, 0, err);
}

/* The divergence test's reduction on the device (tess_gpu_check.h). */
TESS_GPU_OP tess_status tess_gpu_check_state_op(tess_backend_t *be, tess_check_t *r, tess_error_t *err)
{
    if (!be->f[0])
        return tess_fail(err, TESS_ERR_INPUT, "check_state called before upload_geometry and initialise");
    tess_status sc = tess_gpu_canonical(be, err);
    if (sc != TESS_OK)
        return sc;
    sc = tess_gpu_bind_constants(be, err);
    if (sc != TESS_OK)
        return sc;
    if (be->cfg.pattern == TESS_PATTERN_MR)
        return tess_gpu_mr_check(be, r, err);
    TESS_GPU_TRY(tess_gpu_check_state(be->f[be->cur], be->node_type, be->ntiles, be->shape.lattice,
                                      be->cfg.precision == TESS_PRECISION_SINGLE, r),
                 err, "checking the state for divergence");
    return TESS_OK;
}

TESS_GPU_OP size_t tess_gpu_bytes_allocated(const tess_backend_t *be)
{
    return be->bytes;
}

TESS_GPU_OP int tess_gpu_compare_float(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Median over several timed copies of about `bytes` bytes (read + written counted), after one warm-up. */
TESS_GPU_OP double tess_gpu_copy_bandwidth(tess_backend_t *be, size_t bytes, tess_error_t *err)
{
    (void)be;
    enum { REPS = 7 };
    const size_t n = bytes / 2 / sizeof(double2);
    if (n == 0) {
        tess_fail(err, TESS_ERR_INPUT, "copy bandwidth needs at least %zu bytes", 2 * sizeof(double2));
        return 0.0;
    }
    double2 *a = NULL, *b = NULL;
    gpuEvent_t e0 = NULL, e1 = NULL;
    float ms[REPS];
    double result = 0.0;
    gpuError_t rc = gpuMalloc((void **)&a, n * sizeof(double2));
    if (rc == gpuSuccess)
        rc = gpuMalloc((void **)&b, n * sizeof(double2));
    if (rc == gpuSuccess)
        rc = gpuMemset(a, 0x3f, n * sizeof(double2)); /* not zeros: nothing may run faster on them */
    if (rc == gpuSuccess)
        rc = gpuEventCreate(&e0);
    if (rc == gpuSuccess)
        rc = gpuEventCreate(&e1);
    for (int r = -1; r < REPS && rc == gpuSuccess; r++) {
        rc = gpuEventRecord(e0, 0);
        tess_gpu_copy<<<1024, 512>>>(a, b, n);
        if (rc == gpuSuccess)
            rc = gpuGetLastError();
        if (rc == gpuSuccess)
            rc = gpuEventRecord(e1, 0);
        if (rc == gpuSuccess)
            rc = gpuEventSynchronize(e1);
        if (rc == gpuSuccess && r >= 0)
            rc = gpuEventElapsedTime(&ms[r], e0, e1);
    }
    if (rc == gpuSuccess) {
        qsort(ms, REPS, sizeof ms[0], tess_gpu_compare_float);
        result = 2.0 * (double)(n * sizeof(double2)) / (ms[REPS / 2] * 1e-3) / 1e9;
    } else {
        (void)gpuGetLastError();
        tess_gpu_fail(err, rc, "measuring the copy bandwidth");
    }
    if (e0)
        (void)gpuEventDestroy(e0);
    if (e1)
        (void)gpuEventDestroy(e1);
    (void)gpuFree(a);
    (void)gpuFree(b);
    return result;
}

/* How AA's odd step sweeps its tiles, as tess_gpu_describe reports it: from the traits that choose it
 * (tess_gpu_q_pair, tess_gpu_q_pair_pf), so that the report follows them. */
template <typename R, int LAT> static const char *tess_gpu_odd_pairing_of(void)
{
    return tess_gpu_q_pair<R, LAT, TESS_GPU_AA_ODD>::value      ? " (odd step: 2, tess_gpu_q_pair)"
           : tess_gpu_q_pair_pf<R, LAT, TESS_GPU_AA_ODD>::value ? " (odd step without links: 2, tess_gpu_q_pair_pf)"
                                                               : "";
}
template <typename R> static const char *tess_gpu_odd_pairing(int lattice)
{
    switch (lattice) {
    case TESS_LATTICE_D2Q9: return tess_gpu_odd_pairing_of<R, TESS_LATTICE_D2Q9>();
    case TESS_LATTICE_D3Q13: return tess_gpu_odd_pairing_of<R, TESS_LATTICE_D3Q13>();
    case TESS_LATTICE_D3Q27: return tess_gpu_odd_pairing_of<R, TESS_LATTICE_D3Q27>();
    default: return tess_gpu_odd_pairing_of<R, TESS_LATTICE_D3Q19>();
    }
}

TESS_GPU_OP void tess_gpu_describe(const tess_backend_t *be, char *buf, size_t len)
{
    gpuDeviceProp_t prop;
    int clock_khz = 0, mem_khz = 0;
    if (gpuGetDeviceProperties(&prop, be->cfg.device) != gpuSuccess) {
        snprintf(buf, len, "%s device %d (properties unavailable)", TESS_GPU_RUNTIME_NAME, be->cfg.device);
        return;
    }
    (void)gpuDeviceGetAttribute(&clock_khz, gpuDevAttrClockRate, be->cfg.device);
    (void)gpuDeviceGetAttribute(&mem_khz, gpuDevAttrMemoryClockRate, be->cfg.device);
    char kernel[96];
    const tess_lattice_t *lat = tess_lattice_get((tess_lattice_id)be->shape.lattice);
    if (be->cfg.pattern == TESS_PATTERN_MR)
        snprintf(kernel, sizeof kernel, "%s MR kernel, moments, %s, %d nodes per block", lat ? lat->name : "?",
                 be->mr_gap > 0 ? "one copy" : "two copies", be->mr_nodes);
    else
        snprintf(kernel, sizeof kernel, "%s tile kernel, pattern %s, %d tile%s per block%s", lat ? lat->name : "?",
                 be->cfg.pattern == TESS_PATTERN_AA ? "aa" : "ab", be->tiles_per_block,
                 be->tiles_per_block == 1 ? "" : "s",
                 be->cfg.pattern != TESS_PATTERN_AA ? ""
                 : be->cfg.precision == TESS_PRECISION_DOUBLE ? tess_gpu_odd_pairing<double>(be->shape.lattice)
                                                              : tess_gpu_odd_pairing<float>(be->shape.lattice));
    snprintf(buf, len,
             "%s %s (compute capability %d.%d), %d multiprocessors, %.1f GiB, %d MHz, memory %d MHz x %d bit, "
             "L2 %d MiB, %s",
             TESS_GPU_RUNTIME_NAME, prop.name, prop.major, prop.minor, prop.multiProcessorCount,
             prop.totalGlobalMem / 1073741824.0, clock_khz / 1000, mem_khz / 1000, prop.memoryBusWidth,
             prop.l2CacheSize >> 20, kernel);
}

TESS_GPU_OP void tess_gpu_destroy(tess_backend_t *be)
{
    if (!be)
        return;
    tess_gpu_free_device(be);
    free(be);
}

/* Theoretical peak: memory clock x 2 (double data rate) x bus width. */
TESS_GPU_OP double tess_gpu_peak_bandwidth(const tess_backend_t *be)
{
    gpuDeviceProp_t prop;
    int mem_khz = 0;
    if (gpuGetDeviceProperties(&prop, be->cfg.device) != gpuSuccess ||
        gpuDeviceGetAttribute(&mem_khz, gpuDevAttrMemoryClockRate, be->cfg.device) != gpuSuccess)
        return 0.0;
    return 2.0 * mem_khz * 1e3 * (prop.memoryBusWidth / 8.0) / 1e9;
}

/* The table is filled by member name, so operations added to tess_backend.h later start as NULL (optional). */
static inline tess_backend_ops_t tess_gpu_make_ops(const char *label)
{
    tess_backend_ops_t ops;
    memset(&ops, 0, sizeof ops);
    ops.name = label;
    ops.create = tess_gpu_create;
    ops.upload_geometry = tess_gpu_upload_geometry;
    ops.initialise = tess_gpu_initialise;
    ops.initialise_from = tess_gpu_initialise_from;
    ops.step = tess_gpu_step;
    ops.download_populations = tess_gpu_download_populations;
    ops.check_state = tess_gpu_check_state_op;
    ops.bytes_allocated = tess_gpu_bytes_allocated;
    ops.copy_bandwidth = tess_gpu_copy_bandwidth;
    ops.peak_bandwidth = tess_gpu_peak_bandwidth;
    ops.describe = tess_gpu_describe;
    ops.destroy = tess_gpu_destroy;
    return ops;
}

/* Exports the operations under a fixed name (core/tess_backend_registry.c refers to it). The table is host
 * data: the device passes of the compilers must not see it (they have no host functions to point to). */
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define TESS_GPU_DEFINE_BACKEND(symbol, label) static_assert(true, "host-only table")
#else
#define TESS_GPU_DEFINE_BACKEND(symbol, label) extern "C" const tess_backend_ops_t symbol = tess_gpu_make_ops(label)
#endif

#endif
