/* The host side of the GPU's moment representation (tess_gpu_mr.h): the state's conversion to and from moments,
 * the list of nodes the plain kernel leaves to the core's whole MR node, the launch and the divergence check.
 * Included by tess_gpu_ops.h after the backend's record (tess_gpu_backend.h); the MR state lives in f[0] (one copy
 * and its extra tiles, tess_gpu_mr_order.h) or in the two copies f[0], f[1] (moments instead of populations), and its
 * open-node list (open, nopen). Every access to the moments goes through tess_gpu_mr_copy. */
#ifndef TESS_GPU_MR_HOST_H
#define TESS_GPU_MR_HOST_H

#include "tess_gpu_mr.h"
extern "C" {
#include "tess_state_mr.h"
}
#include <math.h>

/* Values per node in one copy of the MR state. */
static int tess_gpu_mr_values(const tess_backend_t *be)
{
    return tess_state_node_values(TESS_PATTERN_MR, be->shape.lattice, be->shape.q);
}

/* Where copy c (be->cur: the current state, 1 - be->cur: the next) of the moments lies: with one copy, in f[0] at
 * tile offset mr_gap (c = 0) or 0 (c = 1); else f[c]. Tile k's moment s of node n is at ((k * nm + s) * 64 + n)
 * from there in either case: the list kernel, the transfers, the check and a GPU rank's halo exchange
 * (tess_gpu_dist.h) index it as before. */
static void *tess_gpu_mr_copy(const tess_backend_t *be, int c)
{
    if (be->mr_gap == 0)
        return be->f[c];
    const size_t tile = 64 * (size_t)tess_gpu_mr_values(be) * tess_precision_size(be->cfg.precision);
    return (char *)be->f[0] + (c == 0 ? (size_t)be->mr_gap * tile : 0);
}

/* Moments <-> canonical populations a chunk of tiles at a time (the device store is tile-major, ((k * nm + s) * 64 +
 * local), so a chunk of tiles is one contiguous block), every node converted by the core as the CPU's MR does it
 * (tess_state_mr_convert). Upload: into both copies, from a whole canonical copy (pops) or from a source (fill);
 * download: from the current copy into pops. The host holds one chunk of moments (and of populations from a
 * source), never a whole copy of either. With one copy there is nothing to duplicate. */
static tess_status tess_gpu_mr_transfer_from(tess_backend_t *be, void *pops, tess_state_fill_fn fill, void *ctx,
                                             int to_device, tess_error_t *err)
{
    const size_t vs = tess_precision_size(be->cfg.precision);
    const size_t tile_ms = 64 * (size_t)tess_gpu_mr_values(be) * vs, tile_pops = 64 * (size_t)be->shape.q * vs;
    const int32_t chunk = be->ntiles < TESS_GPU_TRANSFER_TILES ? be->ntiles : TESS_GPU_TRANSFER_TILES;
    if (chunk == 0)
        return TESS_OK;
    char *ms = (char *)malloc((size_t)chunk * tile_ms);
    char *tiles = fill ? (char *)malloc((size_t)chunk * tile_pops) : NULL;
    if (!ms || (fill && !tiles)) {
        free(ms);
        free(tiles);
        return tess_fail(err, TESS_ERR_NOMEM, "out of host memory: %zu bytes for the MR moments' staging",
                         (size_t)chunk * (tile_ms + (fill ? tile_pops : 0)));
    }
    gpuError_t rc = gpuSuccess;
    for (int32_t k0 = 0; k0 < be->ntiles && rc == gpuSuccess; k0 += chunk) {
        const int32_t k1 = be->ntiles - k0 < chunk ? be->ntiles : k0 + chunk;
        const size_t off = (size_t)k0 * tile_ms, len = (size_t)(k1 - k0) * tile_ms;
        if (to_device) {
            if (fill) {
                fill(ctx, k0, k1, tiles);
                tess_state_mr_convert(&be->shape, be->cfg.precision, tiles, 0, ms, k0, k1, 1);
            } else {
                tess_state_mr_convert(&be->shape, be->cfg.precision, pops, 1, ms, k0, k1, 1);
            }
            rc = gpuMemcpy((char *)tess_gpu_mr_copy(be, be->cur) + off, ms, len, gpuMemcpyHostToDevice);
        } else {
            rc = gpuMemcpy(ms, (const char *)tess_gpu_mr_copy(be, be->cur) + off, len, gpuMemcpyDeviceToHost);
            if (rc == gpuSuccess)
                tess_state_mr_convert(&be->shape, be->cfg.precision, pops, 1, ms, k0, k1, 0);
        }
    }
    free(ms);
    free(tiles);
    if (rc == gpuSuccess && to_device && be->mr_gap == 0) /* the second copy on the device, at memory speed */
        rc = gpuMemcpy(be->f[1], be->f[0], (size_t)be->ntiles * tile_ms, gpuMemcpyDeviceToDevice);
    TESS_GPU_TRY(rc, err, to_device ? "uploading the MR moments" : "downloading the MR moments");
    return TESS_OK;
}

static tess_status tess_gpu_mr_transfer(tess_backend_t *be, void *pops, int to_device, tess_error_t *err)
{
    return tess_gpu_mr_transfer_from(be, pops, NULL, NULL, to_device, err);
}

/* Whether the plain MR kernel of this run reconstructs the nodes of material m itself: D3Q19 Zou-He inlet/outlet
 * planes in the group kernel (tess_gpu_mr_step; mr_nodes < 1024), which need only the node's own pulled
 * populations (tess_q_gather_from's order: pull, then tess_q_zou_he_plane). Through the list kernel, which rebuilds
 * every pulled population from global memory, the sphere bed's two planes (73,728 nodes) took 45% (FP32) and 34%
 * (FP64) of its step on the H100 (docs/performance-notes.md, "GPU MR: the bed's pressure planes"). The column
 * sweep leaves them to the list kernel (dense tilings; not measured with planes). */
static bool tess_gpu_mr_zou_he_in_plain(const tess_backend_t *be, const tess_material_t *m)
{
    return be->shape.lattice == TESS_LATTICE_D3Q19 && be->mr_nodes < 1024 &&
           (m->kind == TESS_NODE_VELOCITY || m->kind == TESS_NODE_PRESSURE) && m->method == TESS_BC_ZOU_HE;
}

/* Whether the plain MR kernel leaves a wet node of material m to the list kernel: inlets and outlets of every
 * method (nee, Zou-He and fd read more than the node's upstream neighbours) but those it reconstructs itself
 * (tess_gpu_mr_zou_he_in_plain), and nodes with curved-wall links under a Bouzidi rule. */
static bool tess_gpu_mr_listed(const tess_backend_t *be, const tess_params_t *p, const tess_material_t *m,
                               int nlinks)
{
    const bool curved = nlinks > 0 && p->wall != TESS_WALL_BOUNCE_BACK;
    return curved || (m->kind != TESS_NODE_FLUID && !tess_gpu_mr_zou_he_in_plain(be, m));
}

/* The physics, the list of nodes for the list kernel and the moments of the state (both copies). */
static tess_status tess_gpu_mr_initialise(tess_backend_t *be, const tess_params_t *p, const void *pops,
                                          tess_state_fill_fn fill, void *ctx, tess_error_t *err)
{
    if (p->collision != TESS_COLLISION_REGULARIZED)
        return tess_fail(err, TESS_ERR_INPUT,
                         "the MR pattern stores moments and runs the regularized collision only: set collision = "
                         "regularized, or use pattern ab for lbgk and mrt");
    (void)gpuFree(be->open);
    (void)gpuFree(be->mr_vals);
    (void)gpuFree(be->mr_zh_tile);
    free(be->host_open);
    be->open = NULL;
    be->mr_vals = NULL;
    be->mr_zh_tile = NULL;
    be->host_open = NULL;
    be->nopen = 0;
    be->bytes -= be->open_bytes;
    be->open_bytes = 0;
    const size_t nn = (size_t)be->ntiles * 64;
    uint8_t *nlink = (uint8_t *)calloc(nn ? nn : 1, 1);
    if (!nlink)
        return tess_fail(err, TESS_ERR_NOMEM, "out of host memory for the link counts of %d tiles", be->ntiles);
    gpuError_t rc = be->node_nlink ? gpuMemcpy(nlink, be->node_nlink, nn, gpuMemcpyDeviceToHost) : gpuSuccess;
    int64_t nlist = 0;
    for (size_t j = 0; rc == gpuSuccess && j < nn; j++)
        nlist += be->host_type[j] < p->nmat && tess_q_kind_is_wet(p->mat[be->host_type[j]].kind) &&
                 tess_gpu_mr_listed(be, p, &p->mat[be->host_type[j]], nlink[j]);
    int64_t *list = nlist > 0 ? (int64_t *)malloc((size_t)nlist * sizeof *list) : NULL;
    if (nlist > 0 && !list) {
        free(nlink);
        return tess_fail(err, TESS_ERR_NOMEM, "out of host memory for %lld MR list nodes", (long long)nlist);
    }
    int64_t m = 0;
    for (size_t j = 0; rc == gpuSuccess && nlist > 0 && j < nn; j++)
        if (be->host_type[j] < p->nmat && tess_q_kind_is_wet(p->mat[be->host_type[j]].kind) &&
            tess_gpu_mr_listed(be, p, &p->mat[be->host_type[j]], nlink[j]))
            list[m++] = (int64_t)j;
    free(nlink);
    if (rc == gpuSuccess && nlist > 0)
        rc = gpuMalloc((void **)&be->open, (size_t)nlist * sizeof *list);
    if (rc == gpuSuccess && nlist > 0)
        rc = gpuMemcpy(be->open, list, (size_t)nlist * sizeof *list, gpuMemcpyHostToDevice);
    be->host_open = list; /* a tile range's nodes (tess_gpu_open_first): a distributed rank's parts */
    /* one copy: the list kernel's moments wait here while the plain kernel still reads the old ones */
    const size_t vbytes = (size_t)nlist * TESS_MR_NM * tess_precision_size(be->cfg.precision);
    if (rc == gpuSuccess && nlist > 0 && be->mr_gap > 0)
        rc = gpuMalloc(&be->mr_vals, vbytes);
    TESS_GPU_TRY(rc, err, "preparing the MR list of inlet, outlet and curved-wall nodes");
    be->nopen = (int32_t)nlist;
    be->open_bytes = (size_t)nlist * sizeof *list + (be->mr_gap > 0 ? vbytes : 0);
    be->bytes += be->open_bytes;
    be->consts.p = *p;
    be->consts.mr_any_zou_he = 0;
    for (int k = 0; k < 256; k++) {
        be->consts.wet[k] = (uint8_t)(k < p->nmat && tess_kind_is_wet(p->mat[k].kind));
        be->consts.mr_zou_he[k] = (uint8_t)(k < p->nmat && tess_gpu_mr_zou_he_in_plain(be, &p->mat[k]));
        be->consts.mr_any_zou_he |= be->consts.mr_zou_he[k];
    }
    /* the tiles with Zou-He nodes in the group kernel: only their threads read their node types */
    be->consts.mr_zh_tile = NULL;
    if (be->consts.mr_any_zou_he && be->ntiles > 0) {
        uint8_t *zt = (uint8_t *)calloc((size_t)be->ntiles, 1);
        if (!zt)
            return tess_fail(err, TESS_ERR_NOMEM, "out of host memory for the MR Zou-He tiles of %d tiles",
                             be->ntiles);
        for (size_t j = 0; j < nn; j++)
            zt[j / 64] |= be->consts.mr_zou_he[be->host_type[j]];
        rc = gpuMalloc((void **)&be->mr_zh_tile, (size_t)be->ntiles);
        if (rc == gpuSuccess)
            rc = gpuMemcpy(be->mr_zh_tile, zt, (size_t)be->ntiles, gpuMemcpyHostToDevice);
        free(zt);
        TESS_GPU_TRY(rc, err, "uploading the MR Zou-He tiles");
        be->consts.mr_zh_tile = be->mr_zh_tile;
        be->open_bytes += (size_t)be->ntiles;
        be->bytes += (size_t)be->ntiles;
    }
    be->consts_id = ++tess_gpu_constants_next;
    be->slots_ready = 0;
    be->cur = 0;
    be->nsteps_done = 0;
    be->step = p->step0;
    return tess_gpu_mr_transfer_from(be, (void *)pops, pops ? NULL : fill, ctx, 1, err);
}

/* The nodes a block updates for a requested cfg.mr_layer (0: the default), rounded down to a supported group:
 * 64 (one tile), 256 (2x2x1 tiles) or 512 (2x2x2 tiles: FP32 on the 3D lattices; the FP64 block is not built),
 * or on the 3D lattices from 1024 up the column sweep (tess_gpu_mr_column) over 2 x 2 x C tiles, 256 C nodes,
 * C = 4, 8, 16 or 32. Default: on a tiling at least 90% wet (eta_t), the column sweep for D3Q19 with C = 8 (FP32)
 * or 16 (FP64) and for D3Q27 in FP64 with C = 16; otherwise the largest group the precision and lattice allow
 * (the column sweep measured slower on a sphere bed, and on D3Q27 FP32 as fast as the 2x2x2 group;
 * docs/performance-notes.md, "GPU MR" and "GPU MR speed"). */
static int tess_gpu_mr_block_nodes(int want, int lattice, int single, double eta_t)
{
    const int most = single && lattice != TESS_LATTICE_D2Q9 ? 512 : 256;
    if (want <= 0 && eta_t >= 0.9 && (lattice == TESS_LATTICE_D3Q19 || (lattice == TESS_LATTICE_D3Q27 && !single)))
        want = single ? 2048 : 4096;
    if (lattice != TESS_LATTICE_D2Q9 && want >= 1024) { /* the column sweep: 2 x 2 x C tiles, C a power of two */
        int c = 4;
        while (c < 32 && 256 * 2 * c <= want)
            c *= 2;
        return 256 * c;
    }
    if (want <= 0 || want >= most)
        return most;
    return want >= 256 ? 256 : 64;
}

/* The tile layer of tile k, and the tile layers of one block's group: 1 (one tile, 2x2x1 tiles), 2 (2x2x2) or the
 * column sweep's C. */
static int32_t tess_gpu_mr_layer(const tess_tiling_t *t, int32_t k)
{
    return t->tile_corner[3 * (size_t)k + 2] / t->ez;
}

static int tess_gpu_mr_group_layers(int nodes)
{
    return nodes >= 1024 ? nodes / 256 : nodes == 512 ? 2 : 1;
}

/* At upload_geometry, before the allocation: the block shape, and the tiles G an array of one copy of the moments
 * would hold beyond the state (tess_gpu_mr_order.h): the most tiles in C + 1 consecutive tile layers (C the
 * column sweep's layers; for the groups of one or two layers, C + 3), at most all of them. 0: two copies only, for
 * D2Q9 (its layers would run along y: not done) and for a tiling whose tiles are not in layer order (a GPU rank's
 * local tiling: boundary, interior, then halo tiles). upload_geometry decides (cfg.mr_copies). */
static int64_t tess_gpu_mr_plan(tess_backend_t *be, const tess_tiling_t *t)
{
    be->mr_nodes = tess_gpu_mr_block_nodes(be->cfg.mr_layer, t->lattice,
                                           be->cfg.precision == TESS_PRECISION_SINGLE, t->eta_t);
    if (t->lattice == TESS_LATTICE_D2Q9 || t->ntiles == 0)
        return 0;
    for (int32_t k = 1; k < t->ntiles; k++)
        if (tess_gpu_mr_layer(t, k) < tess_gpu_mr_layer(t, k - 1))
            return 0;
    /* Two more layers for the groups: a block then waits for the row two below its own, not for the slowest block
     * of the row just below (on the H100, D3Q27 cavity 256^3: +6% FP32, +19% FP64; the column sweep gained
     * nothing, its blocks run a layer at a time; docs/performance-notes.md, "GPU MR: one copy") */
    const int c = tess_gpu_mr_group_layers(be->mr_nodes) + (be->mr_nodes >= 1024 ? 0 : 2);
    int64_t best = 0, sum = 0;
    /* a window of c + 1 layers over the tiles in order: tiles [k1, k) span layers layer(k) - c .. layer(k) */
    for (int32_t k = 0, k1 = 0; k < t->ntiles; k++) {
        sum++;
        while (tess_gpu_mr_layer(t, k1) < tess_gpu_mr_layer(t, k) - c) {
            k1++;
            sum--;
        }
        best = sum > best ? sum : best;
    }
    return best;
}

/* One copy: the ticket and counters and their starting values (minus the blocks of the layer's row), per layer each
 * phase's wait range, per group its
 * first layer, and the saved planes across a periodic z boundary (wrap[0]: a group reads layer 0 above the top
 * layer; wrap[1]: the top layer below layer 0). A layer's wait range is the layers whose blocks read the tiles its
 * writes overwrite (j - G in phase 0, j + G in phase 1); they lie in rows of groups that run before its own, which
 * G's size guarantees and this checks. */
static tess_status tess_gpu_mr_order_upload(tess_backend_t *be, const tess_tiling_t *t, const int32_t *grow,
                                            int32_t groups, int c, const int wrap[2], tess_error_t *err)
{
    const int32_t nt = t->ntiles, nl = tess_gpu_mr_layer(t, nt - 1) + 1, nlc = (nl + c - 1) / c * c;
    const int64_t gap = be->mr_gap;
    const size_t n = 2 + 6 * (size_t)nlc + (size_t)groups;
    int32_t *h = (int32_t *)calloc(n, sizeof *h), *first = (int32_t *)malloc(((size_t)nl + 1) * sizeof *first);
    if (!h || !first) {
        free(h);
        free(first);
        return tess_fail(err, TESS_ERR_NOMEM, "out of host memory for the MR order of %d layers", nl);
    }
    for (int32_t l = 0, k = 0; l <= nl; l++) {
        while (k < nt && tess_gpu_mr_layer(t, k) < l)
            k++;
        first[l] = k;
    }
    /* [0, 1 + nlc): the ticket and counters; then their values at the start of a step: 0 and minus the blocks of
     * each layer's row */
    int32_t *init = h + 1 + nlc, *grows = h + 2 + 6 * (size_t)nlc;
    for (int32_t g = 0; g < groups; g++) {
        grows[g] = grow[g];
        for (int l = 0; l < c; l++)
            init[1 + grow[g] + l]--;
    }
    int ok = 1;
    for (int ph = 0; ph < 2; ph++) {
        int32_t *lo = h + 2 + 2 * (size_t)nlc + 2 * (size_t)nlc * ph, *hi = lo + nlc;
        for (int32_t l = 0; l < nlc; l++) {
            const int64_t f = l < nl ? first[l] : nt, e = l < nl ? first[l + 1] : nt;
            const int32_t row0 = l / c * c;
            lo[l] = 1;
            hi[l] = 0;
            if (e == f)
                continue;
            if (ph == 0 && e - 1 - gap >= 0) {
                lo[l] = tess_gpu_mr_layer(t, (int32_t)(f - gap > 0 ? f - gap : 0)) - 1;
                lo[l] = lo[l] < 0 ? 0 : lo[l];
                hi[l] = tess_gpu_mr_layer(t, (int32_t)(e - 1 - gap)) + 1;
                ok &= hi[l] < row0;
            } else if (ph == 1 && f + gap <= nt - 1) {
                lo[l] = tess_gpu_mr_layer(t, (int32_t)(f + gap)) - 1;
                hi[l] = tess_gpu_mr_layer(t, (int32_t)(e - 1 + gap < nt - 1 ? e - 1 + gap : nt - 1)) + 1;
                hi[l] = hi[l] > nlc - 1 ? nlc - 1 : hi[l];
                ok &= lo[l] >= row0 + c;
            }
        }
    }
    be->mr_nlc = nlc;
    be->mr_save_k0[0] = 0;
    be->mr_save_n[0] = wrap[0] ? first[1] : 0;
    be->mr_save_k0[1] = first[nl - 1];
    be->mr_save_n[1] = wrap[1] ? nt - first[nl - 1] : 0;
    free(first);
    if (!ok) {
        free(h);
        return tess_fail(err, TESS_ERR_INPUT, "the MR order of %d tiles in %d layers: a wait range reaches the "
                         "writer's own row of groups (an internal error; pattern ab runs the case)", nt, nl);
    }
    const int32_t ns = be->mr_save_n[0] > be->mr_save_n[1] ? be->mr_save_n[0] : be->mr_save_n[1];
    const size_t sbytes = (size_t)ns * 16 * TESS_MR_NM * tess_precision_size(be->cfg.precision);
    gpuError_t rc = gpuMalloc((void **)&be->mr_sync, n * sizeof *h);
    if (rc == gpuSuccess)
        rc = gpuMemcpy(be->mr_sync, h, n * sizeof *h, gpuMemcpyHostToDevice);
    if (rc == gpuSuccess && ns > 0)
        rc = gpuMalloc(&be->mr_save, sbytes);
    free(h);
    TESS_GPU_TRY(rc, err, "uploading the MR order");
    be->bytes += n * sizeof *h + (ns > 0 ? sbytes : 0);
    return TESS_OK;
}

/* Tile maps of the groups of GX x GY x GZ tiles (tess_gpu_mr_group) from the tile corners and neighbours: the
 * member tiles, and every place around them from the neighbours of a member next to it (so periodic wrapping is
 * the tiling's). Groups in the order of their position (z, then y, then x), so neighbouring blocks run together.
 * With one copy a group of one tile has a map too, and a place across the periodic z boundary is marked
 * (tess_gpu_mr_fetch). */
typedef struct {
    int64_t key;
    int32_t tile;
} tess_gpu_mr_key_t;

static int tess_gpu_mr_key_cmp(const void *a, const void *b)
{
    const int64_t x = ((const tess_gpu_mr_key_t *)a)->key, y = ((const tess_gpu_mr_key_t *)b)->key;
    return (x > y) - (x < y);
}

static tess_status tess_gpu_mr_upload(tess_backend_t *be, const tess_tiling_t *t, tess_error_t *err)
{
    be->mr_ngroups = t->ntiles;
    const int one = be->mr_gap > 0;
    if ((be->mr_nodes == 64 && !one) || t->ntiles == 0)
        return TESS_OK;
    const int GX = be->mr_nodes == 64 ? 1 : 2, GY = GX, GZ = tess_gpu_mr_group_layers(be->mr_nodes);
    const int MX = GX + 2, MY = GY + 2, MZ = GZ + 2, NMAP = MX * MY * MZ, NT = GX * GY * GZ, STRIDE = NMAP + NT;
    tess_gpu_mr_key_t *keys = (tess_gpu_mr_key_t *)malloc((size_t)t->ntiles * sizeof *keys);
    if (!keys)
        return tess_fail(err, TESS_ERR_NOMEM, "out of host memory for the MR groups of %d tiles", t->ntiles);
    int64_t ng[3] = {1, 1, 1};
    const int ext[3] = {t->ex * GX, t->ey * GY, t->ez * GZ};
    for (int32_t k = 0; k < t->ntiles; k++)
        for (int d = 0; d < 3; d++)
            ng[d] = ng[d] > t->tile_corner[3 * k + d] / ext[d] + 1 ? ng[d] : t->tile_corner[3 * k + d] / ext[d] + 1;
    for (int32_t k = 0; k < t->ntiles; k++) {
        const int32_t *c = t->tile_corner + 3 * (size_t)k;
        keys[k].key = c[0] / ext[0] + ng[0] * (c[1] / ext[1] + ng[1] * (int64_t)(c[2] / ext[2]));
        keys[k].tile = k;
    }
    qsort(keys, (size_t)t->ntiles, sizeof *keys, tess_gpu_mr_key_cmp);
    int32_t groups = 0;
    for (int32_t k = 0; k < t->ntiles; k++)
        groups += k == 0 || keys[k].key != keys[k - 1].key;
    int32_t *map = (int32_t *)malloc((size_t)groups * STRIDE * sizeof *map);
    int32_t *grow = (int32_t *)malloc((size_t)groups * sizeof *grow); /* a group's first tile layer */
    if (!map || !grow) {
        free(keys);
        free(map);
        free(grow);
        return tess_fail(err, TESS_ERR_NOMEM, "out of host memory for the MR tile maps of %d groups", groups);
    }
    int32_t g = -1;
    for (int32_t j = 0; j < t->ntiles; j++) {
        if (j == 0 || keys[j].key != keys[j - 1].key) {
            g++;
            for (int e = 0; e < NT; e++)
                map[(size_t)g * STRIDE + NMAP + e] = -1;
            grow[g] = (int32_t)(keys[j].key / (ng[0] * ng[1])) * GZ;
        }
        const int32_t k = keys[j].tile;
        const int32_t *c = t->tile_corner + 3 * (size_t)k;
        const int px = (c[0] % ext[0]) / t->ex, py = (c[1] % ext[1]) / t->ey, pz = (c[2] % ext[2]) / t->ez;
        map[(size_t)g * STRIDE + NMAP + px + GX * (py + GY * pz)] = k;
    }
    free(keys);
    const int32_t top = tess_gpu_mr_layer(t, t->ntiles - 1);
    int wrap[2] = {0, 0}, odd = 0;
    for (g = 0; g < groups; g++) {
        int32_t *m = map + (size_t)g * STRIDE;
        for (int az = -1; az <= GZ; az++)
            for (int ay = -1; ay <= GY; ay++)
                for (int ax = -1; ax <= GX; ax++) {
                    int32_t tile = -1;
                    const bool inside = ax >= 0 && ax < GX && ay >= 0 && ay < GY && az >= 0 && az < GZ;
                    if (inside)
                        tile = m[NMAP + ax + GX * (ay + GY * az)];
                    /* a place no member holds: the neighbour of a member next to it */
                    for (int e = 0; tile < 0 && e < NT; e++) {
                        const int ex = e % GX, ey = (e / GX) % GY, ez = e / (GX * GY);
                        const int dx = ax - ex, dy = ay - ey, dz = az - ez;
                        if (m[NMAP + e] < 0 || dx < -1 || dx > 1 || dy < -1 || dy > 1 || dz < -1 || dz > 1)
                            continue;
                        tile = t->neighbors[27 * (size_t)m[NMAP + e] + (dx + 1) + 3 * (dy + 1) + 9 * (dz + 1)];
                        if (tile >= 0 || !inside)
                            break; /* an empty place stays empty whichever member says so */
                    }
                    if (one && tile >= 0 && tess_gpu_mr_layer(t, tile) != grow[g] + az) {
                        /* across the periodic z boundary: layer 0 above the top, or the top below layer 0 */
                        const int below = az < 0;
                        odd |= below ? tess_gpu_mr_layer(t, tile) != top : tess_gpu_mr_layer(t, tile) != 0;
                        wrap[below] = 1;
                        tile = -2 - (2 * tile + below);
                    }
                    m[(ax + 1) + MX * ((ay + 1) + MY * (az + 1))] = tile;
                }
    }
    tess_status st = TESS_OK;
    if (odd)
        st = tess_fail(err, TESS_ERR_INPUT, "the MR tile maps: a neighbour tile outside the layers next to its group "
                       "(an internal error; pattern ab runs the case)");
    if (st == TESS_OK && one)
        st = tess_gpu_mr_order_upload(be, t, grow, groups, GZ, wrap, err);
    free(grow);
    if (st != TESS_OK) {
        free(map);
        return st;
    }
    const size_t bytes = (size_t)groups * STRIDE * sizeof *map;
    gpuError_t rc = gpuMalloc((void **)&be->mr_map, bytes);
    if (rc == gpuSuccess)
        rc = gpuMemcpy(be->mr_map, map, bytes, gpuMemcpyHostToDevice);
    free(map);
    TESS_GPU_TRY(rc, err, "uploading the MR tile maps");
    be->mr_ngroups = groups;
    be->bytes += bytes;
    return TESS_OK;
}

/* A distributed rank's two parts of a step (tess_gpu_dist.h, set_owned; two copies): per part, the boundary tiles
 * [0, nbound) and the interior ones [nbound, nowned), an entry (tess_gpu_mr_part_t) per group with a member tile in
 * it, in group order, with the layers of its column that hold them (the column sweep walks only those); the halo
 * tiles are in no part. The groups' members come from the tile maps (downloaded once; one tile a group without
 * them). */
TESS_GPU_OP tess_status tess_gpu_mr_parts(tess_backend_t *be, tess_error_t *err)
{
    (void)gpuFree(be->mr_part);
    be->mr_part = NULL;
    be->bytes -= be->mr_part_bytes;
    be->mr_part_bytes = 0;
    be->mr_part_n[0] = be->mr_part_n[1] = 0;
    if (be->mr_gap > 0 || be->ntiles == 0) /* one copy steps whole (tess_gpu_dist_step_tiles) */
        return TESS_OK;
    const int32_t ng = be->mr_ngroups;
    /* a group's members: nt entries at offset nmap of its map, member e in layer e / 4 (2 x 2 tiles a layer) */
    const int layers = tess_gpu_mr_group_layers(be->mr_nodes);
    const int one_tile = be->mr_map == NULL;
    const size_t nmap = one_tile ? 0 : 16 * (size_t)(layers + 2), nt = one_tile ? 1 : 4 * (size_t)layers;
    int32_t *map = one_tile ? NULL : (int32_t *)malloc((size_t)ng * (nmap + nt) * sizeof *map);
    tess_gpu_mr_part_t *part = (tess_gpu_mr_part_t *)malloc(2 * (size_t)(ng ? ng : 1) * sizeof *part);
    if ((!one_tile && !map) || !part) {
        free(map);
        free(part);
        return tess_fail(err, TESS_ERR_NOMEM, "out of host memory for the MR parts of %d groups", ng);
    }
    gpuError_t rc = one_tile ? gpuSuccess
                             : gpuMemcpy(map, be->mr_map, (size_t)ng * (nmap + nt) * sizeof *map, gpuMemcpyDeviceToHost);
    const int32_t lo[2] = {0, be->nbound}, hi[2] = {be->nbound, be->nowned};
    int32_t n = 0;
    for (int p = 0; p < 2 && rc == gpuSuccess; p++) {
        for (int32_t g = 0; g < ng; g++) {
            int j0 = layers, j1 = 0;
            for (size_t e = 0; e < nt; e++) {
                const int32_t k = one_tile ? g : map[(size_t)g * (nmap + nt) + nmap + e];
                if (k >= lo[p] && k < hi[p]) {
                    j0 = (int)e / 4 < j0 ? (int)e / 4 : j0;
                    j1 = (int)e / 4 + 1 > j1 ? (int)e / 4 + 1 : j1;
                }
            }
            if (j1 > j0)
                part[n++] = tess_gpu_mr_part_t{g, (int16_t)(one_tile ? 0 : j0), (int16_t)(one_tile ? 1 : j1)};
        }
        be->mr_part_n[p] = n - (p ? be->mr_part_n[0] : 0);
    }
    free(map);
    const size_t bytes = (size_t)(n ? n : 1) * sizeof *part;
    if (rc == gpuSuccess)
        rc = gpuMalloc((void **)&be->mr_part, bytes);
    if (rc == gpuSuccess && n > 0)
        rc = gpuMemcpy(be->mr_part, part, (size_t)n * sizeof *part, gpuMemcpyHostToDevice);
    free(part);
    TESS_GPU_TRY(rc, err, "uploading the MR parts of a distributed rank's step");
    be->mr_part_bytes = bytes;
    be->bytes += bytes;
    return TESS_OK;
}

/* A group kernel's launch: the instance with D3Q19's Zou-He planes (ZH) where this run has them in the plain
 * kernel (tess_gpu_mr_zou_he_in_plain), else the one without, so that every other run keeps its machine code. */
template <typename R, int LAT, int GX, int GY, int GZ, bool ONE, int ROWS = 10>
static void tess_gpu_mr_group_launch(const tess_backend_t *be, unsigned nb, size_t shared, const R *src, R *dst,
                                     const tess_gpu_q_args_t &a, const tess_gpu_mr_order_t &o,
                                     const tess_gpu_mr_part_t *part)
{
    if (LAT == TESS_LATTICE_D3Q19 && be->consts.mr_any_zou_he)
        tess_gpu_mr_step<R, LAT, GX, GY, GZ, ONE, LAT == TESS_LATTICE_D3Q19, ROWS>
            <<<nb, 64 * GX * GY * GZ, shared>>>(src, dst, a, be->mr_map, o, part);
    else
        tess_gpu_mr_step<R, LAT, GX, GY, GZ, ONE, false, ROWS>
            <<<nb, 64 * GX * GY * GZ, shared>>>(src, dst, a, be->mr_map, o, part);
}

/* One MR step: the plain kernel over every group, then the list kernel over its nodes. The 2x2x2 group is
 * instantiated for FP32 only (tess_gpu_mr_block_nodes); ONE: the one-copy instances (3D lattices only), so that
 * the two-copy kernels are compiled as they were before one copy existed. */
template <typename R, int LAT, bool ONE> struct tess_gpu_mr_big {
    static void launch(tess_backend_t *be, const tess_gpu_q_args_t &a, const R *src, R *dst,
                       const tess_gpu_mr_order_t &o, const tess_gpu_mr_part_t *part, unsigned nb)
    {
        tess_gpu_mr_group_launch<R, LAT, 2, 2, 2, ONE, TESS_GPU_MR_ROWS>(be, nb, shared_bytes(), src, dst, a, o, part);
    }
    static size_t shared_bytes()
    {
        return tess_gpu_mr_block_halo<R, LAT, 2, 2, 2, TESS_GPU_MR_ROWS>::H::shared_bytes();
    }
    static gpuError_t opt_in()
    {
        const gpuError_t rc = gpuFuncSetAttribute(
            reinterpret_cast<const void *>(tess_gpu_mr_step<R, LAT, 2, 2, 2, ONE, false, TESS_GPU_MR_ROWS>),
            gpuFuncAttributeMaxDynamicSharedMemorySize, (int)shared_bytes());
        if (rc != gpuSuccess || LAT != TESS_LATTICE_D3Q19)
            return rc;
        return gpuFuncSetAttribute(
            reinterpret_cast<const void *>(
                tess_gpu_mr_step<R, LAT, 2, 2, 2, ONE, LAT == TESS_LATTICE_D3Q19, TESS_GPU_MR_ROWS>),
            gpuFuncAttributeMaxDynamicSharedMemorySize, (int)shared_bytes());
    }
};
template <int LAT, bool ONE> struct tess_gpu_mr_big<double, LAT, ONE> {
    static void launch(tess_backend_t *, const tess_gpu_q_args_t &, const double *, double *,
                       const tess_gpu_mr_order_t &, const tess_gpu_mr_part_t *, unsigned)
    {
    }
    static gpuError_t opt_in() { return gpuSuccess; }
};
template <typename R, bool ONE> struct tess_gpu_mr_big<R, TESS_LATTICE_D2Q9, ONE> {
    static void launch(tess_backend_t *, const tess_gpu_q_args_t &, const R *, R *, const tess_gpu_mr_order_t &,
                       const tess_gpu_mr_part_t *, unsigned)
    {
    }
    static gpuError_t opt_in() { return gpuSuccess; }
};
template <bool ONE> struct tess_gpu_mr_big<double, TESS_LATTICE_D2Q9, ONE> {
    static void launch(tess_backend_t *, const tess_gpu_q_args_t &, const double *, double *,
                       const tess_gpu_mr_order_t &, const tess_gpu_mr_part_t *, unsigned)
    {
    }
    static gpuError_t opt_in() { return gpuSuccess; }
};

/* The column sweep (tess_gpu_mr_column) of the 3D lattices; opt_in: its dynamic shared memory, once at initialise. */
template <typename R, int LAT, bool ONE> struct tess_gpu_mr_sweep {
    static void launch(tess_backend_t *be, const tess_gpu_q_args_t &a, const R *src, R *dst,
                       const tess_gpu_mr_order_t &o, const tess_gpu_mr_part_t *part, unsigned nb)
    {
        tess_gpu_mr_column<R, LAT, ONE, TESS_GPU_MR_ROWS>
            <<<nb, 256, tess_gpu_mr_col<R, LAT, TESS_GPU_MR_ROWS>::shared_bytes()>>>(src, dst, a, be->mr_map,
                                                                                   be->mr_nodes / 256, o, part);
    }
    static gpuError_t opt_in()
    {
        return gpuFuncSetAttribute(reinterpret_cast<const void *>(tess_gpu_mr_column<R, LAT, ONE, TESS_GPU_MR_ROWS>),
                                   gpuFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)tess_gpu_mr_col<R, LAT, TESS_GPU_MR_ROWS>::shared_bytes());
    }
};
template <typename R, bool ONE> struct tess_gpu_mr_sweep<R, TESS_LATTICE_D2Q9, ONE> {
    static void launch(tess_backend_t *, const tess_gpu_q_args_t &, const R *, R *, const tess_gpu_mr_order_t &,
                       const tess_gpu_mr_part_t *, unsigned)
    {
    }
    static gpuError_t opt_in() { return gpuSuccess; }
};

/* The opt-in of the plain kernel's dynamic shared memory beyond the default 48 KiB (tess_gpu_mr_big's padded
 * coefficients, tess_gpu_mr_halo; the column sweep's planes), once per kernel at initialise rather than before
 * every launch, its refusal an error there rather than a failed launch later. */
template <typename R, int LAT, bool ONE> static gpuError_t tess_gpu_mr_opt_in_lat(const tess_backend_t *be)
{
    if (be->mr_nodes >= 1024)
        return tess_gpu_mr_sweep<R, LAT, ONE>::opt_in();
    return be->mr_nodes == 512 ? tess_gpu_mr_big<R, LAT, ONE>::opt_in() : gpuSuccess;
}

template <typename R> static gpuError_t tess_gpu_mr_opt_in_r(const tess_backend_t *be)
{
    const bool one = be->mr_gap > 0;
    switch (be->shape.lattice) {
    case TESS_LATTICE_D2Q9: return tess_gpu_mr_opt_in_lat<R, TESS_LATTICE_D2Q9, false>(be);
    case TESS_LATTICE_D3Q27:
        return one ? tess_gpu_mr_opt_in_lat<R, TESS_LATTICE_D3Q27, true>(be)
                   : tess_gpu_mr_opt_in_lat<R, TESS_LATTICE_D3Q27, false>(be);
    case TESS_LATTICE_D3Q19:
        return one ? tess_gpu_mr_opt_in_lat<R, TESS_LATTICE_D3Q19, true>(be)
                   : tess_gpu_mr_opt_in_lat<R, TESS_LATTICE_D3Q19, false>(be);
    default: return gpuSuccess; /* refused at initialise */
    }
}

static tess_status tess_gpu_mr_opt_in(const tess_backend_t *be, tess_error_t *err)
{
    const gpuError_t rc = be->cfg.precision == TESS_PRECISION_SINGLE ? tess_gpu_mr_opt_in_r<float>(be)
                                                                     : tess_gpu_mr_opt_in_r<double>(be);
    TESS_GPU_TRY(rc, err, "opting the MR kernel into more than 48 KiB of dynamic shared memory");
    return TESS_OK;
}

/* part, nb: the blocks' entries of a distributed rank's part and their count (tess_gpu_mr_part_t; two copies), or
 * NULL and every group. */
template <typename R, int LAT, bool ONE>
static void tess_gpu_mr_plain(tess_backend_t *be, const tess_gpu_q_args_t &a, const R *src, R *dst,
                              const tess_gpu_mr_order_t &o, const tess_gpu_mr_part_t *part, unsigned nb)
{
    if (nb == 0) /* an empty part: no launch (a grid of no blocks is a launch error) */
        return;
    if (be->mr_nodes >= 1024)
        tess_gpu_mr_sweep<R, LAT, ONE>::launch(be, a, src, dst, o, part, nb);
    else if (be->mr_nodes == 512)
        tess_gpu_mr_big<R, LAT, ONE>::launch(be, a, src, dst, o, part, nb);
    else if (be->mr_nodes == 256)
        tess_gpu_mr_group_launch<R, LAT, 2, 2, 1, ONE>(be, nb, 0, src, dst, a, o, part);
    else
        tess_gpu_mr_group_launch<R, LAT, 1, 1, 1, ONE>(be, nb, 0, src, dst, a, o, part);
}

/* With one copy (o.sync set): the counters set, the plane across a periodic z boundary that this phase overwrites
 * first saved, and the listed nodes computed first into mr_vals, put into the new state last. */
template <typename R, int LAT>
static void tess_gpu_mr_launch_lat(tess_backend_t *be, const tess_gpu_q_args_t &a, const R *src, R *dst,
                                   const tess_gpu_mr_order_t &o, const tess_gpu_mr_part_t *part, unsigned nb)
{
    const unsigned lb = (unsigned)((be->nopen + 63) / 64);
    if constexpr (LAT != TESS_LATTICE_D2Q9) {
        if (o.sync) {
            (void)gpuMemcpyAsync(be->mr_sync, be->mr_sync + 1 + be->mr_nlc,
                                 (1 + (size_t)be->mr_nlc) * sizeof(int32_t), gpuMemcpyDeviceToDevice, 0);
            const int32_t ns = be->mr_save_n[o.phase];
            if (ns > 0)
                tess_gpu_mr_save<R><<<(unsigned)(((int64_t)ns * TESS_MR_NM * 16 + 255) / 256), 256>>>(
                    (R *)be->mr_save, src, o.save_k0, ns, o.phase ? be->shape.ez - 1 : 0, TESS_MR_NM);
            if (be->nopen > 0)
                tess_gpu_mr_list_step<R, LAT><<<lb, 64>>>(src, dst, (R *)be->mr_vals, a, be->open, be->nopen);
            tess_gpu_mr_plain<R, LAT, true>(be, a, src, dst, o, (const tess_gpu_mr_part_t *)0,
                                            (unsigned)be->mr_ngroups);
            if (be->nopen > 0)
                tess_gpu_mr_scatter<R, TESS_MR_NM><<<lb, 64>>>(dst, (const R *)be->mr_vals, be->open, be->nopen);
            return;
        }
    }
    tess_gpu_mr_plain<R, LAT, false>(be, a, src, dst, o, part, nb);
    /* the listed nodes of the tiles [k0, ntiles) of the launch (the list is in tile order) */
    const int32_t o0 = tess_gpu_open_first(be, a.k0), o1 = tess_gpu_open_first(be, a.ntiles);
    if (o1 > o0)
        tess_gpu_mr_list_step<R, LAT><<<(unsigned)((o1 - o0 + 63) / 64), 64>>>(src, dst, (R *)0, a, be->open + o0,
                                                                               o1 - o0);
}

/* A distributed rank's part of a step (two copies): the entries of the tiles [sweep_k0, sweep_k1) when they are one
 * of the parts tess_gpu_mr_parts made (the boundary or the interior tiles), *nb their count; NULL and every group
 * otherwise (the whole step: the caller, tess_gpu_dist_step_tiles, asks for no other range). */
TESS_GPU_OP const tess_gpu_mr_part_t *tess_gpu_mr_part(const tess_backend_t *be, unsigned *nb)
{
    *nb = (unsigned)be->mr_ngroups;
    if (be->mr_gap > 0 || (be->sweep_k0 == 0 && be->sweep_k1 == be->ntiles))
        return (const tess_gpu_mr_part_t *)0;
    const int p = be->sweep_k0 == 0 && be->sweep_k1 == be->nbound ? 0 : 1;
    *nb = (unsigned)be->mr_part_n[p];
    return be->mr_part + (p ? be->mr_part_n[0] : 0);
}

template <typename R>
static void tess_gpu_mr_launch(tess_backend_t *be)
{
    if (be->sweep_k0 >= be->sweep_k1) /* an empty part of a distributed rank's step */
        return;
    const tess_gpu_q_args_t a = tess_gpu_args(be);
    const R *src = (const R *)tess_gpu_mr_copy(be, be->cur);
    R *dst = (R *)tess_gpu_mr_copy(be, 1 - be->cur);
    tess_gpu_mr_order_t o;
    memset(&o, 0, sizeof o);
    if (be->mr_gap > 0) {
        const size_t nlc = (size_t)be->mr_nlc;
        o.sync = be->mr_sync;
        o.lo = be->mr_sync + 2 + 2 * nlc + 2 * nlc * be->cur;
        o.hi = o.lo + nlc;
        o.grow = be->mr_sync + 2 + 6 * nlc;
        o.save = be->mr_save;
        o.save_k0 = be->mr_save_k0[be->cur];
        o.ngroups = be->mr_ngroups;
        o.phase = be->cur;
    }
    unsigned nb;
    const tess_gpu_mr_part_t *part = tess_gpu_mr_part(be, &nb);
    switch (be->shape.lattice) {
    case TESS_LATTICE_D2Q9: tess_gpu_mr_launch_lat<R, TESS_LATTICE_D2Q9>(be, a, src, dst, o, part, nb); break;
    case TESS_LATTICE_D3Q27: tess_gpu_mr_launch_lat<R, TESS_LATTICE_D3Q27>(be, a, src, dst, o, part, nb); break;
    case TESS_LATTICE_D3Q19: tess_gpu_mr_launch_lat<R, TESS_LATTICE_D3Q19>(be, a, src, dst, o, part, nb); break;
    default: break; /* refused at initialise */
    }
}

/* The divergence check of the MR state: the rebuilt populations on the host (tess_check_populations), a chunk of
 * tiles at a time (a whole copy of a billion-node box's populations would not fit beside the rest); min, max and
 * counts merge in any order, so the result is that of one pass over the whole state. */
static tess_status tess_gpu_mr_check(tess_backend_t *be, tess_check_t *r, tess_error_t *err)
{
    const size_t vs = tess_precision_size(be->cfg.precision);
    const size_t tile_ms = 64 * (size_t)tess_gpu_mr_values(be) * vs, tile_pops = 64 * (size_t)be->shape.q * vs;
    const int32_t chunk = be->ntiles < TESS_GPU_TRANSFER_TILES ? be->ntiles : TESS_GPU_TRANSFER_TILES;
    r->rho_min = INFINITY;
    r->rho_max = -INFINITY;
    r->u_max = 0.0;
    r->nonfinite = r->wet = 0;
    if (chunk == 0)
        return TESS_OK;
    char *ms = (char *)malloc((size_t)chunk * tile_ms), *pops = (char *)malloc((size_t)chunk * tile_pops);
    if (!ms || !pops) {
        free(ms);
        free(pops);
        return tess_fail(err, TESS_ERR_NOMEM, "out of host memory: %zu bytes for the MR check",
                         (size_t)chunk * (tile_ms + tile_pops));
    }
    gpuError_t rc = gpuSuccess;
    for (int32_t k0 = 0; k0 < be->ntiles && rc == gpuSuccess; k0 += chunk) {
        const int32_t k1 = be->ntiles - k0 < chunk ? be->ntiles : k0 + chunk;
        rc = gpuMemcpy(ms, (const char *)tess_gpu_mr_copy(be, be->cur) + (size_t)k0 * tile_ms,
                       (size_t)(k1 - k0) * tile_ms, gpuMemcpyDeviceToHost);
        if (rc != gpuSuccess)
            break;
        /* the chunk as a tiling of its own: canonical storage is per tile, so its tiles [0, k1 - k0) */
        tess_tiling_t t = be->shape;
        t.ntiles = k1 - k0;
        t.node_type = be->host_type + 64 * (size_t)k0;
        tess_state_mr_convert(&t, be->cfg.precision, pops, 1, ms, 0, t.ntiles, 0);
        tess_check_t c;
        tess_check_populations(&t, &be->consts.p, be->cfg.precision == TESS_PRECISION_SINGLE, 0, pops, &c);
        r->rho_min = c.rho_min < r->rho_min ? c.rho_min : r->rho_min;
        r->rho_max = c.rho_max > r->rho_max ? c.rho_max : r->rho_max;
        r->u_max = c.u_max > r->u_max ? c.u_max : r->u_max;
        r->nonfinite += c.nonfinite;
        r->wet += c.wet;
    }
    free(ms);
    free(pops);
    TESS_GPU_TRY(rc, err, "downloading the MR moments for the check");
    return TESS_OK;
}

#endif
