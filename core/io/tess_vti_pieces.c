/* Pieces of the field outputs, one per MPI rank, and their .pvti (tess_vti_pieces.h). */
#define _POSIX_C_SOURCE 200809L
#include "tess_vti_pieces.h"
#include "tess_mpi.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { TAG_PIECE = 200 };

static const char *const type_name[] = {"Float64", "Float32", "UInt8"};
static const size_t type_size[] = {8, 4, 1};

/* What every rank needs besides its values: sent once, by broadcast. */
typedef struct {
    int32_t nfields, narrays; /* narrays < 0: nothing to write (rank 0 refused the job) */
    int32_t dims[3];
    double origin[3], spacing;
    char dir[1024], stem[64];
    char fname[TESS_VTI_PIECES_MAX][64];
    double fvalue[TESS_VTI_PIECES_MAX];
    char aname[TESS_VTI_PIECES_MAX][64];
    int32_t atype[TESS_VTI_PIECES_MAX], ancomp[TESS_VTI_PIECES_MAX];
} header_t;

static size_t ext_nodes(const int32_t e[6])
{
    return (size_t)(e[1] - e[0] + 1) * (size_t)(e[3] - e[2] + 1) * (size_t)(e[5] - e[4] + 1);
}

static const char another[] = "another MPI rank failed writing its output piece (its message is above)";

/* The worst status over the ranks; a rank that did not fail itself gets a line saying where to look. */
static tess_status agree(tess_status st, tess_error_t *err)
{
    const int worst = tess_mpi_max_int((int)st);
    if (worst != (int)TESS_OK && st == TESS_OK)
        return tess_fail(err, (tess_status)worst, "%s", another);
    return st;
}

/* Copies the nodes of extent e out of the dense box array a (dims) into out. */
static void extract(char *out, const tess_vti_array_t *a, const int dims[3], const int32_t e[6])
{
    const size_t vb = (size_t)a->ncomp * type_size[a->type];
    const size_t row = (size_t)(e[1] - e[0] + 1) * vb;
    for (int32_t z = e[4]; z <= e[5]; z++)
        for (int32_t y = e[2]; y <= e[3]; y++) {
            const size_t src = ((size_t)z * dims[1] + (size_t)y) * dims[0] + (size_t)e[0];
            memcpy(out, (const char *)a->data + src * vb, row);
            out += row;
        }
}

/* This rank's piece: allocation agreed, values received (or extracted on rank 0), or the rank's own (own: its
 * arrays over myext), file written and committed together with every other rank's. On return *committed tells
 * whether its file is in place. */
static tess_status piece(const header_t *h, const int32_t (*ext)[6], const int32_t myext[6],
                         const tess_vti_array_t *dense, const tess_vti_array_t *own, char *path, size_t path_len,
                         int *committed, tess_error_t *err)
{
    const int me = tess_mpi_rank(), R = tess_mpi_size();
    *committed = 0;
    size_t node_bytes = 0, most = 1, widest = 1; /* bytes a node: all arrays, the widest array */
    for (int a = 0; a < h->narrays; a++) {
        const size_t b = (size_t)h->ancomp[a] * type_size[h->atype[a]];
        node_bytes += b;
        widest = b > widest ? b : widest;
    }
    for (int r = 0; ext && r < R; r++)
        most = ext_nodes(ext[r]) > most ? ext_nodes(ext[r]) : most;
    const size_t mine = ext_nodes(myext);
    /* Rank 0 also needs room to copy out the largest array of the largest piece for sending. */
    const int sends = !own && me == 0 && R > 1;
    char *vals = own ? NULL : malloc(mine * node_bytes + 1);
    char *sendbuf = sends ? malloc(most * widest) : NULL;
    tess_status st = TESS_OK;
    if ((!own && !vals) || (sends && !sendbuf))
        st = tess_fail(err, TESS_ERR_NOMEM, "rank %d: out of memory for its output piece (%zu bytes)", me,
                       mine * node_bytes);
    char sub[1200];
    snprintf(sub, sizeof sub, "%s/%s", h->dir, h->stem);
    if (st == TESS_OK && me == 0 && mkdir(sub, 0777) != 0 && errno != EEXIST)
        st = tess_fail(err, TESS_ERR_IO, "%s: cannot create the folder of the output pieces: %s", sub, strerror(errno));
    /* Nothing is sent unless every rank has the room to receive it. */
    if ((st = agree(st, err)) != TESS_OK) {
        free(vals);
        free(sendbuf);
        return st;
    }
    tess_vti_array_t arrays[TESS_VTI_PIECES_MAX];
    size_t off = 0;
    for (int a = 0; own && a < h->narrays; a++)
        arrays[a] = own[a];
    for (int a = 0; !own && a < h->narrays; a++) {
        arrays[a].name = h->aname[a];
        arrays[a].type = (tess_vti_type)h->atype[a];
        arrays[a].ncomp = h->ancomp[a];
        arrays[a].data = vals + off;
        off += mine * (size_t)h->ancomp[a] * type_size[h->atype[a]];
    }
    if (own) {
        /* the rank's own values */
    } else if (me == 0) {
        for (int r = 1; r < R; r++)
            for (int a = 0; a < h->narrays; a++) {
                extract(sendbuf, &dense[a], h->dims, ext[r]);
                tess_mpi_send(sendbuf, ext_nodes(ext[r]) * (size_t)h->ancomp[a] * type_size[h->atype[a]], r,
                              TAG_PIECE);
            }
        for (int a = 0; a < h->narrays; a++)
            extract((char *)(uintptr_t)arrays[a].data, &dense[a], h->dims, myext);
    } else {
        for (int a = 0; a < h->narrays; a++)
            tess_mpi_recv((void *)(uintptr_t)arrays[a].data, mine * (size_t)h->ancomp[a] * type_size[h->atype[a]], 0,
                          TAG_PIECE);
    }
    free(sendbuf);
    tess_vti_field_t fields[TESS_VTI_PIECES_MAX];
    for (int k = 0; k < h->nfields; k++) {
        fields[k].name = h->fname[k];
        fields[k].value = h->fvalue[k];
    }
    snprintf(path, path_len, "%s/%s_%d.vti", sub, h->stem, me);
    tess_file_t w;
    st = tess_vti_write_piece(&w, path, myext, h->origin, h->spacing, fields, h->nfields, arrays, h->narrays, err);
    free(vals);
    const int written = st == TESS_OK;
    if ((st = agree(st, err)) != TESS_OK) {
        if (written)
            tess_file_abort(&w);
        return st;
    }
    st = tess_file_commit(&w, err);
    *committed = st == TESS_OK;
    return agree(st, err);
}

static tess_status write_pvti(const header_t *h, const int32_t (*ext)[6], tess_error_t *err)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s.pvti", h->dir, h->stem);
    tess_file_t w;
    tess_status st = tess_file_begin(&w, path, err);
    if (st != TESS_OK)
        return st;
    fprintf(w.f, "<?xml version=\"1.0\"?>\n"
                 "<VTKFile type=\"PImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
                 "  <PImageData WholeExtent=\"0 %d 0 %d 0 %d\" GhostLevel=\"0\" Origin=\"%.17g %.17g %.17g\" "
                 "Spacing=\"%.17g %.17g %.17g\">\n    <PPointData",
            h->dims[0] - 1, h->dims[1] - 1, h->dims[2] - 1, h->origin[0], h->origin[1], h->origin[2], h->spacing,
            h->spacing, h->spacing);
    /* The same Scalars and Vectors as the pieces' (tess_vti.c: the first array of 1 and of 3 components). */
    for (int c = 1; c <= 3; c += 2)
        for (int a = 0; a < h->narrays; a++)
            if (h->ancomp[a] == c) {
                fprintf(w.f, " %s=\"%s\"", c == 1 ? "Scalars" : "Vectors", h->aname[a]);
                break;
            }
    fprintf(w.f, ">\n");
    for (int a = 0; a < h->narrays; a++)
        fprintf(w.f, "      <PDataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\"/>\n", type_name[h->atype[a]],
                h->aname[a], h->ancomp[a]);
    fprintf(w.f, "    </PPointData>\n");
    for (int r = 0; r < tess_mpi_size(); r++)
        fprintf(w.f, "    <Piece Extent=\"%d %d %d %d %d %d\" Source=\"%s/%s_%d.vti\"/>\n", ext[r][0], ext[r][1],
                ext[r][2], ext[r][3], ext[r][4], ext[r][5], h->stem, h->stem, r);
    fprintf(w.f, "  </PImageData>\n</VTKFile>\n");
    return tess_file_commit(&w, err);
}

/* Every rank: its piece, then (rank 0) the .pvti; on any failure no file of this output stays. ext: every
 * rank's extent on rank 0, NULL elsewhere. */
static tess_status run(const header_t *h, const int32_t (*ext)[6], const int32_t myext[6],
                       const tess_vti_array_t *dense, const tess_vti_array_t *own, tess_error_t *err)
{
    char path[1300];
    int committed = 0;
    tess_status st = piece(h, ext, myext, dense, own, path, sizeof path, &committed, err);
    if (st == TESS_OK) {
        tess_status pv = tess_mpi_rank() == 0 ? write_pvti(h, ext, err) : TESS_OK;
        st = agree(pv, err);
    }
    char other[1300];
    if (st == TESS_OK && tess_mpi_rank() == 0)
        /* Pieces of an earlier run with more ranks (a restart step written again): not part of this dataset. */
        for (int r = tess_mpi_size();; r++) {
            snprintf(other, sizeof other, "%s/%s/%s_%d.vti", h->dir, h->stem, h->stem, r);
            if (unlink(other) != 0)
                break;
        }
    if (st != TESS_OK) {
        if (committed)
            unlink(path);
        tess_mpi_max_int(0); /* every piece removed before the folder */
        if (tess_mpi_rank() == 0) {
            /* An older .pvti of this step (a restart step written again) would list pieces that are gone. */
            snprintf(other, sizeof other, "%s/%s.pvti", h->dir, h->stem);
            unlink(other);
            snprintf(other, sizeof other, "%s/%s", h->dir, h->stem);
            rmdir(other); /* fails, harmlessly, when other files are in it */
        }
    }
    return st;
}

/* The header of job; 0 when it does not fit (then h->narrays is -1). */
static int make_header(const tess_vti_pieces_t *job, header_t *h_out)
{
    header_t h;
    memset(&h, 0, sizeof h);
    int ok = job->narrays >= 0 && job->narrays <= TESS_VTI_PIECES_MAX && job->nfields >= 0 &&
             job->nfields <= TESS_VTI_PIECES_MAX && strlen(job->dir) < sizeof h.dir && strlen(job->stem) < sizeof h.stem;
    for (int a = 0; ok && a < job->narrays; a++)
        ok = strlen(job->arrays[a].name) < sizeof h.aname[a];
    for (int k = 0; ok && k < job->nfields; k++)
        ok = strlen(job->fields[k].name) < sizeof h.fname[k];
    h.narrays = ok ? job->narrays : -1;
    if (ok) {
        h.nfields = job->nfields;
        for (int a = 0; a < 3; a++) {
            h.dims[a] = job->dims[a];
            h.origin[a] = job->origin[a];
        }
        h.spacing = job->spacing;
        snprintf(h.dir, sizeof h.dir, "%s", job->dir);
        snprintf(h.stem, sizeof h.stem, "%s", job->stem);
        for (int a = 0; a < job->narrays; a++) {
            snprintf(h.aname[a], sizeof h.aname[a], "%s", job->arrays[a].name);
            h.atype[a] = (int32_t)job->arrays[a].type;
            h.ancomp[a] = job->arrays[a].ncomp;
        }
        for (int k = 0; k < job->nfields; k++) {
            snprintf(h.fname[k], sizeof h.fname[k], "%s", job->fields[k].name);
            h.fvalue[k] = job->fields[k].value;
        }
    }
    *h_out = h;
    return ok;
}

static tess_status bad_job(const tess_vti_pieces_t *job, tess_error_t *err)
{
    return tess_fail(err, TESS_ERR_IO, "%s/%s: output pieces: too many arrays or names too long", job->dir, job->stem);
}

tess_status tess_vti_pieces_write(const tess_vti_pieces_t *job, tess_error_t *err)
{
    header_t h;
    const int ok = make_header(job, &h);
    tess_mpi_bcast(&h, sizeof h, 0);
    if (!ok)
        return bad_job(job, err);
    for (int r = 1; r < tess_mpi_size(); r++)
        tess_mpi_send(job->ext[r], sizeof job->ext[r], r, TAG_PIECE);
    return run(&h, job->ext, job->ext[0], job->arrays, NULL, err);
}

tess_status tess_vti_pieces_write_own(const tess_vti_pieces_t *job, tess_error_t *err)
{
    header_t h;
    /* Every rank builds the same header from the same job: nothing to broadcast. */
    if (!make_header(job, &h))
        return bad_job(job, err);
    return run(&h, job->ext, job->ext[tess_mpi_rank()], NULL, job->arrays, err);
}

void tess_vti_pieces_serve(void)
{
    header_t h;
    tess_mpi_bcast(&h, sizeof h, 0);
    if (h.narrays < 0)
        return;
    int32_t myext[6];
    tess_mpi_recv(myext, sizeof myext, 0, TAG_PIECE);
    tess_error_t err = {0};
    /* Only the rank that failed prints (rank 0 prints the run's line). */
    if (run(&h, NULL, myext, NULL, NULL, &err) != TESS_OK && err.msg[0] && strcmp(err.msg, another) != 0)
        fprintf(stderr, "tessera: rank %d: %s\n", tess_mpi_rank(), err.msg);
}
