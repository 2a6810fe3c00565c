/* Curved-wall links resolved once: where each link's Bouzidi rule reads its populations. The tile kernel's
 * fix-up used to find them per link and step through the node codes of the halo and, for the quadratic rule, a
 * node type in global memory, three dependent round trips per link; with the slot it issues the five loads
 * at once (docs/performance-notes.md, "Bouzidi on the GPU"). The geometry does not change during a run, so a
 * small kernel fills the slots after initialise, from the same tile neighbourhoods the sweep uses. */
#ifndef TESS_GPU_LINK_SLOTS_H
#define TESS_GPU_LINK_SLOTS_H

#include "tess_gpu_constants.h"
extern "C" {
#include "tess_link_slots.h"
}

/* The slot's layout and filling are core's (tess_link_slots.h), the same on the CPU engine. */
typedef tess_link_slot_t tess_gpu_link_slot_t; /* 32 bytes: one sector */
#define TESS_GPU_LINK_NONE TESS_LINK_NONE

/* One thread per link: core's tess_link_slot_fill on the device's tile neighbourhoods and node types, with this run's
 * materials and wall rule. L: tess_gpu_q of the lattice (its slot_fill writes both precisions' wall terms). */
template <typename L>
__global__ void __launch_bounds__(128)
tess_gpu_link_slots_fill(const tess_link_t *__restrict__ links, const int32_t *__restrict__ link_tile, int64_t nlinks,
                         const tess_q_grid_t g, tess_gpu_link_slot_t *__restrict__ slots)
{
    const int64_t l = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (l >= nlinks)
        return;
    const tess_link_t link = links[l];
    tess_gpu_link_slot_t s;
    L::slot_fill(&tess_gpu_c.p, &g, link_tile[l], &link, &s);
    slots[l] = s;
}

#endif
