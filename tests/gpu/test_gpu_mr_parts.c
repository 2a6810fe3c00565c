/* The GPU's MR stepped in parts (backends/gpu/tess_gpu_dist.h; the distributed run's overlap, docs/mpi.md "GPU
 * ranks"): the boundary tiles first, their new moments into the next copy of the moments (the side buffer, which the
 * exchange packs from: state(eng, 1)), then the interior tiles, whose blocks still gather the boundary tiles' old
 * moments from the current copy. Every node's new moments depend only on the old moments, and each part runs the
 * whole step's kernel instances over the groups that hold its tiles, writing only its own tiles, so a step in
 * parts must give the whole step's bits, in any build (GPU against GPU: the same instructions on the same values).
 *
 * Through the GPU's distributed engine (tess_dist_engine_cuda / _hip: create, set_owned, step_tiles, state) without
 * MPI, on the mixed box of tests/lattice (curved Bouzidi wall, moving lid, tilted nee inlet and outlet, obstacles,
 * body force: the list kernel's nodes fall in both parts), 3D boxes 10 tile layers high (nz 40, periodic in z),
 * 12 steps, against the whole step (ops->step) on the tiling in its own order:
 *   - D2Q9, D3Q19 and D3Q27 in double and single precision, every block shape: one tile, 2x2x1 tiles, 2x2x2 tiles
 *     (single precision, 3D) and the column sweep over 4 tile layers (3D), whose columns the cuts split;
 *   - the tiling's own tile order (layers) and a shuffled one (a rank's local tiling is boundary, interior, halo:
 *     its parts are scattered over the groups and over a column's layers; the shuffle is undone before comparing,
 *     and the whole step on the shuffled tiling must give the same bits too);
 *   - cuts: nothing first (a rank without neighbours), a third, half, every tile first and an empty interior (a
 *     rank whose tiles are all boundary tiles);
 *   - after each step's first part, the boundary tiles' moments in state(eng, 1) (what the exchange sends) must be
 *     the moments the step ends with, bit for bit, while state(eng, 0) (what the interior reads) must still differ
 *     from them (the control: the check is not of two equal arrays);
 *   - one copy of the moments (mr_copies 1, 3D in layer order) steps whole with the first part (the fallback): the
 *     same bits;
 *   - the control: a step whose interior part is left out (owned tiles = the boundary tiles) must differ.
 * Without a device: SKIPPED and exit 77. */
#include "gpu_test.h"
#include "lattice_test.h"
#include "tess_dist_engine.h"
#include "tess_links.h"
#include "tess_state.h"
#include "tess_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const tess_backend_ops_t TESS_TEST_GPU_OPS;
extern const tess_dist_engine_t TESS_TEST_GPU_DIST;

enum { NSTEPS = 12 };

static int first = 1; /* no GPU run has succeeded yet: a device error then means no device (exit 77) */

/* t2: t with its tiles in the order perm (new tile j is t's tile perm[j]): corners, node types, neighbours
 * renumbered, the tile map, the curved links per tile. */
static int shuffle_tiling(const tess_tiling_t *t, const int32_t *perm, tess_tiling_t *t2)
{
    const int32_t n = t->ntiles;
    const size_t cells = (size_t)t->tx * t->ty * t->tz;
    int32_t *inv = malloc((size_t)n * sizeof *inv);
    *t2 = *t;
    memset(&t2->links, 0, sizeof t2->links);
    t2->tile_map = malloc(cells * sizeof *t2->tile_map);
    t2->tile_corner = malloc(3 * (size_t)n * sizeof *t2->tile_corner);
    t2->neighbors = malloc(27 * (size_t)n * sizeof *t2->neighbors);
    t2->node_type = malloc(64 * (size_t)n);
    if (t->links.n > 0) {
        t2->links.n = t->links.n;
        t2->links.link = malloc((size_t)t->links.n * sizeof *t2->links.link);
        t2->links.start = malloc(((size_t)n + 1) * sizeof *t2->links.start);
    }
    if (!inv || !t2->tile_map || !t2->tile_corner || !t2->neighbors || !t2->node_type ||
        (t->links.n > 0 && (!t2->links.link || !t2->links.start))) {
        free(inv);
        tess_tiling_free(t2);
        return 0;
    }
    for (int32_t j = 0; j < n; j++)
        inv[perm[j]] = j;
    for (size_t c = 0; c < cells; c++)
        t2->tile_map[c] = t->tile_map[c] < 0 ? -1 : inv[t->tile_map[c]];
    for (int32_t j = 0; j < n; j++) {
        const int32_t k = perm[j];
        memcpy(t2->tile_corner + 3 * (size_t)j, t->tile_corner + 3 * (size_t)k, 3 * sizeof *t2->tile_corner);
        memcpy(t2->node_type + 64 * (size_t)j, t->node_type + 64 * (size_t)k, 64);
        for (int s = 0; s < 27; s++) {
            const int32_t nb = t->neighbors[27 * (size_t)k + s];
            t2->neighbors[27 * (size_t)j + s] = nb < 0 ? -1 : inv[nb];
        }
    }
    if (t->links.n > 0) {
        t2->links.start[0] = 0;
        for (int32_t j = 0; j < n; j++) {
            const int64_t a = t->links.start[perm[j]], b = t->links.start[perm[j] + 1];
            memcpy(t2->links.link + t2->links.start[j], t->links.link + a, (size_t)(b - a) * sizeof *t2->links.link);
            t2->links.start[j + 1] = t2->links.start[j] + (b - a);
        }
    }
    free(inv);
    return 1;
}

/* Canonical states are a block of q x 64 values per tile: out's block j is in's block perm[j] (to), or the reverse
 * (out's block perm[j] is in's block j). */
static void shuffle_state(const tess_tiling_t *t, tess_precision prec, const int32_t *perm, const void *in, void *out,
                          int to)
{
    const size_t block = (size_t)t->q * 64 * tess_precision_size(prec);
    for (int32_t j = 0; j < t->ntiles; j++) {
        const size_t a = (size_t)j * block, b = (size_t)perm[j] * block;
        memcpy((char *)out + (to ? a : b), (const char *)in + (to ? b : a), block);
    }
}

typedef struct {
    int layer, copies;      /* tess_backend_config_t.mr_layer, .mr_copies */
    int32_t nbound, nowned; /* the parts: [0, nbound) first, then [nbound, nowned); nowned < ntiles: the rest halo */
    int side_same, old_differs; /* every step: state(1)'s boundary moments equal the result's; state(0)'s differ */
} parts_t;

/* NSTEPS steps in parts through the distributed engine; out: the canonical populations. */
static tess_status run_parts(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *in,
                             void *out, parts_t *r, tess_error_t *err)
{
    const tess_dist_engine_t *e = &TESS_TEST_GPU_DIST;
    tess_backend_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.precision = prec;
    cfg.pattern = TESS_PATTERN_MR;
    cfg.mr_layer = r->layer;
    cfg.mr_copies = r->copies;
    cfg.variant = TESS_KERNEL_FULL;
    const size_t side = (size_t)r->nbound * tess_state_node_values(TESS_PATTERN_MR, t->lattice, t->q) * 64 *
                        tess_precision_size(prec);
    char *next = malloc(side ? side : 1), *old = malloc(side ? side : 1), *now = malloc(side ? side : 1);
    r->side_same = r->old_differs = 1;
    tess_backend_t *be = NULL;
    tess_status st = next && old && now ? e->create(&cfg, &be, err)
                                        : tess_fail(err, TESS_ERR_NOMEM, "out of memory for the side check");
    if (st == TESS_OK)
        st = e->ops->upload_geometry(be, t, err);
    if (st == TESS_OK) /* before initialise, as the distributed driver does */
        st = e->set_owned(be, r->nbound, r->nowned, t->links.n > 0 ? t->links.start[r->nowned] : 0, err);
    if (st == TESS_OK)
        st = e->ops->initialise(be, p, in, err);
    for (int s = 0; s < NSTEPS && st == TESS_OK; s++) {
        st = e->step_tiles(be, 0, r->nbound, TESS_DIST_FIRST, err);
        /* copies on the kernels' stream: after the first part */
        if (st == TESS_OK && side)
            st = e->copy(next, e->state(be, 1), side, 0, err);
        if (st == TESS_OK && side)
            st = e->copy(old, e->state(be, 0), side, 0, err);
        if (st == TESS_OK)
            st = e->step_tiles(be, r->nbound, r->nowned, TESS_DIST_LAST, err);
        if (st == TESS_OK && side)
            st = e->copy(now, e->state(be, 0), side, 0, err);
        if (st == TESS_OK)
            st = e->sync(err);
        if (st == TESS_OK && side) {
            r->side_same &= memcmp(next, now, side) == 0;
            r->old_differs &= memcmp(old, now, side) != 0;
        }
    }
    if (st == TESS_OK)
        st = e->ops->download_populations(be, out, err);
    if (be)
        e->ops->destroy(be);
    free(next);
    free(old);
    free(now);
    return st;
}

static tess_status run_whole(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, int layer,
                             const void *in, void *out, tess_error_t *err)
{
    tess_backend_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.precision = prec;
    cfg.pattern = TESS_PATTERN_MR;
    cfg.mr_layer = layer;
    cfg.mr_copies = 2;
    cfg.variant = TESS_KERNEL_FULL;
    return tess_test_run_ops(&TESS_TEST_GPU_OPS, &cfg, t, p, in, NSTEPS, out, NULL, err);
}

/* The mixed box of lattice lat (3D: 10 tile layers, periodic in z), regularized, tiled, with its curved links. */
static tess_status build_case(tess_lattice_id lat, tess_geometry_t *g, tess_params_t *p, tess_tiling_t *t,
                              tess_error_t *err)
{
    lt_planes_t pl;
    lt_mixed_nz = 40;
    lt_mixed_case(lat, g, p, &pl);
    lt_mixed_nz = 0;
    p->collision = TESS_COLLISION_REGULARIZED;
    tess_status st = tess_tiling_build(t, g, p, err);
    if (st == TESS_OK)
        st = tess_links_build(&t->links, t, p, lt_planes_q, &pl, err);
    return st;
}

/* A check's outcome: the run failed (a device error on the first run: skipped), or bits compared. */
static int failed(tess_status st, const tess_error_t *err)
{
    if (st == TESS_OK) {
        first = 0;
        return 0;
    }
    gt_skip_or_fail(err, first);
    tess_test_failures++;
    return 1;
}

static void check_case(tess_lattice_id lat, tess_precision prec)
{
    tess_geometry_t g;
    tess_params_t p;
    tess_tiling_t t, ts;
    tess_error_t err = {0};
    const char *name = tess_lattice_get(lat)->name, *pname = tess_precision_name(prec);
    memset(&ts, 0, sizeof ts);
    if (build_case(lat, &g, &p, &t, &err) != TESS_OK) {
        printf("FAIL %s: %s\n", name, err.msg);
        tess_test_failures++;
        return;
    }
    const int32_t n = t.ntiles;
    int32_t *perm = malloc((size_t)n * sizeof *perm);
    const size_t bytes = tess_state_count(&t) * tess_precision_size(prec);
    void *in = tess_test_random_state(&t, &p, prec, 23 + (uint64_t)lat);
    void *in_s = malloc(bytes), *whole = malloc(bytes), *got = malloc(bytes), *back = malloc(bytes);
    if (!perm || !in || !in_s || !whole || !got || !back) {
        tess_test_true("out of memory", 0);
        goto done;
    }
    tess_test_rng rng;
    tess_test_rng_seed(&rng, 5);
    for (int32_t j = 0; j < n; j++)
        perm[j] = j;
    for (int32_t j = n - 1; j > 0; j--) { /* Fisher-Yates */
        const int32_t i = (int32_t)(tess_test_uniform(&rng) * (j + 1));
        const int32_t x = perm[j];
        perm[j] = perm[i];
        perm[i] = x;
    }
    if (!shuffle_tiling(&t, perm, &ts)) {
        tess_test_true("out of memory shuffling the tiling", 0);
        goto done;
    }
    shuffle_state(&t, prec, perm, in, in_s, 1);
    const int d3 = lat != TESS_LATTICE_D2Q9, single = prec == TESS_PRECISION_SINGLE;
    static const int layers[] = {64, 256, 512, 1024};
    static const struct {
        const char *name;
        double frac;
    } cuts[] = {{"nothing first", 0.0}, {"a third first", 1.0 / 3.0}, {"half first", 0.5},
                {"every tile first, an empty interior", 1.0}};
    char what[320];
    for (int l = 0; l < 4; l++) {
        if ((layers[l] == 512 && !(d3 && single)) || (layers[l] == 1024 && !d3))
            continue;
        const int layer = layers[l];
        if (failed(run_whole(&t, &p, prec, layer, in, whole, &err), &err))
            continue;
        int bits = 0, finite = 0;
        (void)tess_test_wet_diff(&t, &p, prec, whole, in, &bits, &finite, NULL);
        snprintf(what, sizeof what, "%s %s, %d nodes per block: the whole step moved the state", name, pname, layer);
        tess_test_true(what, !bits && finite);
        /* the whole step on the shuffled tiling: the tile order changes no bit */
        if (!failed(run_whole(&ts, &p, prec, layer, in_s, got, &err), &err)) {
            shuffle_state(&t, prec, perm, got, back, 0);
            (void)tess_test_wet_diff(&t, &p, prec, back, whole, &bits, &finite, NULL);
            snprintf(what, sizeof what, "%s %s, %d nodes per block: the whole step on shuffled tiles, bitwise", name,
                     pname, layer);
            tess_test_true(what, bits && finite);
        }
        for (int order = 0; order < 2; order++)
            for (int c = 0; c < 4; c++) {
                const int32_t nb = (int32_t)(cuts[c].frac * n + 0.5);
                parts_t r = {layer, 2, nb, n, 0, 0};
                if (failed(run_parts(order ? &ts : &t, &p, prec, order ? in_s : in, got, &r, &err), &err))
                    continue;
                if (order)
                    shuffle_state(&t, prec, perm, got, back, 0);
                (void)tess_test_wet_diff(&t, &p, prec, order ? back : got, whole, &bits, &finite, NULL);
                snprintf(what, sizeof what, "%s %s, %d nodes per block, %s tiles, %s (%d of %d tiles): in parts vs "
                         "the whole step, bitwise", name, pname, layer, order ? "shuffled" : "layer-ordered",
                         cuts[c].name, nb, n);
                tess_test_true(what, bits && finite);
                if (nb > 0) {
                    snprintf(what, sizeof what, "%s %s, %d nodes per block, %s tiles, %s: state(1) after the first "
                             "part holds the boundary tiles' new moments, state(0) their old ones", name, pname,
                             layer, order ? "shuffled" : "layer-ordered", cuts[c].name);
                    tess_test_true(what, r.side_same && r.old_differs);
                }
            }
        if (d3) { /* one copy (layer order, mr_copies 1): the whole step with the first part */
            parts_t r = {layer, 1, n / 3, n, 0, 0};
            if (!failed(run_parts(&t, &p, prec, in, got, &r, &err), &err)) {
                (void)tess_test_wet_diff(&t, &p, prec, got, whole, &bits, &finite, NULL);
                snprintf(what, sizeof what, "%s %s, %d nodes per block, one copy (a third first: stepped whole with "
                         "it): in parts vs the whole step, bitwise; the next copy holds the new moments", name, pname,
                         layer);
                tess_test_true(what, bits && finite && r.side_same);
            }
        }
    }
    /* the control: the interior part left out (every tile past the boundary a halo tile, never stepped) */
    {
        parts_t r = {256, 2, n / 3, n / 3, 0, 0};
        int bits = 1, finite = 0;
        if (!failed(run_whole(&t, &p, prec, 256, in, whole, &err), &err) &&
            !failed(run_parts(&t, &p, prec, in, got, &r, &err), &err)) {
            (void)tess_test_wet_diff(&t, &p, prec, got, whole, &bits, &finite, NULL);
            snprintf(what, sizeof what, "%s %s: the interior part left out differs from the whole step (the control)",
                     name, pname);
            tess_test_true(what, !bits);
        }
    }
done:
    free(perm);
    free(in);
    free(in_s);
    free(whole);
    free(got);
    free(back);
    tess_tiling_free(&ts);
    tess_tiling_free(&t);
    tess_geometry_free(&g);
}

int main(void)
{
    lt_each_mr_lattice(check_case);
    return tess_test_result("test_gpu_mr_parts");
}
