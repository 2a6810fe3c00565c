/* Curved-wall links: for every wet node next to a wall surface that does not sit halfway along the lattice
 * link, the fraction q of the link from the node to the surface (Bouzidi, Firdaouss & Lallemand 2001).
 * Built once per run from a callback that knows the geometry (primitive shapes: core/case/tess_wall_q.c, STL
 * surfaces: core/geometry), stored per non-empty tile so that a backend uploads them with the tiling and a
 * GPU kernel finds the links of its tile in one range. */
#ifndef TESS_LINKS_H
#define TESS_LINKS_H

#include "tess_error.h"
#include "tess_params.h"
#include <stdint.h>

/* Fraction q in (0, 1] of the link from x (node coordinates of a wet node) along c (a lattice velocity whose
 * end x + c is a solid node) at which the wall surface crosses it, or -1 when no curved surface crosses the
 * link (the link then keeps plain halfway bounce-back). */
typedef double (*tess_wall_q_fn)(void *ctx, const double x[3], const double c[3]);

/* One link: node (local index in its tile), direction k towards the wall (x + c_k is solid), and q. */
typedef struct {
    double q;
    uint16_t node;
    uint8_t dir;
    uint8_t pad[5];
} tess_link_t;

typedef struct {
    int64_t n;          /* links in all */
    tess_link_t *link;  /* sorted by tile, node, direction */
    int64_t *start;     /* ntiles + 1: links of tile t are link[start[t] .. start[t + 1]) (NULL when n == 0) */
} tess_links_t;

struct tess_tiling;

/* Whether the engine runs these physics: a known lattice with a collision it has (tess_q_supports), inlets and
 * outlets by nee, Zou-He (D3Q19) or the finite-difference closure (tess_q_supports_fd, axis-aligned, steady).
 * TESS_ERR_UNSUPPORTED (or TESS_ERR_INPUT for an unknown lattice) with the reason; every backend of the engine
 * calls it in initialise, so the refusals read the same on the CPU and the GPUs. */
tess_status tess_q_check_physics(const tess_params_t *p, tess_error_t *err);

/* Asks fn for every link from a wet node to a solid node (kind SOLID or WALL) of the tiling's lattice and
 * keeps those with q in (0, 1] and q != 1/2 (q = 1/2 is plain bounce-back already). q outside (0, 1] other
 * than -1 is an error (TESS_ERR_INPUT naming the node and direction). Errors also: TESS_ERR_NOMEM. */
tess_status tess_links_build(tess_links_t *l, const struct tess_tiling *t, const tess_params_t *p, tess_wall_q_fn fn,
                             void *ctx, tess_error_t *err);
void tess_links_free(tess_links_t *l);

/* Per tile node (64 * tile + local): the first link of the node (index into l->link) and how many it has, the
 * range that tess_q_node_step takes as (links, nlinks). Both arrays hold 64 * ntiles entries and are written
 * in full (0, 0 for a node without links); links come sorted by tile and node, so a node's links are one range. */
void tess_links_node_ranges(const struct tess_tiling *t, int64_t *node_link, uint8_t *node_nlink);

#endif
