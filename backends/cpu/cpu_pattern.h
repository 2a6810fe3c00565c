/* TUNED MR: the sliding-window D3Q19 MR kernel (cpu_mr.c, docs/patterns.md), which the CPU table
 * (cpu_pattern.c) still uses for D3Q19 pattern mr until the engine's sliding-window MR replaces it; then this
 * header goes with it. Every other case runs on the engine (cpu_q.h). */
#ifndef TESS_CPU_PATTERN_H
#define TESS_CPU_PATTERN_H

#include "cpu_fd.h"
#include "cpu_gather_table.h"
#include "tess_backend.h"
#include "tess_q_step.h"
#include <stdint.h>

/* One link of an MR tile that the unconditional window gather gets wrong: a solid node of the tile (rest
 * state), a bounce-back link, or a link from another block (interface buffer or recomputation). */
typedef struct {
    uint16_t dst;   /* i * 64 + n in the tile buffer (for a solid node: n) */
    uint8_t kind;   /* TESS_MR_FIX_* */
    uint8_t mat;    /* bounce-back: material of the upstream node */
    int32_t pad;
    int64_t src;    /* interface buffer index, or upstream tile node (tile * 64 + L_XYZ) to recompute */
} tess_cpu_mr_fix_t;
enum { TESS_MR_FIX_SOLID = 0, TESS_MR_FIX_BOUNCE = 1, TESS_MR_FIX_BUFFER = 2, TESS_MR_FIX_RECOMPUTE = 3 };

/* MR blocks: columns of tiles along z; the tile columns of a block and their tiles per layer. */
typedef struct {
    int32_t ncol;
    int32_t color;      /* blocks of one colour never touch; colours run one after the other */
    int32_t *tiles;     /* ncol * tz: tile index of column c at layer z, or -1 */
} tess_cpu_mr_block_t;

typedef struct tess_cpu_pattern {
    tess_backend_config_t cfg;
    tess_params_t params;
    int nthreads;
    int32_t ntiles;
    int tx, ty, tz, periodic[3];
    int32_t *neighbors;      /* 27 per tile; -1: empty or outside */
    uint8_t *node_type;      /* 64 per tile, L_XYZ */
    int32_t *tile_corner;    /* 3 per tile */
    uint8_t *tile_plain;     /* tile and its whole neighbourhood plain fluid (material 1) */
    uint8_t *tile_has_open;  /* tile holds inlets or outlets */
    uint8_t wet[256];
    double rest_w[19];
    size_t bytes;
    tess_cpu_gather_table_t table;

    tess_cpu_fd_t fd;        /* finite-difference boundary nodes (cpu_fd.h) */
    tess_q_grid_t grid;      /* the tiling as the core's per-node functions see it (the fd pre-pass) */
    int64_t nsteps_done;

    /* MR */
    void *m;                 /* 10 moments per node: (tile * 10 + q) * 64 + L_XYZ */
    int32_t nblocks;
    tess_cpu_mr_block_t *blocks;
    int32_t *tile_block;     /* per tile: its block */
    int32_t *tile_col;       /* per tile: its column inside the block */
    uint8_t *tile_mask;      /* per tile: bit s (of the 8 lateral neighbour columns) set when in another block */
    int64_t *tile_ibuf;      /* per tile: start of its outgoing values in the interface buffer, or -1 */
    int16_t (*xmap)[19][64]; /* per mask: slot of (i, n) among the tile's outgoing values, or -1 */
    int32_t xcount[256];     /* per mask: outgoing values of a tile */
    void *ibuf;              /* interface buffer: populations that stream forward across block interfaces */
    int64_t ibuf_len;
    int32_t max_ncol;
    int32_t layer_nodes;     /* nodes per layer of a block (cross-section), as chosen */
    void **window;           /* per thread: 5 slots x max_ncol tiles x 19 x 64, every direction in L_XYZ */
    int16_t (*xlist)[19 * 64]; /* per mask: the outgoing (i * 64 + n) in interface-buffer order */
    int64_t *fix_start;      /* per tile + 1: range in fix (solid nodes, bounce-back, interfaces) */
    tess_cpu_mr_fix_t *fix;
    size_t fix_bytes;
    void *rest_tile;         /* 19 x 64 rest populations: the gather's source for empty and foreign neighbours */
} tess_cpu_pattern_t;

/* Shared set-up (cpu_pattern.c). */
tess_status tess_cpu_pattern_upload(tess_cpu_pattern_t *be, const tess_tiling_t *t, tess_error_t *err);
void tess_cpu_pattern_classify(tess_cpu_pattern_t *be);
void *tess_cpu_alloc(size_t bytes);

/* MR (cpu_mr.c). */
tess_status tess_cpu_mr_upload(tess_cpu_pattern_t *be, tess_error_t *err);
tess_status tess_cpu_mr_initialise(tess_cpu_pattern_t *be, const void *pops, tess_error_t *err);
void tess_cpu_mr_step(tess_cpu_pattern_t *be);
void tess_cpu_mr_download(tess_cpu_pattern_t *be, void *pops);
void tess_cpu_mr_free(tess_cpu_pattern_t *be);

#endif
