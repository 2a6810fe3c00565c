/* Finite-difference velocity-gradient boundary nodes of the AA pattern: the list of nodes and their
 * stencils (built once), and the pre-pass that refreshes every node's strain rate at the start of a step from
 * the velocities of the state the step starts from (so the gradients lag the populations by one step, in every
 * representation alike; a steady state is unaffected). The node update then reads S (tess_fd_boundary,
 * in its distribution form). */
#include "cpu_pattern.h"
#include "tess_layout.h"
#include "tess_physics.h"
#include <stdlib.h>

/* Tile node index of (x + dx, y + dy, z + dz) for node n of tile k, |d| <= 2, or -1 (empty tile / outside). */
static int64_t node_at(const tess_cpu_pattern_t *be, int32_t k, int n, int dx, int dy, int dz)
{
    const int x = (n & 3) + dx, y = ((n >> 2) & 3) + dy, z = (n >> 4) + dz;
    const int tx = x < 0 ? -1 : x >> 2, ty = y < 0 ? -1 : y >> 2, tz = z < 0 ? -1 : z >> 2;
    const int32_t t2 = be->neighbors[27 * (size_t)k + tess_tiling_slot(tx, ty, tz)];
    if (t2 < 0)
        return -1;
    return 64 * (int64_t)t2 + tess_layout_xyz((unsigned)x & 3u, (unsigned)y & 3u, (unsigned)z & 3u);
}

tess_status tess_cpu_pattern_fd_setup(tess_cpu_pattern_t *be, tess_error_t *err)
{
    free(be->fd);
    free(be->fd_of_node);
    be->fd = NULL;
    be->fd_of_node = NULL;
    be->n_fd = 0;
    const tess_params_t *p = &be->params;
    const int64_t nn = 64 * (int64_t)be->ntiles;
    int64_t count = 0;
    for (int64_t i = 0; i < nn; i++) {
        const tess_material_t *m = &p->mat[be->node_type[i]];
        count += (m->kind == TESS_NODE_VELOCITY || m->kind == TESS_NODE_PRESSURE) && m->method == TESS_BC_FINITE_DIFFERENCE;
    }
    if (count == 0)
        return TESS_OK;
    be->fd = calloc((size_t)count, sizeof *be->fd);
    be->fd_of_node = malloc((size_t)nn * sizeof *be->fd_of_node);
    if (!be->fd || !be->fd_of_node)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for %lld finite-difference boundary nodes", (long long)count);
    int64_t c = 0;
    for (int64_t i = 0; i < nn; i++) {
        const tess_material_t *m = &p->mat[be->node_type[i]];
        be->fd_of_node[i] = -1;
        if (!((m->kind == TESS_NODE_VELOCITY || m->kind == TESS_NODE_PRESSURE) && m->method == TESS_BC_FINITE_DIFFERENCE))
            continue;
        if (m->axis < 0 || m->axis > 2 || (m->sign != 1 && m->sign != -1))
            return tess_fail(err, TESS_ERR_INPUT, "material %d: a finite-difference boundary needs axis 0-2 and sign +1 or -1",
                             be->node_type[i]);
        tess_cpu_fd_node_t *fd = &be->fd[c];
        const int32_t k = (int32_t)(i / 64);
        const int n = (int)(i % 64);
        fd->node = i;
        fd->stencil[0] = i;
        for (int d = 0; d < 3; d++) {
            int e[3] = {0, 0, 0};
            e[d] = 1;
            fd->stencil[1 + 2 * d] = node_at(be, k, n, -e[0], -e[1], -e[2]);
            fd->stencil[2 + 2 * d] = node_at(be, k, n, e[0], e[1], e[2]);
        }
        int e2[3] = {0, 0, 0};
        e2[m->axis] = -2 * m->sign;
        fd->stencil[7] = node_at(be, k, n, e2[0], e2[1], e2[2]);
        for (int s = 1; s < 8; s++)
            if (fd->stencil[s] >= 0 && !be->wet[be->node_type[fd->stencil[s]]])
                fd->stencil[s] = -1;
        be->fd_of_node[i] = (int32_t)c;
        c++;
    }
    be->n_fd = count;
    return TESS_OK;
}

/* Velocity of the state the next step starts from, at tile node index g. */
static void velocity_at(const tess_cpu_pattern_t *be, int64_t g, double *u)
{
    const tess_params_t *p = &be->params;
    const int32_t k = (int32_t)(g / 64);
    const int n = (int)(g % 64);
    const int single = be->cfg.precision == TESS_PRECISION_SINGLE;
    double rho;
    /* AA: after an even number of steps the copy is canonical; after an odd one, the post-collision f_j of the
     * node sits where it streamed to, at location (opp(j), n), or bounced in its own slot j. */
    const tess_cpu_gather_table_t *g_ = &be->table;
    double f[19];
    for (int j = 0; j < 19; j++) {
        size_t at;
        double corr = 0.0;
        if ((be->nsteps_done & 1) == 0) {
            at = ((size_t)k * 19 + j) * 64 + g_->dst_off[j][n];
        } else {
            const int i = TESS_D3Q19_OPP(j);
            const int32_t t2 = be->neighbors[27 * (size_t)k + g_->src_slot[i][n]];
            const uint8_t st = t2 < 0 ? 0 : be->node_type[64 * (size_t)t2 + g_->src_xyz[i][n]];
            if (be->wet[st]) {
                at = ((size_t)t2 * 19 + i) * 64 + g_->src_off[i][n];
            } else {
                at = ((size_t)k * 19 + j) * 64 + g_->self_opp[i][n];
                corr = tess_bounce_back_f64(i, 0.0, &p->mat[st]); /* the wall's momentum term, removed */
            }
        }
        f[j] = (single ? (double)((const float *)be->f)[at] : ((const double *)be->f)[at]) - corr;
    }
    tess_macroscopic_f64(p, f, &rho, u);
}

void tess_cpu_pattern_fd_prepass(tess_cpu_pattern_t *be)
{
    if (!be->n_fd)
        return;
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int64_t c = 0; c < be->n_fd; c++) {
        tess_cpu_fd_node_t *fd = &be->fd[c];
        const tess_material_t *m = &be->params.mat[be->node_type[fd->node]];
        double u[8][3] = {{0}};
        int have[8];
        for (int s = 0; s < 8; s++) {
            have[s] = fd->stencil[s] >= 0;
            if (have[s])
                velocity_at(be, fd->stencil[s], u[s]);
        }
        tess_fd_strain_f64(m->axis, m->sign, (const double(*)[3])u, have, fd->S);
    }
}
