/* The OpenMP CPU reference backend's content (opaque to everything outside backends/cpu). */
#ifndef TESS_CPU_BACKEND_H
#define TESS_CPU_BACKEND_H

#include "cpu_gather_table.h"
#include "tess_backend.h"

struct tess_backend {
    tess_backend_config_t cfg;
    tess_params_t params;
    int nthreads;
    int32_t ntiles;
    int32_t *neighbors;      /* 27 per tile */
    uint8_t *node_type;      /* 64 per tile */
    uint8_t *tile_plain;     /* 1: tile and its neighbourhood are all plain fluid */
    uint8_t *tile_has_open;  /* 1: tile holds inlet or outlet nodes */
    uint8_t wet[256];        /* per material: computed node? */
    double rest_w[19];       /* lattice weights: the rest state given to solid nodes inside a tile */
    void *f[2];              /* the two population copies (AB) */
    int cur;                 /* which copy holds the current state */
    size_t bytes;
    tess_cpu_gather_table_t table;
};

#endif
