/* Field pieces from every rank's own tiles (tess_field_pieces.h). */
#include "tess_field_pieces.h"
#include "tess_field_output.h"
#include "tess_mpi.h"
#include "tess_sim_dist.h"
#include "tess_state.h"
#include "tess_vti_pieces.h"
#include <stdlib.h>
#include <string.h>

enum { TAG_PLAN = 400, TAG_VALUES };

/* A tile whose nodes cross between ranks for the pieces: the peer rank (sender or receiver), the tile's index in
 * the sender's local tiling, its global index and its corner. */
typedef struct {
    int32_t rank, tile, g, corner[3];
} entry_t;

/* A rank's plan (tess_dist_view_t.keep, one block): sends grouped by receiver, receipts by sender, each in
 * global tile order, the same order on both sides; the node types of the rank's box (x fastest). */
typedef struct {
    int32_t nranks, nsend, nrecv;
    int32_t (*ext)[6];
    entry_t *send, *recv;
    uint8_t *type;
    size_t nbox;
} plan_t;

static size_t ext_nodes(const int32_t e[6])
{
    return (size_t)(e[1] - e[0] + 1) * (size_t)(e[3] - e[2] + 1) * (size_t)(e[5] - e[4] + 1);
}

/* The nodes of the tile at corner c (extent t) inside e: lo..hi per axis (inclusive); their count. */
static size_t clip(const tess_tiling_t *t, const int32_t c[3], const int32_t e[6], int32_t lo[3], int32_t hi[3])
{
    const int ex[3] = {t->ex, t->ey, t->ez};
    size_t n = 1;
    for (int a = 0; a < 3; a++) {
        lo[a] = c[a] > e[2 * a] ? c[a] : e[2 * a];
        hi[a] = c[a] + ex[a] - 1 < e[2 * a + 1] ? c[a] + ex[a] - 1 : e[2 * a + 1];
        if (hi[a] < lo[a])
            return 0;
        n *= (size_t)(hi[a] - lo[a] + 1);
    }
    return n;
}

static plan_t *plan_alloc(int32_t nranks, int32_t nsend, int32_t nrecv, size_t nbox)
{
    const size_t head = (sizeof(plan_t) + 7) / 8 * 8, ext = (size_t)nranks * sizeof(int32_t[6]);
    const size_t lists = ((size_t)nsend + (size_t)nrecv) * sizeof(entry_t);
    plan_t *p = malloc(head + ext + lists + nbox + 1);
    if (!p)
        return NULL;
    p->nranks = nranks;
    p->nsend = nsend;
    p->nrecv = nrecv;
    p->nbox = nbox;
    p->ext = (int32_t(*)[6])(void *)((char *)p + head);
    p->send = (entry_t *)(void *)((char *)p->ext + ext);
    p->recv = p->send + nsend;
    p->type = (uint8_t *)(p->recv + nrecv);
    return p;
}

static int by_rank_then_tile(const void *a, const void *b)
{
    const entry_t *x = a, *y = b;
    if (x->rank != y->rank)
        return (x->rank > y->rank) - (x->rank < y->rank);
    return (x->g > y->g) - (x->g < y->g);
}

/* The box e of the dense node types (dims) into out, x fastest. */
static void cut_types(const uint8_t *type, const int32_t dims[3], const int32_t e[6], uint8_t *out)
{
    const size_t row = (size_t)(e[1] - e[0] + 1);
    for (int32_t z = e[4]; z <= e[5]; z++)
        for (int32_t y = e[2]; y <= e[3]; y++) {
            memcpy(out, type + ((size_t)z * (size_t)dims[1] + (size_t)y) * (size_t)dims[0] + (size_t)e[0], row);
            out += row;
        }
}

/* Rank 0's part of the set-up: every rank's lists (lists[r]: its sends, then its receipts) from the global
 * tiling's owners and corners. */
typedef struct {
    int32_t *nsend, *nrecv;
    entry_t **send, **recv;
} lists_t;

static void lists_free(lists_t *l, int R)
{
    for (int r = 0; l->send && l->recv && r < R; r++) {
        free(l->send[r]);
        free(l->recv[r]);
    }
    free(l->send);
    free(l->recv);
    free(l->nsend);
    free(l->nrecv);
}

static int lists_build(const tess_dist_view_t *v, const tess_tiling_t *own, const int32_t *corner,
                       const int32_t (*ext)[6], lists_t *l)
{
    const int R = v->nranks;
    const int32_t G = v->global_ntiles;
    int32_t *owner = malloc((size_t)(G ? G : 1) * sizeof *owner), *lidx = malloc((size_t)(G ? G : 1) * sizeof *lidx);
    l->nsend = calloc((size_t)R, sizeof *l->nsend);
    l->nrecv = calloc((size_t)R, sizeof *l->nrecv);
    l->send = calloc((size_t)R, sizeof *l->send);
    l->recv = calloc((size_t)R, sizeof *l->recv);
    int ok = owner && lidx && l->nsend && l->nrecv && l->send && l->recv;
    for (int r = 0; ok && r < R; r++)
        for (int32_t k = 0; k < v->nowned_of[r]; k++) {
            owner[v->owned[r][k]] = r;
            lidx[v->owned[r][k]] = k;
        }
    int32_t lo[3], hi[3];
    for (int pass = 0; ok && pass < 2; pass++) { /* count, then fill */
        for (int r = 0; r < R; r++)
            l->nsend[r] = l->nrecv[r] = 0;
        for (int r = 0; r < R; r++)
            for (int32_t g = 0; g < G; g++) {
                const int s = owner[g];
                if (s == r || !clip(own, corner + 3 * (size_t)g, ext[r], lo, hi))
                    continue;
                if (pass) {
                    const entry_t e = {r, lidx[g], g, {corner[3 * (size_t)g], corner[3 * (size_t)g + 1],
                                                       corner[3 * (size_t)g + 2]}};
                    l->send[s][l->nsend[s]] = e;
                    l->recv[r][l->nrecv[r]] = e;
                    l->recv[r][l->nrecv[r]].rank = s;
                }
                l->nsend[s]++;
                l->nrecv[r]++;
            }
        for (int r = 0; !pass && ok && r < R; r++) {
            l->send[r] = malloc(((size_t)l->nsend[r] + 1) * sizeof(entry_t));
            l->recv[r] = malloc(((size_t)l->nrecv[r] + 1) * sizeof(entry_t));
            ok = l->send[r] && l->recv[r];
        }
    }
    for (int r = 0; ok && r < R; r++) /* by sender, as the senders send */
        qsort(l->recv[r], (size_t)l->nrecv[r], sizeof(entry_t), by_rank_then_tile);
    free(owner);
    free(lidx);
    return ok;
}

static tess_tiling_t own_tiles(const tess_dist_view_t *v);

tess_status tess_field_pieces_plan(const tess_dist_view_t *v, const int32_t (*job_ext)[6], const int32_t *corner,
                                   const uint8_t *type, const int32_t dims[3], void **out, tess_error_t *err)
{
    const tess_tiling_t own_t = own_tiles(v), *own = &own_t;
    const int R = tess_mpi_size(), me = tess_mpi_rank(), root = me == 0;
    int32_t(*ext)[6] = malloc((size_t)R * sizeof *ext);
    tess_status st = ext ? TESS_OK : tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for its output piece", me);
    if ((st = tess_sim_dist_agree(st, err)) != TESS_OK) {
        free(ext);
        return st;
    }
    if (root)
        memcpy(ext, job_ext, (size_t)R * sizeof *ext);
    tess_mpi_bcast(ext, (size_t)R * sizeof *ext, 0);
    lists_t l = {0};
    size_t most = 1; /* rank 0: the largest other box, for cutting its node types */
    for (int r = 1; root && r < R; r++)
        most = ext_nodes(ext[r]) > most ? ext_nodes(ext[r]) : most;
    uint8_t *types = root ? malloc(most) : NULL;
    if (root && (!types || !lists_build(v, own, corner, (const int32_t(*)[6])ext, &l)))
        st = tess_fail(err, TESS_ERR_NOMEM, "out of memory for the output pieces' plan");
    int32_t counts[2] = {0, 0};
    if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
        if (root) {
            for (int r = 1; r < R; r++) {
                const int32_t c[2] = {l.nsend[r], l.nrecv[r]};
                tess_mpi_send(c, sizeof c, r, TAG_PLAN);
            }
            counts[0] = l.nsend[0];
            counts[1] = l.nrecv[0];
        } else {
            tess_mpi_recv(counts, sizeof counts, 0, TAG_PLAN);
        }
    }
    plan_t *p = NULL;
    if (st == TESS_OK) {
        p = plan_alloc(R, counts[0], counts[1], ext_nodes(ext[me]));
        st = tess_sim_dist_agree(
            p ? TESS_OK : tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for its output piece's plan", me), err);
    }
    if (st == TESS_OK) {
        memcpy(p->ext, ext, (size_t)R * sizeof *ext);
        if (root) {
            for (int r = 1; r < R; r++) {
                tess_mpi_send(l.send[r], (size_t)l.nsend[r] * sizeof(entry_t), r, TAG_PLAN);
                tess_mpi_send(l.recv[r], (size_t)l.nrecv[r] * sizeof(entry_t), r, TAG_PLAN);
                cut_types(type, dims, ext[r], types);
                tess_mpi_send(types, ext_nodes(ext[r]), r, TAG_PLAN);
            }
            memcpy(p->send, l.send[0], (size_t)p->nsend * sizeof(entry_t));
            memcpy(p->recv, l.recv[0], (size_t)p->nrecv * sizeof(entry_t));
            cut_types(type, dims, ext[0], p->type);
        } else {
            tess_mpi_recv(p->send, (size_t)p->nsend * sizeof(entry_t), 0, TAG_PLAN);
            tess_mpi_recv(p->recv, (size_t)p->nrecv * sizeof(entry_t), 0, TAG_PLAN);
            tess_mpi_recv(p->type, p->nbox, 0, TAG_PLAN);
        }
        free(*out);
        *out = p;
        p = NULL;
    }
    free(p);
    free(types);
    if (root)
        lists_free(&l, R);
    free(ext);
    return st;
}

enum { COUNT, PACK, UNPACK, COPY };

/* The arrays that travel: per own tile node (src) and per box node (dst), ncomp values a node each. */
typedef struct {
    int narr;
    const int *ncomp;
    const double *const *src;
    double *const *dst;
} vals_t;

/* The nodes of the tiles list[0..n) inside extent e (the receiver's), z, y, x order per tile, every array's values
 * of a node together: counted, packed from the sender's per-tile-node arrays into buf, unpacked from buf into the
 * receiver's box arrays (box: its extent), or copied from the per-tile-node arrays into the box (the rank's own
 * tiles). Returns the values. */
static size_t move(int mode, const tess_tiling_t *t, const entry_t *list, int32_t n, const int32_t e[6],
                   const vals_t *a, double *buf)
{
    size_t m = 0, per = 0;
    for (int j = 0; j < a->narr; j++)
        per += (size_t)a->ncomp[j];
    int32_t lo[3], hi[3];
    const size_t bx = (size_t)(e[1] - e[0] + 1), by = (size_t)(e[3] - e[2] + 1);
    for (int32_t q = 0; q < n; q++) {
        const entry_t *en = &list[q];
        const size_t c = clip(t, en->corner, e, lo, hi);
        if (mode == COUNT || !c) {
            m += per * c;
            continue;
        }
        for (int32_t z = lo[2]; z <= hi[2]; z++)
            for (int32_t y = lo[1]; y <= hi[1]; y++)
                for (int32_t x = lo[0]; x <= hi[0]; x++) {
                    const size_t i = (size_t)(x - e[0]) + bx * ((size_t)(y - e[2]) + by * (size_t)(z - e[4]));
                    const size_t l = (size_t)en->tile * 64 + (size_t)tess_tiling_local(t, x - en->corner[0],
                                                                                        y - en->corner[1],
                                                                                        z - en->corner[2]);
                    for (int j = 0; j < a->narr; j++) {
                        const size_t k = (size_t)a->ncomp[j], bytes = k * sizeof(double);
                        if (mode == PACK)
                            memcpy(buf + m, a->src[j] + k * l, bytes);
                        else if (mode == UNPACK)
                            memcpy(a->dst[j] + k * i, buf + m, bytes);
                        else
                            memcpy(a->dst[j] + k * i, a->src[j] + k * l, bytes);
                        m += k;
                    }
                }
    }
    return m;
}

/* The end of the group of list entries from j on that share one peer rank. */
static int32_t group_end(const entry_t *list, int32_t n, int32_t j)
{
    int32_t k = j;
    while (k < n && list[k].rank == list[j].rank)
        k++;
    return k;
}

tess_status tess_field_pieces_gather(const tess_dist_view_t *v, const void *plan, int narr, const int *ncomp,
                                     const double *const *src, double *const *dst, tess_error_t *err)
{
    const plan_t *p = plan;
    const int me = tess_mpi_rank();
    const int32_t *box = p->ext[me];
    const tess_tiling_t own_t = own_tiles(v), *own = &own_t;
    const vals_t a = {narr, ncomp, src, dst};
    size_t sn = 0; /* each receiver's nodes, in its extent */
    for (int32_t j = 0, k; j < p->nsend; j = k) {
        k = group_end(p->send, p->nsend, j);
        sn += move(COUNT, own, p->send + j, k - j, p->ext[p->send[j].rank], &a, NULL);
    }
    const size_t rn = move(COUNT, own, p->recv, p->nrecv, box, &a, NULL);
    double *sbuf = malloc((sn + 1) * sizeof *sbuf), *rbuf = malloc((rn + 1) * sizeof *rbuf);
    tess_mpi_requests_t *rq = tess_mpi_requests_new(p->nsend + p->nrecv + 1);
    tess_status st = sbuf && rbuf && rq
                         ? TESS_OK
                         : tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for its output piece's values", me);
    if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
        size_t off = 0;
        for (int32_t j = 0, k; j < p->nrecv; j = k) { /* one message from each sender */
            k = group_end(p->recv, p->nrecv, j);
            const size_t c = move(COUNT, own, p->recv + j, k - j, box, &a, NULL);
            tess_mpi_irecv(rq, rbuf + off, c * sizeof *rbuf, p->recv[j].rank, TAG_VALUES);
            off += c;
        }
        off = 0;
        for (int32_t j = 0, k; j < p->nsend; j = k) { /* one message to each receiver */
            k = group_end(p->send, p->nsend, j);
            const int to = p->send[j].rank;
            const size_t c = move(PACK, own, p->send + j, k - j, p->ext[to], &a, sbuf + off);
            tess_mpi_isend(rq, sbuf + off, c * sizeof *sbuf, to, TAG_VALUES);
            off += c;
        }
        for (int32_t k = 0; k < own->ntiles; k++) { /* the own tiles while the messages travel */
            const entry_t e = {me, k, -1, {own->tile_corner[3 * (size_t)k], own->tile_corner[3 * (size_t)k + 1],
                                           own->tile_corner[3 * (size_t)k + 2]}};
            move(COPY, own, &e, 1, box, &a, NULL);
        }
        tess_mpi_waitall(rq);
        move(UNPACK, own, p->recv, p->nrecv, box, &a, rbuf);
    }
    free(sbuf);
    free(rbuf);
    tess_mpi_requests_free(rq);
    return st;
}

size_t tess_field_pieces_nodes(const void *plan)
{
    return ((const plan_t *)plan)->nbox;
}

const int32_t (*tess_field_pieces_ext(const void *plan))[6]
{
    return (const int32_t(*)[6])((const plan_t *)plan)->ext;
}

/* The rank's own tiles as a tiling of their own: they come first in its local tiling. */
static tess_tiling_t own_tiles(const tess_dist_view_t *v)
{
    tess_tiling_t t = *v->local;
    t.ntiles = v->nowned;
    return t;
}

tess_status tess_field_pieces_task(const tess_dist_view_t *v, void *arg, tess_error_t *err)
{
    tess_field_pieces_job_t *job = arg;
    const int root = tess_mpi_rank() == 0;
    tess_field_pieces_head_t h;
    if (root)
        h = job->head;
    const int first = tess_sim_dist_first(v, &h, sizeof h);
    const tess_tiling_t own = own_tiles(v);
    tess_status st;
    if (first && (st = tess_field_pieces_plan(v, root ? job->ext : NULL, root ? job->tiling->tile_corner : NULL,
                                              root ? job->type : NULL, h.frame.dims, v->keep, err)) != TESS_OK)
        return st;
    const plan_t *p = *v->keep;
    const size_t n = p->nbox;
    /* density, pressure, velocity (5 a node): the density and velocity gathered in place, then converted there */
    double *vals = calloc(5 * n + 1, sizeof *vals);
    uint8_t *solid = malloc(n + 1), *ghost = malloc(n + 1);
    float *f32 = h.single ? malloc(5 * n * sizeof *f32 + 1) : NULL;
    const size_t nodes = 64 * (size_t)(own.ntiles ? own.ntiles : 1);
    double *rho = malloc(nodes * sizeof *rho), *u = malloc(3 * nodes * sizeof *u);
    st = vals && solid && ghost && (!h.single || f32) && rho && u
             ? TESS_OK
             : tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for its output piece (%zu nodes)",
                         tess_mpi_rank(), n);
    double *dens = vals, *pres = vals ? vals + n : NULL, *vel = vals ? vals + 2 * n : NULL;
    static const int ncomp[2] = {1, 3};
    if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
        tess_state_fields(&own, v->params, v->precision, v->pops, rho, u);
        const double *src[2] = {rho, u};
        double *dst[2] = {dens, vel};
        st = tess_field_pieces_gather(v, p, 2, ncomp, src, dst, err);
    }
    if (st == TESS_OK) {
        for (size_t i = 0; i < n; i++)
            solid[i] = !tess_kind_is_wet(v->params->mat[p->type[i]].kind);
        tess_field_output_values(&h.units, n, dens, vel, solid, dens, pres, vel, ghost);
        tess_vti_array_t arrays[6];
        tess_field_output_arrays(dens, pres, vel, p->type, solid, ghost, arrays);
        if (f32)
            tess_field_output_single(n, vals, f32, arrays);
        tess_vti_field_t fields[TESS_FIELD_PIECES_FIELDS];
        for (int k = 0; k < h.nfields && k < TESS_FIELD_PIECES_FIELDS; k++)
            fields[k] = (tess_vti_field_t){h.fname[k], h.fvalue[k]};
        const tess_vti_pieces_t pj = {h.frame.dir, h.frame.stem, {h.frame.dims[0], h.frame.dims[1], h.frame.dims[2]},
                                      h.frame.origin, h.frame.spacing, fields, h.nfields, arrays, 6, (const int32_t(*)[6])p->ext};
        const double t0 = tess_mpi_wtime();
        st = tess_vti_pieces_write_own(&pj, err);
        if (root)
            job->write_seconds = tess_mpi_wtime() - t0;
    }
    free(vals);
    free(solid);
    free(ghost);
    free(f32);
    free(rho);
    free(u);
    return st;
}
