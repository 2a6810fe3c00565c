/* Piece boxes from the partition's bisection (tess_pieces.h). */
#include "tess_pieces.h"

/* Ranks r0 .. r0 + nr - 1 share the node box [lo, hi) (exclusive upper corner). */
static void split(const tess_tiling_t *t, const int32_t *rank, int r0, int nr, const int lo[3], const int hi[3],
                  int32_t (*ext)[6])
{
    const int n[3] = {t->nx, t->ny, t->nz};
    if (nr == 1) {
        for (int a = 0; a < 3; a++) {
            ext[r0][2 * a] = lo[a];
            ext[r0][2 * a + 1] = hi[a] < n[a] ? hi[a] : n[a] - 1; /* one node into the next piece */
        }
        return;
    }
    /* The partition's axis: the longest of its tiles' corner box (ties: x, then y, then z). */
    int32_t clo[3] = {INT32_MAX, INT32_MAX, INT32_MAX}, chi[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
    for (int32_t k = 0; k < t->ntiles; k++)
        if (rank[k] >= r0 && rank[k] < r0 + nr)
            for (int a = 0; a < 3; a++) {
                const int32_t c = t->tile_corner[3 * (size_t)k + a];
                clo[a] = c < clo[a] ? c : clo[a];
                chi[a] = c > chi[a] ? c : chi[a];
            }
    int axis = 0;
    for (int a = 1; a < 3; a++)
        if (chi[a] - clo[a] > chi[axis] - clo[axis])
            axis = a;
    const int nl = nr / 2;
    int32_t first_right = INT32_MAX, last_left = INT32_MIN;
    for (int32_t k = 0; k < t->ntiles; k++) {
        const int32_t c = t->tile_corner[3 * (size_t)k + axis];
        if (rank[k] >= r0 && rank[k] < r0 + nl && c > last_left)
            last_left = c;
        if (rank[k] >= r0 + nl && rank[k] < r0 + nr && c < first_right)
            first_right = c;
    }
    const int e[3] = {t->ex, t->ey, t->ez};
    int cut = first_right;
    if (cut <= lo[axis])
        cut = last_left + e[axis];
    /* Every rank owns a tile, so the sides' tiles keep lo < cut < hi; kept inside the box whatever the input. */
    if (cut <= lo[axis])
        cut = lo[axis] + 1;
    if (cut >= hi[axis])
        cut = hi[axis] - 1;
    int mid_hi[3] = {hi[0], hi[1], hi[2]}, mid_lo[3] = {lo[0], lo[1], lo[2]};
    mid_hi[axis] = cut;
    mid_lo[axis] = cut;
    split(t, rank, r0, nl, lo, mid_hi, ext);
    split(t, rank, r0 + nl, nr - nl, mid_lo, hi, ext);
}

void tess_pieces_extents(const tess_tiling_t *t, const int32_t *rank, int nranks, int32_t (*ext)[6])
{
    const int lo[3] = {0, 0, 0}, hi[3] = {t->nx, t->ny, t->nz};
    split(t, rank, 0, nranks, lo, hi, ext);
}
