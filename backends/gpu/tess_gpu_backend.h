/* The GPU backend's record (struct tess_backend) and the helpers that the step translation units share with the
 * operations (tess_gpu_ops.h), written once for CUDA and HIP: the error line of a runtime call, the kernels' arguments,
 * the constant bank. The step units (tess_gpu_launch.h) include only this file: whatever kernel the operations launch
 * (MR, the divergence check, the link slots, the copy) is compiled in the backend's translation unit alone. */
#ifndef TESS_GPU_BACKEND_H
#define TESS_GPU_BACKEND_H

#include "tess_gpu_tile_step.h"
extern "C" {
#include "tess_state.h"
}
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tess_gpu_mr_part_t; /* tess_gpu_mr.h */

struct tess_backend {
    tess_backend_config_t cfg;
    tess_gpu_constants_t consts;
    uint64_t consts_id;  /* this initialise's constants (tess_gpu_bind_constants) */
    int32_t ntiles;
    int tiles_per_block; /* where AA's odd step pairs tiles (tess_gpu_q_tpb, _pair_pf) it takes two */
    tess_tiling_t shape; /* the tiling's lattice, q and tile extent (for tess_state_index) */
    void *f[2];          /* the population copies, device layout: two (AB), or f[0] only (AA) */
    int cur;             /* which copy holds the current state (AA: always 0) */
    int64_t nsteps_done; /* steps since initialise: AA's copy is canonical after an even number */
    int32_t *neighbors;  /* 27 per tile */
    uint8_t *node_type;  /* 64 per tile */
    uint8_t *halo_type;  /* per tile the node types of its halo, packed (halo_stride bytes, halo_bits a place) */
    int halo_bits, halo_stride; /* tess_gpu_halo_bits of the tiling's largest node type, tess_gpu_halo_stride */
    int32_t *corner;     /* 3 per tile: its first node's box coordinates (profiled inlets) */
    tess_link_t *links;  /* curved-wall links and per-node ranges; NULL when the tiling has none */
    int64_t *node_link;
    uint8_t *node_nlink;
    int32_t *link_tile;  /* per link: its tile (for filling the slots) */
    int64_t *tile_link;  /* per tile: its first link (ntiles + 1) */
    void *link_val;      /* per link: its value in the current step */
    tess_gpu_link_slot_t *slots; /* per link: where its rule reads; filled at the first step after initialise */
    tess_gpu_link_pack_t *packs; /* the same in 16 bytes, for the AB tile kernel */
    int64_t nlinks;
    int slots_ready;
    uint8_t *host_type;  /* 64 per tile: the node types, for the list of inlet/outlet nodes */
    int64_t *open;       /* the inlet/outlet nodes (64 tile + local), device; NULL when none */
    int32_t nopen;
    void *open_val;      /* AA: the inlet/outlet nodes' values of the pre-pass, q per node; NULL when none */
    int64_t step;        /* the step the next sweep computes, less one (tess_params_t.step0 at initialise) */
    int32_t *mr_map;     /* MR: the groups' tile maps (tess_gpu_mr.h); NULL for one tile per group */
    int32_t mr_ngroups;  /* MR: blocks of a step */
    int mr_nodes;        /* MR: nodes a block updates (64, 256 or 512) */
    /* MR with one copy of the moments (tess_gpu_mr_order.h): the state's array f[0] holds ntiles + mr_gap tiles,
     * the state at tile offset mr_gap (cur 0) or 0 (cur 1); mr_gap 0: two copies, f[0] and f[1]. */
    int64_t mr_gap;
    int32_t *mr_sync;    /* the ticket, per-layer counters, per-layer need and wait ranges, per-group first layer */
    int32_t mr_nlc;      /* tile layers with a counter (rows of groups x layers a group) */
    void *mr_save;       /* the node plane across a periodic z boundary saved before a step */
    int32_t mr_save_k0[2], mr_save_n[2]; /* per phase (cur): its first tile and tiles; n 0: nothing to save */
    void *mr_vals;       /* the list kernel's moments, put into the new state after the plain kernel */
    uint8_t *mr_zh_tile; /* MR: per tile, whether the group kernel reconstructs a Zou-He node there */
    /* A distributed rank (tess_gpu_dist.h): the tiles a step updates are [sweep_k0, sweep_k1) of this launch, the
     * part of the step (TESS_DIST_FIRST: pre-passes; TESS_DIST_LAST: the step completes); the boundary tiles
     * [0, nbound) and the owned ones [0, nowned), whose curved links are the first nlinks_owned; the inlet/outlet
     * nodes on the host (open_first). A single rank: every tile, one part. */
    int32_t sweep_k0, sweep_k1, nbound, nowned;
    int sweep_part;
    int64_t nlinks_owned;
    /* MR with two copies on a distributed rank: the blocks of its two parts, the boundary's mr_part_n[0] entries
     * first, then the interior's mr_part_n[1] (tess_gpu_mr_parts); NULL before set_owned */
    tess_gpu_mr_part_t *mr_part;
    int32_t mr_part_n[2];
    size_t mr_part_bytes;
    int64_t *host_open;
    size_t bytes;        /* device bytes allocated (bytes_allocated) */
    size_t open_bytes;   /* of which the inlet/outlet list and the AA pre-pass values */
    char device_name[256];
};

#ifndef TESS_GPU_ARCHITECTURES
#define TESS_GPU_ARCHITECTURES "an unrecorded set of architectures"
#endif

/* The operations are referenced only from the host table, which the compilers' device passes do not see; the
 * helpers here are used by the step translation units too (tess_gpu_launch.h), which include this file. */
#define TESS_GPU_OP static __attribute__((unused))

/* Which constants tess_gpu_c holds: the id of the initialise that made them (several backends may exist). Each
 * translation unit has its own bank (tess_gpu_launch.h), hence its own record; ids come from the backend's
 * translation unit, where initialise runs, and are never reused. */
static uint64_t tess_gpu_constants_id = 0;
static uint64_t tess_gpu_constants_next = 0;

#define TESS_GPU_TRY(call, err, what)                                                                            \
    do {                                                                                                       \
        const gpuError_t tess_gpu_rc_ = (call);                                                                \
        if (tess_gpu_rc_ != gpuSuccess)                                                                        \
            return tess_gpu_fail(err, tess_gpu_rc_, what);                                                     \
    } while (0)

TESS_GPU_OP tess_status tess_gpu_fail(tess_error_t *err, gpuError_t rc, const char *what)
{
    if (rc == gpuErrorNoBinaryForGpu || rc == gpuErrorInvalidDeviceFunction)
        return tess_fail(err, TESS_ERR_DEVICE,
                         "%s: %s: this build has no kernel image for the device; rebuild with its architecture in "
                         "TESSERA_%s_ARCHITECTURES",
                         what, gpuGetErrorString(rc), TESS_GPU_RUNTIME_NAME);
    if (rc == gpuErrorMemoryAllocation)
        return tess_fail(err, TESS_ERR_NOMEM, "%s: out of device memory (%s)", what, gpuGetErrorString(rc));
    return tess_fail(err, TESS_ERR_DEVICE, "%s: %s runtime error %s: %s", what, TESS_GPU_RUNTIME_NAME,
                     gpuGetErrorName(rc), gpuGetErrorString(rc));
}

/* The kernels' arguments for the step the next launch computes. */
static tess_gpu_q_args_t tess_gpu_args(const tess_backend_t *be)
{
    tess_gpu_q_args_t a;
    a.neighbors = be->neighbors;
    a.node_type = be->node_type;
    a.halo_type = be->halo_type;
    a.corner = be->corner;
    a.links = be->links;
    a.node_link = be->node_link;
    a.node_nlink = be->node_nlink;
    a.slots = be->slots;
    a.packs = be->packs;
    a.tile_link = be->tile_link;
    a.link_val = be->link_val;
    a.ntiles = be->sweep_k1;
    a.k0 = be->sweep_k0;
    a.step = be->step + 1;
    a.halo_pf = 0; /* the step's launcher sets it (tess_gpu_q_halo_pf) */
    a.halo_bits = be->halo_bits;
    a.halo_stride = be->halo_stride;
    a.wet_mask = 0;
    for (int m = 0; m < 32; m++)
        a.wet_mask |= (uint32_t)(be->consts.wet[m] != 0) << m;
    return a;
}

/* The inlet/outlet list's first node in tile k or after (the list is in tile order): a tile range's nodes. */
TESS_GPU_OP int32_t tess_gpu_open_first(const tess_backend_t *be, int32_t k)
{
    int32_t lo = 0, hi = be->nopen;
    if (!be->host_open)
        return k <= 0 ? 0 : hi;
    while (lo < hi) {
        const int32_t mid = lo + (hi - lo) / 2;
        if (be->host_open[mid] < (int64_t)k * 64)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Puts this backend's physics into the constant bank, unless it is there already. */
TESS_GPU_OP tess_status tess_gpu_bind_constants(tess_backend_t *be, tess_error_t *err)
{
    if (tess_gpu_constants_id != be->consts_id) {
        TESS_GPU_TRY(gpuMemcpyToSymbol((const void *)&tess_gpu_c, &be->consts, sizeof be->consts, 0,
                                       gpuMemcpyHostToDevice),
                     err, "uploading the physics parameters");
        int8_t dirs[4][27][4];
        memset(dirs, 0, sizeof dirs);
        for (int l = 0; l < TESS_LATTICE_COUNT; l++) {
            const tess_lattice_t *lat = tess_lattice_get((tess_lattice_id)l);
            for (int i = 0; lat && i < lat->q; i++) {
                for (int d = 0; d < 3; d++)
                    dirs[l][i][d] = (int8_t)lat->c[i][d];
                dirs[l][i][3] = (int8_t)lat->opp[i];
            }
        }
        TESS_GPU_TRY(gpuMemcpyToSymbol((const void *)&tess_gpu_dir, dirs, sizeof dirs, 0, gpuMemcpyHostToDevice), err,
                     "uploading the direction tables");
        tess_gpu_constants_id = be->consts_id;
    }
    return TESS_OK;
}

#endif
