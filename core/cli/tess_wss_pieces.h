/* The wall-shear-stress files of a distributed run in pieces made by every rank (docs/mpi.md): rank 0 holds the
 * WSS vector of every WSS node (a few values a wall node, tess_sim_wss); each rank gets, once, the WSS nodes of its
 * piece's box with their normals and, per output, their WSS vectors, spreads them over its box (zero elsewhere,
 * as the single file) and writes its piece of wss_<step>.pvti. Rank 0 holds no dense array of the box for it. A
 * task of the distributed driver (cpu_dist.h), registered by tess_sim_dist_register. */
#ifndef TESS_WSS_PIECES_H
#define TESS_WSS_PIECES_H

#include "cpu_dist.h"
#include "tess_pieces_frame.h"
#include "tess_wss.h"

typedef tess_pieces_frame_t tess_wss_pieces_head_t; /* what rank 0 sends: the frame alone */

typedef struct {
    tess_wss_pieces_head_t head;
    const int32_t (*ext)[6]; /* every rank's point extent */
    const tess_wss_t *w;     /* the WSS nodes (positions, normals) */
    const double *wss;       /* 3 per WSS node */
} tess_wss_pieces_job_t;

tess_status tess_wss_pieces_task(const tess_dist_view_t *v, void *arg, tess_error_t *err);

#endif
