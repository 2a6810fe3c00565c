/* Tasks over every rank's own tiles (tess_sim_dist.h; the driver's side: cpu_dist.h, tess_cpu_dist_task). */
#include "tess_sim_dist.h"
#include "cpu_dist.h"
#include "tess_mpi.h"
#include "tess_lattice.h"
#include "tess_state.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { TASK_STATS, TASK_CHECK, TASK_FORCES, NTASKS };
enum { TAG_PARTS = 300, TAG_LINKS };

/* The worst status over the ranks (every rank calls it): what a task agrees on before its collective calls. */
static tess_status all_ok(tess_status st, tess_error_t *err)
{
    const int worst = tess_mpi_max_int((int)st);
    if (worst != (int)TESS_OK && st == TESS_OK)
        return tess_fail(err, (tess_status)worst, "another MPI rank failed (its message is above)");
    return st;
}

/* The rank's own tiles as a tiling of their own: they come first in its local tiling. */
static tess_tiling_t own_tiles(const tess_dist_view_t *v)
{
    tess_tiling_t t = *v->local;
    t.ntiles = v->nowned;
    return t;
}

/* Rank 0: every rank's `each` bytes per own tile (local order) into out at the tiles' global indices; the
 * others send theirs. tmp: room for the largest rank's share on rank 0. */
static void gather_tiles(const tess_dist_view_t *v, const void *mine, size_t each, void *out, char *tmp)
{
    if (tess_mpi_rank() != 0) {
        tess_mpi_send(mine, (size_t)v->nowned * each, 0, TAG_PARTS);
        return;
    }
    for (int r = 0; r < v->nranks; r++) {
        const char *in = mine;
        if (r) {
            tess_mpi_recv(tmp, (size_t)v->nowned_of[r] * each, r, TAG_PARTS);
            in = tmp;
        }
        for (int32_t k = 0; k < v->nowned_of[r]; k++)
            memcpy((char *)out + (size_t)v->owned[r][k] * each, in + (size_t)k * each, each);
    }
}

static int32_t most_owned(const tess_dist_view_t *v)
{
    int32_t most = 1;
    for (int r = 0; r < v->nranks; r++)
        most = v->nowned_of[r] > most ? v->nowned_of[r] : most;
    return most;
}

/* ---- the monitor's values and the node lookup ------------------------------------------------------------ */

typedef struct {
    tess_check_bounds_t b;
    int32_t row;
} stats_head_t;

typedef struct {
    const stats_head_t *head;
    tess_sim_stats_t *out;
} stats_arg_t;

/* The previous row's velocity of the rank's own tiles (tess_dist_view_t.keep). */
typedef struct {
    int have;
    double u[];
} prev_t;

/* A rank's first bad node, for the lookup across ranks. */
typedef struct {
    int64_t d; /* dense index, INT64_MAX: none */
    int32_t at[3];
    double rho, u;
} bad_t;

static tess_status task_stats(const tess_dist_view_t *v, void *argp, tess_error_t *err)
{
    stats_arg_t *arg = argp;
    stats_head_t h = arg ? *arg->head : (stats_head_t){{0, 0, 0}, 0};
    tess_mpi_bcast(&h, sizeof h, 0);
    const tess_tiling_t t = own_tiles(v);
    const size_t nodes = 64 * (size_t)(t.ntiles ? t.ntiles : 1);
    const int root = tess_mpi_rank() == 0;
    double *rho = malloc(nodes * sizeof *rho), *u = malloc(3 * nodes * sizeof *u);
    double *part = malloc(TESS_TILE_STATS_N * (size_t)(t.ntiles ? t.ntiles : 1) * sizeof *part);
    double *all = root ? malloc(TESS_TILE_STATS_N * (size_t)(v->global_ntiles ? v->global_ntiles : 1) * sizeof *all)
                       : NULL;
    char *tmp = root ? malloc(TESS_TILE_STATS_N * sizeof(double) * (size_t)most_owned(v)) : NULL;
    bad_t *bads = root ? malloc((size_t)v->nranks * sizeof *bads) : NULL;
    prev_t *prev = *v->keep;
    if (!prev && (prev = calloc(1, sizeof *prev + 3 * nodes * sizeof(double))))
        *v->keep = prev;
    tess_status st = TESS_OK;
    if (!rho || !u || !part || !prev || (root && (!all || !tmp || !bads)))
        st = tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for the monitor's reductions", tess_mpi_rank());
    if ((st = all_ok(st, err)) == TESS_OK) {
        tess_state_fields(&t, v->params, v->precision, v->pops, rho, u);
        tess_tile_stats(&t, t.ntiles, v->params, rho, u, prev->have ? prev->u : NULL, part);
        bad_t mine = {INT64_MAX, {-1, -1, -1}, NAN, NAN};
        int at[3];
        if (tess_check_locate(&t, v->params, rho, u, &h.b, at, &mine.rho, &mine.u)) {
            mine.d = (int64_t)at[0] + (int64_t)t.nx * ((int64_t)at[1] + (int64_t)t.ny * at[2]);
            memcpy(mine.at, at, sizeof at);
        }
        gather_tiles(v, part, TESS_TILE_STATS_N * sizeof(double), all, tmp);
        tess_mpi_gather(&mine, sizeof mine, bads, 0);
        if (root) {
            tess_tile_stats_combine(all, v->global_ntiles, prev->have, &arg->out->m);
            const bad_t *first = NULL;
            for (int r = 0; r < v->nranks; r++)
                if (bads[r].d != INT64_MAX && (!first || bads[r].d < first->d))
                    first = &bads[r];
            arg->out->bad = first != NULL;
            if (first) {
                for (int a = 0; a < 3; a++)
                    arg->out->at[a] = first->at[a];
                arg->out->bad_rho = first->rho;
                arg->out->bad_u = first->u;
            }
        }
        if (h.row) {
            memcpy(prev->u, u, 3 * 64 * (size_t)t.ntiles * sizeof *u);
            prev->have = 1;
        }
    }
    free(rho);
    free(u);
    free(part);
    free(all);
    free(tmp);
    free(bads);
    return st;
}

tess_status tess_sim_dist_stats(tess_backend_t *be, const tess_check_bounds_t *b, int row, tess_sim_stats_t *out,
                                tess_error_t *err)
{
    const stats_head_t h = {*b, row};
    stats_arg_t arg = {&h, out};
    memset(out, 0, sizeof *out);
    return tess_cpu_dist_task(be, TASK_STATS, &arg, err);
}

/* ---- the divergence test's reduction --------------------------------------------------------------------- */

typedef struct {
    int32_t threads;
    tess_check_t *out;
} check_arg_t;

static tess_status task_check(const tess_dist_view_t *v, void *argp, tess_error_t *err)
{
    check_arg_t *arg = argp;
    int32_t threads = arg ? arg->threads : 0;
    tess_mpi_bcast(&threads, sizeof threads, 0);
    const int root = tess_mpi_rank() == 0;
    tess_check_t *all = root ? malloc((size_t)v->nranks * sizeof *all) : NULL;
    tess_status st = all_ok(root && !all ? tess_fail(err, TESS_ERR_NOMEM, "out of memory for the divergence test")
                                         : TESS_OK, err);
    if (st != TESS_OK) {
        free(all);
        return st;
    }
    const tess_tiling_t t = own_tiles(v);
    tess_check_t mine;
    tess_check_populations(&t, v->params, v->precision == TESS_PRECISION_SINGLE, threads, v->pops, &mine);
    tess_mpi_gather(&mine, sizeof mine, all, 0);
    if (root) { /* extremes and counts: the same whatever the order */
        tess_check_t *r = arg->out;
        *r = all[0];
        for (int k = 1; k < v->nranks; k++) {
            r->rho_min = fmin(r->rho_min, all[k].rho_min);
            r->rho_max = fmax(r->rho_max, all[k].rho_max);
            r->u_max = fmax(r->u_max, all[k].u_max);
            r->nonfinite += all[k].nonfinite;
            r->wet += all[k].wet;
        }
    }
    free(all);
    return TESS_OK;
}

tess_status tess_sim_dist_check(tess_backend_t *be, int threads, tess_check_t *r, tess_error_t *err)
{
    check_arg_t arg = {threads, r};
    return tess_cpu_dist_task(be, TASK_CHECK, &arg, err);
}

/* ---- forces on named bodies ------------------------------------------------------------------------------- */

typedef struct {
    const tess_force_links_t *fl; /* over the global tiling */
    int32_t nbody;
    double *force;
} forces_arg_t;

/* A rank's links, one block (tess_dist_view_t.keep): per own tile (local order) start[k]..start[k + 1]. */
typedef struct {
    int32_t nowned, nbody;
    int64_t *start;
    tess_force_link_t *link;
} rank_links_t;

/* Rank 0 to every rank, once: the links of its own tiles in its local order. */
static tess_status send_links(const tess_dist_view_t *v, const forces_arg_t *arg, tess_error_t *err)
{
    const int root = tess_mpi_rank() == 0;
    int32_t nbody = root ? arg->nbody : 0;
    tess_mpi_bcast(&nbody, sizeof nbody, 0);
    int64_t n = 0;
    if (root)
        for (int r = v->nranks - 1; r >= 0; r--) { /* its own last: n ends as rank 0's count */
            n = 0;
            for (int32_t k = 0; k < v->nowned_of[r]; k++) {
                const int32_t g = v->owned[r][k];
                n += arg->fl->start[g + 1] - arg->fl->start[g];
            }
            if (r)
                tess_mpi_send(&n, sizeof n, r, TAG_LINKS);
        }
    else
        tess_mpi_recv(&n, sizeof n, 0, TAG_LINKS);
    const size_t head = sizeof(rank_links_t), starts = ((size_t)v->nowned + 1) * sizeof(int64_t);
    rank_links_t *rl = malloc(head + starts + (size_t)n * sizeof(tess_force_link_t) + 8);
    tess_force_link_t *buf = NULL;
    int64_t *sbuf = NULL;
    if (root) {
        int64_t most = 1;
        for (int r = 1; r < v->nranks; r++) {
            int64_t m = 0;
            for (int32_t k = 0; k < v->nowned_of[r]; k++)
                m += arg->fl->start[v->owned[r][k] + 1] - arg->fl->start[v->owned[r][k]];
            most = m > most ? m : most;
        }
        buf = malloc((size_t)most * sizeof *buf);
        sbuf = malloc(((size_t)most_owned(v) + 1) * sizeof *sbuf);
    }
    tess_status st = (!rl || (root && (!buf || !sbuf)))
                         ? tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for the forces' links", tess_mpi_rank())
                         : TESS_OK;
    if ((st = all_ok(st, err)) != TESS_OK) {
        free(rl);
        free(buf);
        free(sbuf);
        return st;
    }
    rl->nowned = v->nowned;
    rl->nbody = nbody;
    rl->start = (int64_t *)(void *)((char *)rl + head);
    rl->link = (tess_force_link_t *)(void *)((char *)rl->start + starts);
    rl->start[0] = 0;
    if (root) {
        for (int r = 0; r < v->nranks; r++) {
            tess_force_link_t *to = r ? buf : rl->link;
            int64_t *at = r ? sbuf : rl->start, m = 0;
            at[0] = 0;
            for (int32_t k = 0; k < v->nowned_of[r]; k++) {
                const int32_t g = v->owned[r][k];
                const int64_t c = arg->fl->start[g + 1] - arg->fl->start[g];
                memcpy(to + m, arg->fl->link + arg->fl->start[g], (size_t)c * sizeof *to);
                at[k + 1] = m += c;
            }
            if (r) {
                tess_mpi_send(sbuf, ((size_t)v->nowned_of[r] + 1) * sizeof *sbuf, r, TAG_LINKS);
                tess_mpi_send(buf, (size_t)m * sizeof *buf, r, TAG_LINKS);
            }
        }
    } else {
        tess_mpi_recv(rl->start, ((size_t)v->nowned + 1) * sizeof *rl->start, 0, TAG_LINKS);
        tess_mpi_recv(rl->link, (size_t)n * sizeof *rl->link, 0, TAG_LINKS);
    }
    free(buf);
    free(sbuf);
    free(*v->keep);
    *v->keep = rl;
    return TESS_OK;
}

static tess_status task_forces(const tess_dist_view_t *v, void *argp, tess_error_t *err)
{
    forces_arg_t *arg = argp;
    const int root = tess_mpi_rank() == 0;
    int32_t first = root ? *v->keep == NULL : 0;
    tess_mpi_bcast(&first, sizeof first, 0);
    tess_status st;
    if (first && (st = send_links(v, arg, err)) != TESS_OK)
        return st;
    rank_links_t *rl = *v->keep;
    const int nb = rl->nbody;
    const tess_lattice_t *lat = tess_lattice_get(v->params->lattice);
    int32_t with = 0; /* own tiles with links */
    for (int32_t k = 0; k < rl->nowned; k++)
        with += rl->start[k + 1] > rl->start[k];
    double *part = malloc(3 * (size_t)(nb ? nb : 1) * (size_t)(with ? with : 1) * sizeof *part);
    /* rank 0: every tile with links gets its place in global tile order */
    int64_t *place = root ? malloc((size_t)(v->global_ntiles + 1) * sizeof *place) : NULL;
    double *all = NULL, *tmp = NULL;
    int64_t nparts = 0;
    if (root && place) {
        for (int32_t g = 0; g < v->global_ntiles; g++) {
            place[g] = nparts;
            nparts += arg->fl->start[g + 1] > arg->fl->start[g];
        }
        all = malloc(3 * (size_t)(nb ? nb : 1) * (size_t)(nparts ? nparts : 1) * sizeof *all);
        tmp = all ? malloc(3 * (size_t)(nb ? nb : 1) * (size_t)(nparts ? nparts : 1) * sizeof *tmp) : NULL;
    }
    st = (!part || (root && (!place || !all || !tmp)))
             ? tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for the forces on bodies", tess_mpi_rank())
             : TESS_OK;
    if ((st = all_ok(st, err)) == TESS_OK) {
        int32_t m = 0;
        for (int32_t k = 0; k < rl->nowned; k++)
            if (rl->start[k + 1] > rl->start[k])
                tess_forces_tile(lat, v->local, v->params, nb, k, rl->link + rl->start[k], rl->start[k + 1] - rl->start[k],
                                 v->precision, v->pops, part + 3 * (size_t)nb * (size_t)m++);
        const size_t each = 3 * (size_t)nb * sizeof *part;
        if (!root) {
            tess_mpi_send(part, (size_t)with * each, 0, TAG_PARTS);
        } else {
            for (int r = 0; r < v->nranks; r++) {
                const double *in = part;
                int32_t cnt = 0;
                for (int32_t k = 0; k < v->nowned_of[r]; k++) {
                    const int32_t g = v->owned[r][k];
                    cnt += arg->fl->start[g + 1] > arg->fl->start[g];
                }
                if (r) {
                    tess_mpi_recv(tmp, (size_t)cnt * each, r, TAG_PARTS);
                    in = tmp;
                }
                int32_t j = 0;
                for (int32_t k = 0; k < v->nowned_of[r]; k++) {
                    const int32_t g = v->owned[r][k];
                    if (arg->fl->start[g + 1] > arg->fl->start[g])
                        memcpy((char *)all + (size_t)place[g] * each, (const char *)in + (size_t)j++ * each, each);
                }
            }
            tess_forces_combine(all, nparts, nb, arg->force);
        }
    }
    free(part);
    free(place);
    free(all);
    free(tmp);
    return st;
}

tess_status tess_sim_dist_forces(tess_backend_t *be, const tess_force_links_t *fl, int nbody, double *force,
                                 tess_error_t *err)
{
    forces_arg_t arg = {fl, nbody, force};
    return tess_cpu_dist_task(be, TASK_FORCES, &arg, err);
}

void tess_sim_dist_register(void)
{
    static const tess_dist_task_t list[NTASKS] = {[TASK_STATS] = {task_stats, 1}, [TASK_CHECK] = {task_check, 1},
                                                  [TASK_FORCES] = {task_forces, 1}};
    tess_cpu_dist_set_tasks(list, NTASKS);
}
