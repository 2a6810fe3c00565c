/* Wall-shear-stress pieces made by every rank (tess_wss_pieces.h). */
#include "tess_wss_pieces.h"
#include "tess_mpi.h"
#include "tess_sim_dist.h"
#include "tess_vti_pieces.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_WSS = 500 };

/* A rank's WSS nodes in its box (tess_dist_view_t.keep, one block): box index (x fastest) and normal; on rank 0
 * also every rank's extent, its count and, rank by rank, the WSS node numbers. */
typedef struct {
    int64_t n;
    int64_t *idx;
    double *normal;
    int32_t (*ext)[6];
    int64_t *count, *m; /* rank 0 */
} keep_t;

static int inside(const int32_t at[3], const int32_t e[6])
{
    for (int a = 0; a < 3; a++)
        if (at[a] < e[2 * a] || at[a] > e[2 * a + 1])
            return 0;
    return 1;
}

static int64_t box_index(const int32_t at[3], const int32_t e[6])
{
    const int64_t bx = e[1] - e[0] + 1, by = e[3] - e[2] + 1;
    return (at[0] - e[0]) + bx * ((at[1] - e[2]) + by * (int64_t)(at[2] - e[4]));
}

static keep_t *keep_alloc(int R, int64_t n, int64_t total)
{
    const size_t head = (sizeof(keep_t) + 7) / 8 * 8;
    keep_t *k = malloc(head + (size_t)R * sizeof(int32_t[6]) + 8 + (size_t)(n + 1) * (sizeof(int64_t) + 3 * sizeof(double)) +
                       (size_t)(R + total + 1) * sizeof(int64_t));
    if (!k)
        return NULL;
    k->n = n;
    k->normal = (double *)(void *)((char *)k + head);
    k->idx = (int64_t *)(void *)(k->normal + 3 * (n + 1));
    k->count = k->idx + n + 1;
    k->m = k->count + R;
    k->ext = (int32_t(*)[6])(void *)(k->m + total + 1);
    return k;
}

/* Every rank, at the first output: its WSS nodes from rank 0. */
static tess_status setup(const tess_dist_view_t *v, const tess_wss_pieces_job_t *job, tess_error_t *err)
{
    const int R = tess_mpi_size(), me = tess_mpi_rank(), root = me == 0;
    int32_t(*ext)[6] = malloc((size_t)R * sizeof *ext);
    int64_t *cnt = root ? calloc((size_t)R, sizeof *cnt) : NULL;
    tess_status st = ext && (!root || cnt) ? TESS_OK
                                           : tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for its WSS piece", me);
    if ((st = tess_sim_dist_agree(st, err)) != TESS_OK) {
        free(ext);
        free(cnt);
        return st;
    }
    if (root)
        memcpy(ext, job->ext, (size_t)R * sizeof *ext);
    tess_mpi_bcast(ext, (size_t)R * sizeof *ext, 0);
    int64_t n = 0, total = 0, most = 1;
    if (root) {
        for (int r = 0; r < R; r++) {
            for (int64_t m = 0; m < job->w->n; m++)
                cnt[r] += inside(job->w->at + 3 * m, ext[r]);
            total += cnt[r];
            most = cnt[r] > most ? cnt[r] : most;
            if (r)
                tess_mpi_send(&cnt[r], sizeof cnt[r], r, TAG_WSS);
        }
        n = cnt[0];
    } else {
        tess_mpi_recv(&n, sizeof n, 0, TAG_WSS);
    }
    keep_t *k = keep_alloc(R, n, total);
    int64_t *ibuf = root ? malloc((size_t)most * sizeof *ibuf) : NULL;
    double *nbuf = root ? malloc(3 * (size_t)most * sizeof *nbuf) : NULL;
    st = k && (!root || (ibuf && nbuf)) ? TESS_OK
                                        : tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for its WSS nodes", me);
    if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
        memcpy(k->ext, ext, (size_t)R * sizeof *ext);
        if (root) {
            int64_t at = 0;
            for (int r = 0; r < R; r++) {
                int64_t j = 0;
                for (int64_t m = 0; m < job->w->n; m++)
                    if (inside(job->w->at + 3 * m, ext[r])) {
                        k->m[at + j] = m;
                        ibuf[j] = box_index(job->w->at + 3 * m, ext[r]);
                        memcpy(nbuf + 3 * j, job->w->normal + 3 * m, 3 * sizeof *nbuf);
                        j++;
                    }
                k->count[r] = j;
                at += j;
                if (r) {
                    tess_mpi_send(ibuf, (size_t)j * sizeof *ibuf, r, TAG_WSS);
                    tess_mpi_send(nbuf, 3 * (size_t)j * sizeof *nbuf, r, TAG_WSS);
                } else {
                    memcpy(k->idx, ibuf, (size_t)j * sizeof *ibuf);
                    memcpy(k->normal, nbuf, 3 * (size_t)j * sizeof *nbuf);
                }
            }
        } else {
            tess_mpi_recv(k->idx, (size_t)n * sizeof *k->idx, 0, TAG_WSS);
            tess_mpi_recv(k->normal, 3 * (size_t)n * sizeof *k->normal, 0, TAG_WSS);
        }
        free(*v->keep);
        *v->keep = k;
        k = NULL;
    }
    free(k);
    free(ibuf);
    free(nbuf);
    free(ext);
    free(cnt);
    return st;
}

tess_status tess_wss_pieces_task(const tess_dist_view_t *v, void *arg, tess_error_t *err)
{
    const tess_wss_pieces_job_t *job = arg;
    const int R = tess_mpi_size(), me = tess_mpi_rank(), root = me == 0;
    tess_wss_pieces_head_t h;
    if (root)
        h = job->head;
    tess_status st;
    if (tess_sim_dist_first(v, &h, sizeof h) && (st = setup(v, job, err)) != TESS_OK)
        return st;
    const keep_t *k = *v->keep;
    int64_t most = k->n;
    for (int r = 1; root && r < R; r++)
        most = k->count[r] > most ? k->count[r] : most;
    const int32_t *e = k->ext[me];
    const size_t nbox = (size_t)(e[1] - e[0] + 1) * (size_t)(e[3] - e[2] + 1) * (size_t)(e[5] - e[4] + 1);
    double *vals = malloc(3 * (size_t)(most + 1) * sizeof *vals);
    double *mag = calloc(nbox, sizeof *mag), *wss = calloc(3 * nbox, sizeof *wss), *nrm = calloc(3 * nbox, sizeof *nrm);
    uint8_t *wall = calloc(nbox, 1);
    st = vals && mag && wss && nrm && wall
             ? TESS_OK
             : tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for its WSS piece (%zu nodes)", me, nbox);
    if ((st = tess_sim_dist_agree(st, err)) == TESS_OK) {
        if (root) {
            int64_t at = 0;
            for (int r = 0; r < R; r++) { /* rank 0's own last into vals */
                const int64_t c = k->count[r];
                double *out = vals;
                for (int64_t j = 0; j < c && r; j++)
                    memcpy(out + 3 * j, job->wss + 3 * k->m[at + j], 3 * sizeof *out);
                if (r)
                    tess_mpi_send(vals, 3 * (size_t)c * sizeof *vals, r, TAG_WSS);
                at += c;
            }
            for (int64_t j = 0; j < k->n; j++)
                memcpy(vals + 3 * j, job->wss + 3 * k->m[j], 3 * sizeof *vals);
        } else {
            tess_mpi_recv(vals, 3 * (size_t)k->n * sizeof *vals, 0, TAG_WSS);
        }
        for (int64_t j = 0; j < k->n; j++) { /* as the single file: tess_analysis.c's write_wss */
            const double *w = vals + 3 * j;
            const size_t i = (size_t)k->idx[j];
            mag[i] = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
            memcpy(wss + 3 * i, w, 3 * sizeof *wss);
            memcpy(nrm + 3 * i, k->normal + 3 * j, 3 * sizeof *nrm);
            wall[i] = 1;
        }
        const tess_vti_array_t arrays[4] = {{"wss_magnitude", TESS_VTI_FLOAT64, 1, mag},
                                            {"wss", TESS_VTI_FLOAT64, 3, wss},
                                            {"wall_normal", TESS_VTI_FLOAT64, 3, nrm},
                                            {"wall", TESS_VTI_UINT8, 1, wall}};
        const tess_vti_pieces_t pj = {h.dir,     h.stem, {h.dims[0], h.dims[1], h.dims[2]}, h.origin, h.spacing, NULL, 0,
                                      arrays, 4, (const int32_t(*)[6])k->ext};
        st = tess_vti_pieces_write_own(&pj, err);
    }
    free(vals);
    free(mag);
    free(wss);
    free(nrm);
    free(wall);
    return st;
}
