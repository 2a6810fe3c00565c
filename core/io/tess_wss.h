/* Wall shear stress on the host, from the canonical populations of the stored state, for every backend
 * (docs/outputs.md, "Wall shear stress"). The WSS lives at the wall nodes' fluid neighbours: every fluid node
 * with a lattice link into a wall (solid, moving wall, or a non-periodic box face). There
 *   n      the wall normal, pointing from the wall into the fluid: from the geometry when a callback knows it
 *          (an STL surface's nearest triangle), else -sum w_i c_i over the node's links into the wall;
 *   delta  the distance from the node to the wall along n: the mean of q_i (c_i . -n) over the wall links with
 *          c_i . -n > 0, weighted by w_i, with q_i the curved-wall link's fraction (tess_links.h) or 1/2
 *          (halfway bounce-back);
 *   sigma  the non-equilibrium viscous stress (tess_q_stress) of the populations the next step collides,
 *          extrapolated linearly along the normal to the wall from the node and its inward neighbour
 *          x + c_d (c_d the lattice direction closest to n, tess_q_inward): exact for a stress linear in the
 *          wall distance, as in Poiseuille flow;
 *   WSS    t - (t . n) n with the traction t = sigma . n: the force per area of the fluid on the wall. */
#ifndef TESS_WSS_H
#define TESS_WSS_H

#include "tess_backend.h"
#include "tess_tiling.h"
#include <stdint.h>

/* Optional geometry normal at a node x: n holds the lattice normal (unit, from the wall into the fluid) on entry;
 * the callback replaces it (any length, pointing from the wall into the fluid) and returns 1, or returns 0 to
 * keep it. */
typedef int (*tess_wss_normal_fn)(void *ctx, const double x[3], double n[3]);

typedef struct {
    int64_t n;        /* WSS nodes */
    int32_t *at;      /* 3 per node: box coordinates */
    int64_t *node;    /* per node: tile * 64 + local */
    int64_t *inner;   /* per node: tile * 64 + local of the inward neighbour, -1 when none is wet */
    double *normal;   /* 3 per node: unit wall normal into the fluid */
    double *delta;    /* per node: wall distance along the normal */
    double *h;        /* per node: the inward neighbour's distance from the node along the normal */
    int64_t *node_link;  /* per tile node: its curved-wall links (tess_links_node_ranges), NULL without links */
    uint8_t *node_nlink;
} tess_wss_t;

/* Finds the WSS nodes of the tiling. The physics must have a stress factor 1 - 1/(2 tau) (every lattice and
 * collision but D3Q13's MRT: TESS_ERR_UNSUPPORTED naming it). normal_fn may be NULL. Errors also
 * TESS_ERR_NOMEM. */
tess_status tess_wss_create(tess_wss_t *w, const tess_tiling_t *t, const tess_params_t *p, tess_wss_normal_fn normal_fn,
                            void *ctx, tess_error_t *err);
void tess_wss_free(tess_wss_t *w);

/* The WSS vector of every WSS node (wss: 3 per node, lattice units: mass / (spacing step^2)) from the stored
 * populations pops (canonical storage, precision prec). TESS_ERR_NOMEM when a scratch copy fails. */
tess_status tess_wss_compute(const tess_wss_t *w, const tess_tiling_t *t, const tess_params_t *p, tess_precision prec,
                             const void *pops, double *wss, tess_error_t *err);

/* The same in two halves, for a distributed run (docs/mpi.md): the stress (6 values, tess_q_stress's order) of
 * nodes[0..n) (tile * 64 + local of t) from the populations of t, which must hold every value their gathers read
 * (a rank's local tiling with its halo: the step's own inputs); then, from the stresses of every WSS node
 * (sigma[0..6 n)) and of its inward neighbour (sigma[6 n..12 n), read only where it has one), the WSS vectors
 * (3 per node) with tess_wss_compute's arithmetic. */
tess_status tess_wss_stress(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *pops,
                            const int64_t *nodes, int64_t n, double *sigma, tess_error_t *err);
void tess_wss_finish(const tess_wss_t *w, const double *sigma, double *wss);

#endif
