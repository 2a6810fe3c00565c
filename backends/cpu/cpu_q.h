/* The CPU engine (docs/architecture.md, "The engine"): AB, AA and MR over tiles for every lattice, collision and
 * boundary (halfway and moving walls, Bouzidi curved walls, Zou-He, finite-difference and extrapolated inlets and
 * outlets of any orientation). The physics of a node is core/tess_q_step.h; this engine is only the loops. The
 * CPU table (cpu_pattern.c) runs every instance here. */
#ifndef TESS_CPU_Q_H
#define TESS_CPU_Q_H

#include "cpu_fd.h"
#include "tess_backend.h"
#include "tess_link_slots.h"
#include "tess_q_step.h"

/* One fix-up of a tile: node n's incoming direction i takes the wall rule of material mat (its upstream node x -
 * c_i is not wet), or, with i = TESS_CPU_Q_DRY, node n is not wet. */
enum { TESS_CPU_Q_DRY = 0xff };
typedef struct {
    uint8_t n, i, mat, pad;
} tess_cpu_q_fix_t;

/* One read of the AA pre-pass: link_val[dst] = f[src] (build_prepass_gather, cpu_q.c). */
typedef struct {
    int64_t src; /* index into the populations */
    int64_t dst; /* index into link_val */
} tess_cpu_q_gather_t;

/* One value a tile's AA sweep hands to the next step's links (build_prepass_gather, cpu_q.c): entry b (j * 64 + n)
 * of the tile's collided buffer, which the sweep stores where the next step's pre-pass would read it, into entry
 * dst of the next step's half of link_val. */
typedef struct {
    uint32_t dst; /* index into link_val's other half */
    uint32_t b;   /* j * 64 + n in the tile's buffer */
} tess_cpu_q_push_t;

typedef struct tess_cpu_q {
    tess_backend_config_t cfg; /* first member */
    tess_params_t params;
    int nthreads;
    int lattice, q, ex, ey, ez;
    int32_t ntiles;
    int32_t *neighbors;       /* 27 per tile */
    uint8_t *node_type;       /* 64 per tile, local order */
    int32_t *corner;          /* 3 per tile: box coordinates of the tile's first node */
    tess_q_grid_t grid;       /* views of the three arrays above; grid.pop: where f holds the populations */
    tess_link_t *links;       /* the tiling's curved-wall links, sorted by tile and node */
    int64_t *node_link;       /* per tile node: first link (index into links) */
    uint8_t *node_nlink;      /* per tile node: number of links */
    /* Nodes whose pull reads beyond the AA pattern's own slots (curved links, extrapolated inlets/outlets):
     * the AA pattern gathers them in a pre-pass into buf before the sweep overwrites anything. */
    int64_t nspecial;
    int64_t *special;         /* tile node indices */
    int32_t *special_of_node; /* per tile node: index into special, or -1 */
    void *buf;                /* nspecial * q gathered populations */
    int64_t *tile_special;    /* per tile: first entry of special (ntiles + 1 entries) */
    uint8_t *tile_plain;      /* per tile: fluid nodes only and a wet reachable neighbourhood (no fix-ups) */
    /* Fix-ups of the tile sweep (cpu_q_step_t.h): after the unconditional row pull of a tile that is not plain,
     * the links whose upstream node is not wet take the wall rule, dry nodes take a rest state. */
    uint64_t *tile_wet;       /* per tile: bit n set when node n is wet */
    int64_t *fix_start;       /* per tile: first entry of fix (ntiles + 1 entries) */
    int64_t *fix_end;         /* with curved links (AB, AA; else NULL) per tile: end of the entries the sweeps
                               * apply before the collision; the rest, up to fix_start[k + 1], are links that a curved
                               * link of the tile overwrites (split_fixups, cpu_q.c): only the swapped store reads them */
    tess_cpu_q_fix_t *fix;
    int64_t nfix;
    uint8_t *special_sweep;   /* per special node: 1 for a D3Q19 Zou-He plane node, which the AB and AA sweeps
                               * reconstruct from the tile's own pull, fix-ups and curved links (its pull reads only
                               * slots that its own tile writes), not from the whole gather of the pre-pass */
    int64_t *tile_link;       /* per tile: first curved link (index into links; ntiles + 1 entries) */
    tess_link_slot_t *slots;  /* per curved link: where its rule reads, filled at initialise in the links' order;
                               * AB and AA then sort each tile's range by locality and form (sort_links, cpu_q.c),
                               * with link_local and link_coef, so that slot l is no longer link l there */
    uint8_t *link_local;      /* per curved link: bit 0 set when every slot it reads is its own tile's and is
                               * written by that tile only (x + c_i and x + 2 c_i in the tile): the sweeps take its
                               * values from the tile's pull buffer (AA: not in the pre-pass); bits 1-3: the form
                               * of its Bouzidi rule (tess_q_bouzidi_coefs) */
    void *link_coef;          /* per curved link: its rule's three coefficients and its wall term (4 R), computed
                               * at initialise (tess_q_bouzidi_coefs), so that a step only applies the rule */
    void *link_val;           /* two R per curved link: AA, the pre-pass's reads of the links that are not local (those
                               * their own tile cannot supply, cpu_q_prepass), packed from link_vbase[k] for tile k's,
                               * one value a link in the sweep's order (two for the AFTER2 form); MR, the link's value */
    int64_t *link_vbase;      /* AA with curved links: per tile (ntiles + 1) its first entry of link_val */
    tess_cpu_q_gather_t *pre_gather[2]; /* AA: the pre-pass's reads into link_val for a step that reads canonical
                                         * [0] or swapped [1], sorted by source (build_prepass_gather) */
    int64_t npre_gather[2];
    /* AA, whole steps (q_step): each tile's sweep writes the values that the next step's pre-pass would read into
     * the other half of link_val (link_alt), from its buffer, so that the next step skips the pre-pass's scattered
     * reads. push[c]: the entries for a sweep that stores canonical [0] or swapped [1], by writing tile
     * (push_start, ntiles + 1); NULL where some read has no single writer (the pre-pass then runs every step). */
    tess_cpu_q_push_t *push[2];
    int64_t *push_start[2];
    void *link_alt;           /* the second half of link_val (2 R per link) with push; the step's halves alternate */
    void *lv_now, *lv_next;   /* this step's half of link_val (read by its sweep) and the half it writes, or NULL */
    int whole;                /* 1 while q_step runs whole steps (no distributed parts, no halo writes between) */
    int64_t pushed_step;      /* the step (nsteps_done) whose link values the previous sweep wrote, else -1 */
    tess_cpu_fd_t fd;         /* finite-difference inlet/outlet nodes and their strain rates (pre-pass per step) */
    int reference;            /* tests: every tile through the full per-node function (tess_q_node_step) */
    tess_tiling_t shape;      /* lattice, q and extent only: for tess_state_index */
    /* AB: two copies; AA and MR: f[0] only (MR's reference sweep: two). AB and AA: populations direction-major
     * (grid.pop, tess_pop_layout.h) over ntiles + nthreads tiles: tile ntiles + t is thread t's scratch tile, where
     * the row pull of a tile reads and writes for an empty neighbour (the values are always fixed up). MR:
     * moments, tess_q_mr_store's layout. */
    void *f[2];
    struct tess_cpu_q_mrw *mrw; /* MR: the sliding window (cpu_q_mr_window.h) */
    int cur;                  /* AB: the copy holding the state */
    int64_t nsteps_done;      /* AA: odd means the copy is in the swapped convention */
    size_t bytes;
    int32_t sweep_k0, sweep_k1; /* the tiles a sweep updates (tess_cpu_q_step_tiles; all of them otherwise) */
    int prefetch_l1;          /* 1: the next tile's lines into L1; 0: the tile after it into L2. L1 only where the
                               * L1d holds 48 KiB or more: on a 32 KiB L1d they evict the tile and its buffer
                               * (cpu_q_collide_tile) */
} tess_cpu_q_t;

/* link_local of a link whose rule does not apply (slot i TESS_LINK_NONE): no form's loop in the sweeps takes it */
enum { TESS_CPU_Q_LINK_OFF = 0xfe };

/* The order of a tile's curved links in the AB and AA sweeps (sort_links, cpu_q.c): local links (link_local bit 0)
 * by form, then the others by form, then those whose rule does not apply (slot i TESS_LINK_NONE). */
static inline int tess_cpu_q_link_sort_key(unsigned i, unsigned local)
{
    return i == TESS_LINK_NONE ? 255 : (local & 1u ? 0 : 16) + (int)(local >> 1);
}

/* The AA pre-pass's values of a link that is not local, by its form (cpu_q_link_pre): f*_kd(x + 2 c_i) for the
 * quadratic q < 1/2 form, f*_i(x) for the linear q >= 1/2 one, and f*_i(x + c_i) as well for the quadratic one. */
static inline int tess_cpu_q_link_nval(int form)
{
    return form == TESS_BOUZIDI_AFTER2 ? 2 : 1;
}

extern const tess_backend_ops_t tess_cpu_q_ops;

/* One step over the tiles [k0, k1) only, for the distributed run (cpu_dist.c: boundary tiles, then interior
 * tiles while the halo messages travel; the halo tiles are never updated). TESS_CPU_Q_FIRST runs the step's
 * pre-passes (over every tile), TESS_CPU_Q_LAST completes it (AB: the copies swap; the step is counted). The parts
 * of one step must cover each updated tile once. MR (the sliding window): a part before the last writes its
 * tiles' new moments aside (tess_cpu_q_mr_parts; its tiles below the count given there), the last part in place,
 * then copies them back; the two-copy reference MR steps every tile at once. */
enum { TESS_CPU_Q_FIRST = 1, TESS_CPU_Q_LAST = 2 };
void tess_cpu_q_step_tiles(tess_cpu_q_t *be, int32_t k0, int32_t k1, int part);

/* MR in parts: room for the new moments of the tiles [0, nfirst), which a step's parts before the last may update
 * (the distributed run's boundary tiles); tess_cpu_q_mr_state_next then holds them between the parts. Nothing for
 * the other patterns. After upload_geometry. Errors: TESS_ERR_NOMEM. */
tess_status tess_cpu_q_mr_parts(tess_cpu_q_t *be, int32_t nfirst, tess_error_t *err);
/* MR: where the tiles [0, nfirst) of tess_cpu_q_mr_parts have their new moments between a step's parts (the
 * moments' layout; NULL without it). */
void *tess_cpu_q_mr_state_next(const tess_cpu_q_t *be);

/* The engine's state index of a slot of the halo plan (tile-major, core/tess_halo_plan.h), in place over n of them:
 * the distributed driver's pack and unpack lists (tess_dist_engine_t.state_slots). */
void tess_cpu_q_state_slots(const tess_cpu_q_t *be, int64_t *idx, int64_t n);

/* 64-byte aligned memory (cpu_pattern.c), released with free. */
void *tess_cpu_alloc(size_t bytes);

#endif
