/* Where a run's set-up spends its time and the host's peak memory: a billion-node box takes minutes to set up,
 * so the stages are timed and reported (`tessera bench`'s set-up line and CSV, summary.json's "setup" block;
 * docs/outputs.md). */
#ifndef TESS_SETUP_H
#define TESS_SETUP_H

#include <stddef.h>

typedef enum {
    TESS_SETUP_CASE,       /* reading the case file and building the dense geometry (shapes, voxels, STL) */
    TESS_SETUP_TILING,     /* tiles, node types, tile neighbourhoods (tess_tiling_build) */
    TESS_SETUP_LINKS,      /* curved-wall links (tess_links_build; 0 under bounce-back) */
    TESS_SETUP_BACKEND,    /* the backend's creation and its copy of the tiling (create, upload_geometry) */
    TESS_SETUP_INITIALISE, /* the initial state: equilibrium, boundary lists, transfer to the device */
    TESS_SETUP_STAGES
} tess_setup_stage;

typedef struct {
    double seconds[TESS_SETUP_STAGES];
} tess_setup_t;

/* A monotonic clock in seconds. */
double tess_setup_now(void);
/* The stage's name as the outputs write it ("case", "tiling", "links", "backend", "initialise"). */
const char *tess_setup_stage_name(int stage);
double tess_setup_total(const tess_setup_t *s);
/* The process's peak resident host memory so far in bytes (getrusage), 0 when unknown. */
size_t tess_setup_host_peak(void);
/* One line: "set-up 12.3 s (case 1.2, tiling 3.4, ...); host peak 5.6 GB". */
void tess_setup_format(const tess_setup_t *s, char *buf, size_t len);

#endif
