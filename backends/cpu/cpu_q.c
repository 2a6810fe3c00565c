/* The CPU engine: set-up, canonical conversion and the dispatch by lattice and precision. */
#include "cpu_q.h"
#include "cpu_q_kernels.h"
#include "cpu_q_mr_window.h"
#include "cpu_stream.h"
#include "cpu_topology.h"
#include "tess_physics_q.h"
#include "tess_state.h"
#include "tess_state_mr.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static tess_cpu_q_t *qbe(tess_backend_t *b)
{
    return (tess_cpu_q_t *)(void *)b;
}

/* Values per node in one copy: q populations, or the stored moments of the MR pattern (tess_q_mr_count). */
static int node_values(const tess_cpu_q_t *be)
{
    return tess_state_node_values(be->cfg.pattern, be->lattice, be->q);
}

static size_t copy_bytes(const tess_cpu_q_t *be)
{
    if (be->cfg.pattern != TESS_PATTERN_MR)
        return tess_pop_layout_values(be->grid.pop, be->q, be->ntiles) * tess_precision_size(be->cfg.precision);
    return (size_t)(be->ntiles > 0 ? be->ntiles : 1) * (size_t)node_values(be) * 64 *
           tess_precision_size(be->cfg.precision);
}

static tess_precision cfg_precision(const tess_cpu_q_t *be)
{
    return be->cfg.precision;
}

static tess_status q_create(const tess_backend_config_t *cfg, tess_backend_t **out, tess_error_t *err)
{
    if (cfg->pattern != TESS_PATTERN_AB && cfg->pattern != TESS_PATTERN_AA && cfg->pattern != TESS_PATTERN_MR)
        return tess_fail(err, TESS_ERR_INPUT, "unknown propagation pattern %d (expected ab, aa or mr)",
                         (int)cfg->pattern);
    if (cfg->variant != TESS_KERNEL_FULL)
        return tess_fail(err, TESS_ERR_UNSUPPORTED, "kernel variants other than 'full' exist on the GPU backends only");
    if (cfg->plain_xyz)
        return tess_fail(err, TESS_ERR_UNSUPPORTED,
                         "the layout study (plain_xyz) is a GPU measurement: the cpu engine stores the 64 values of "
                         "a tile's direction contiguously already");
    tess_cpu_q_t *be = calloc(1, sizeof *be);
    if (!be)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory creating the cpu backend");
    be->cfg = *cfg;
    be->nthreads = tess_cpu_topology_team(cfg->threads);
    be->prefetch_l1 = tess_cpu_topology_cache(1, NULL) >= 48 * 1024;
    *out = (tess_backend_t *)(void *)be;
    return TESS_OK;
}

static tess_status q_upload(tess_backend_t *b, const tess_tiling_t *t, tess_error_t *err)
{
    tess_cpu_q_t *be = qbe(b);
    const size_t nt = t->ntiles > 0 ? (size_t)t->ntiles : 1;
    be->ntiles = t->ntiles;
    be->sweep_k0 = 0;
    be->sweep_k1 = t->ntiles;
    be->lattice = t->lattice;
    be->q = t->q;
    be->ex = t->ex;
    be->ey = t->ey;
    be->ez = t->ez;
    be->shape.lattice = t->lattice;
    be->shape.q = t->q;
    be->shape.ex = t->ex;
    be->shape.ey = t->ey;
    be->shape.ez = t->ez;
    be->neighbors = malloc(27 * nt * sizeof *be->neighbors);
    be->node_type = malloc(64 * nt);
    be->corner = malloc(3 * nt * sizeof *be->corner);
    be->node_link = calloc(64 * nt, sizeof *be->node_link);
    be->node_nlink = calloc(64 * nt, 1);
    be->tile_plain = calloc(nt, 1);
    be->tile_wet = calloc(nt, sizeof *be->tile_wet);
    be->tile_link = calloc(nt + 1, sizeof *be->tile_link);
    const int64_t nl = t->links.n;
    be->links = malloc((size_t)(nl > 0 ? nl : 1) * sizeof *be->links);
    be->link_val = malloc(2 * (size_t)(nl > 0 ? nl : 1) * tess_precision_size(cfg_precision(be))); /* 2 per link */
    be->slots = malloc((size_t)(nl > 0 ? nl : 1) * sizeof *be->slots);
    be->link_local = malloc((size_t)(nl > 0 ? nl : 1));
    be->link_coef = malloc((size_t)(nl > 0 ? nl : 1) * 4 * tess_precision_size(cfg_precision(be)));
    if (!be->neighbors || !be->node_type || !be->corner || !be->node_link || !be->node_nlink || !be->links ||
        !be->tile_plain || !be->tile_wet || !be->tile_link || !be->link_val || !be->slots ||
        !be->link_local || !be->link_coef)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory copying the tiling of %d tiles", t->ntiles);
    memcpy(be->neighbors, t->neighbors, 27 * (size_t)t->ntiles * sizeof *be->neighbors);
    memcpy(be->node_type, t->node_type, 64 * (size_t)t->ntiles);
    memcpy(be->corner, t->tile_corner, 3 * (size_t)t->ntiles * sizeof *be->corner);
    if (nl > 0)
        memcpy(be->links, t->links.link, (size_t)nl * sizeof *be->links);
    tess_links_node_ranges(t, be->node_link, be->node_nlink);
    for (int32_t k = 0; k < t->ntiles; k++) { /* the links are sorted by tile */
        int64_t nk = 0;
        for (int n = 0; n < 64; n++)
            nk += be->node_nlink[64 * (size_t)k + n];
        be->tile_link[k + 1] = be->tile_link[k] + nk;
    }
    be->grid.neighbors = be->neighbors;
    be->grid.node_type = be->node_type;
    be->grid.corner = be->corner;
    be->grid.ex = t->ex;
    be->grid.ey = t->ey;
    be->grid.ez = t->ez;
    /* AB and AA: one array per direction over the tiles and the threads' scratch tiles (cpu_q.h) */
    be->grid.pop = be->cfg.pattern == TESS_PATTERN_MR
                       ? tess_pop_layout_tiles()
                       : tess_pop_layout_directions((int64_t)t->ntiles + be->nthreads,
                                                    tess_precision_size(be->cfg.precision));
    /* AA and MR (the sliding window, cpu_q_mr_window.h) keep one copy */
    const int ncopies = be->cfg.pattern == TESS_PATTERN_AB ? 2 : 1;
    if (be->cfg.pattern == TESS_PATTERN_MR) {
        const tess_status st = tess_cpu_q_mrw_create(be, t, err);
        if (st != TESS_OK)
            return st;
    }
    for (int c = 0; c < ncopies; c++) {
        be->f[c] = tess_cpu_alloc(copy_bytes(be));
        if (!be->f[c])
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory: the cpu engine needs %zu bytes per copy for %d tiles",
                             copy_bytes(be), t->ntiles);
    }
    be->bytes = ncopies * copy_bytes(be) +
                nt * (30 * sizeof(int32_t) + 64 + 64 * (sizeof(int64_t) + 1) + 1 + 2 * sizeof(uint64_t) +
                      2 * sizeof(int64_t)) +
                (size_t)nl * (sizeof *be->links + sizeof *be->slots + 1 + 6 * tess_precision_size(be->cfg.precision));
    return TESS_OK;
}

/* Special nodes, whose incoming populations come from the whole gather (tess_q_gather) rather than the tile's
 * row pull and fix-ups: inlets and outlets; for the reference sweep also the nodes with curved links (their
 * pull reads other nodes' slots, so the AA pattern gathers them in the pre-pass). */
static tess_status find_special(tess_cpu_q_t *be, tess_error_t *err)
{
    const tess_params_t *p = &be->params;
    free(be->special);
    free(be->special_of_node);
    free(be->special_sweep);
    free(be->buf);
    be->special = NULL;
    be->special_sweep = NULL;
    be->buf = NULL;
    be->nspecial = 0;
    const size_t nn = 64 * (size_t)(be->ntiles > 0 ? be->ntiles : 1);
    be->special_of_node = malloc(nn * sizeof *be->special_of_node);
    if (!be->special_of_node)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the special-node map");
    int64_t count = 0;
    for (int pass = 0; pass < 2; pass++) {
        count = 0;
        for (size_t node = 0; node < 64 * (size_t)be->ntiles; node++) {
            const tess_material_t *m = &p->mat[be->node_type[node]];
            const int open = m->kind == TESS_NODE_VELOCITY || m->kind == TESS_NODE_PRESSURE;
            const int curved = be->reference && p->wall != TESS_WALL_BOUNCE_BACK && be->node_nlink[node] > 0;
            if (pass == 0)
                be->special_of_node[node] = -1;
            if (!tess_q_kind_is_wet(m->kind) || !(open || curved))
                continue;
            if (pass) {
                be->special[count] = (int64_t)node;
                be->special_of_node[node] = (int32_t)count;
                /* the reference sweep gathers every special node (tess_q_node_step) */
                be->special_sweep[count] = (uint8_t)(!be->reference && be->lattice == TESS_LATTICE_D3Q19 && open &&
                                                     m->method == TESS_BC_ZOU_HE);
            }
            count++;
        }
        if (!pass) {
            be->special = malloc((size_t)(count ? count : 1) * sizeof *be->special);
            be->special_sweep = malloc((size_t)(count ? count : 1));
            be->buf = malloc((size_t)(count ? count : 1) * be->q * tess_precision_size(be->cfg.precision));
            if (!be->special || !be->special_sweep || !be->buf)
                return tess_fail(err, TESS_ERR_NOMEM, "out of memory for %lld special nodes", (long long)count);
        }
    }
    be->nspecial = count;
    free(be->tile_special);
    be->tile_special = calloc((size_t)(be->ntiles > 0 ? be->ntiles : 0) + 1, sizeof *be->tile_special);
    if (!be->tile_special)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the special-node ranges");
    for (int64_t s = 0; s < count; s++) /* special is sorted by node, hence by tile */
        be->tile_special[be->special[s] / 64 + 1]++;
    for (int32_t k = 0; k < be->ntiles; k++)
        be->tile_special[k + 1] += be->tile_special[k];
    return TESS_OK;
}

/* The fix-up lists of the tiles that are not plain (cpu_q_step_t.h) and every tile's wet mask: per dry node one
 * entry, per wet node one entry for every direction whose upstream node is not wet (or outside the stored
 * tiles). They depend on the materials, hence built at initialise. */
static tess_status build_fixups(tess_cpu_q_t *be, tess_error_t *err)
{
    const tess_params_t *p = &be->params;
    const tess_lattice_t *lat = tess_lattice_get((tess_lattice_id)be->lattice);
    free(be->fix);
    free(be->fix_start);
    be->fix = NULL;
    be->fix_start = calloc((size_t)(be->ntiles > 0 ? be->ntiles : 0) + 1, sizeof *be->fix_start);
    if (!be->fix_start || !lat)
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the fix-up ranges");
    /* Pass 0 counts each tile's entries (into fix_start[k + 1], then a prefix sum), pass 1 writes them from
     * fix_start[k]: tiles are independent, so the threads give the serial order's lists. */
    int64_t count = 0;
    for (int pass = 0; pass < 2; pass++) {
#pragma omp parallel for schedule(dynamic, 256) num_threads(be->nthreads)
        for (int32_t k = 0; k < be->ntiles; k++) {
            int64_t at = pass ? be->fix_start[k] : 0;
            uint64_t wet = 0;
            for (int n = 0; n < 64; n++) {
                const int x = n % be->ex, y = (n / be->ex) % be->ey, z = n / (be->ex * be->ey);
                if (!tess_q_kind_is_wet(p->mat[be->node_type[64 * (size_t)k + n]].kind)) {
                    if (pass)
                        be->fix[at] = (tess_cpu_q_fix_t){(uint8_t)n, TESS_CPU_Q_DRY, 0, 0};
                    at++;
                    continue;
                }
                wet |= (uint64_t)1 << n;
                for (int i = 1; i < be->q; i++) {
                    int ux = x, uy = y, uz = z;
                    const int32_t ku = tess_q_grid_move(&be->grid, k, &ux, &uy, &uz, -lat->c[i][0], -lat->c[i][1],
                                                        -lat->c[i][2]);
                    const int mu = tess_q_grid_type(&be->grid, ku, ux, uy, uz);
                    if (tess_q_kind_is_wet(p->mat[mu].kind))
                        continue;
                    if (pass)
                        be->fix[at] = (tess_cpu_q_fix_t){(uint8_t)n, (uint8_t)i, (uint8_t)mu, 0};
                    at++;
                }
            }
            be->tile_wet[k] = wet;
            if (!pass)
                be->fix_start[k + 1] = at;
        }
        if (pass)
            break;
        be->fix_start[0] = 0;
        for (int32_t k = 0; k < be->ntiles; k++)
            be->fix_start[k + 1] += be->fix_start[k];
        count = be->fix_start[be->ntiles];
        if (!(be->fix = malloc((size_t)(count ? count : 1) * sizeof *be->fix)))
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory for %lld fix-up links", (long long)count);
    }
    be->nfix = count;
    return TESS_OK;
}

/* Plain tiles need no fix-up after the row pull: every node FLUID, no curved link, and every neighbour tile
 * that a link can reach (the z neighbours do not count for a flat 2D tile) present with wet nodes only. */
static void classify_tiles(tess_cpu_q_t *be)
{
    const tess_params_t *p = &be->params;
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int32_t k = 0; k < be->ntiles; k++) {
        int plain = 1;
        for (int n = 0; n < 64 && plain; n++) {
            const int64_t node = 64 * (int64_t)k + n;
            plain = p->mat[be->node_type[node]].kind == TESS_NODE_FLUID && be->node_nlink[node] == 0;
        }
        for (int s = 0; s < 27 && plain; s++) {
            if (be->ez == 1 && s / 9 != 1)
                continue;
            const int32_t t2 = be->neighbors[27 * (size_t)k + s];
            if (t2 < 0) {
                plain = 0;
                break;
            }
            for (int n = 0; n < 64 && plain; n++)
                plain = tess_q_kind_is_wet(p->mat[be->node_type[64 * (size_t)t2 + n]].kind);
        }
        be->tile_plain[k] = (uint8_t)plain;
    }
}

/* Every curved link's slot (tess_link_slots.h): they depend on which materials are wet and on the wall rule. Which
 * links are local (their values from the tile's own pull) and their rules' coefficients follow per precision
 * (cpu_q_link_coefs, cpu_q_step_t.h). A local link's reads are slots that, in the AA sweep, only its own tile's store
 * writes, after the link's value (slot d of node m is written by node m + c_d). */
static void fill_slots(tess_cpu_q_t *be)
{
    void (*fill)(const tess_params_t *, const tess_q_grid_t *, int32_t, const tess_link_t *, tess_link_slot_t *) =
        be->lattice == TESS_LATTICE_D2Q9    ? tess_link_slot_fill_d2q9_f64
        : be->lattice == TESS_LATTICE_D3Q13 ? tess_link_slot_fill_d3q13_f64
        : be->lattice == TESS_LATTICE_D3Q27 ? tess_link_slot_fill_d3q27_f64
                                            : tess_link_slot_fill_d3q19_f64;
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int32_t k = 0; k < be->ntiles; k++)
        for (int64_t l = be->tile_link[k]; l < be->tile_link[k + 1]; l++)
            fill(&be->params, &be->grid, k, &be->links[l], &be->slots[l]);
}

/* Each tile's fix-ups that a curved link of the tile overwrites (the same node and direction, slot i not
 * TESS_LINK_NONE) moved to the end of its entries, fix_end[k] where they begin: the sweeps skip their bounce-back,
 * whose value no fix-up or link reads (they read only entries whose upstream node is wet) and the link replaces.
 * The swapped store still takes every entry. Entries write distinct values, so their order changes no bit. */
static tess_status split_fixups(tess_cpu_q_t *be, tess_error_t *err)
{
    free(be->fix_end);
    be->fix_end = NULL; /* none: the sweeps take every entry */
    if (be->params.wall == TESS_WALL_BOUNCE_BACK || be->cfg.pattern == TESS_PATTERN_MR || be->ntiles <= 0 ||
        be->tile_link[be->ntiles] == 0)
        return TESS_OK;
    if (!(be->fix_end = malloc((size_t)be->ntiles * sizeof *be->fix_end)))
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the fix-up ranges");
#pragma omp parallel for schedule(dynamic, 256) num_threads(be->nthreads)
    for (int32_t k = 0; k < be->ntiles; k++) {
        const int64_t e0 = be->fix_start[k], e1 = be->fix_start[k + 1];
        be->fix_end[k] = e1;
        if (be->tile_link[k] == be->tile_link[k + 1])
            continue;
        uint32_t cov[64] = {0}; /* per node: the directions its curved links write (q <= 27) */
        for (int64_t l = be->tile_link[k]; l < be->tile_link[k + 1]; l++)
            if (be->slots[l].i != TESS_LINK_NONE)
                cov[be->slots[l].node] |= (uint32_t)1 << be->slots[l].i;
        int64_t a = e0, b = e1; /* kept entries forward from e0, covered ones backward from e1 */
        while (a < b) {
            const tess_cpu_q_fix_t fx = be->fix[a];
            if (fx.i != TESS_CPU_Q_DRY && (cov[fx.n] >> fx.i & 1u)) {
                be->fix[a] = be->fix[--b];
                be->fix[b] = fx;
            } else {
                a++;
            }
        }
        be->fix_end[k] = a;
    }
    return TESS_OK;
}

/* Each tile's curved links sorted by their rule's form, local ones first (tess_cpu_q_link_sort_key), links whose
 * rule does not apply last, each group in the links' order: the sweeps' branches on locality and form are then
 * taken the same way for runs of links, not at random (with the next tile's link lines prefetched: the quadratic bed
 * +2-3% MLUPS at the median, docs/performance-notes.md).
 * After cpu_q_link_coefs; slots, link_local and link_coef move together, links and node_link (the gathers'
 * per-node view) stay. Links write distinct entries of the tile's buffer and read none that a link writes, so
 * their order changes no bit. AB and AA only (MR keeps the links' order). */
static tess_status sort_links(tess_cpu_q_t *be, tess_error_t *err)
{
    const int64_t nl = be->ntiles > 0 ? be->tile_link[be->ntiles] : 0;
    if (be->params.wall == TESS_WALL_BOUNCE_BACK || be->cfg.pattern == TESS_PATTERN_MR || nl == 0)
        return TESS_OK;
    int64_t most = 0;
    for (int32_t k = 0; k < be->ntiles; k++)
        if (be->tile_link[k + 1] - be->tile_link[k] > most)
            most = be->tile_link[k + 1] - be->tile_link[k];
    const size_t cs = 4 * tess_precision_size(be->cfg.precision); /* one link's coefficients */
    tess_link_slot_t *ts = malloc((size_t)most * sizeof *ts);
    uint8_t *tl = malloc((size_t)most);
    char *tc = malloc((size_t)most * cs);
    if (!ts || !tl || !tc) {
        free(ts), free(tl), free(tc);
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory sorting the curved links");
    }
    for (int32_t k = 0; k < be->ntiles; k++) {
        const int64_t l0 = be->tile_link[k], n = be->tile_link[k + 1] - l0;
        if (n < 2)
            continue;
        memcpy(ts, be->slots + l0, (size_t)n * sizeof *ts);
        memcpy(tl, be->link_local + l0, (size_t)n);
        memcpy(tc, (char *)be->link_coef + l0 * cs, (size_t)n * cs);
        int64_t o = l0;
        for (int r = 0; r <= 32; r++) /* a pass per key (0-31, then 255): a tile has few links */
            for (int64_t j = 0; j < n; j++)
                if (tess_cpu_q_link_sort_key(ts[j].i, tl[j]) == (r < 32 ? r : 255)) {
                    be->slots[o] = ts[j];
                    be->link_local[o] = tl[j];
                    memcpy((char *)be->link_coef + o * cs, tc + j * cs, cs);
                    o++;
                }
    }
    free(ts), free(tl), free(tc);
    return TESS_OK;
}

static int gather_cmp(const void *a, const void *b)
{
    const tess_cpu_q_gather_t *x = a, *y = b;
    return x->src != y->src ? (x->src < y->src ? -1 : 1) : (x->dst > y->dst) - (x->dst < y->dst);
}

/* Where the previous sweep stored the population of node m (tile node index), slot j, that a step reading in
 * convention sw finds there: the writing tile (*kw) and its buffer entry (*b). A step that reads canonical follows
 * one that stored canonical, each tile its own nodes' slots from its buffer; a step that reads swapped follows one
 * that stored swapped (cpu_q_sweep: slot j of m is written by node m + c_j with its f*_opp(j) where m + c_j is wet,
 * else by m's own fix-up with its f*_j). Returns 0 where m is not wet (no such writer). */
static int push_writer(const tess_cpu_q_t *be, const tess_lattice_t *lat, int sw, int64_t m, int j, int32_t *kw,
                       uint32_t *b)
{
    const tess_params_t *p = &be->params;
    if (m < 0 || !tess_q_kind_is_wet(p->mat[be->node_type[m]].kind))
        return 0;
    const int32_t k = (int32_t)(m >> 6);
    const int n = (int)(m & 63);
    *kw = k, *b = (uint32_t)(j * 64 + n);
    if (!sw)
        return 1;
    int x = n % be->ex, y = (n / be->ex) % be->ey, z = n / (be->ex * be->ey);
    const int32_t kn = tess_q_grid_move(&be->grid, k, &x, &y, &z, lat->c[j][0], lat->c[j][1], lat->c[j][2]);
    if (tess_q_kind_is_wet(p->mat[tess_q_grid_type(&be->grid, kn, x, y, z)].kind))
        *kw = kn, *b = (uint32_t)(lat->opp[j] * 64 + tess_q_grid_local(&be->grid, x, y, z));
    return 1;
}

static int push_cmp(const void *a, const void *b)
{
    const int64_t *x = a, *y = b; /* by writing tile, then by link_val entry */
    return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[2] > y[2]) - (x[2] < y[2]);
}

/* The AA pre-pass's reads of the curved links that are not local (cpu_q_prepass: what a link's own tile cannot
 * supply in the sweep), one list per convention the step reads, sorted by where they read: in the links' order
 * every read is a miss somewhere in the populations, in address order the reads of each direction stream. The
 * same values land in the same entries of link_val, so the order changes no bit. Beside them the same reads by the
 * tile whose sweep stores the value (push_writer), for whole steps: the sweep before hands them over from its
 * buffer (the value it stores, so the same bits), and the pre-pass's reads go. */
static tess_status build_prepass_gather(tess_cpu_q_t *be, tess_error_t *err)
{
    for (int sw = 0; sw < 2; sw++) {
        free(be->pre_gather[sw]);
        free(be->push[sw]);
        free(be->push_start[sw]);
        be->pre_gather[sw] = NULL;
        be->push[sw] = NULL;
        be->push_start[sw] = NULL;
        be->npre_gather[sw] = 0;
    }
    free(be->link_alt);
    free(be->link_vbase);
    be->link_alt = NULL;
    be->link_vbase = NULL;
    be->pushed_step = -1;
    if (be->cfg.pattern != TESS_PATTERN_AA || be->params.wall == TESS_WALL_BOUNCE_BACK)
        return TESS_OK;
    const int64_t nl = be->tile_link[be->ntiles];
    /* the values of the links that are not local packed in the sweep's order (cpu_q_link_nval): fewer lines of
     * link_val to write and read than two entries for every link */
    if (!(be->link_vbase = malloc(((size_t)be->ntiles + 1) * sizeof *be->link_vbase)))
        return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the link value ranges");
    int64_t nv = 0;
    for (int32_t k = 0; k < be->ntiles; k++) {
        be->link_vbase[k] = nv;
        for (int64_t l = be->tile_link[k]; l < be->tile_link[k + 1]; l++)
            if (be->slots[l].i != TESS_LINK_NONE && !(be->link_local[l] & 1u))
                nv += tess_cpu_q_link_nval(be->link_local[l] >> 1);
    }
    be->link_vbase[be->ntiles] = nv;
    const tess_pop_layout_t pop = be->grid.pop;
    const tess_lattice_t *lat = tess_lattice_get((tess_lattice_id)be->lattice);
    const int q = be->q;
    int pushable = lat != NULL && nv <= (int64_t)UINT32_MAX;
    int64_t *wr[2] = {NULL, NULL}; /* per read: writing tile, buffer entry, link_val entry */
    for (int sw = 0; sw < 2; sw++) {
        tess_cpu_q_gather_t *ga = malloc((size_t)(2 * nl > 0 ? 2 * nl : 1) * sizeof *ga);
        wr[sw] = malloc((size_t)(2 * nl > 0 ? 2 * nl : 1) * 3 * sizeof *wr[sw]);
        if (!ga || !wr[sw]) {
            free(ga), free(wr[0]), free(wr[1]);
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the pre-pass's link reads");
        }
        int64_t n = 0, v = 0; /* reads, values */
#define ADD_READ(m_, j_, dst_)                                                                                     \
    do {                                                                                                           \
        int32_t kw_ = 0;                                                                                           \
        uint32_t b_ = 0;                                                                                           \
        pushable = pushable && push_writer(be, lat, sw, (m_), (j_), &kw_, &b_);                                    \
        wr[sw][3 * n] = kw_, wr[sw][3 * n + 1] = b_, wr[sw][3 * n + 2] = (dst_);                                   \
        ga[n++] = (tess_cpu_q_gather_t){tess_pop_index(pop, q, (m_) >> 6, (j_), (int)((m_) & 63)), (dst_)};       \
    } while (0)
        for (int32_t k = 0; k < be->ntiles; k++)
            for (int64_t l = be->tile_link[k]; l < be->tile_link[k + 1]; l++) {
                const tess_link_slot_t *sl = &be->slots[l];
                if (sl->i == TESS_LINK_NONE || (be->link_local[l] & 1u))
                    continue;
                const int form = be->link_local[l] >> 1, i = sl->i, kd = sl->kd;
                const int64_t x = 64 * (int64_t)k + sl->node, n1 = sl->n1, n2 = sl->n2;
                if (form == TESS_BOUZIDI_BEFORE2) {
                    ADD_READ(sw ? n1 : n2, sw ? i : kd, v);
                } else {
                    if (n1 / 64 != k)
                        ADD_READ(sw ? n1 : x, sw ? kd : i, v);
                    if (form == TESS_BOUZIDI_AFTER2)
                        ADD_READ(sw && n2 >= 0 ? n2 : n1, sw && n2 >= 0 ? kd : i, v + 1);
                }
                v += tess_cpu_q_link_nval(form);
            }
#undef ADD_READ
        qsort(ga, (size_t)n, sizeof *ga, gather_cmp);
        tess_cpu_q_gather_t *fit = n > 0 ? realloc(ga, (size_t)n * sizeof *ga) : NULL; /* 2 per link at most */
        be->pre_gather[sw] = fit ? fit : ga;
        be->npre_gather[sw] = n;
    }
    /* the hand-over lists: the reads of a step that reads in convention sw, by the tile of the sweep before (which
     * stores in that convention) that writes them, each tile's in link_val's order */
    if (pushable && !(be->link_alt = malloc((size_t)(nv > 0 ? nv : 1) * tess_precision_size(be->cfg.precision))))
        pushable = 0;
    for (int sw = 0; sw < 2 && pushable; sw++) {
        const int64_t n = be->npre_gather[sw];
        qsort(wr[sw], (size_t)n, 3 * sizeof *wr[sw], push_cmp); /* by tile, each tile's in link_val's order */
        if (!(be->push[sw] = malloc((size_t)(n > 0 ? n : 1) * sizeof *be->push[sw])) ||
            !(be->push_start[sw] = calloc((size_t)be->ntiles + 1, sizeof *be->push_start[sw]))) {
            pushable = 0;
            break;
        }
        for (int64_t e = 0; e < n; e++) {
            be->push_start[sw][wr[sw][3 * e] + 1]++;
            be->push[sw][e] = (tess_cpu_q_push_t){(uint32_t)wr[sw][3 * e + 2], (uint32_t)wr[sw][3 * e + 1]};
        }
        for (int32_t k = 0; k < be->ntiles; k++)
            be->push_start[sw][k + 1] += be->push_start[sw][k];
    }
    free(wr[0]), free(wr[1]);
    if (!pushable) { /* the pre-pass every step */
        for (int sw = 0; sw < 2; sw++) {
            free(be->push[sw]), free(be->push_start[sw]);
            be->push[sw] = NULL, be->push_start[sw] = NULL;
        }
        free(be->link_alt);
        be->link_alt = NULL;
    }
    return TESS_OK;
}

#define Q_DISPATCH(fn, ...)                                                                                        \
    do {                                                                                                           \
        const int single_ = be->cfg.precision == TESS_PRECISION_SINGLE;                                           \
        switch (be->lattice) {                                                                                     \
        case TESS_LATTICE_D2Q9: single_ ? fn##_d2q9_f32(__VA_ARGS__) : fn##_d2q9_f64(__VA_ARGS__); break;         \
        case TESS_LATTICE_D3Q13: single_ ? fn##_d3q13_f32(__VA_ARGS__) : fn##_d3q13_f64(__VA_ARGS__); break;      \
        case TESS_LATTICE_D3Q27: single_ ? fn##_d3q27_f32(__VA_ARGS__) : fn##_d3q27_f64(__VA_ARGS__); break;      \
        default: single_ ? fn##_d3q19_f32(__VA_ARGS__) : fn##_d3q19_f64(__VA_ARGS__); break;                      \
        }                                                                                                          \
    } while (0)

/* The canonical (tile-major) state to the engine's direction-major copy (to_engine) or back, value by value,
 * threaded over tiles. */
static void engine_convert(const tess_cpu_q_t *be, void *canon, void *engine, int to_engine)
{
    const size_t vs = tess_precision_size(be->cfg.precision);
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int32_t k = 0; k < be->ntiles; k++)
        for (int i = 0; i < be->q; i++)
            for (int n = 0; n < 64; n++) {
                char *c = (char *)canon + tess_state_index(&be->shape, k, i, n) * vs;
                char *e = (char *)engine + (size_t)tess_pop_index(be->grid.pop, be->q, k, i, n) * vs;
                if (to_engine)
                    memcpy(e, c, vs);
                else
                    memcpy(c, e, vs);
            }
}

static tess_status q_initialise(tess_backend_t *b, const tess_params_t *p, const void *pops, tess_error_t *err)
{
    tess_cpu_q_t *be = qbe(b);
    if (!be->f[0])
        return tess_fail(err, TESS_ERR_INPUT, "initialise called before upload_geometry");
    if (p->lattice != be->lattice)
        return tess_fail(err, TESS_ERR_INPUT, "the physics is for lattice %d but the tiling for lattice %d",
                         (int)p->lattice, be->lattice);
    tess_status st = tess_q_check_physics(p, err);
    if (st != TESS_OK)
        return st;
    if (be->cfg.pattern == TESS_PATTERN_MR && p->collision != TESS_COLLISION_REGULARIZED)
        return tess_fail(err, TESS_ERR_INPUT,
                         "the MR pattern stores moments and runs the regularized collision only: set collision = "
                         "regularized, or use pattern ab or aa for lbgk and mrt");
    be->params = *p;
    if ((st = find_special(be, err)) != TESS_OK || (st = build_fixups(be, err)) != TESS_OK ||
        (st = tess_cpu_fd_build(&be->fd, p, be->node_type, be->ntiles, err)) != TESS_OK)
        return st;
    classify_tiles(be);
    fill_slots(be);
    if ((st = split_fixups(be, err)) != TESS_OK)
        return st;
    if (be->cfg.pattern != TESS_PATTERN_MR)
        Q_DISPATCH(cpu_q_link_coefs, be);
    if ((st = sort_links(be, err)) != TESS_OK || (st = build_prepass_gather(be, err)) != TESS_OK)
        return st;
    be->cur = 0;
    be->nsteps_done = 0;
    if (be->cfg.pattern == TESS_PATTERN_MR) {
        tess_state_mr_convert(&be->shape, be->cfg.precision, (void *)pops, 1, be->f[0], 0, be->ntiles, 1);
        if (!be->reference)
            return tess_cpu_q_mrw_build(be, err);
        /* the reference sweep is the two-copy per-node MR (tess_q_node_step_mr_fd) */
        if (!be->f[1] && !(be->f[1] = tess_cpu_alloc(copy_bytes(be))))
            return tess_fail(err, TESS_ERR_NOMEM, "out of memory for the reference MR copy");
        memcpy(be->f[1], be->f[0], copy_bytes(be));
        return TESS_OK;
    }
    /* the engine is direction-major (tess_pop_layout.h), the canonical state tile-major: value by value,
     * threaded over tiles */
    const size_t vs = tess_precision_size(be->cfg.precision);
    const int ncopies = be->cfg.pattern == TESS_PATTERN_AA ? 1 : 2;
    const int64_t dir = be->grid.pop.dir, used = 64 * (int64_t)be->ntiles;
    for (int c = 0; c < ncopies; c++) /* the scratch tiles and the padding of every direction: defined values */
        for (int i = 0; i < be->q; i++)
            memset((char *)be->f[c] + (size_t)(i * dir + used) * vs, 0, (size_t)(dir - used) * vs);
    for (int c = 0; c < ncopies; c++)
        engine_convert(be, (void *)pops, be->f[c], 1);
    return TESS_OK;
}

void tess_cpu_q_step_tiles(tess_cpu_q_t *be, int32_t k0, int32_t k1, int part)
{
    be->grid.step = be->params.step0 + be->nsteps_done + 1; /* time-dependent inlets (tess_q_step.h) */
    if (!be->whole) /* parts of a distributed step: halo values written between steps, no hand-over */
        be->pushed_step = -1;
    if (be->fd.n && (part & TESS_CPU_Q_FIRST)) { /* the fd nodes' strain rates from the state the step starts from */
        const int mr = be->cfg.pattern == TESS_PATTERN_MR, aa = be->cfg.pattern == TESS_PATTERN_AA;
        const void *state = be->f[aa ? 0 : be->cur];
        tess_cpu_fd_prepass(&be->fd, &be->params, &be->grid, be->cfg.precision, mr ? NULL : state,
                            mr ? state : NULL, aa && (be->nsteps_done & 1) ? TESS_Q_SWAPPED : TESS_Q_CANON,
                            be->nthreads);
    }
    be->sweep_k0 = k0;
    be->sweep_k1 = k1;
    if (be->cfg.pattern == TESS_PATTERN_MR && !be->reference)
        Q_DISPATCH(cpu_q_mr_window_step, be, part);
    else
        Q_DISPATCH(cpu_q_step, be, part);
    be->sweep_k0 = 0;
    be->sweep_k1 = be->ntiles;
    if (part & TESS_CPU_Q_LAST)
        be->nsteps_done++;
}

tess_status tess_cpu_q_mr_parts(tess_cpu_q_t *be, int32_t nfirst, tess_error_t *err)
{
    if (be->cfg.pattern != TESS_PATTERN_MR || !be->mrw)
        return TESS_OK;
    return tess_cpu_q_mrw_side(be, nfirst, err);
}

void *tess_cpu_q_mr_state_next(const tess_cpu_q_t *be)
{
    return be->mrw ? be->mrw->side : NULL;
}

static tess_status q_step(tess_backend_t *b, int nsteps, tess_error_t *err)
{
    tess_cpu_q_t *be = qbe(b);
    if (!be->f[0])
        return tess_fail(err, TESS_ERR_INPUT, "step called before upload_geometry and initialise");
    be->whole = 1; /* nothing writes the populations between these steps: the sweeps hand over link values */
    for (int s = 0; s < nsteps; s++)
        tess_cpu_q_step_tiles(be, 0, be->ntiles, TESS_CPU_Q_FIRST | TESS_CPU_Q_LAST);
    be->whole = 0;
    return TESS_OK;
}

static tess_status q_download(tess_backend_t *b, void *pops, tess_error_t *err)
{
    tess_cpu_q_t *be = qbe(b);
    if (be->cfg.pattern == TESS_PATTERN_AA && (be->nsteps_done & 1))
        return tess_fail(err, TESS_ERR_UNSUPPORTED,
                         "the AA pattern holds canonical populations after even steps only (%lld steps done)",
                         (long long)be->nsteps_done);
    if (be->cfg.pattern == TESS_PATTERN_MR) {
        tess_state_mr_convert(&be->shape, be->cfg.precision, pops, 1, be->f[be->cur], 0, be->ntiles, 0);
        return TESS_OK;
    }
    engine_convert(be, pops, be->f[be->cfg.pattern == TESS_PATTERN_AA ? 0 : be->cur], 0);
    return TESS_OK;
}

void tess_cpu_q_state_slots(const tess_cpu_q_t *be, int64_t *idx, int64_t n)
{
    if (be->cfg.pattern == TESS_PATTERN_MR) /* the moments keep the plan's tile-major order */
        return;
    for (int64_t e = 0; e < n; e++) {
        const int64_t t = idx[e] / 64, k = t / be->q;
        idx[e] = tess_pop_index(be->grid.pop, be->q, k, (int)(t - k * be->q), (int)(idx[e] % 64));
    }
}

static size_t q_bytes(const tess_backend_t *b)
{
    const tess_cpu_q_t *be = (const tess_cpu_q_t *)(const void *)b;
    return be->bytes + (be->mrw ? be->mrw->bytes : 0) +
           (size_t)be->nspecial * (be->q * tess_precision_size(be->cfg.precision) + sizeof(int64_t) + 1) +
           (size_t)be->nfix * sizeof(tess_cpu_q_fix_t) +
           (be->fix_end ? (size_t)be->ntiles * sizeof(int64_t) : 0) + tess_cpu_fd_bytes(&be->fd, be->ntiles) +
           (size_t)(be->npre_gather[0] + be->npre_gather[1]) * sizeof(tess_cpu_q_gather_t) +
           (be->link_alt ? (size_t)(be->npre_gather[0] + be->npre_gather[1]) * sizeof(tess_cpu_q_push_t) +
                               2 * ((size_t)be->ntiles + 1) * sizeof(int64_t) +
                               (size_t)be->link_vbase[be->ntiles] * tess_precision_size(be->cfg.precision)
                         : 0) +
           (be->link_vbase ? ((size_t)be->ntiles + 1) * sizeof(int64_t) : 0);
}

static void q_describe(const tess_backend_t *b, char *buf, size_t len)
{
    const tess_cpu_q_t *be = (const tess_cpu_q_t *)(const void *)b;
    const tess_lattice_t *lat = tess_lattice_get((tess_lattice_id)be->lattice);
    char topo[256];
    tess_cpu_topology_summary(topo, sizeof topo);
    snprintf(buf, len, "cpu, %s, pattern %s, %d threads; %s", lat ? lat->name : "?",
             be->cfg.pattern == TESS_PATTERN_AA ? "aa" : be->cfg.pattern == TESS_PATTERN_MR
                 ? (be->reference ? "mr (moments, two copies)" : "mr (moments, one copy, sliding window)")
                 : "ab",
             be->nthreads, topo);
}

static void q_destroy(tess_backend_t *b)
{
    tess_cpu_q_t *be = qbe(b);
    if (!be)
        return;
    free(be->neighbors);
    free(be->node_type);
    free(be->corner);
    free(be->links);
    free(be->node_link);
    free(be->node_nlink);
    free(be->tile_plain);
    free(be->tile_wet);
    free(be->tile_link);
    free(be->link_val);
    free(be->slots);
    free(be->link_local);
    free(be->link_coef);
    free(be->pre_gather[0]);
    free(be->pre_gather[1]);
    free(be->push[0]);
    free(be->push[1]);
    free(be->push_start[0]);
    free(be->push_start[1]);
    free(be->link_alt);
    free(be->link_vbase);
    free(be->tile_special);
    free(be->fix);
    free(be->fix_start);
    free(be->fix_end);
    free(be->special);
    free(be->special_of_node);
    free(be->special_sweep);
    free(be->buf);
    tess_cpu_fd_free(&be->fd);
    free(be->f[0]);
    free(be->f[1]);
    tess_cpu_q_mrw_free(be->mrw);
    free(be);
}

const tess_backend_ops_t tess_cpu_q_ops = {
    .name = "cpu",
    .create = q_create,
    .upload_geometry = q_upload,
    .initialise = q_initialise,
    .step = q_step,
    .download_populations = q_download,
    .download_fields = NULL,
    .bytes_allocated = q_bytes,
    .copy_bandwidth = NULL,
    .peak_bandwidth = NULL,
    .describe = q_describe,
    .destroy = q_destroy,
};
