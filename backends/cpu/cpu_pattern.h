/* The CPU backend's tuned one-copy AA pattern (docs/patterns.md), beside the AB pattern of cpu_ab.c; MR runs
 * in the lattice-generic engine (cpu_q.c, cpu_q_mr_window.h). The public table tess_backend_cpu (cpu_pattern.c)
 * dispatches on the pattern in the config, which every backend structure holds as its first member. */
#ifndef TESS_CPU_PATTERN_H
#define TESS_CPU_PATTERN_H

#include "cpu_gather_table.h"
#include "tess_backend.h"
#include <stdint.h>

extern const tess_backend_ops_t tess_cpu_ab_ops; /* cpu_ab.c */

/* One finite-difference boundary node: its tile node index (tile * 64 + L_XYZ), its stencil (tile node
 * indices or -1, see tess_fd_strain) and its strain rate, refreshed by a pre-pass at the start of every step. */
typedef struct {
    int64_t node;
    int64_t stencil[8];
    double S[6];
} tess_cpu_fd_node_t;

/* One link of an AA tile that the unconditional gather gets wrong: a solid node of the tile (rest state) or a
 * bounce-back link. (The name is the tuned MR's, which had two more kinds.) */
typedef struct {
    uint16_t dst;   /* i * 64 + n in the tile buffer (for a solid node: n) */
    uint8_t kind;   /* TESS_MR_FIX_* */
    uint8_t mat;    /* bounce-back: material of the upstream node */
    int32_t pad;
    int64_t src;    /* unused */
} tess_cpu_mr_fix_t;
enum { TESS_MR_FIX_SOLID = 0, TESS_MR_FIX_BOUNCE = 1 };

typedef struct tess_cpu_pattern {
    tess_backend_config_t cfg; /* first member: the dispatch reads cfg.pattern through it */
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

    /* finite-difference boundary nodes (both patterns) */
    int64_t n_fd;
    tess_cpu_fd_node_t *fd;
    int32_t *fd_of_node;     /* per tile node: index into fd or -1 (NULL when n_fd == 0) */

    /* AA */
    void *f;                 /* the one population copy */
    int64_t nsteps_done;     /* odd: the copy holds the odd-step (streamed) state */
    int64_t *fix_start;      /* per tile + 1: range in fix (solid nodes and bounce-back links) */
    tess_cpu_mr_fix_t *fix;
    size_t fix_bytes;
} tess_cpu_pattern_t;

/* Shared set-up (cpu_pattern.c). */
tess_status tess_cpu_pattern_upload(tess_cpu_pattern_t *be, const tess_tiling_t *t, tess_error_t *err);
void tess_cpu_pattern_classify(tess_cpu_pattern_t *be);
tess_status tess_cpu_pattern_fd_setup(tess_cpu_pattern_t *be, tess_error_t *err);
/* Refreshes the strain rate of every finite-difference node from the current state (cpu_pattern_fd.c). */
void tess_cpu_pattern_fd_prepass(tess_cpu_pattern_t *be);
void *tess_cpu_alloc(size_t bytes);

/* AA (cpu_aa.c). */
tess_status tess_cpu_aa_upload(tess_cpu_pattern_t *be, tess_error_t *err);
tess_status tess_cpu_aa_initialise(tess_cpu_pattern_t *be, const void *pops, tess_error_t *err);
void tess_cpu_aa_step(tess_cpu_pattern_t *be);
void tess_cpu_aa_download(tess_cpu_pattern_t *be, void *pops);

#endif
