/* Curved-wall links resolved once: where each link's Bouzidi rule reads its populations, the wall term of the
 * link, and its direction. tess_q_pull_link_from walks the grid and checks node types for every link at every step
 * (three dependent lookups a link); the geometry does not change during a run, so a backend fills one slot per
 * link after initialise and the per-step work of a link is five loads and the core's Bouzidi rule
 * (docs/performance-notes.md, "Bouzidi on the GPU" and "Curved links on the CPU"). One layout and one filling
 * for the CPU engine (backends/cpu/cpu_q_step_t.h) and the GPU kernels (backends/gpu/tess_gpu_link_slots.h). */
#ifndef TESS_LINK_SLOTS_H
#define TESS_LINK_SLOTS_H

#include "tess_q_step.h"

/* One link of node `node` of tile k (the link's entry of tess_links_t): its incoming direction i and kd = opp(i)
 * (the direction towards the wall), the material of the dry node x - c_i (for the moving-wall term), q, and the
 * tile nodes (64 tile + local) x + c_i and, for the quadratic rule, x + 2 c_i when the rule reads them (wet),
 * else -1. i = TESS_LINK_NONE: x - c_i is wet, the plain pull stands. */
typedef struct {
    double q;
    double wall64; /* the moving-wall term of the link (tess_q_wall_term) in FP64 and in FP32 */
    float wall32;
    int32_t n1;
    int32_t n2;
    uint8_t i;
    uint8_t kd;
    uint8_t up;
    uint8_t node; /* the node's local index in its tile */
} tess_link_slot_t;   /* 32 bytes: one GPU sector, two slots a CPU cache line */

#define TESS_LINK_NONE 0xFFu

#define TESS_QTEMPLATE "tess_link_slots_t.h"
#include "tess_instantiate_q.h"

#endif
