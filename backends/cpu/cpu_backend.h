/* The OpenMP CPU reference backend's content (opaque to everything outside backends/cpu). */
#ifndef TESS_CPU_BACKEND_H
#define TESS_CPU_BACKEND_H

#include "cpu_gather_table.h"
#include "tess_backend.h"

/* One correction after the gather: a bounce-back link (i, n) from a solid node of material mat, or, with
 * i == 0xff, a solid node n of the tile. */
typedef struct {
    uint8_t i, n, mat, pad;
} tess_cpu_fixup_t;

struct tess_backend {
    tess_backend_config_t cfg;
    tess_params_t params;
    int nthreads;
    int32_t ntiles;
    int32_t *neighbors;      /* 27 per tile; empty or outside -> ntiles, the rest-state dummy tile */
    uint8_t *node_type;      /* 64 per tile */
    int32_t *order;          /* processing order of the tiles (cache blocking), split statically over threads */
    uint8_t *tile_has_open;  /* 1: tile holds inlet or outlet nodes */
    /* Per tile, the links that the unconditional gather gets wrong, as ranges into fix: bounce-back links
     * (upstream node solid) and solid nodes of the tile (given the rest state). */
    int64_t *fix_start;      /* ntiles + 1 */
    tess_cpu_fixup_t *fix;
    size_t fix_bytes;
    uint8_t wet[256];        /* per material: computed node? */
    double rest_w[19];       /* lattice weights: the rest state given to solid nodes inside a tile */
    void *f[2];              /* the two population copies (AB), each with the dummy tile at the end */
    int cur;                 /* which copy holds the current state */
    size_t bytes;
    tess_cpu_gather_table_t table;
};

#endif
