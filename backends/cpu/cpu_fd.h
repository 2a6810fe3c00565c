/* The finite-difference inlet/outlet nodes of a CPU instance as boundary data: the list of fd nodes and each
 * one's strain rate, refreshed by a pre-pass over that list only at the start of every step (the per-node work
 * is core/tess_q_step.h's tess_q_fd_strain; the node update then reads S through tess_q_gather_from). */
#ifndef TESS_CPU_FD_H
#define TESS_CPU_FD_H

#include "tess_backend.h"
#include "tess_q_step.h"
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int64_t n;        /* fd nodes */
    int64_t *node;    /* their tile node indices (64 * tile + local), ascending */
    double *S;        /* 6 per node: the strain rate of the state the step starts from */
    int32_t *of_node; /* per tile node: index into node, or -1 (NULL when n == 0) */
} tess_cpu_fd_t;

/* Lists the wet nodes whose material is an inlet or outlet with method fd (node_type: 64 per tile). Frees
 * what fd held before. TESS_ERR_NOMEM on failure. */
tess_status tess_cpu_fd_build(tess_cpu_fd_t *fd, const tess_params_t *p, const uint8_t *node_type, int32_t ntiles,
                              tess_error_t *err);

/* The pre-pass: S of every listed node from the state a step starts from, populations f read through
 * convention conv (tess_q_step.h) or, with ms != NULL, stored moments; values of precision prec, lattice
 * p->lattice. Any thread count gives the same bits (every node is independent). */
void tess_cpu_fd_prepass(tess_cpu_fd_t *fd, const tess_params_t *p, const tess_q_grid_t *g, tess_precision prec,
                         const void *f, const void *ms, int conv, int nthreads);

/* The strain rate of tile node `node` (NULL when it is not an fd node). */
static inline const double *tess_cpu_fd_strain_of(const tess_cpu_fd_t *fd, int64_t node)
{
    return fd->n && fd->of_node[node] >= 0 ? fd->S + 6 * (int64_t)fd->of_node[node] : (const double *)0;
}

size_t tess_cpu_fd_bytes(const tess_cpu_fd_t *fd, int32_t ntiles);
void tess_cpu_fd_free(tess_cpu_fd_t *fd);

#endif
