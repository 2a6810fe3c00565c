/* An engine over MPI ranks (cpu_dist.h, docs/mpi.md): rank 0's backend tables, the other ranks' service loop,
 * and the per-step halo exchange that both run, through the engine's hooks (core/tess_dist_engine.h). */
#include "cpu_dist.h"
#include "cpu_q.h"
#include "cpu_dist_xfer.h"
#include "tess_dist_engine.h"
#include "tess_halo_plan.h"
#include "tess_mpi.h"
#include "tess_partition.h"
#include "tess_state.h"
#include "tess_cpu_rank_bind.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Commands from rank 0 (broadcast), and the tags of the point-to-point messages. */
enum { CMD_CREATE = 1, CMD_UPLOAD, CMD_INIT, CMD_STEP, CMD_DOWNLOAD, CMD_BYTES, CMD_STATS, CMD_DESTROY, CMD_QUIT };
enum { TAG_PLAN = 100, TAG_POPS, TAG_GATHER, TAG_HALO };
/* A task outside the engine (tess_cpu_dist_set_service), and the tasks over every rank's own tiles
 * (tess_cpu_dist_set_tasks). */
enum { CMD_SERVICE = 50, CMD_TASK };
static void (*service)(void);
static const tess_dist_task_t *tasks;
static int ntasks;

typedef struct {
    int32_t op, arg;
} cmd_t;

/* One rank's share: its engine over the local tiling and the exchange. */
typedef struct {
    tess_backend_config_t cfg;
    const tess_dist_engine_t *ex; /* the engine (tess_dist_engine.h): the CPU, or a GPU backend */
    tess_backend_t *eng;
    tess_halo_plan_t plan;
    size_t vs;                   /* bytes per value */
    int64_t *off;                /* per neighbour j: its messages' first value in the buffers (room for every phase) */
    tess_mpi_requests_t *req;
    double step_s, exchange_s, wait_s;
    long steps;
    tess_dist_xfer_t x;          /* where packing writes and MPI reads: host, device, or staged (cpu_dist_xfer.h) */
    tess_status fail;            /* the first failure of a step (node_failed) */
    tess_error_t ferr;
    tess_params_t params;        /* as initialised: what the tasks see */
    void *keep[TESS_DIST_TASKS_MAX]; /* each task's own data on this rank (tess_dist_view_t.keep) */
} node_t;

/* Rank 0's instance: its node plus what it needs to scatter and gather the global state. */
typedef struct {
    tess_backend_config_t cfg; /* first member, as every backend */
    node_t node;
    int nranks;
    int32_t global_ntiles;
    int q;
    int32_t **owned;           /* per rank: global tiles in its local order (owned ones first) */
    int32_t *nowned, *nlocal;  /* per rank */
    double imbalance;
    const tess_tiling_t *global; /* the caller's tiling (tess_sim keeps it while the backend lives) */
    int planned;
} dist_t;

static int live;     /* rank 0: an instance exists */
static int released; /* rank 0: the serving ranks have been let go */

static void bcast_cmd(int op, int arg)
{
    cmd_t c = {op, arg};
    tess_mpi_bcast(&c, sizeof c, 0);
}

/* The status of a command on every rank: the worst (highest) code; a serving rank printed its own line. */
static tess_status agree(tess_status st, tess_error_t *err)
{
    const int worst = tess_mpi_max_int((int)st);
    if (worst != (int)TESS_OK && st == TESS_OK)
        return tess_fail(err, (tess_status)worst, "another MPI rank failed (its message is above)");
    return st;
}

/* ---- the exchange ---------------------------------------------------------------------------------------- */

/* A rank's first failure in a step (a GPU engine's launch or copy): printed once; the rank goes on posting its
 * messages, so that no other rank waits forever, and the next download reports it to rank 0. */
static void node_failed(node_t *d, tess_status st, const tess_error_t *e)
{
    if (st == TESS_OK || d->fail != TESS_OK)
        return;
    d->fail = st;
    d->ferr = *e;
    if (tess_mpi_rank() != 0)
        fprintf(stderr, "tessera: rank %d: %s\n", tess_mpi_rank(), e->msg);
}

static tess_status node_buffers(node_t *d, tess_error_t *err)
{
    const tess_halo_plan_t *pl = &d->plan;
    d->off = calloc((size_t)pl->nnb + 1, sizeof *d->off);
    if (!d->off)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the halo buffers");
    for (int j = 0; j < pl->nnb; j++) {
        const int64_t ra = pl->recv_a_start[j + 1] - pl->recv_a_start[j], rb = pl->recv_b_start[j + 1] - pl->recv_b_start[j];
        const int64_t sa = pl->send_a_start[j + 1] - pl->send_a_start[j], sb = pl->send_b_start[j + 1] - pl->send_b_start[j];
        const int64_t a = ra > sa ? ra : sa, b = rb > sb ? rb : sb;
        d->off[j + 1] = d->off[j] + a + b;
    }
    d->req = tess_mpi_requests_new(2 * pl->nnb);
    if (!d->req)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the halo requests");
    return tess_dist_xfer_init(&d->x, d->ex, pl, (size_t)d->off[pl->nnb] * d->vs, err);
}

static void node_free(node_t *d)
{
    tess_dist_xfer_free(&d->x); /* device memory first, while the engine holds its device */
    if (d->eng)
        d->ex->ops->destroy(d->eng);
    tess_halo_plan_free(&d->plan);
    for (int k = 0; k < TESS_DIST_TASKS_MAX; k++) {
        if (k < ntasks && tasks[k].drop && d->keep[k])
            tasks[k].drop(d->keep[k]);
        else
            free(d->keep[k]);
    }
    free(d->off);
    tess_mpi_requests_free(d->req);
    memset(d, 0, sizeof *d);
}

/* The phases of the exchange (tess_halo_plan.h): FWD sends the owner's A and B slots to the ranks holding them
 * as halo (after an AB step, and after the AA pattern's even step); REV returns the A slots that the AA odd
 * step wrote into the halo to their owners; FWD_B sends B alone (after REV, for the AA even step's reads). */
enum { FWD, REV, FWD_B };

typedef struct {
    const int64_t *s1, *s2, *r1, *r2; /* lists (CSR) sent from and received into; s2/r2 may be NULL */
    const int64_t *s1_start, *s2_start, *r1_start, *r2_start;
} phase_t;

static phase_t phase_lists(const tess_halo_plan_t *pl, int phase)
{
    phase_t p = {0};
    if (phase == FWD) {
        p = (phase_t){pl->send_a, pl->send_b, pl->recv_a, pl->recv_b,
                      pl->send_a_start, pl->send_b_start, pl->recv_a_start, pl->recv_b_start};
    } else if (phase == REV) {
        p = (phase_t){pl->recv_a, NULL, pl->send_a, NULL, pl->recv_a_start, NULL, pl->send_a_start, NULL};
    } else {
        p = (phase_t){pl->send_b, NULL, pl->recv_b, NULL, pl->send_b_start, NULL, pl->recv_b_start, NULL};
    }
    return p;
}

static int64_t len(const int64_t *start, int j)
{
    return start ? start[j + 1] - start[j] : 0;
}

static void phase_recv(node_t *d, int phase)
{
    const tess_halo_plan_t *pl = &d->plan;
    const phase_t p = phase_lists(pl, phase);
    char *rbuf = tess_dist_xfer_mpi_buf(&d->x, 0);
    for (int j = 0; j < pl->nnb; j++) {
        const int64_t n = len(p.r1_start, j) + len(p.r2_start, j);
        if (n)
            tess_mpi_irecv(d->req, rbuf + (size_t)d->off[j] * d->vs, (size_t)n * d->vs, pl->nb[j], TAG_HALO + phase);
    }
}

/* Packs every neighbour's message (the engine: on the device for a GPU) and makes it ready for MPI (staged
 * through the engine's own copy stream, d->x.async: the copies started, phase_post waits for them). */
static void phase_pack(node_t *d, int phase, const void *f)
{
    const tess_halo_plan_t *pl = &d->plan;
    const phase_t p = phase_lists(pl, phase);
    const tess_dist_engine_t *ex = d->ex;
    char *pb = tess_dist_xfer_engine_buf(&d->x, 1);
    tess_error_t e = {0};
    for (int j = 0; j < pl->nnb; j++) {
        const int64_t n1 = len(p.s1_start, j), n2 = len(p.s2_start, j);
        const size_t o = (size_t)d->off[j] * d->vs;
        tess_status st = TESS_OK;
        if (n1)
            st = ex->pack(d->eng, pb + o, f, tess_dist_xfer_list(&d->x, pl, p.s1) + p.s1_start[j], n1, d->vs, &e);
        if (n2 && st == TESS_OK)
            st = ex->pack(d->eng, pb + o + (size_t)n1 * d->vs, f, tess_dist_xfer_list(&d->x, pl, p.s2) + p.s2_start[j],
                          n2, d->vs, &e);
        if (n1 + n2 && st == TESS_OK)
            st = tess_dist_xfer_sent(&d->x, o, (size_t)(n1 + n2) * d->vs, &e);
        node_failed(d, st, &e);
    }
}

/* Posts every neighbour's packed message, once the staging copies that run on their own stream are done. */
static void phase_post(node_t *d, int phase)
{
    const tess_halo_plan_t *pl = &d->plan;
    const phase_t p = phase_lists(pl, phase);
    char *mb = tess_dist_xfer_mpi_buf(&d->x, 1);
    tess_error_t e = {0};
    node_failed(d, tess_dist_xfer_ready(&d->x, &e), &e);
    for (int j = 0; j < pl->nnb; j++) {
        const int64_t n = len(p.s1_start, j) + len(p.s2_start, j);
        if (n)
            tess_mpi_isend(d->req, mb + (size_t)d->off[j] * d->vs, (size_t)n * d->vs, pl->nb[j], TAG_HALO + phase);
    }
}

static void node_sync(node_t *d);

/* Awaits the messages and unpacks them; returns the seconds it waited for a GPU engine's kernels (the interior
 * tiles, which the unpacking's copies would wait for anyway): stepping, not exchange. */
static double phase_finish(node_t *d, int phase, void *f)
{
    const tess_halo_plan_t *pl = &d->plan;
    const phase_t p = phase_lists(pl, phase);
    const tess_dist_engine_t *ex = d->ex;
    double t = tess_mpi_wtime();
    tess_mpi_waitall(d->req);
    d->wait_s += tess_mpi_wtime() - t;
    t = tess_mpi_wtime();
    node_sync(d);
    const double busy = tess_mpi_wtime() - t;
    const char *ub = tess_dist_xfer_engine_buf(&d->x, 0);
    tess_error_t e = {0};
    for (int j = 0; j < pl->nnb; j++) {
        const int64_t n1 = len(p.r1_start, j), n2 = len(p.r2_start, j);
        const size_t o = (size_t)d->off[j] * d->vs;
        tess_status st = n1 + n2 ? tess_dist_xfer_received(&d->x, o, (size_t)(n1 + n2) * d->vs, &e) : TESS_OK;
        if (n1 && st == TESS_OK)
            st = ex->unpack(d->eng, f, ub + o, tess_dist_xfer_list(&d->x, pl, p.r1) + p.r1_start[j], n1, d->vs, &e);
        if (n2 && st == TESS_OK)
            st = ex->unpack(d->eng, f, ub + o + (size_t)n1 * d->vs, tess_dist_xfer_list(&d->x, pl, p.r2) + p.r2_start[j],
                            n2, d->vs, &e);
        node_failed(d, st, &e);
    }
    return busy;
}

static void node_tiles(node_t *d, int32_t k0, int32_t k1, int part)
{
    tess_error_t e = {0};
    node_failed(d, d->ex->step_tiles(d->eng, k0, k1, part, &e), &e);
}

/* Waits for a GPU engine's kernels (the step's timing includes them); nothing for the CPU. */
static void node_sync(node_t *d)
{
    tess_error_t e = {0};
    if (d->ex->sync)
        node_failed(d, d->ex->sync(&e), &e);
}

/* One step with its exchange: boundary tiles, messages packed and posted, interior tiles, messages awaited. A GPU
 * engine staging through its own copy stream posts after launching the interior tiles, which then run beside the
 * copies. */
static void node_step(node_t *d)
{
    const tess_dist_engine_t *ex = d->ex;
    const tess_halo_plan_t *pl = &d->plan;
    const double t0 = tess_mpi_wtime();
    double tx = 0.0, t;
    const int aa = d->cfg.pattern == TESS_PATTERN_AA, odd = aa && (ex->steps_done(d->eng) & 1) == 0;
    const int phase = odd ? REV : FWD;
    t = tess_mpi_wtime();
    phase_recv(d, phase);
    tx += tess_mpi_wtime() - t;
    node_tiles(d, 0, pl->nbound, TESS_DIST_FIRST);
    node_sync(d); /* a GPU's boundary tiles are done before the exchange's clock starts */
    t = tess_mpi_wtime();
    /* AB: the new state is the other copy until the step completes; AA works in place; MR keeps the boundary
     * tiles' new moments aside until the interior has read their old ones (tess_dist_engine.h, state). */
    phase_pack(d, phase, ex->state(d->eng, 1));
    if (!d->x.async)
        phase_post(d, phase);
    tx += tess_mpi_wtime() - t;
    node_tiles(d, pl->nbound, pl->nowned, TESS_DIST_LAST); /* a GPU runs it while the messages travel */
    t = tess_mpi_wtime();
    if (d->x.async)
        phase_post(d, phase);
    void *f = ex->state(d->eng, 0);
    double busy = phase_finish(d, phase, f);
    if (odd) { /* the owners now hold their complete swapped state: send B for the even step's special reads */
        phase_recv(d, FWD_B);
        phase_pack(d, FWD_B, f);
        phase_post(d, FWD_B);
        busy += phase_finish(d, FWD_B, f);
    }
    node_sync(d);
    tx += tess_mpi_wtime() - t - busy;
    d->exchange_s += tx;
    d->step_s += tess_mpi_wtime() - t0;
    d->steps++;
}

/* ---- plans over the wire --------------------------------------------------------------------------------- */

typedef struct {
    tess_tiling_t t; /* scalars; pointers meaningless */
    int32_t nbound, nowned;
    int nnb;
    int64_t nlinks;
} plan_head_t;

#define SEND(ptr, n, to) tess_mpi_send((ptr), (size_t)(n) * sizeof *(ptr), (to), TAG_PLAN)
#define RECV(ptr, n, from) tess_mpi_recv((ptr), (size_t)(n) * sizeof *(ptr), (from), TAG_PLAN)

static void send_plan(const tess_halo_plan_t *pl, int to)
{
    const plan_head_t h = {pl->local, pl->nbound, pl->nowned, pl->nnb, pl->local.links.n};
    SEND(&h, 1, to);
    const int32_t n = pl->local.ntiles;
    SEND(pl->global, n, to);
    SEND(pl->local.tile_corner, 3 * (size_t)n, to);
    SEND(pl->local.neighbors, 27 * (size_t)n, to);
    SEND(pl->local.node_type, 64 * (size_t)n, to);
    if (h.nlinks > 0) {
        SEND(pl->local.links.link, h.nlinks, to);
        SEND(pl->local.links.start, (size_t)n + 1, to);
    }
    SEND(pl->nb, pl->nnb, to);
    const int64_t *starts[4] = {pl->recv_a_start, pl->recv_b_start, pl->send_a_start, pl->send_b_start};
    const int64_t *lists[4] = {pl->recv_a, pl->recv_b, pl->send_a, pl->send_b};
    for (int k = 0; k < 4; k++) {
        SEND(starts[k], pl->nnb + 1, to);
        SEND(lists[k], starts[k][pl->nnb], to);
    }
}

static tess_status recv_plan(tess_halo_plan_t *pl, tess_error_t *err)
{
    plan_head_t h;
    RECV(&h, 1, 0);
    memset(pl, 0, sizeof *pl);
    pl->rank = tess_mpi_rank();
    pl->local = h.t;
    pl->local.tile_map = NULL;
    memset(&pl->local.links, 0, sizeof pl->local.links);
    pl->nbound = h.nbound;
    pl->nowned = h.nowned;
    pl->nnb = h.nnb;
    const size_t n = (size_t)h.t.ntiles;
    pl->global = malloc(n * sizeof *pl->global);
    pl->local.tile_corner = malloc(3 * n * sizeof *pl->local.tile_corner);
    pl->local.neighbors = malloc(27 * n * sizeof *pl->local.neighbors);
    pl->local.node_type = malloc(64 * n);
    pl->nb = malloc((size_t)(h.nnb ? h.nnb : 1) * sizeof *pl->nb);
    int64_t **starts[4] = {&pl->recv_a_start, &pl->recv_b_start, &pl->send_a_start, &pl->send_b_start};
    int64_t **lists[4] = {&pl->recv_a, &pl->recv_b, &pl->send_a, &pl->send_b};
    int ok = pl->global && pl->local.tile_corner && pl->local.neighbors && pl->local.node_type && pl->nb;
    if (h.nlinks > 0) {
        pl->local.links.n = h.nlinks;
        pl->local.links.link = malloc((size_t)h.nlinks * sizeof *pl->local.links.link);
        pl->local.links.start = malloc((n + 1) * sizeof *pl->local.links.start);
        ok = ok && pl->local.links.link && pl->local.links.start;
    }
    for (int k = 0; k < 4; k++)
        ok = ok && (*starts[k] = malloc(((size_t)h.nnb + 1) * sizeof(int64_t)));
    if (!ok) /* the messages cannot be left unread: an MPI program out of memory here has no way back */
        return tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for its tiles (%zu)", pl->rank, n);
    RECV(pl->global, n, 0);
    RECV(pl->local.tile_corner, 3 * n, 0);
    RECV(pl->local.neighbors, 27 * n, 0);
    RECV(pl->local.node_type, 64 * n, 0);
    if (h.nlinks > 0) {
        RECV(pl->local.links.link, h.nlinks, 0);
        RECV(pl->local.links.start, n + 1, 0);
    }
    RECV(pl->nb, h.nnb, 0);
    for (int k = 0; k < 4; k++) {
        RECV(*starts[k], h.nnb + 1, 0);
        const int64_t m = (*starts[k])[h.nnb];
        if (!(*lists[k] = malloc((size_t)(m ? m : 1) * sizeof(int64_t))))
            return tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for its halo lists", pl->rank);
        RECV(*lists[k], m, 0);
    }
    return TESS_OK;
}

/* ---- what every rank does for a command ------------------------------------------------------------------ */

/* The engines this build runs distributed (tess_cpu_dist_engines; the CPU's always first), and which one a
 * command names: the index travels with CMD_CREATE. */
enum { MAX_ENGINES = 4 };
static const tess_dist_engine_t *engines[MAX_ENGINES] = {&tess_dist_engine_cpu};
static int nengines = 1;

static tess_status node_create(node_t *d, const tess_backend_config_t *cfg, int engine, tess_error_t *err)
{
    memset(d, 0, sizeof *d);
    d->cfg = *cfg;
    d->vs = tess_precision_size(cfg->precision);
    if (engine < 0 || engine >= nengines)
        return tess_fail(err, TESS_ERR_UNSUPPORTED, "rank %d: engine %d is not built here", tess_mpi_rank(), engine);
    d->ex = engines[engine];
    return d->ex->create ? d->ex->create(cfg, &d->eng, err) : d->ex->ops->create(cfg, &d->eng, err);
}

/* The MR pattern stores nv moments per node instead of q populations: a node any of whose slots is listed sends
 * all its moments (upstream populations are rebuilt from them). Per neighbour, the nodes of the A then B list in
 * first-seen order (both sides walk the same (global tile, i, node) sequence, so they agree), each as nv slots
 * (local tile * nv + m) * 64 + node of the engine's moment storage; the result replaces A, B is left empty. */
static int mr_lists(int64_t **list, int64_t **start, const int64_t *a, const int64_t *as, const int64_t *b,
                    const int64_t *bs, int nnb, int q, int nv, int32_t ntiles)
{
    uint8_t *seen = calloc(64 * (size_t)(ntiles ? ntiles : 1), 1);
    int64_t *st = calloc((size_t)nnb + 1, sizeof *st);
    int64_t *out = malloc((size_t)(as[nnb] + bs[nnb] + 1) * (size_t)nv * sizeof *out);
    if (!seen || !st || !out) {
        free(seen);
        free(st);
        free(out);
        return 0;
    }
    int64_t n = 0;
    for (int j = 0; j < nnb; j++) {
        for (int pass = 0; pass < 2; pass++) {
            const int64_t *l = pass ? b : a, *ls = pass ? bs : as;
            for (int64_t e = ls[j]; e < ls[j + 1]; e++) {
                const int64_t node = l[e] / 64 / q * 64 + l[e] % 64;
                if (seen[node])
                    continue;
                seen[node] = 1;
                for (int m = 0; m < nv; m++)
                    out[n++] = (node / 64 * nv + m) * 64 + node % 64;
            }
        }
        /* a node may serve two neighbours: forget it between them */
        for (int pass = 0; pass < 2; pass++) {
            const int64_t *l = pass ? b : a, *ls = pass ? bs : as;
            for (int64_t e = ls[j]; e < ls[j + 1]; e++)
                seen[l[e] / 64 / q * 64 + l[e] % 64] = 0;
        }
        st[j + 1] = n;
    }
    free(seen);
    free(*list);
    free(*start);
    *list = out;
    *start = st;
    return 1;
}

static tess_status mr_plan(tess_halo_plan_t *pl, tess_error_t *err)
{
    const int q = pl->local.q, nv = tess_state_node_values(TESS_PATTERN_MR, pl->local.lattice, q);
    int64_t *ra = pl->recv_a, *ras = pl->recv_a_start, *sa = pl->send_a, *sas = pl->send_a_start;
    pl->recv_a = pl->recv_a_start = pl->send_a = pl->send_a_start = NULL;
    const int ok = mr_lists(&pl->recv_a, &pl->recv_a_start, ra, ras, pl->recv_b, pl->recv_b_start, pl->nnb, q, nv,
                            pl->local.ntiles) &&
                   mr_lists(&pl->send_a, &pl->send_a_start, sa, sas, pl->send_b, pl->send_b_start, pl->nnb, q, nv,
                            pl->local.ntiles);
    free(ra);
    free(ras);
    free(sa);
    free(sas);
    if (!ok)
        return tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for its moment lists", pl->rank);
    memset(pl->recv_b_start, 0, ((size_t)pl->nnb + 1) * sizeof *pl->recv_b_start);
    memset(pl->send_b_start, 0, ((size_t)pl->nnb + 1) * sizeof *pl->send_b_start);
    return TESS_OK;
}

static tess_status node_upload(node_t *d, tess_error_t *err)
{
    tess_status st = d->cfg.pattern == TESS_PATTERN_MR ? mr_plan(&d->plan, err) : TESS_OK;
    if (st == TESS_OK)
        st = node_buffers(d, err);
    if (st == TESS_OK)
        st = d->ex->ops->upload_geometry(d->eng, &d->plan.local, err);
    if (st == TESS_OK && d->ex->state_slots) { /* the lists in the engine's own state order */
        tess_halo_plan_t *pl = &d->plan;
        d->ex->state_slots(d->eng, pl->send_a, pl->send_a_start[pl->nnb]);
        d->ex->state_slots(d->eng, pl->send_b, pl->send_b_start[pl->nnb]);
        d->ex->state_slots(d->eng, pl->recv_a, pl->recv_a_start[pl->nnb]);
        d->ex->state_slots(d->eng, pl->recv_b, pl->recv_b_start[pl->nnb]);
    }
    if (st == TESS_OK && d->ex->set_owned) {
        const tess_tiling_t *l = &d->plan.local;
        st = d->ex->set_owned(d->eng, d->plan.nbound, d->plan.nowned, l->links.n > 0 ? l->links.start[d->plan.nowned] : 0,
                              err);
    }
    return st;
}

/* The process's peak resident memory in bytes (VmHWM of /proc/self/status; 0 where there is none). */
static double peak_resident(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kb = 0.0;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            kb = strtod(line + 6, NULL);
    if (f)
        fclose(f);
    return kb * 1024.0;
}

static void node_stats(node_t *d, tess_halo_rank_t *s)
{
    const tess_halo_plan_t *pl = &d->plan;
    *s = (tess_halo_rank_t){pl->nowned, pl->local.ntiles - pl->nowned, pl->nnb,
                                pl->local.n_wet, tess_halo_plan_recv_count(pl), d->step_s, d->exchange_s, d->wait_s,
                                d->steps, tess_dist_xfer_reported(&d->x), peak_resident(), ""};
    tess_cpu_rank_binding(s->binding, sizeof s->binding);
}

/* The local populations (canonical, local tile order), owned tiles first: what a download sends to rank 0. */
static tess_status node_download(node_t *d, char **local, tess_error_t *err)
{
    const size_t block = (size_t)d->plan.local.q * 64 * d->vs;
    *local = malloc(block * (size_t)(d->plan.local.ntiles ? d->plan.local.ntiles : 1));
    if (!*local)
        return tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for its populations", tess_mpi_rank());
    if (d->fail != TESS_OK) { /* a step failed on this rank (node_failed) */
        *err = d->ferr;
        return d->fail;
    }
    return d->ex->ops->download_populations(d->eng, *local, err);
}

/* One task on this rank (rank 0: with root, its instance): the download agreed first, then the task, whose
 * status is agreed again. */
static tess_status node_task(node_t *d, const dist_t *root, int task, void *arg, tess_error_t *err)
{
    if (task < 0 || task >= ntasks || task >= TESS_DIST_TASKS_MAX)
        return tess_fail(err, TESS_ERR_UNSUPPORTED, "rank %d: no task %d", tess_mpi_rank(), task);
    char *pops = NULL;
    tess_status st = tasks[task].download ? node_download(d, &pops, err) : TESS_OK;
    if ((st = agree(st, err)) != TESS_OK) {
        free(pops);
        return st;
    }
    const tess_halo_plan_t *pl = &d->plan;
    tess_dist_view_t v = {&pl->local, pl->nowned, pl->global, &d->params, d->cfg.precision, pops, &d->keep[task], d,
                          0, 0, NULL, NULL};
    if (root) {
        v.nranks = root->nranks;
        v.global_ntiles = root->global_ntiles;
        v.owned = root->owned;
        v.nowned_of = root->nowned;
    }
    st = tasks[task].fn(&v, arg, err);
    free(pops);
    return agree(st, err);
}

tess_status tess_cpu_dist_view_initialise(const tess_dist_view_t *v, const tess_params_t *p, const void *pops,
                                          tess_error_t *err)
{
    node_t *d = v->node;
    const tess_status st = d->ex->ops->initialise(d->eng, p, pops, err);
    d->params = *p;
    d->step_s = d->exchange_s = d->wait_s = 0.0;
    d->steps = 0;
    d->fail = TESS_OK;
    return st;
}

void tess_cpu_dist_set_tasks(const tess_dist_task_t *list, int n)
{
    tasks = list;
    ntasks = n;
}

int tess_cpu_dist_serve(void)
{
    node_t d = {0};
    tess_error_t err = {0};
    for (;;) {
        cmd_t c;
        tess_mpi_bcast(&c, sizeof c, 0);
        tess_status st = TESS_OK;
        switch (c.op) {
        case CMD_CREATE: {
            tess_backend_config_t cfg;
            tess_mpi_bcast(&cfg, sizeof cfg, 0);
            node_free(&d);
            st = agree(node_create(&d, &cfg, c.arg, &err), &err);
            break;
        }
        case CMD_UPLOAD:
            st = recv_plan(&d.plan, &err);
            if (st == TESS_OK)
                st = node_upload(&d, &err);
            st = agree(st, &err);
            break;
        case CMD_INIT: {
            tess_params_t p;
            tess_mpi_bcast(&p, sizeof p, 0);
            const size_t bytes = (size_t)d.plan.local.ntiles * d.plan.local.q * 64 * d.vs;
            char *pops = malloc(bytes ? bytes : 1);
            if (pops)
                tess_mpi_recv(pops, bytes, 0, TAG_POPS);
            else /* drain the message into nothing is impossible without the room: fail this rank */
                st = tess_fail(&err, TESS_ERR_NOMEM, "rank %d: out of memory for its initial state", tess_mpi_rank());
            if (st == TESS_OK)
                st = d.ex->ops->initialise(d.eng, &p, pops, &err);
            d.params = p;
            free(pops);
            d.step_s = d.exchange_s = d.wait_s = 0.0;
            d.steps = 0;
            st = agree(st, &err);
            break;
        }
        case CMD_STEP:
            for (int s = 0; s < c.arg; s++)
                node_step(&d);
            break;
        case CMD_DOWNLOAD: {
            char *local = NULL;
            st = agree(node_download(&d, &local, &err), &err);
            if (st == TESS_OK)
                tess_mpi_send(local, (size_t)d.plan.nowned * d.plan.local.q * 64 * d.vs, 0, TAG_GATHER);
            free(local);
            break;
        }
        case CMD_BYTES:
            tess_mpi_sum_ll(d.eng ? (long long)d.ex->ops->bytes_allocated(d.eng) : 0);
            break;
        case CMD_STATS: {
            tess_halo_rank_t s;
            node_stats(&d, &s);
            tess_mpi_gather(&s, sizeof s, NULL, 0);
            break;
        }
        case CMD_SERVICE:
            if (service)
                service();
            break;
        case CMD_TASK:
            st = node_task(&d, NULL, c.arg, NULL, &err);
            break;
        case CMD_DESTROY:
            node_free(&d);
            break;
        case CMD_QUIT:
        default:
            node_free(&d);
            return c.arg;
        }
        /* Only the rank that failed prints (rank 0 prints the run's line), not those told so by agreeing. */
        if (st != TESS_OK && strncmp(err.msg, "another MPI rank failed", 23) != 0)
            fprintf(stderr, "tessera: rank %d: %s\n", tess_mpi_rank(), err.msg);
    }
}

void tess_cpu_dist_release(int code)
{
    if (released || tess_mpi_size() < 2 || tess_mpi_rank() != 0)
        return;
    released = 1;
    bcast_cmd(CMD_QUIT, code);
}

void tess_cpu_dist_set_service(void (*fn)(void))
{
    service = fn;
}

void tess_cpu_dist_service(void)
{
    if (tess_mpi_size() > 1 && tess_mpi_rank() == 0 && !released)
        bcast_cmd(CMD_SERVICE, 0);
}

/* ---- rank 0's table -------------------------------------------------------------------------------------- */

static dist_t *dbe(tess_backend_t *b)
{
    return (dist_t *)(void *)b;
}

static void d_destroy(tess_backend_t *b)
{
    dist_t *d = dbe(b);
    if (!d)
        return;
    if (!released)
        bcast_cmd(CMD_DESTROY, 0);
    node_free(&d->node);
    for (int r = 0; d->owned && r < d->nranks; r++)
        free(d->owned[r]);
    free(d->owned);
    free(d->nowned);
    free(d->nlocal);
    free(d);
    live = 0;
}

static tess_status d_create_engine(const tess_backend_config_t *cfg, int engine, tess_backend_t **out,
                                   tess_error_t *err)
{
    *out = NULL;
    if (live)
        return tess_fail(err, TESS_ERR_INPUT, "one distributed run at a time: --check does not run under mpirun with several "
                                               "processes (docs/mpi.md)");
    dist_t *d = calloc(1, sizeof *d);
    if (!d)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the distributed backend");
    d->cfg = *cfg;
    d->nranks = tess_mpi_size();
    live = 1;
    bcast_cmd(CMD_CREATE, engine);
    tess_mpi_bcast(&d->cfg, sizeof d->cfg, 0);
    const tess_status st = agree(node_create(&d->node, cfg, engine, err), err);
    *out = (tess_backend_t *)(void *)d;
    return st; /* on error the caller destroys what it got */
}

/* The tiling waits for the materials (initialise): the partition weighs tiles by wet nodes, and the halo lists
 * depend on which nodes are wet and which are inlets or outlets. */
static tess_status d_upload(tess_backend_t *b, const tess_tiling_t *t, tess_error_t *err)
{
    dist_t *d = dbe(b);
    if (d->planned)
        return tess_fail(err, TESS_ERR_UNSUPPORTED, "the distributed backend takes one tiling per instance");
    d->global = t;
    d->global_ntiles = t->ntiles;
    d->q = t->q;
    return TESS_OK;
}

/* Partition, plans, and each rank's local tiling sent to it (rank 0 plans for all: it holds the global tiling). */
static tess_status plan_all(dist_t *d, const tess_params_t *p, tess_error_t *err)
{
    const int R = d->nranks;
    tess_partition_t part;
    tess_status st = tess_partition_build(&part, d->global, p, NULL, R, err);
    if (st != TESS_OK)
        return st;
    d->imbalance = part.imbalance;
    tess_halo_plan_t *plans = calloc((size_t)R, sizeof *plans);
    d->owned = calloc((size_t)R, sizeof *d->owned);
    d->nowned = calloc((size_t)R, sizeof *d->nowned);
    d->nlocal = calloc((size_t)R, sizeof *d->nlocal);
    if (!plans || !d->owned || !d->nowned || !d->nlocal) {
        tess_partition_free(&part);
        free(plans);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory planning %d ranks", R);
    }
    st = tess_halo_plan_build(plans, d->global, p, &part, d->cfg.pattern == TESS_PATTERN_AA ? 4 : 3, err);
    tess_partition_free(&part);
    if (st != TESS_OK) {
        free(plans);
        return st;
    }
    for (int r = 0; r < R; r++) {
        d->nowned[r] = plans[r].nowned;
        d->nlocal[r] = plans[r].local.ntiles;
        /* every rank's tile list (for the scatter and the gather); the plan itself goes to its rank */
        d->owned[r] = plans[r].global;
        plans[r].global = NULL;
        if (!(plans[r].global = malloc((size_t)d->nlocal[r] * sizeof *plans[r].global)))
            st = tess_fail(err, TESS_ERR_NOMEM, "out of memory planning %d ranks", R);
        else
            memcpy(plans[r].global, d->owned[r], (size_t)d->nlocal[r] * sizeof *plans[r].global);
    }
    if (st == TESS_OK) {
        bcast_cmd(CMD_UPLOAD, 0);
        for (int r = 1; r < R; r++)
            send_plan(&plans[r], r);
        d->node.plan = plans[0];
        memset(&plans[0], 0, sizeof plans[0]);
        st = agree(node_upload(&d->node, err), err);
    }
    for (int r = 0; r < R; r++)
        tess_halo_plan_free(&plans[r]);
    free(plans);
    if (st == TESS_OK)
        d->planned = 1;
    return st;
}

tess_status tess_cpu_dist_plan(tess_backend_t *b, const tess_params_t *p, tess_error_t *err)
{
    dist_t *d = dbe(b);
    if (!d->global)
        return tess_fail(err, TESS_ERR_INPUT, "planning before upload_geometry");
    d->node.params = *p;
    return d->planned ? TESS_OK : plan_all(d, p, err);
}

static tess_status d_initialise(tess_backend_t *b, const tess_params_t *p, const void *pops, tess_error_t *err)
{
    dist_t *d = dbe(b);
    if (!d->global)
        return tess_fail(err, TESS_ERR_INPUT, "initialise called before upload_geometry");
    tess_status st;
    if (!d->planned && (st = plan_all(d, p, err)) != TESS_OK)
        return st;
    bcast_cmd(CMD_INIT, 0);
    tess_params_t pc = *p;
    tess_mpi_bcast(&pc, sizeof pc, 0);
    const size_t block = (size_t)d->q * 64 * d->node.vs;
    int32_t most = 1;
    for (int r = 0; r < d->nranks; r++)
        most = d->nlocal[r] > most ? d->nlocal[r] : most;
    char *local = malloc(block * (size_t)most);
    if (!local) /* the serving ranks wait for their share: an MPI program out of memory here cannot go on */
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory scattering the initial state");
    for (int r = d->nranks - 1; r >= 0; r--) { /* rank 0 last: its buffer is then its own */
        for (int32_t k = 0; k < d->nlocal[r]; k++)
            memcpy(local + (size_t)k * block, (const char *)pops + (size_t)d->owned[r][k] * block, block);
        if (r)
            tess_mpi_send(local, (size_t)d->nlocal[r] * block, r, TAG_POPS);
    }
    st = d->node.ex->ops->initialise(d->node.eng, p, local, err);
    d->node.params = *p;
    free(local);
    d->node.step_s = d->node.exchange_s = d->node.wait_s = 0.0;
    d->node.steps = 0;
    return agree(st, err);
}

static tess_status d_step(tess_backend_t *b, int nsteps, tess_error_t *err)
{
    dist_t *d = dbe(b);
    if (!d->planned)
        return tess_fail(err, TESS_ERR_INPUT, "step called before initialise");
    bcast_cmd(CMD_STEP, nsteps);
    for (int s = 0; s < nsteps; s++)
        node_step(&d->node);
    if (d->node.fail != TESS_OK) /* rank 0's own; the others' come with the next download */
        *err = d->node.ferr;
    return d->node.fail;
}

static tess_status d_download(tess_backend_t *b, void *pops, tess_error_t *err)
{
    dist_t *d = dbe(b);
    bcast_cmd(CMD_DOWNLOAD, 0);
    char *local = NULL;
    tess_status st = agree(node_download(&d->node, &local, err), err);
    if (st != TESS_OK) {
        free(local);
        return st;
    }
    const size_t block = (size_t)d->q * 64 * d->node.vs;
    for (int32_t k = 0; k < d->nowned[0]; k++)
        memcpy((char *)pops + (size_t)d->owned[0][k] * block, local + (size_t)k * block, block);
    free(local);
    int32_t most = 1;
    for (int r = 1; r < d->nranks; r++)
        most = d->nowned[r] > most ? d->nowned[r] : most;
    /* Without the room, the other ranks' messages stay unread: an MPI program cannot go on from there. */
    if (!(local = malloc(block * (size_t)most)))
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory gathering the state");
    for (int r = 1; r < d->nranks; r++) {
        tess_mpi_recv(local, (size_t)d->nowned[r] * block, r, TAG_GATHER);
        for (int32_t k = 0; k < d->nowned[r]; k++)
            memcpy((char *)pops + (size_t)d->owned[r][k] * block, local + (size_t)k * block, block);
    }
    free(local);
    return TESS_OK;
}

static size_t d_bytes(const tess_backend_t *b)
{
    const dist_t *d = (const dist_t *)(const void *)b;
    bcast_cmd(CMD_BYTES, 0);
    return (size_t)tess_mpi_sum_ll(d->node.eng ? (long long)d->node.ex->ops->bytes_allocated(d->node.eng) : 0);
}

static void d_describe(const tess_backend_t *b, char *buf, size_t len)
{
    const dist_t *d = (const dist_t *)(const void *)b;
    char inner[384] = "";
    if (d->node.eng && d->node.ex->ops->describe)
        d->node.ex->ops->describe(d->node.eng, inner, sizeof inner);
    snprintf(buf, len, "%s; %d MPI ranks (rank 0's %s), halo exchange through %s", inner, d->nranks,
             d->node.ex->device ? "device" : "threads", tess_dist_xfer_name(tess_dist_xfer_reported(&d->node.x)));
}

/* Rank 0's table per engine: the CPU's below, the GPU engines' copies of it under their names. */
static tess_status d_create(const tess_backend_config_t *cfg, tess_backend_t **out, tess_error_t *err)
{
    return d_create_engine(cfg, 0, out, err);
}
#define ENGINE_CREATE(k)                                                                                            \
    static tess_status d_create##k(const tess_backend_config_t *cfg, tess_backend_t **out, tess_error_t *err)      \
    {                                                                                                              \
        return d_create_engine(cfg, k, out, err);                                                                  \
    }
ENGINE_CREATE(1)
ENGINE_CREATE(2)
ENGINE_CREATE(3)
#undef ENGINE_CREATE
static tess_backend_ops_t tables[MAX_ENGINES];

void tess_cpu_dist_engines(const tess_dist_engine_t *const *list, int n)
{
    tess_status (*const create[MAX_ENGINES])(const tess_backend_config_t *, tess_backend_t **, tess_error_t *) = {
        d_create, d_create1, d_create2, d_create3};
    nengines = 1;
    for (int i = 0; i < n && nengines < MAX_ENGINES; i++)
        if (list[i] != &tess_dist_engine_cpu) {
            tables[nengines] = tess_cpu_dist_ops;
            tables[nengines].name = list[i]->name;
            tables[nengines].create = create[nengines];
            engines[nengines++] = list[i];
        }
}

const tess_backend_ops_t *tess_cpu_dist_find(const char *name)
{
    if (strcmp(name, tess_cpu_dist_ops.name) == 0)
        return &tess_cpu_dist_ops;
    for (int i = 1; i < nengines; i++)
        if (strcmp(name, tables[i].name) == 0)
            return &tables[i];
    return NULL;
}

int tess_cpu_dist_is(const tess_backend_ops_t *ops)
{
    if (ops == &tess_cpu_dist_ops)
        return 1;
    for (int i = 1; i < nengines; i++)
        if (ops == &tables[i])
            return 1;
    return 0;
}

tess_status tess_cpu_dist_task(tess_backend_t *b, int task, void *arg, tess_error_t *err)
{
    dist_t *d = dbe(b);
    if (!d->planned)
        return tess_fail(err, TESS_ERR_INPUT, "a task before initialise");
    bcast_cmd(CMD_TASK, task);
    return node_task(&d->node, d, task, arg, err);
}

tess_status tess_cpu_dist_stats(tess_backend_t *b, tess_halo_rank_t *out, double *imbalance, tess_error_t *err)
{
    dist_t *d = dbe(b);
    (void)err;
    bcast_cmd(CMD_STATS, 0);
    tess_halo_rank_t s;
    node_stats(&d->node, &s);
    tess_mpi_gather(&s, sizeof s, out, 0);
    *imbalance = d->imbalance;
    return TESS_OK;
}

const tess_backend_ops_t tess_cpu_dist_ops = {
    .name = "cpu",
    .create = d_create,
    .upload_geometry = d_upload,
    .initialise = d_initialise,
    .step = d_step,
    .download_populations = d_download,
    .download_fields = NULL,
    .bytes_allocated = d_bytes,
    .copy_bandwidth = NULL,
    .peak_bandwidth = NULL,
    .describe = d_describe,
    .destroy = d_destroy,
};
