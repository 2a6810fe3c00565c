/* The finite-difference node list and its pre-pass (cpu_fd.h). */
#include "cpu_fd.h"
#include "tess_physics_q.h"
#include <stdlib.h>

static int is_fd(const tess_material_t *m)
{
    return (m->kind == TESS_NODE_VELOCITY || m->kind == TESS_NODE_PRESSURE) && m->method == TESS_BC_FINITE_DIFFERENCE;
}

void tess_cpu_fd_free(tess_cpu_fd_t *fd)
{
    free(fd->node);
    free(fd->S);
    free(fd->of_node);
    fd->node = NULL;
    fd->S = NULL;
    fd->of_node = NULL;
    fd->n = 0;
}

tess_status tess_cpu_fd_build(tess_cpu_fd_t *fd, const tess_params_t *p, const uint8_t *node_type, int32_t ntiles,
                              tess_error_t *err)
{
    tess_cpu_fd_free(fd);
    const int64_t nn = 64 * (int64_t)ntiles;
    int64_t count = 0;
    for (int64_t i = 0; i < nn; i++)
        count += is_fd(&p->mat[node_type[i]]);
    if (count == 0)
        return TESS_OK;
    fd->node = malloc((size_t)count * sizeof *fd->node);
    fd->S = calloc((size_t)count * 6, sizeof *fd->S);
    fd->of_node = malloc((size_t)nn * sizeof *fd->of_node);
    if (!fd->node || !fd->S || !fd->of_node) {
        tess_cpu_fd_free(fd);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for %lld finite-difference boundary nodes",
                         (long long)count);
    }
    for (int64_t i = 0; i < nn; i++) {
        fd->of_node[i] = -1;
        if (is_fd(&p->mat[node_type[i]])) {
            fd->of_node[i] = (int32_t)fd->n;
            fd->node[fd->n++] = i;
        }
    }
    return TESS_OK;
}

size_t tess_cpu_fd_bytes(const tess_cpu_fd_t *fd, int32_t ntiles)
{
    return fd->n ? (size_t)fd->n * (sizeof *fd->node + 6 * sizeof *fd->S) + 64 * (size_t)ntiles * sizeof *fd->of_node
                 : 0;
}

/* One lattice and precision: tess_q_fd_strain_<lat>_<prec> on every listed node. */
#define CPU_FD_LOOP(L, P, R)                                                                                       \
    do {                                                                                                           \
        _Pragma("omp parallel for schedule(static) num_threads(nthreads)") for (int64_t c = 0; c < fd->n; c++)    \
        {                                                                                                          \
            const int64_t node = fd->node[c];                                                                     \
            const int32_t k = (int32_t)(node / 64);                                                               \
            const int n = (int)(node % 64);                                                                       \
            tess_q_fd_strain_##L##_##P(p, g, (const R *)f, (const R *)ms, conv, k, n % g->ex, (n / g->ex) % g->ey, \
                                       n / (g->ex * g->ey), fd->S + 6 * c);                                       \
        }                                                                                                          \
    } while (0)

#define CPU_FD_LATTICE(L)                                                                                          \
    do {                                                                                                           \
        if (prec == TESS_PRECISION_SINGLE)                                                                         \
            CPU_FD_LOOP(L, f32, float);                                                                            \
        else                                                                                                       \
            CPU_FD_LOOP(L, f64, double);                                                                           \
    } while (0)

void tess_cpu_fd_prepass(tess_cpu_fd_t *fd, const tess_params_t *p, const tess_q_grid_t *g, tess_precision prec,
                         const void *f, const void *ms, int conv, int nthreads)
{
    if (!fd->n)
        return;
    switch (p->lattice) {
    case TESS_LATTICE_D2Q9: CPU_FD_LATTICE(d2q9); break;
    case TESS_LATTICE_D3Q27: CPU_FD_LATTICE(d3q27); break;
    case TESS_LATTICE_D3Q19: CPU_FD_LATTICE(d3q19); break;
    default: break; /* D3Q13 has no fd closure: tess_q_check_physics refuses it before a step */
    }
}
