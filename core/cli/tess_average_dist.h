/* The time averages of a distributed run kept by every rank over its own tiles (docs/mpi.md, "Time averages"):
 * each rank holds the running sums of its own tiles' nodes (tess_average.h, per tile node) and of the WSS nodes
 * in them; rank 0 holds none of the box. At a sample every rank adds its own tiles' density and velocity, and the
 * WSS vectors of its WSS nodes that rank 0 sends (rank 0 computes every WSS node's vector, tess_sim_wss); the
 * pieces of average_<step> are made as the field pieces are (tess_field_pieces_gather); the single file
 * (output_pieces = no) gathers the means on rank 0 at the writing step only; average.restart is written and read
 * by every rank at once with MPI-IO, its blocks at the single process's offsets, its CRC-32 combined from the
 * ranks' (the same file at any rank count). A task of the distributed driver (cpu_dist.h). */
#ifndef TESS_AVERAGE_DIST_H
#define TESS_AVERAGE_DIST_H

#include "cpu_dist.h"
#include "tess_pieces_frame.h"
#include "tess_wss.h"

typedef enum {
    TESS_AVERAGE_DIST_ADD,    /* a sample at step */
    TESS_AVERAGE_DIST_PIECES, /* every rank its piece of DIR/STEM.pvti */
    TESS_AVERAGE_DIST_GATHER, /* the means per tile node of the global tiling on rank 0 (out) */
    TESS_AVERAGE_DIST_SAVE,   /* average.restart at path */
    TESS_AVERAGE_DIST_LOAD    /* from path (samples and last: out) */
} tess_average_dist_op;

/* What rank 0 sends every rank (plain data: broadcast as bytes). */
typedef struct {
    int32_t op, wss; /* wss: 1 when the run has wall shear stress (its sums and the output's WSS arrays) */
    int64_t start, every, step, ntiles, nw; /* ntiles, nw: the global tiling's tiles and the WSS nodes */
    uint64_t hash;                          /* the case's (tess_restart_hash), for the file */
    char path[1100];
    tess_pieces_frame_t frame;
} tess_average_dist_head_t;

typedef struct {
    tess_average_dist_head_t head;
    const tess_wss_t *w;        /* the WSS nodes (NULL without WSS) */
    const double *wss;          /* ADD: 3 per WSS node */
    const int32_t (*ext)[6];    /* PIECES: every rank's extent */
    const int32_t *corner;      /* PIECES: the global tiling's tile corners */
    const uint8_t *type;        /* PIECES: the dense node types */
    double *rho, *u, *wss_mean, *tawss, *osi, *wall; /* GATHER: per tile node (1, 3, 3, 1, 1, 1 a node) */
    long samples, last;         /* LOAD: what the file held */
} tess_average_dist_job_t;

tess_status tess_average_dist_task(const tess_dist_view_t *v, void *arg, tess_error_t *err);
void tess_average_dist_drop(void *keep);

#endif
