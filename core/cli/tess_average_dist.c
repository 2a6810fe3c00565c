/* Time averages over every rank's own tiles (tess_average_dist.h). */
#define _POSIX_C_SOURCE 200809L /* getpid */
#include "tess_average_dist.h"
#include "tess_average.h"
#include "tess_crc.h"
#include "tess_field_pieces.h"
#include "tess_mpi.h"
#include "tess_sim_dist.h"
#include "tess_state.h"
#include "tess_vti_pieces.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TAG_AVG = 600 };

/* A rank's sums and lists (tess_dist_view_t.keep, freed by tess_average_dist_drop). */
typedef struct {
    tess_average_t avg; /* over the own tiles (local order) and own WSS nodes */
    int64_t *wnode;     /* per own WSS node: its tile node (own tile * 64 + node) */
    int64_t *wm;        /* per own WSS node: its index among all WSS nodes (increasing) */
    int64_t *count;     /* rank 0: every rank's WSS nodes */
    int64_t *m;         /* rank 0: their indices, rank by rank */
    void *plan;         /* the pieces' exchange (tess_field_pieces_plan), made at the first piece */
} keep_t;

void tess_average_dist_drop(void *p)
{
    keep_t *k = p;
    if (!k)
        return;
    tess_average_free(&k->avg);
    free(k->wnode);
    free(k->wm);
    free(k->count);
    free(k->m);
    free(k->plan);
    free(k);
}

static tess_status nomem(const char *what, tess_error_t *err)
{
    return tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for %s", tess_mpi_rank(), what);
}

/* Every rank, at the first operation: its sums, and its WSS nodes from rank 0's list. */
static tess_status setup(const tess_dist_view_t *v, const tess_average_dist_head_t *h, const tess_wss_t *w,
                         tess_error_t *err)
{
    const int R = tess_mpi_size(), me = tess_mpi_rank(), root = me == 0;
    keep_t *k = calloc(1, sizeof *k);
    int32_t *owner = NULL, *lidx = NULL;
    tess_status st = k ? TESS_OK : nomem("its time averages", err);
    if (st == TESS_OK && root) {
        const size_t G = (size_t)(v->global_ntiles ? v->global_ntiles : 1);
        owner = malloc(G * sizeof *owner);
        lidx = malloc(G * sizeof *lidx);
        k->count = calloc((size_t)R, sizeof *k->count);
        k->m = malloc((size_t)(h->nw + 1) * sizeof *k->m);
        if (!owner || !lidx || !k->count || !k->m)
            st = nomem("the time averages' WSS nodes", err);
        for (int r = 0; st == TESS_OK && r < R; r++)
            for (int32_t j = 0; j < v->nowned_of[r]; j++) {
                owner[v->owned[r][j]] = r;
                lidx[v->owned[r][j]] = j;
            }
        for (int64_t m = 0; st == TESS_OK && m < h->nw; m++)
            k->count[owner[w->node[m] / 64]]++;
    }
    if ((st = tess_sim_dist_agree(st, err)) != TESS_OK) {
        tess_average_dist_drop(k);
        free(owner);
        free(lidx);
        return st;
    }
    int64_t mine = 0;
    if (root) {
        for (int r = 1; r < R; r++)
            tess_mpi_send(&k->count[r], sizeof k->count[r], r, TAG_AVG);
        mine = k->count[0];
    } else {
        tess_mpi_recv(&mine, sizeof mine, 0, TAG_AVG);
    }
    k->wnode = malloc((size_t)(mine + 1) * sizeof *k->wnode);
    k->wm = malloc((size_t)(mine + 1) * sizeof *k->wm);
    int64_t most = mine + 1; /* rank 0: the largest rank's pairs */
    for (int r = 0; root && r < R; r++)
        most = k->count[r] > most ? k->count[r] : most;
    int64_t *buf = malloc(2 * (size_t)most * sizeof *buf);
    st = k->wnode && k->wm && buf ? TESS_OK : nomem("its WSS nodes", err);
    if (st == TESS_OK)
        st = tess_average_create(&k->avg, 64 * (size_t)v->nowned, mine, (long)h->start, (long)h->every, err);
    if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
        if (root) {
            int64_t at = 0;
            for (int r = 0; r < R; r++) { /* (tile node, index) pairs in WSS order */
                int64_t j = 0;
                for (int64_t m = 0; m < h->nw; m++) {
                    const int64_t g = w->node[m] / 64;
                    if (owner[g] != r)
                        continue;
                    k->m[at + j] = m;
                    buf[2 * j] = (int64_t)lidx[g] * 64 + w->node[m] % 64;
                    buf[2 * j + 1] = m;
                    j++;
                }
                at += j;
                if (r)
                    tess_mpi_send(buf, 2 * (size_t)j * sizeof *buf, r, TAG_AVG);
                for (int64_t q = 0; !r && q < j; q++) {
                    k->wnode[q] = buf[2 * q];
                    k->wm[q] = buf[2 * q + 1];
                }
            }
        } else {
            tess_mpi_recv(buf, 2 * (size_t)mine * sizeof *buf, 0, TAG_AVG);
            for (int64_t q = 0; q < mine; q++) {
                k->wnode[q] = buf[2 * q];
                k->wm[q] = buf[2 * q + 1];
            }
        }
    }
    free(buf);
    free(owner);
    free(lidx);
    if (st != TESS_OK) {
        tess_average_dist_drop(k);
        return st;
    }
    *v->keep = k;
    return TESS_OK;
}

/* A sample: the own tiles' density and velocity, and the own WSS nodes' vectors from rank 0. */
static tess_status add(const tess_dist_view_t *v, keep_t *k, const tess_average_dist_head_t *h,
                       const tess_average_dist_job_t *job, tess_error_t *err)
{
    const int R = tess_mpi_size(), root = tess_mpi_rank() == 0;
    tess_tiling_t own = *v->local;
    own.ntiles = v->nowned;
    const size_t nodes = 64 * (size_t)(own.ntiles ? own.ntiles : 1);
    int64_t most = k->avg.nw;
    for (int r = 1; root && r < R; r++)
        most = k->count[r] > most ? k->count[r] : most;
    double *rho = malloc(nodes * sizeof *rho), *u = malloc(3 * nodes * sizeof *u);
    double *w = malloc(3 * (size_t)(most + 1) * sizeof *w);
    tess_status st = rho && u && w ? TESS_OK : nomem("a time-average sample", err);
    if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
        if (h->wss && root) {
            int64_t at = k->count[0];
            for (int r = 1; r < R; r++) {
                for (int64_t j = 0; j < k->count[r]; j++)
                    memcpy(w + 3 * j, job->wss + 3 * k->m[at + j], 3 * sizeof *w);
                tess_mpi_send(w, 3 * (size_t)k->count[r] * sizeof *w, r, TAG_AVG);
                at += k->count[r];
            }
            for (int64_t j = 0; j < k->count[0]; j++)
                memcpy(w + 3 * j, job->wss + 3 * k->m[j], 3 * sizeof *w);
        } else if (h->wss) {
            tess_mpi_recv(w, 3 * (size_t)k->avg.nw * sizeof *w, 0, TAG_AVG);
        }
        tess_state_fields(&own, v->params, v->precision, v->pops, rho, u);
        tess_average_add(&k->avg, (long)h->step, rho, u, w);
    }
    free(rho);
    free(u);
    free(w);
    return st;
}

/* The means per own tile node (tess_average_node_means): 1, 3 and, with WSS, 3, 1, 1, 1 values a node. */
enum { NARR = 6 };
static const int ncomp[NARR] = {1, 3, 3, 1, 1, 1};

static tess_status node_means(const keep_t *k, int wss, double *a[NARR], tess_error_t *err)
{
    const size_t n = k->avg.n ? k->avg.n : 1;
    int ok = 1;
    for (int j = 0; j < NARR; j++) {
        a[j] = j < 2 || wss ? malloc((size_t)ncomp[j] * n * sizeof *a[j]) : NULL;
        ok = ok && (a[j] || (j >= 2 && !wss));
    }
    tess_status st = ok ? TESS_OK : nomem("the time-average means", err);
    if (st == TESS_OK)
        st = tess_average_node_means(&k->avg, k->wnode, a[0], a[1], a[2], a[3], a[4], a[5], err);
    return tess_sim_dist_agree(st, err);
}

static void free_arrays(double *a[NARR])
{
    for (int j = 0; j < NARR; j++)
        free(a[j]);
}

/* Every rank its piece of average_<step>.pvti from its own tiles' means and its neighbours'. */
static tess_status pieces(const tess_dist_view_t *v, keep_t *k, const tess_average_dist_head_t *h,
                          const tess_average_dist_job_t *job, tess_error_t *err)
{
    const int root = tess_mpi_rank() == 0;
    int32_t need = root ? k->plan == NULL : 0;
    tess_mpi_bcast(&need, sizeof need, 0);
    tess_status st;
    if (need && (st = tess_field_pieces_plan(v, root ? job->ext : NULL, root ? job->corner : NULL,
                                             root ? job->type : NULL, h->frame.dims, &k->plan, err)) != TESS_OK)
        return st;
    double *a[NARR] = {0}, *b[NARR] = {0};
    if ((st = node_means(k, h->wss, a, err)) != TESS_OK) {
        free_arrays(a);
        return st;
    }
    const size_t nb = tess_field_pieces_nodes(k->plan);
    const int narr = h->wss ? NARR : 2;
    int ok = 1;
    for (int j = 0; j < narr; j++)
        ok = ok && (b[j] = calloc((size_t)ncomp[j] * nb + 1, sizeof *b[j]));
    uint8_t *wall = h->wss ? malloc(nb + 1) : NULL;
    st = ok && (!h->wss || wall) ? TESS_OK : nomem("its time-average piece", err);
    if ((st = tess_sim_dist_agree(st, err)) == TESS_OK &&
        (st = tess_field_pieces_gather(v, k->plan, narr, ncomp, (const double *const *)a, b, err)) == TESS_OK) {
        for (size_t i = 0; wall && i < nb; i++)
            wall[i] = b[5][i] != 0.0;
        tess_vti_array_t arrays[6];
        const int na = tess_average_arrays(b[0], b[1], h->wss, b[2], b[3], b[4], wall, arrays);
        const tess_vti_pieces_t pj = {h->frame.dir, h->frame.stem, {h->frame.dims[0], h->frame.dims[1], h->frame.dims[2]}, h->frame.origin,
                                      h->frame.spacing, NULL,  0, arrays, na, tess_field_pieces_ext(k->plan)};
        st = tess_vti_pieces_write_own(&pj, err);
    }
    free_arrays(a);
    free_arrays(b);
    free(wall);
    return st;
}

/* The means per tile node of the global tiling on rank 0, for the single file. */
static tess_status gather(const tess_dist_view_t *v, keep_t *k, const tess_average_dist_head_t *h,
                          tess_average_dist_job_t *job, tess_error_t *err)
{
    const int root = tess_mpi_rank() == 0;
    double *a[NARR] = {0};
    tess_status st = node_means(k, h->wss, a, err);
    char *tmp = root ? malloc(3 * 64 * sizeof(double) * (size_t)tess_sim_dist_most_owned(v)) : NULL;
    if (st == TESS_OK)
        st = tess_sim_dist_agree(root && !tmp ? nomem("the time averages' single file", err) : TESS_OK, err);
    if (st == TESS_OK) {
        double *out[NARR] = {root ? job->rho : NULL,   root ? job->u : NULL,   root ? job->wss_mean : NULL,
                             root ? job->tawss : NULL, root ? job->osi : NULL, root ? job->wall : NULL};
        for (int j = 0; j < (h->wss ? NARR : 2); j++)
            tess_sim_dist_gather_tiles(v, a[j], 64 * (size_t)ncomp[j] * sizeof(double), out[j], tmp);
    }
    free_arrays(a);
    free(tmp);
    return st;
}

/* The blocks of the rank's own tiles and WSS nodes (file order: tess_average.h), their CRC-32s, and the offsets. */
typedef struct {
    char *tiles, *wss;
    uint32_t *tile_crc, *wss_crc;
    int64_t *tfoff, *tmoff, *wfoff, *wmoff;
} blocks_t;

static void blocks_free(blocks_t *b)
{
    free(b->tiles);
    free(b->wss);
    free(b->tile_crc);
    free(b->wss_crc);
    free(b->tfoff);
    free(b->tmoff);
    free(b->wfoff);
    free(b->wmoff);
}

static tess_status blocks_make(const tess_dist_view_t *v, const keep_t *k, const tess_average_dist_head_t *h,
                               blocks_t *b, tess_error_t *err)
{
    memset(b, 0, sizeof *b);
    const size_t nt = (size_t)v->nowned, nw = (size_t)k->avg.nw;
    b->tiles = malloc((nt + 1) * TESS_AVERAGE_TILE_BYTES);
    b->wss = malloc((nw + 1) * TESS_AVERAGE_WSS_BYTES);
    b->tile_crc = malloc((nt + 1) * sizeof *b->tile_crc);
    b->wss_crc = malloc((nw + 1) * sizeof *b->wss_crc);
    b->wfoff = malloc((nw + 1) * sizeof *b->wfoff);
    b->wmoff = malloc((nw + 1) * sizeof *b->wmoff);
    const int ok = b->tiles && b->wss && b->tile_crc && b->wss_crc && b->wfoff && b->wmoff &&
                   tess_sim_dist_file_blocks(v, v->nowned, TESS_AVERAGE_HEADER_BYTES, TESS_AVERAGE_TILE_BYTES,
                                             &b->tfoff, &b->tmoff);
    const int64_t wss0 = TESS_AVERAGE_HEADER_BYTES + h->ntiles * (int64_t)TESS_AVERAGE_TILE_BYTES;
    for (size_t j = 0; ok && j < nw; j++) {
        b->wfoff[j] = wss0 + k->wm[j] * (int64_t)TESS_AVERAGE_WSS_BYTES;
        b->wmoff[j] = (int64_t)j * (int64_t)TESS_AVERAGE_WSS_BYTES;
    }
    return tess_sim_dist_agree(ok ? TESS_OK : nomem("the time-average file's blocks", err), err);
}

/* The CRC-32s of the blocks in memory, and the file's on rank 0 from every rank's (header: the file's bytes). */
static tess_status file_crc(const tess_dist_view_t *v, const keep_t *k, const tess_average_dist_head_t *h,
                            blocks_t *b, const unsigned char *header, uint32_t *crc, tess_error_t *err)
{
    const int R = tess_mpi_size(), root = tess_mpi_rank() == 0;
    for (int32_t t = 0; t < v->nowned; t++)
        b->tile_crc[t] = tess_crc32(0, b->tiles + (size_t)t * TESS_AVERAGE_TILE_BYTES, TESS_AVERAGE_TILE_BYTES);
    for (int64_t j = 0; j < k->avg.nw; j++)
        b->wss_crc[j] = tess_crc32(0, b->wss + (size_t)j * TESS_AVERAGE_WSS_BYTES, TESS_AVERAGE_WSS_BYTES);
    uint32_t *tall = root ? malloc((size_t)(h->ntiles + 1) * sizeof *tall) : NULL;
    uint32_t *wcrc = root ? malloc((size_t)(h->nw + 1) * sizeof *wcrc) : NULL;
    char *tmp = root ? malloc((size_t)tess_sim_dist_most_owned(v) * sizeof(uint32_t)) : NULL;
    int64_t most = 1;
    for (int r = 0; root && r < R; r++)
        most = k->count[r] > most ? k->count[r] : most;
    uint32_t *in = root ? malloc((size_t)most * sizeof *in) : NULL;
    tess_status st = tess_sim_dist_agree(root && (!tall || !wcrc || !tmp || !in)
                                             ? nomem("the time-average file's checksum", err) : TESS_OK, err);
    if (st == TESS_OK) {
        tess_sim_dist_gather_tiles(v, b->tile_crc, sizeof *b->tile_crc, tall, tmp);
        if (!root) {
            tess_mpi_send(b->wss_crc, (size_t)k->avg.nw * sizeof *b->wss_crc, 0, TAG_AVG);
        } else {
            int64_t at = 0;
            for (int r = 0; r < R; r++) {
                const uint32_t *src = b->wss_crc;
                if (r) {
                    tess_mpi_recv(in, (size_t)k->count[r] * sizeof *in, r, TAG_AVG);
                    src = in;
                }
                for (int64_t j = 0; j < k->count[r]; j++)
                    wcrc[k->m[at + j]] = src[j];
                at += k->count[r];
            }
            *crc = tess_average_crc(header, tall, h->ntiles, wcrc, h->nw);
        }
    }
    free(tall);
    free(wcrc);
    free(tmp);
    free(in);
    return st;
}

static tess_status io_failed(const char *path, const char *what, tess_error_t *err)
{
    return tess_fail(err, TESS_ERR_IO, "rank %d: %s: cannot %s the time-average file (MPI-IO)", tess_mpi_rank(), path,
                     what);
}

/* Every rank writes its blocks at their places in one file (a temporary name, renamed by rank 0 when all
 * succeeded): the single process's file, byte for byte. */
static tess_status save(const tess_dist_view_t *v, keep_t *k, const tess_average_dist_head_t *h, tess_error_t *err)
{
    const int root = tess_mpi_rank() == 0;
    blocks_t b;
    tess_status st = blocks_make(v, k, h, &b, err);
    if (st != TESS_OK) {
        blocks_free(&b);
        return st;
    }
    for (int32_t t = 0; t < v->nowned; t++)
        tess_average_pack(&k->avg, t, 0, b.tiles + (size_t)t * TESS_AVERAGE_TILE_BYTES);
    for (int64_t j = 0; j < k->avg.nw; j++)
        tess_average_pack(&k->avg, j, 1, b.wss + (size_t)j * TESS_AVERAGE_WSS_BYTES);
    unsigned char header[TESS_AVERAGE_HEADER_BYTES];
    const tess_average_expect_t e = {h->step, h->start, h->every, h->ntiles, h->nw, h->hash};
    tess_average_header(&k->avg, &e, header);
    uint32_t crc = 0;
    char tmpname[1200];
    snprintf(tmpname, sizeof tmpname, "%s.%ld.tmp", h->path, (long)getpid()); /* tess_tmp.h's pattern */
    tess_mpi_bcast(tmpname, sizeof tmpname, 0);
    if ((st = file_crc(v, k, h, &b, header, &crc, err)) == TESS_OK) {
        if (root)
            remove(tmpname); /* a leftover of an earlier failure */
        tess_mpi_file_t *f = NULL;
        st = tess_mpi_file_open(tmpname, 1, &f) ? io_failed(tmpname, "create", err) : TESS_OK;
        if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
            const int64_t end = TESS_AVERAGE_HEADER_BYTES + h->ntiles * (int64_t)TESS_AVERAGE_TILE_BYTES +
                                h->nw * (int64_t)TESS_AVERAGE_WSS_BYTES;
            int rc = root ? tess_mpi_file_write_at(f, 0, header, sizeof header) | tess_mpi_file_write_at(f, end, &crc, 4)
                          : 0;
            rc |= tess_mpi_file_blocks(f, 1, b.tfoff, b.tmoff, v->nowned, TESS_AVERAGE_TILE_BYTES, b.tiles);
            rc |= tess_mpi_file_blocks(f, 1, b.wfoff, b.wmoff, k->avg.nw, TESS_AVERAGE_WSS_BYTES, b.wss);
            rc |= tess_mpi_file_close(f);
            st = tess_sim_dist_agree(rc ? io_failed(tmpname, "write", err) : TESS_OK, err);
        }
        if (root) {
            if (st == TESS_OK && rename(tmpname, h->path) != 0)
                st = io_failed(h->path, "rename into place", err);
            if (st != TESS_OK)
                remove(tmpname);
        }
        st = tess_sim_dist_agree(st, err);
    }
    blocks_free(&b);
    return st;
}

/* Rank 0 checks the header and size; every rank reads its own tiles' and WSS nodes' blocks; the CRC-32 made from
 * theirs is checked on rank 0. */
static tess_status load(const tess_dist_view_t *v, keep_t *k, const tess_average_dist_head_t *h,
                        tess_average_dist_job_t *job, tess_error_t *err)
{
    const int root = tess_mpi_rank() == 0;
    const tess_average_expect_t e = {h->step, h->start, h->every, h->ntiles, h->nw, h->hash};
    unsigned char header[TESS_AVERAGE_HEADER_BYTES];
    int64_t got[2] = {0, 0}; /* samples, last */
    uint32_t stored = 0;
    tess_status st = TESS_OK;
    if (root) {
        long samples = 0, last = 0;
        st = tess_average_check(h->path, &e, &samples, &last, &stored, header, err);
        got[0] = samples;
        got[1] = last;
    }
    if ((st = tess_sim_dist_agree(st, err)) != TESS_OK)
        return st;
    tess_mpi_bcast(got, sizeof got, 0);
    blocks_t b;
    if ((st = blocks_make(v, k, h, &b, err)) != TESS_OK) {
        blocks_free(&b);
        return st;
    }
    tess_mpi_file_t *f = NULL;
    st = tess_mpi_file_open(h->path, 0, &f) ? io_failed(h->path, "open", err) : TESS_OK;
    if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
        int rc = tess_mpi_file_blocks(f, 0, b.tfoff, b.tmoff, v->nowned, TESS_AVERAGE_TILE_BYTES, b.tiles);
        rc |= tess_mpi_file_blocks(f, 0, b.wfoff, b.wmoff, k->avg.nw, TESS_AVERAGE_WSS_BYTES, b.wss);
        rc |= tess_mpi_file_close(f);
        st = tess_sim_dist_agree(rc ? io_failed(h->path, "read", err) : TESS_OK, err);
    }
    uint32_t crc = 0;
    if (st == TESS_OK && (st = file_crc(v, k, h, &b, header, &crc, err)) == TESS_OK) {
        if (root && crc != stored)
            st = tess_average_bad_crc(h->path, crc, stored, err);
        if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
            for (int32_t t = 0; t < v->nowned; t++)
                tess_average_unpack(&k->avg, t, 0, b.tiles + (size_t)t * TESS_AVERAGE_TILE_BYTES);
            for (int64_t j = 0; j < k->avg.nw; j++)
                tess_average_unpack(&k->avg, j, 1, b.wss + (size_t)j * TESS_AVERAGE_WSS_BYTES);
            k->avg.samples = (long)got[0];
            k->avg.last = (long)got[1];
            if (root) {
                job->samples = k->avg.samples;
                job->last = k->avg.last;
            }
        }
    }
    blocks_free(&b);
    return st;
}

tess_status tess_average_dist_task(const tess_dist_view_t *v, void *arg, tess_error_t *err)
{
    tess_average_dist_job_t *job = arg;
    const int root = tess_mpi_rank() == 0;
    tess_average_dist_head_t h;
    if (root)
        h = job->head;
    tess_status st;
    if (tess_sim_dist_first(v, &h, sizeof h) && (st = setup(v, &h, root ? job->w : NULL, err)) != TESS_OK)
        return st;
    keep_t *k = *v->keep;
    switch ((tess_average_dist_op)h.op) {
    case TESS_AVERAGE_DIST_ADD:
        return add(v, k, &h, job, err);
    case TESS_AVERAGE_DIST_PIECES:
        return pieces(v, k, &h, job, err);
    case TESS_AVERAGE_DIST_GATHER:
        return gather(v, k, &h, job, err);
    case TESS_AVERAGE_DIST_SAVE:
        return save(v, k, &h, err);
    case TESS_AVERAGE_DIST_LOAD:
        return load(v, k, &h, job, err);
    }
    return tess_fail(err, TESS_ERR_UNSUPPORTED, "rank %d: no time-average operation %d", tess_mpi_rank(), (int)h.op);
}
