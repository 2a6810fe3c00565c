/* Tasks over every rank's own tiles (tess_sim_dist.h; the driver's side: cpu_dist.h, tess_cpu_dist_task). */
#define _POSIX_C_SOURCE 200809L /* getpid */
#include "tess_sim_dist.h"
#include "cpu_dist.h"
#include "tess_mpi.h"
#include "tess_restart.h"
#include "tess_lattice.h"
#include "tess_state.h"
#include "tess_wss.h"
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

enum { TASK_STATS, TASK_CHECK, TASK_FORCES, TASK_SAVE, TASK_LOAD, TASK_EQUILIBRIUM, TASK_FIELDS, TASK_PIECES, TASK_NODES, TASK_STRESS, TASK_WSS_PIECES, TASK_AVERAGE, NTASKS };
enum { TAG_PARTS = 300, TAG_LINKS, TAG_NODES };

tess_status tess_sim_dist_agree(tess_status st, tess_error_t *err)
{
    const int worst = tess_mpi_max_int((int)st);
    if (worst != (int)TESS_OK && st == TESS_OK)
        return tess_fail(err, (tess_status)worst, "another MPI rank failed (its message is above)");
    return st;
}

int tess_sim_dist_first(const tess_dist_view_t *v, void *head, size_t bytes)
{
    int32_t first = tess_mpi_rank() == 0 ? *v->keep == NULL : 0;
    if (bytes)
        tess_mpi_bcast(head, bytes, 0);
    tess_mpi_bcast(&first, sizeof first, 0);
    return first;
}

/* The rank's own tiles as a tiling of their own: they come first in its local tiling. */
static tess_tiling_t own_tiles(const tess_dist_view_t *v)
{
    tess_tiling_t t = *v->local;
    t.ntiles = v->nowned;
    return t;
}

void tess_sim_dist_gather_tiles(const tess_dist_view_t *v, const void *mine, size_t each, void *out, char *tmp)
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

int32_t tess_sim_dist_most_owned(const tess_dist_view_t *v)
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
    char *tmp = root ? malloc(TESS_TILE_STATS_N * sizeof(double) * (size_t)tess_sim_dist_most_owned(v)) : NULL;
    bad_t *bads = root ? malloc((size_t)v->nranks * sizeof *bads) : NULL;
    prev_t *prev = *v->keep;
    if (!prev && (prev = calloc(1, sizeof *prev + 3 * nodes * sizeof(double))))
        *v->keep = prev;
    tess_status st = TESS_OK;
    if (!rho || !u || !part || !prev || (root && (!all || !tmp || !bads)))
        st = tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for the monitor's reductions", tess_mpi_rank());
    if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
        tess_state_fields(&t, v->params, v->precision, v->pops, rho, u);
        tess_tile_stats(&t, t.ntiles, v->params, rho, u, prev->have ? prev->u : NULL, part);
        bad_t mine = {INT64_MAX, {-1, -1, -1}, NAN, NAN};
        int at[3];
        if (tess_check_locate(&t, v->params, rho, u, &h.b, at, &mine.rho, &mine.u)) {
            mine.d = (int64_t)at[0] + (int64_t)t.nx * ((int64_t)at[1] + (int64_t)t.ny * at[2]);
            memcpy(mine.at, at, sizeof at);
        }
        tess_sim_dist_gather_tiles(v, part, TESS_TILE_STATS_N * sizeof(double), all, tmp);
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
    tess_status st = tess_sim_dist_agree(root && !all ? tess_fail(err, TESS_ERR_NOMEM, "out of memory for the divergence test")
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
        sbuf = malloc(((size_t)tess_sim_dist_most_owned(v) + 1) * sizeof *sbuf);
    }
    tess_status st = (!rl || (root && (!buf || !sbuf)))
                         ? tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for the forces' links", tess_mpi_rank())
                         : TESS_OK;
    if ((st = tess_sim_dist_agree(st, err)) != TESS_OK) {
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
    tess_status st;
    if (tess_sim_dist_first(v, NULL, 0) && (st = send_links(v, arg, err)) != TESS_OK)
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
    if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
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

/* ---- restart files with MPI-IO ----------------------------------------------------------------------------- */

typedef struct {
    int32_t g, k;
} tile_at_t;

static int by_global(const void *a, const void *b)
{
    const int32_t x = ((const tile_at_t *)a)->g, y = ((const tile_at_t *)b)->g;
    return (x > y) - (x < y);
}

int tess_sim_dist_file_blocks(const tess_dist_view_t *v, int32_t n, int64_t header, size_t block, int64_t **foff,
                               int64_t **moff)
{
    tile_at_t *t = malloc((size_t)(n ? n : 1) * sizeof *t);
    *foff = malloc((size_t)(n ? n : 1) * sizeof **foff);
    *moff = malloc((size_t)(n ? n : 1) * sizeof **moff);
    if (!t || !*foff || !*moff) {
        free(t);
        return 0;
    }
    for (int32_t k = 0; k < n; k++)
        t[k] = (tile_at_t){v->global[k], k};
    qsort(t, (size_t)n, sizeof *t, by_global);
    for (int32_t k = 0; k < n; k++) {
        (*foff)[k] = header + (int64_t)t[k].g * (int64_t)block;
        (*moff)[k] = (int64_t)t[k].k * (int64_t)block;
    }
    free(t);
    return 1;
}

static size_t tile_block(const tess_dist_view_t *v)
{
    return (size_t)v->local->q * 64 * tess_precision_size(v->precision);
}

/* The file's CRC-32 on rank 0 from every rank's CRC-32 of each own tile's block (tess_restart_crc_blocks);
 * data: the rank's state in local order. */
static tess_status file_crc(const tess_dist_view_t *v, const void *data, const unsigned char header[64],
                            unsigned char out[64], uint32_t *crc, tess_error_t *err)
{
    const int root = tess_mpi_rank() == 0;
    const size_t block = tile_block(v);
    uint32_t *mine = malloc((size_t)(v->nowned ? v->nowned : 1) * sizeof *mine);
    uint32_t *all = root ? malloc((size_t)(v->global_ntiles ? v->global_ntiles : 1) * sizeof *all) : NULL;
    char *tmp = root ? malloc((size_t)tess_sim_dist_most_owned(v) * sizeof(uint32_t)) : NULL;
    tess_status st = (!mine || (root && (!all || !tmp)))
                         ? tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for the restart file's checksum",
                                     tess_mpi_rank())
                         : TESS_OK;
    if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
        for (int32_t k = 0; k < v->nowned; k++)
            mine[k] = tess_restart_block_crc((const char *)data + (size_t)k * block, block);
        tess_sim_dist_gather_tiles(v, mine, sizeof *mine, all, tmp);
        if (root)
            *crc = tess_restart_crc_blocks(header, all, v->global_ntiles, block, out);
    }
    free(mine);
    free(all);
    free(tmp);
    return st;
}

typedef struct {
    char path[1100];
    tess_restart_header_t h; /* save: the header to write; load: what the case expects */
} file_head_t;

typedef struct {
    const file_head_t *head;
    tess_restart_header_t *got; /* load */
} file_arg_t;

static tess_status io_failed(const char *path, const char *what, tess_error_t *err)
{
    return tess_fail(err, TESS_ERR_IO, "rank %d: %s: cannot %s the restart file (MPI-IO)", tess_mpi_rank(), path, what);
}

/* Every rank writes its own tiles' blocks at their places in one file (a temporary name, renamed by rank 0 when
 * all succeeded): the single process's file, byte for byte. */
static tess_status task_save(const tess_dist_view_t *v, void *argp, tess_error_t *err)
{
    const file_arg_t *arg = argp;
    const int root = tess_mpi_rank() == 0;
    file_head_t h;
    char tmpname[1200];
    if (root) {
        h = *arg->head;
        snprintf(tmpname, sizeof tmpname, "%s.%ld.tmp", h.path, (long)getpid()); /* tess_tmp.h's pattern */
    }
    tess_mpi_bcast(&h, sizeof h, 0);
    tess_mpi_bcast(tmpname, sizeof tmpname, 0);
    unsigned char hb[TESS_RESTART_HEADER_BYTES];
    tess_restart_header_bytes(&h.h, hb);
    uint32_t crc = 0;
    tess_status st = file_crc(v, v->pops, hb, hb, &crc, err);
    if (st != TESS_OK)
        return st;
    int64_t *foff = NULL, *moff = NULL;
    const size_t block = tile_block(v);
    st = tess_sim_dist_file_blocks(v, v->nowned, TESS_RESTART_HEADER_BYTES, block, &foff, &moff)
             ? TESS_OK
             : tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory writing the restart file", tess_mpi_rank());
    if (root)
        remove(tmpname); /* a leftover of an earlier failure */
    if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
        tess_mpi_file_t *f = NULL;
        st = tess_mpi_file_open(tmpname, 1, &f) ? io_failed(tmpname, "create", err) : TESS_OK;
        if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
            int rc = root ? tess_mpi_file_write_at(f, 0, hb, sizeof hb) : 0;
            rc |= tess_mpi_file_blocks(f, 1, foff, moff, v->nowned, block, (void *)(uintptr_t)v->pops);
            rc |= tess_mpi_file_close(f);
            st = tess_sim_dist_agree(rc ? io_failed(tmpname, "write", err) : TESS_OK, err);
        }
        if (root) {
            if (st == TESS_OK && rename(tmpname, h.path) != 0)
                st = io_failed(h.path, "rename into place", err);
            if (st != TESS_OK)
                remove(tmpname);
        }
        st = tess_sim_dist_agree(st, err);
    }
    free(foff);
    free(moff);
    return st;
}

/* Rank 0 checks the header; every rank reads its local tiles' blocks (its own and its halo tiles, as the
 * initial scatter gives them) and the ranks' CRC-32s of the own tiles make the file's, which rank 0 checks;
 * then every rank initialises its engine from them. */
static tess_status task_load(const tess_dist_view_t *v, void *argp, tess_error_t *err)
{
    const file_arg_t *arg = argp;
    const int root = tess_mpi_rank() == 0;
    file_head_t h;
    tess_restart_header_t got = {0};
    unsigned char raw[TESS_RESTART_HEADER_BYTES] = {0};
    uint32_t want_crc = 0;
    tess_status st = TESS_OK;
    if (root) {
        h = *arg->head;
        st = tess_restart_read_header(h.path, &got, &want_crc, raw, err);
        /* Another count or precision: the single-process reader names the fault (corrupt first, else mismatch). */
        if (st == TESS_OK && (got.count != h.h.count || got.precision != h.h.precision)) {
            tess_restart_header_t g2;
            st = tess_restart_read(h.path, &h.h, &g2, NULL, err);
            if (st == TESS_OK) /* cannot happen: the counts differ */
                st = tess_fail(err, TESS_ERR_INPUT, "%s: restart file does not match the case", h.path);
        }
    }
    if ((st = tess_sim_dist_agree(st, err)) != TESS_OK)
        return st;
    tess_mpi_bcast(&h, sizeof h, 0);
    tess_mpi_bcast(&got, sizeof got, 0);
    const size_t block = tile_block(v);
    const int32_t n = v->local->ntiles;
    char *pops = malloc(block * (size_t)(n ? n : 1));
    int64_t *foff = NULL, *moff = NULL;
    st = pops && tess_sim_dist_file_blocks(v, n, TESS_RESTART_HEADER_BYTES, block, &foff, &moff)
             ? TESS_OK
             : tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory reading the restart file", tess_mpi_rank());
    if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
        tess_mpi_file_t *f = NULL;
        st = tess_mpi_file_open(h.path, 0, &f) ? io_failed(h.path, "open", err) : TESS_OK;
        if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
            int rc = tess_mpi_file_blocks(f, 0, foff, moff, n, block, pops);
            rc |= tess_mpi_file_close(f);
            st = tess_sim_dist_agree(rc ? io_failed(h.path, "read", err) : TESS_OK, err);
        }
    }
    uint32_t crc = 0;
    if (st == TESS_OK && (st = file_crc(v, pops, raw, NULL, &crc, err)) == TESS_OK) {
        if (root && crc != want_crc)
            st = tess_fail(err, TESS_ERR_INPUT, "%s: corrupt restart file: CRC-32 %08x, the header says %08x", h.path,
                           (unsigned)crc, (unsigned)want_crc);
        if (root && st == TESS_OK)
            st = tess_restart_match(h.path, &got, &h.h, err);
        if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
            tess_params_t p = *v->params;
            p.step0 = got.step;
            st = tess_sim_dist_agree(tess_cpu_dist_view_initialise(v, &p, pops, err), err);
        }
    }
    if (root && st == TESS_OK)
        *arg->got = got;
    free(pops);
    free(foff);
    free(moff);
    return st;
}

tess_status tess_sim_dist_save(tess_backend_t *be, const char *path, const tess_restart_header_t *h, tess_error_t *err)
{
    file_head_t head = {{0}, *h};
    if (snprintf(head.path, sizeof head.path, "%s", path) >= (int)sizeof head.path)
        return tess_fail(err, TESS_ERR_INPUT, "%s: path too long for a restart file", path);
    const file_arg_t arg = {&head, NULL};
    return tess_cpu_dist_task(be, TASK_SAVE, (void *)&arg, err);
}

tess_status tess_sim_dist_load(tess_backend_t *be, const char *path, const tess_restart_header_t *expect,
                               tess_restart_header_t *got, tess_error_t *err)
{
    file_head_t head = {{0}, *expect};
    if (snprintf(head.path, sizeof head.path, "%s", path) >= (int)sizeof head.path)
        return tess_fail(err, TESS_ERR_INPUT, "%s: path too long for a restart file", path);
    const file_arg_t arg = {&head, got};
    return tess_cpu_dist_task(be, TASK_LOAD, (void *)&arg, err);
}

/* ---- the initial state and the per-node fields ----------------------------------------------------------- */

typedef struct {
    tess_params_t p;
    double rho0, u0[3];
} equilibrium_head_t;

/* Every rank the uniform equilibrium of its local tiles (tess_state_equilibrium: a node's values depend on its
 * own type alone, so the bits are those of the global state scattered). */
static tess_status task_equilibrium(const tess_dist_view_t *v, void *argp, tess_error_t *err)
{
    equilibrium_head_t h;
    if (tess_mpi_rank() == 0)
        h = *(const equilibrium_head_t *)argp;
    tess_mpi_bcast(&h, sizeof h, 0);
    const int32_t n = v->local->ntiles;
    char *pops = malloc(tile_block(v) * (size_t)(n ? n : 1));
    tess_status st = tess_sim_dist_agree(pops ? TESS_OK
                                 : tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for its initial state",
                                             tess_mpi_rank()),
                            err);
    if (st == TESS_OK) {
        tess_state_equilibrium(v->local, &h.p, v->precision, pops, h.rho0, h.u0, NULL, NULL);
        st = tess_cpu_dist_view_initialise(v, &h.p, pops, err);
    }
    free(pops);
    return st;
}

typedef struct {
    double *rho, *u; /* rank 0: per tile node of the global tiling */
} fields_arg_t;

/* Every rank's own tiles' density and velocity per node, gathered into rank 0's per-tile-node arrays. */
static tess_status task_fields(const tess_dist_view_t *v, void *argp, tess_error_t *err)
{
    const fields_arg_t *arg = argp;
    const int root = tess_mpi_rank() == 0;
    const tess_tiling_t t = own_tiles(v);
    const size_t nodes = 64 * (size_t)(t.ntiles ? t.ntiles : 1);
    double *rho = malloc(nodes * sizeof *rho), *u = malloc(3 * nodes * sizeof *u);
    char *tmp = root ? malloc(3 * 64 * sizeof(double) * (size_t)tess_sim_dist_most_owned(v)) : NULL;
    tess_status st = (!rho || !u || (root && !tmp))
                         ? tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for the fields", tess_mpi_rank())
                         : TESS_OK;
    if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
        tess_state_fields(&t, v->params, v->precision, v->pops, rho, u);
        tess_sim_dist_gather_tiles(v, rho, 64 * sizeof *rho, root ? arg->rho : NULL, tmp);
        tess_sim_dist_gather_tiles(v, u, 3 * 64 * sizeof *u, root ? arg->u : NULL, tmp);
    }
    free(rho);
    free(u);
    free(tmp);
    return st;
}

/* ---- values of a fixed list of nodes: the probes' corners, the wall-shear-stress nodes ----------------- */

typedef struct {
    const int64_t *nodes; /* per node: tile * 64 + local of the global tiling, -1 when no tile holds it */
    size_t n;
    double *vals;         /* out: `each` values per node */
} nodes_arg_t;

/* The list on each rank (tess_dist_view_t.keep, one block): its own nodes (local tile * 64 + local node) in the
 * request's order; on rank 0 also per rank the count and, rank by rank, the request positions. */
typedef struct {
    int64_t nmine;
    int64_t *mine;
    int64_t *count, *pos; /* rank 0 */
} nodes_keep_t;

/* Rank 0 to every rank, once: which requested nodes lie in its own tiles. */
static tess_status nodes_setup(const tess_dist_view_t *v, const nodes_arg_t *arg, tess_error_t *err)
{
    const int root = tess_mpi_rank() == 0, R = tess_mpi_size();
    int64_t n = 0, *owner = NULL, *where = NULL, *cnt = NULL;
    int32_t *rank_of = NULL, *lidx = NULL;
    tess_status st = TESS_OK;
    if (root) {
        n = (int64_t)arg->n;
        owner = malloc((size_t)(n ? n : 1) * sizeof *owner); /* per request: the rank, -1 when no tile holds it */
        where = malloc((size_t)(n ? n : 1) * sizeof *where); /* per request: local tile * 64 + node */
        cnt = calloc((size_t)R + 1, sizeof *cnt);
        rank_of = malloc((size_t)(v->global_ntiles ? v->global_ntiles : 1) * sizeof *rank_of);
        lidx = malloc((size_t)(v->global_ntiles ? v->global_ntiles : 1) * sizeof *lidx);
        if (!owner || !where || !cnt || !rank_of || !lidx) {
            st = tess_fail(err, TESS_ERR_NOMEM, "out of memory for the probes' nodes");
        } else {
            for (int r = 0; r < R; r++)
                for (int32_t k = 0; k < v->nowned_of[r]; k++) {
                    rank_of[v->owned[r][k]] = r;
                    lidx[v->owned[r][k]] = k;
                }
            for (int64_t j = 0; j < n; j++) {
                const int64_t m = arg->nodes[j];
                owner[j] = m < 0 ? -1 : rank_of[m / 64];
                where[j] = m < 0 ? 0 : (int64_t)lidx[m / 64] * 64 + m % 64;
                if (m >= 0)
                    cnt[owner[j]]++;
            }
        }
    }
    if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
        int64_t mine = 0;
        if (root)
            for (int r = R - 1; r >= 0; r--) {
                mine = cnt[r]; /* ends as rank 0's */
                if (r)
                    tess_mpi_send(&mine, sizeof mine, r, TAG_NODES);
            }
        else
            tess_mpi_recv(&mine, sizeof mine, 0, TAG_NODES);
        const size_t head = (sizeof(nodes_keep_t) + 7) / 8 * 8;
        const size_t extra = root ? ((size_t)R + (size_t)n) * sizeof(int64_t) : 0;
        nodes_keep_t *k = malloc(head + (size_t)(mine + 1) * sizeof(int64_t) + extra);
        int64_t *buf = root ? malloc((size_t)(n ? n : 1) * sizeof *buf) : NULL;
        st = k && (!root || buf) ? TESS_OK
                                 : tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for the probes' nodes",
                                             tess_mpi_rank());
        if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
            k->nmine = mine;
            k->mine = (int64_t *)(void *)((char *)k + head);
            k->count = root ? k->mine + mine + 1 : NULL;
            k->pos = root ? k->count + R : NULL;
            if (root) {
                int64_t at = 0;
                for (int r = 0; r < R; r++) {
                    int64_t m = 0;
                    for (int64_t j = 0; j < n; j++)
                        if (owner[j] == r) {
                            k->pos[at + m] = j;
                            buf[m++] = where[j];
                        }
                    k->count[r] = m;
                    at += m;
                    if (r)
                        tess_mpi_send(buf, (size_t)m * sizeof *buf, r, TAG_NODES);
                    else
                        memcpy(k->mine, buf, (size_t)m * sizeof *buf);
                }
            } else {
                tess_mpi_recv(k->mine, (size_t)mine * sizeof *k->mine, 0, TAG_NODES);
            }
            free(*v->keep);
            *v->keep = k;
            k = NULL;
        }
        free(k);
        free(buf);
    }
    free(owner);
    free(where);
    free(cnt);
    free(rank_of);
    free(lidx);
    return st;
}

/* Every rank the `each` values of its listed nodes (density and velocity: each from its tile alone,
 * tess_state_fields over a one-tile view, the same arithmetic as over the whole tiling; the stress: tess_wss_stress
 * over its local tiling, halo included), sent to rank 0, which places them. */
static tess_status nodes_values(const tess_dist_view_t *v, nodes_arg_t *arg, int each, tess_error_t *err)
{
    const int root = tess_mpi_rank() == 0;
    tess_status st;
    if (tess_sim_dist_first(v, NULL, 0) && (st = nodes_setup(v, arg, err)) != TESS_OK)
        return st;
    const nodes_keep_t *k = *v->keep;
    int64_t most = k->nmine;
    for (int r = 1; root && r < v->nranks; r++)
        most = k->count[r] > most ? k->count[r] : most;
    double *vals = malloc((size_t)each * (size_t)(most + 1) * sizeof *vals);
    st = vals ? TESS_OK
              : tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for the values of listed nodes", tess_mpi_rank());
    if (st == TESS_OK && each == 6)
        st = tess_wss_stress(v->local, v->params, v->precision, v->pops, k->mine, k->nmine, vals, err);
    if ((st = tess_sim_dist_agree(st, err)) != TESS_OK) {
        free(vals);
        return st;
    }
    if (each == 4) {
        const size_t block = tile_block(v);
        tess_tiling_t one = *v->local;
        one.ntiles = 1;
        double rho[64], u[3 * 64];
        int64_t tile = -1;
        for (int64_t j = 0; j < k->nmine; j++) {
            const int64_t kt = k->mine[j] / 64, n0 = k->mine[j] % 64;
            if (kt != tile) {
                one.node_type = v->local->node_type + 64 * (size_t)kt;
                one.tile_corner = v->local->tile_corner + 3 * (size_t)kt;
                tess_state_fields(&one, v->params, v->precision, (const char *)v->pops + (size_t)kt * block, rho, u);
                tile = kt;
            }
            vals[4 * j] = rho[n0];
            memcpy(vals + 4 * j + 1, u + 3 * n0, 3 * sizeof *u);
        }
    }
    const size_t vb = (size_t)each * sizeof *vals;
    if (!root) {
        tess_mpi_send(vals, (size_t)k->nmine * vb, 0, TAG_NODES);
    } else {
        memset(arg->vals, 0, arg->n * vb); /* nodes in no tile */
        int64_t at = 0;
        for (int r = 0; r < v->nranks; r++) {
            if (r)
                tess_mpi_recv(vals, (size_t)k->count[r] * vb, r, TAG_NODES);
            for (int64_t m = 0; m < k->count[r]; m++)
                memcpy(arg->vals + (size_t)each * (size_t)k->pos[at + m], vals + (size_t)each * (size_t)m, vb);
            at += k->count[r];
        }
    }
    free(vals);
    return TESS_OK;
}

static tess_status task_nodes(const tess_dist_view_t *v, void *argp, tess_error_t *err)
{
    return nodes_values(v, argp, 4, err);
}

static tess_status task_stress(const tess_dist_view_t *v, void *argp, tess_error_t *err)
{
    return nodes_values(v, argp, 6, err);
}

tess_status tess_sim_dist_nodes(tess_backend_t *be, const int64_t *nodes, size_t n, double *vals, tess_error_t *err)
{
    nodes_arg_t arg = {nodes, n, vals};
    return tess_cpu_dist_task(be, TASK_NODES, &arg, err);
}

tess_status tess_sim_dist_stress(tess_backend_t *be, const int64_t *nodes, size_t n, double *sigma, tess_error_t *err)
{
    nodes_arg_t arg = {nodes, n, sigma};
    return tess_cpu_dist_task(be, TASK_STRESS, &arg, err);
}

tess_status tess_sim_dist_equilibrium(tess_backend_t *be, const tess_params_t *p, double rho0, const double u0[3],
                                      tess_error_t *err)
{
    equilibrium_head_t h = {*p, rho0, {u0[0], u0[1], u0[2]}};
    return tess_cpu_dist_task(be, TASK_EQUILIBRIUM, &h, err);
}

tess_status tess_sim_dist_fields(tess_backend_t *be, double *rho, double *u, tess_error_t *err)
{
    fields_arg_t arg = {rho, u};
    return tess_cpu_dist_task(be, TASK_FIELDS, &arg, err);
}

tess_status tess_sim_dist_wss_pieces(tess_backend_t *be, const tess_wss_pieces_job_t *job, tess_error_t *err)
{
    return tess_cpu_dist_task(be, TASK_WSS_PIECES, (void *)(uintptr_t)job, err);
}

tess_status tess_sim_dist_average(tess_backend_t *be, tess_average_dist_job_t *job, tess_error_t *err)
{
    return tess_cpu_dist_task(be, TASK_AVERAGE, job, err);
}

tess_status tess_sim_dist_pieces(tess_backend_t *be, tess_field_pieces_job_t *job, tess_error_t *err)
{
    return tess_cpu_dist_task(be, TASK_PIECES, job, err);
}

void tess_sim_dist_register(void)
{
    static const tess_dist_task_t list[NTASKS] = {[TASK_STATS] = {task_stats, 1, NULL},
                                                  [TASK_CHECK] = {task_check, 1, NULL},
                                                  [TASK_FORCES] = {task_forces, 1, NULL},
                                                  [TASK_SAVE] = {task_save, 1, NULL},
                                                  [TASK_LOAD] = {task_load, 0, NULL},
                                                  [TASK_EQUILIBRIUM] = {task_equilibrium, 0, NULL},
                                                  [TASK_FIELDS] = {task_fields, 1, NULL},
                                                  [TASK_PIECES] = {tess_field_pieces_task, 1, NULL},
                                                  [TASK_NODES] = {task_nodes, 1, NULL},
                                                  [TASK_STRESS] = {task_stress, 1, NULL},
                                                  [TASK_WSS_PIECES] = {tess_wss_pieces_task, 0, NULL},
                                                  [TASK_AVERAGE] = {tess_average_dist_task, 1, tess_average_dist_drop}};
    tess_cpu_dist_set_tasks(list, NTASKS);
}
