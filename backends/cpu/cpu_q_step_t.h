/* The loops of the CPU engine for one lattice and precision (instantiated by cpu_q.c through
 * tess_instantiate_q.h). Every node's result depends only on the state before the step, so any thread count
 * and any tile order give the same bits. */

#define R TESS_R

/* Every curved link's Bouzidi form and coefficients (tess_q_bouzidi_coefs, in this precision) and its wall term, into
 * link_coef and bits 1-3 of link_local, after fill_slots: a step then only applies the rule, with the same bits.
 * Bit 0 (local) by what the form reads (cpu_q_link_local): the halfway and the linear q < 1/2 forms read x + c_i only
 * through the tile's own pull, so they are local wherever x + c_i lies; the quadratic q < 1/2 form needs x + c_i in
 * the tile (not x + 2 c_i); the q >= 1/2 forms x + c_i and x + 2 c_i where they read them. */
void TESS_QFN(cpu_q_link_coefs)(tess_cpu_q_t *be)
{
    const int order = be->params.wall == TESS_WALL_BOUZIDI_QUADRATIC ? 2 : 1;
    R *coef = (R *)be->link_coef;
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int32_t k = 0; k < be->ntiles; k++)
        for (int64_t l = be->tile_link[k]; l < be->tile_link[k + 1]; l++) {
            const tess_link_slot_t *s = &be->slots[l];
            R *c = coef + 4 * l;
            const int form = TESS_QFN(tess_q_bouzidi_coefs)(order, (R)s->q, s->n1 >= 0, s->n2 >= 0, c);
            c[3] = sizeof(R) == 8 ? (R)s->wall64 : (R)s->wall32;
            const int in1 = s->n1 < 0 || s->n1 / 64 == k, in2 = s->n2 < 0 || s->n2 / 64 == k;
            const int local = form == TESS_BOUZIDI_HALFWAY || form == TESS_BOUZIDI_BEFORE1 ||
                              ((form == TESS_BOUZIDI_BEFORE2 || form == TESS_BOUZIDI_AFTER1) && in1) ||
                              (form == TESS_BOUZIDI_AFTER2 && in1 && in2);
            be->link_local[l] = (uint8_t)(s->i == TESS_LINK_NONE ? TESS_CPU_Q_LINK_OFF : local | form << 1);
        }
}

/* The value of curved link l of tile k from the populations f (tess_link_slot_loads) and its precomputed rule. */
static inline R TESS_QFN(cpu_q_link_value)(const tess_cpu_q_t *be, const R *f, int conv, int32_t k, int64_t l)
{
    const R *c = (const R *)be->link_coef + 4 * l;
    R v[5];
    TESS_QFN(tess_link_slot_loads)(be->params.wall == TESS_WALL_BOUZIDI_QUADRATIC ? 2 : 1, be->grid.pop, f,
                                   (const R *)0, conv, k, &be->slots[l], v);
    return TESS_QFN(tess_q_bouzidi_apply)(be->link_local[l] >> 1, c, v[0], v[1], v[2], v[3], v[4], c[3]);
}

/* Pre-pass (AA): the incoming populations of the special nodes that the sweep does not reconstruct itself
 * (tess_cpu_q_t.special_sweep) and, of the curved links that are not local, the reads that their own tile cannot
 * supply in the sweep, read before the sweep writes. */
static void TESS_QFN(cpu_q_prepass)(tess_cpu_q_t *be, const R *f, int conv, int handed)
{
    const tess_params_t *p = &be->params;
    const tess_q_grid_t *g = &be->grid;
    R *buf = (R *)be->buf;
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int64_t s = 0; s < be->nspecial; s++) {
        if (be->special_sweep[s])
            continue;
        const int64_t node = be->special[s];
        const int32_t k = (int32_t)(node / 64);
        const int n = (int)(node % 64);
        const int x = n % g->ex, y = (n / g->ex) % g->ey, z = n / (g->ex * g->ey);
        TESS_QFN(tess_q_gather_from)(p, g, f, (const R *)0, conv, k, x, y, z, be->links + be->node_link[node],
                                     be->node_nlink[node], tess_cpu_fd_strain_of(&be->fd, node), buf + s * TESS_QL_Q);
    }
    if (p->wall == TESS_WALL_BOUNCE_BACK || be->reference || handed) /* handed: the sweep before wrote them */
        return;
    /* the reads of the links that are not local, in address order (build_prepass_gather, cpu_q.c): only what a
     * link's own tile cannot supply in the sweep (cpu_q_link_local's reasoning), fb2 for the quadratic q < 1/2
     * form, fi for the q >= 1/2 forms when x + c_i is in another tile, and fi1 for the quadratic q >= 1/2 form;
     * link_val holds them packed by tile (link_vbase); this step's half (lv_now) */
    R *link_val = (R *)be->lv_now;
    const int sw = conv == TESS_Q_SWAPPED;
    const tess_cpu_q_gather_t *ga = be->pre_gather[sw];
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int64_t e = 0; e < be->npre_gather[sw]; e++)
        link_val[ga[e].dst] = f[ga[e].src];
}

/* Tile extent: 8 x 8 x 1 for D2Q9, 4 x 4 x 4 otherwise; node (x, y, z) is x + EX (y + EY z). */
#if TESS_QL_D == 2
#define CPU_Q_EX 8
#define CPU_Q_EY 8
#define CPU_Q_EZ 1
#else
#define CPU_Q_EX 4
#define CPU_Q_EY 4
#define CPU_Q_EZ 4
#endif

/* The q x 64 populations of one tile, node index fastest: structure of arrays over the tile's nodes, so that
 * the collision loop over the 64 nodes vectorises. Aligned for the streaming stores of the AB pattern. */
typedef struct {
    _Alignas(64) R f[TESS_QL_Q][64];
} TESS_QFN(cpu_q_buffer);

/* The swapped store of one row whose mask has dry nodes (bit x: node x of the row is wet): cpu_q_rows' row
 * store one value at a time. Out of line: it runs on boundary rows only. */
__attribute__((noinline)) static void TESS_QFN(cpu_q_row_masked)(R *a, R *b, const R *v, int cx, unsigned mask)
{
    for (int x = 0; x < CPU_Q_EX; x++) {
        const int xu = x - cx;
        if (mask >> x & 1u)
            *(xu < 0 ? b + xu + CPU_Q_EX : xu >= CPU_Q_EX ? b + xu - CPU_Q_EX : a + xu) = v[x];
    }
}

/* Pull by rows: a row of EX nodes (one y, z) pulls f_i from the upstream row of the tile at the same x, shifted
 * by c_ix, plus for c_ix != 0 one end value of the x-neighbour tile's row, so the pull moves runs of EX or
 * EX - 1 contiguous values. base: the 27 tiles of the neighbourhood (tess_tiling_slot order; empty ones point at
 * a scratch tile), direction i of a tile ds values after its direction 0 (tess_pop_dir_stride). write = 0: buf->f[i][n] = slot i of x - c_i (the pull of the canonical convention, the AA
 * odd step's read); write = 1: slot i of x - c_i = buf->f[opp(i)][n] (the store of the swapped convention, the
 * AA odd step's write), for the nodes whose bit is set in wet (a row whose nodes are all wet moves as a run). */
__attribute__((always_inline)) static inline void TESS_QFN(cpu_q_rows)(R *const *base, int64_t ds,
                                                                      TESS_QFN(cpu_q_buffer) *TESS_RESTRICT buf,
                                                                      int write, uint64_t wet)
{
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY, cz[TESS_QL_Q] = TESS_QL_CZ;
    const int opp[TESS_QL_Q] = TESS_QL_OPP;
    const uint64_t full = ((uint64_t)1 << CPU_Q_EX) - 1;
    TESS_UNROLL
    for (int i = 0; i < TESS_QL_Q; i++)
        TESS_UNROLL
        for (int z = 0; z < CPU_Q_EZ; z++)
            TESS_UNROLL
            for (int y = 0; y < CPU_Q_EY; y++) {
                const int zu = z - cz[i], yu = y - cy[i];
                const int sz = zu < 0 ? -1 : zu >= CPU_Q_EZ ? 1 : 0, sy = yu < 0 ? -1 : yu >= CPU_Q_EY ? 1 : 0;
                const int row = CPU_Q_EX * ((yu - CPU_Q_EY * sy) + CPU_Q_EY * (zu - CPU_Q_EZ * sz));
                const int n0 = CPU_Q_EX * (y + CPU_Q_EY * z);
                R *a = base[13 + 3 * sy + 9 * sz] + i * ds + row;
                R *b = base[13 + (cx[i] > 0 ? -1 : 1) + 3 * sy + 9 * sz] + i * ds + row;
                R *v = &buf->f[write ? opp[i] : i][n0];
                if (write && (wet >> n0 & full) != full) { /* a row with dry nodes: the wet ones, one by one */
                    TESS_QFN(cpu_q_row_masked)(a, b, v, cx[i], (unsigned)(wet >> n0 & full));
                    continue;
                }
                if (cx[i] == 0) {
                    if (write)
                        memcpy(a, v, CPU_Q_EX * sizeof(R));
                    else
                        memcpy(v, a, CPU_Q_EX * sizeof(R));
                } else if (cx[i] > 0) { /* x pulls from x - 1: b[EX - 1], a[0 .. EX - 2] */
                    if (write) {
                        b[CPU_Q_EX - 1] = v[0];
                        memcpy(a, v + 1, (CPU_Q_EX - 1) * sizeof(R));
                    } else {
                        v[0] = b[CPU_Q_EX - 1];
                        memcpy(v + 1, a, (CPU_Q_EX - 1) * sizeof(R));
                    }
                } else { /* x pulls from x + 1: a[1 .. EX - 1], b[0] */
                    if (write) {
                        memcpy(a + 1, v, (CPU_Q_EX - 1) * sizeof(R));
                        b[0] = v[CPU_Q_EX - 1];
                    } else {
                        memcpy(v, a + 1, (CPU_Q_EX - 1) * sizeof(R));
                        v[CPU_Q_EX - 1] = b[0];
                    }
                }
            }
}

/* The bulk collision of the tile's nodes n0 .. n0 + 7: the core's tess_q_collide_model with the model choices as
 * constants, so that the loop body is branch-free and the compiler vectorises it over the nodes. The same
 * function on the same values as tess_q_collide: the same bits. */
__attribute__((always_inline)) static inline void TESS_QFN(cpu_q_collide_model)(const tess_params_t *p,
                                                                               TESS_QFN(cpu_q_buffer) *buf, int n0,
                                                                               int collision, int fluid, int force)
{
    for (int n = n0; n < n0 + 8; n++) {
        R f[TESS_QL_Q];
        TESS_UNROLL
        for (int i = 0; i < TESS_QL_Q; i++)
            f[i] = buf->f[i][n];
        TESS_QFN(tess_q_collide_model)(p, collision, fluid, force, f);
        TESS_UNROLL
        for (int i = 0; i < TESS_QL_Q; i++)
            buf->f[i][n] = f[i];
    }
}

/* Every other model: node by node, the choices read at run time (not worth the compile time of a vectorised
 * copy per model and lattice). */
CPU_Q_NO_VECTORIZE static void TESS_QFN(cpu_q_collide_nodes)(
    const tess_params_t *p, TESS_QFN(cpu_q_buffer) *buf)
{
    for (int n = 0; n < 64; n++) {
        R f[TESS_QL_Q];
        for (int i = 0; i < TESS_QL_Q; i++)
            f[i] = buf->f[i][n];
        TESS_QFN(tess_q_collide)(p, f);
        for (int i = 0; i < TESS_QL_Q; i++)
            buf->f[i][n] = f[i];
    }
}

/* The cache lines of the next tile's reads that are not in the cache yet, for a prefetch while this tile
 * computes: its own q x 64 values and, when it pulls (canon: the AB step and the odd AA step), the layers of the
 * z-neighbour tiles that its pull reads for c_z != 0 and the rows it reads in tiles that no earlier tile has
 * touched: the +y neighbours (whose own sweep comes a row of tiles later) and the (x + 1, y, z +- 1) ones (the
 * -y and -x neighbours' rows were read by earlier tiles and are still in L2), and the lines of the tile after
 * it (its +x neighbour) that hold the end values of its rows with c_x < 0, less those the -y tile row's pull
 * already read: the misses of the odd step's pull that a cache simulator found left (docs/performance-notes.md,
 * "The odd step's misses"). pf: room for 16 q addresses.
 * Returns the count. */
static int TESS_QFN(cpu_q_next_lines)(const tess_cpu_q_t *be, const char *src, int32_t k, int canon, const char **pf)
{
    const int cz[TESS_QL_Q] = TESS_QL_CZ;
    const int64_t dir_bytes = tess_pop_dir_stride(be->grid.pop) * (int64_t)sizeof(R);
    const int64_t tile_bytes = tess_pop_tile_stride(be->grid.pop, TESS_QL_Q) * (int64_t)sizeof(R);
    int n = 0;
    if (k >= be->sweep_k1)
        return 0;
    for (int i = 0; i < TESS_QL_Q; i++)
        for (int64_t o = 0; o < 64 * (int64_t)sizeof(R); o += 64)
            pf[n++] = src + k * tile_bytes + i * dir_bytes + o;
    if (!canon)
        return n;
    const int32_t *nb = be->neighbors + 27 * (size_t)k;
    for (int i = 0; i < TESS_QL_Q; i++)
        if (cz[i] != 0 && nb[13 - 9 * cz[i]] >= 0) {
            const char *layer = src + nb[13 - 9 * cz[i]] * tile_bytes + i * dir_bytes +
                                (int64_t)(cz[i] > 0 ? 48 : 0) * (int64_t)sizeof(R);
            pf[n++] = layer;
            pf[n++] = layer + 64;
        }
    const int cx[TESS_QL_Q] = TESS_QL_CX, cy[TESS_QL_Q] = TESS_QL_CY;
    uint64_t ends[TESS_QL_Q] = {0}, seen[TESS_QL_Q] = {0};
    TESS_UNROLL
    for (int i = 0; i < TESS_QL_Q; i++)
        TESS_UNROLL
        for (int z = 0; z < CPU_Q_EZ; z++)
            TESS_UNROLL
            for (int y = 0; y < CPU_Q_EY; y++) { /* cpu_q_rows' upstream row and x-neighbour of row (y, z) */
                const int zu = z - cz[i], yu = y - cy[i];
                const int sz = zu < 0 ? -1 : zu >= CPU_Q_EZ ? 1 : 0, sy = yu < 0 ? -1 : yu >= CPU_Q_EY ? 1 : 0;
                const int64_t row = CPU_Q_EX * ((yu - CPU_Q_EY * sy) + CPU_Q_EY * (zu - CPU_Q_EZ * sz));
                const int sa = 13 + 3 * sy + 9 * sz, sb = 13 + (cx[i] > 0 ? -1 : 1) + 3 * sy + 9 * sz;
                if (sy > 0 && nb[sa] >= 0)
                    pf[n++] = src + nb[sa] * tile_bytes + i * dir_bytes + row * (int64_t)sizeof(R);
                if (cx[i] != 0 && (sy > 0 || (sy == 0 && sz != 0 && cx[i] < 0)) && nb[sb] >= 0)
                    pf[n++] = src + nb[sb] * tile_bytes + i * dir_bytes + row * (int64_t)sizeof(R);
                if (cx[i] < 0 && sy == 0 && sz == 0)
                    ends[i] |= (uint64_t)1 << (row * (int64_t)sizeof(R) / 64);
                if (cy[i] < 0 && y == 0 && sz == 0) /* the -y tile row's pull read the line of rows y = 0 */
                    seen[i] |= (uint64_t)1 << (CPU_Q_EX * CPU_Q_EY * zu * (int64_t)sizeof(R) / 64);
            }
    const int32_t next = nb[13 + 1]; /* the +x neighbour: the tile after k */
    if (next >= 0)
        TESS_UNROLL
        for (int i = 0; i < TESS_QL_Q; i++) /* the set bits only: a loop over all 64 cost 25% */
            for (uint64_t m = ends[i] & ~seen[i]; m; m &= m - 1)
                pf[n++] = src + next * tile_bytes + i * dir_bytes + 64 * __builtin_ctzll(m);
    return n;
}

/* The lines of tile k's curved-link lists (slots, link_local, coefficients and, with use_buf, the pre-pass values;
 * at most 48), for a prefetch during the previous tile's collision (cpu_q_collide_tile; into L1 or, with the
 * population lines, into L2): a tile's lists are a few lines each, too short for the hardware prefetcher, so their
 * first lines missed where the links began. */
static int TESS_QFN(cpu_q_next_link_lines)(const tess_cpu_q_t *be, int32_t k, int use_buf, const char **lf)
{
    if (k >= be->sweep_k1 || be->tile_link[k] == be->tile_link[k + 1])
        return 0;
    const int64_t l0 = be->tile_link[k], l1 = be->tile_link[k + 1];
    const R *coef = (const R *)be->link_coef, *val = (const R *)be->lv_now;
    const int64_t v0 = use_buf ? be->link_vbase[k] : 0, v1 = use_buf ? be->link_vbase[k + 1] : 0;
    const char *lo[4] = {(const char *)(be->slots + l0), (const char *)be->link_local + l0,
                         (const char *)(coef + 4 * l0), (const char *)(val + v0)};
    const char *hi[4] = {(const char *)(be->slots + l1), (const char *)be->link_local + l1,
                         (const char *)(coef + 4 * l1), (const char *)(val + v1)};
    int n = 0;
    for (int a = 0; a < (use_buf ? 4 : 3); a++)
        for (const char *q = (const char *)((uintptr_t)lo[a] & ~(uintptr_t)63); q < hi[a] && n < 48; q += 64)
            lf[n++] = q;
    return n;
}

/* The tile's collision. LBGK: the lines in pf (a later tile's, cpu_q_next_lines) are prefetched between
 * chunks of 8 nodes, so that memory works while the tile computes (a tile's pull otherwise loads in one burst
 * and its collision then leaves memory idle): 4-8% less CPU time per update on D3Q19 AA 128^3. With l1
 * (tess_cpu_q_t.prefetch_l1, an L1d of 48 KiB or more) the next tile's lines into L1 for writing; otherwise the
 * lines of the tile after the next into L2 for reading: the next tile's lines beside the tile and its buffer are
 * 3 x q x 64 values (29 KiB for D3Q19 FP64), which on a 32 KiB L1d evict what the tile still reads (AMD Zen 4:
 * D3Q19 AA 1.5 x faster from L2, and another 5-12% two tiles ahead; docs/performance-notes.md). The other
 * models (node by node, not measured with it) ignore pf. */
static void TESS_QFN(cpu_q_collide_tile)(const tess_params_t *p, TESS_QFN(cpu_q_buffer) *buf, const char *const *pf,
                                         int npf, int l1, const char *const *lf, int nlf)
{
#if TESS_QL_Q != 13
    /* LBGK without a body force, the common case, with the choices as constants; the other models run the
     * same function with the choices read at run time (fewer copies of the collision to compile). */
    if (p->collision == TESS_COLLISION_LBGK && !p->use_force) {
        const int per = (npf + 7) / 8, lper = (nlf + 7) / 8;
        for (int c = 0; c < 8; c++) {
            if (l1)
                for (int j = c * lper; j < nlf && j < (c + 1) * lper; j++)
                    __builtin_prefetch(lf[j], 0, 3);
            else /* into L2 as the populations (Zen 4: the quadratic bed's step 3-7% shorter in two profile pairs) */
                for (int j = c * lper; j < nlf && j < (c + 1) * lper; j++)
                    __builtin_prefetch(lf[j], 0, 2);
            if (l1)
                for (int j = c * per; j < npf && j < (c + 1) * per; j++)
                    __builtin_prefetch(pf[j], 1, 3);
            else
                for (int j = c * per; j < npf && j < (c + 1) * per; j++)
                    __builtin_prefetch(pf[j], 0, 2);
            if (p->fluid == TESS_FLUID_QUASI_COMPRESSIBLE)
                TESS_QFN(cpu_q_collide_model)(p, buf, 8 * c, TESS_COLLISION_LBGK, TESS_FLUID_QUASI_COMPRESSIBLE, 0);
            else
                TESS_QFN(cpu_q_collide_model)(p, buf, 8 * c, TESS_COLLISION_LBGK, TESS_FLUID_INCOMPRESSIBLE, 0);
        }
        return;
    }
#endif
    (void)pf, (void)npf, (void)l1, (void)lf, (void)nlf;
    TESS_QFN(cpu_q_collide_nodes)(p, buf);
}

/* A local curved link (tess_cpu_q_t.link_local) from the tile's pull: after the pull buf->f[j][m] is f*_j(m - c_j),
 * in either convention, for every wet m - c_j, so f*_kd(x + c_i) is buf->f[kd][x], f*_i(x) buf->f[i][x + c_i],
 * f*_i(x + c_i) buf->f[i][x + 2 c_i] and f*_kd(x + 2 c_i) buf->f[kd][x + c_i] (fix-ups and links write only
 * entries whose upstream node is not wet); a value whose target node is not wet is in the node's own slot of the
 * tile (self), in either convention: f*_kd(x), f*_i(x) without x + c_i, f*_i(x + c_i) without x + 2 c_i. The
 * same five values tess_link_slot_loads reads, without the index arithmetic of the direction arrays. */
static inline R TESS_QFN(cpu_q_link_local)(const TESS_QFN(cpu_q_buffer) *buf, const R *self, int64_t ds,
                                            const tess_link_slot_t *s, const R *c, int form)
{
    const int i = s->i, kd = s->kd, x = s->node, n1 = s->n1 & 63, n2 = s->n2 & 63;
    const R fb = self[kd * ds + x];
    switch (form) {
    case TESS_BOUZIDI_BEFORE2:
        return TESS_QFN(tess_q_bouzidi_apply)(form, c, fb, (R)0, buf->f[kd][x], buf->f[kd][n1], (R)0, c[3]);
    case TESS_BOUZIDI_BEFORE1:
        return TESS_QFN(tess_q_bouzidi_apply)(form, c, fb, (R)0, buf->f[kd][x], (R)0, (R)0, c[3]);
    case TESS_BOUZIDI_AFTER2: /* x + c_i is wet */
        return TESS_QFN(tess_q_bouzidi_apply)(form, c, fb, buf->f[i][n1], (R)0, (R)0,
                                              s->n2 >= 0 ? buf->f[i][n2] : self[i * ds + n1], c[3]);
    case TESS_BOUZIDI_AFTER1:
        return TESS_QFN(tess_q_bouzidi_apply)(form, c, fb, s->n1 >= 0 ? buf->f[i][n1] : self[i * ds + x], (R)0, (R)0,
                                              (R)0, c[3]);
    default:
        return TESS_QFN(tess_q_bouzidi_apply)(form, c, fb, (R)0, (R)0, (R)0, (R)0, c[3]);
    }
}

/* The local links of one form from l on (a run of the tile's links sorted by form, sort_links in cpu_q.c), while
 * link_local says so; returns where they end. With the form a constant the rule's switch folds away. */
__attribute__((always_inline)) static inline int64_t TESS_QFN(cpu_q_links_local)(
    TESS_QFN(cpu_q_buffer) *buf, const R *self, int64_t ds, const tess_link_slot_t *slots, const uint8_t *flags,
    const R *coef, int64_t l, int64_t l1, int form)
{
    for (; l < l1 && flags[l] == (unsigned)(1 | form << 1); l++) {
        const tess_link_slot_t *sl = &slots[l];
        buf->f[sl->i][sl->node] = TESS_QFN(cpu_q_link_local)(buf, self, ds, sl, coef + 4 * l, form);
    }
    return l;
}

/* The AA sweep's value of link l of tile k that is not local: from the pre-pass's values (link_val) and the tile's
 * own pull buffer. */
__attribute__((always_inline)) static inline R TESS_QFN(cpu_q_link_pre)(const TESS_QFN(cpu_q_buffer) *buf,
                                                                          const R *self, int64_t ds,
                                                                          const tess_link_slot_t *sl, const R *c,
                                                                          const R *st, int32_t k, int form)
{
    const int i = sl->i, kd = sl->kd, x = sl->node;
    const R fb = self[kd * ds + x], fb1 = buf->f[kd][x];
    if (form == TESS_BOUZIDI_BEFORE2)
        return TESS_QFN(tess_q_bouzidi_apply)(form, c, fb, (R)0, fb1, st[0], (R)0, c[3]);
    return TESS_QFN(tess_q_bouzidi_apply)(form, c, fb, sl->n1 / 64 == k ? buf->f[i][sl->n1 & 63] : st[0], fb1, (R)0,
                                         form == TESS_BOUZIDI_AFTER2 ? st[1] : (R)0, c[3]);
}

/* The AA sweep's links of one form that are not local (cpu_q_link_pre), their pre-pass values from *st on
 * (tess_cpu_q_link_nval a link; *st moves past them); returns where the run ends. */
__attribute__((always_inline)) static inline int64_t TESS_QFN(cpu_q_links_pre)(
    TESS_QFN(cpu_q_buffer) *buf, const R *self, int64_t ds, const tess_link_slot_t *slots, const uint8_t *flags,
    const R *coef, const R **st, int32_t k, int64_t l, int64_t l1, int form)
{
    const R *v = *st;
    for (; l < l1 && flags[l] == (unsigned)(form << 1); l++, v += tess_cpu_q_link_nval(form)) {
        const tess_link_slot_t *sl = &slots[l];
        buf->f[sl->i][sl->node] = TESS_QFN(cpu_q_link_pre)(buf, self, ds, sl, coef + 4 * l, v, k, form);
    }
    *st = v;
    return l;
}

/* The next step's link values that a tile's buffer holds (tess_cpu_q_push_t) into their half of link_val. Scalar:
 * GCC vectorised the loop into gathers and scatters, which Zen 4 runs slowly (a few entries a tile). */
CPU_Q_NO_VECTORIZE static void TESS_QFN(cpu_q_hand_over)(R *lnext, const tess_cpu_q_push_t *pu, int64_t n,
                                                         const TESS_QFN(cpu_q_buffer) *buf)
{
    const R *b = &buf->f[0][0];
    for (int64_t e = 0; e < n; e++)
        lnext[pu[e].dst] = b[pu[e].b];
}

/* One sweep over the tiles: every tile pulls all its links by rows without looking at node types, then a tile
 * that is not plain applies its fix-ups: the wall rule on links whose upstream node is not wet (bounce-back,
 * from the node's own slot opp(i), which holds f*_opp(i) in both conventions), a rest state on its dry nodes,
 * the curved links (from their slots, tess_link_slots.h) and, for its special nodes (inlets, outlets), the whole gather
 * (tess_q_gather_from, with the strain rate of the fd nodes from the step's pre-pass, cpu_fd.h). The 64 nodes
 * collide in one loop, and the tile is stored through conv_out. The values are those of tess_q_node_step for every
 * wet node, bit for bit (tests/lattice/test_q_tiles.c). D3Q19's Zou-He plane nodes (tess_cpu_q_t.special_sweep)
 * take the pull, fix-ups and curved links of any node and then their reconstruction (tess_q_zou_he_plane), which
 * reads only the node's own pulled populations. AB: src != dst, both canonical. AA: src == dst; use_buf:
 * the other special nodes and the reads of the curved links that are not local (tess_cpu_q_t.link_local) that
 * their tile cannot supply come from the pre-pass (read before anything is written). */
static void TESS_QFN(cpu_q_sweep)(tess_cpu_q_t *be, const R *src, R *dst, int conv_in, int conv_out, int use_buf)
{
    const tess_params_t *p = &be->params;
    const tess_q_grid_t *g = &be->grid;
    const int opp[TESS_QL_Q] = TESS_QL_OPP, w[TESS_QL_Q] = TESS_QL_W;
    const int curved = p->wall != TESS_WALL_BOUNCE_BACK;
    const R *pre = (const R *)be->buf, *link_val = (const R *)be->lv_now, *coef = (const R *)be->link_coef;
    const tess_link_slot_t *slots = be->slots;
    /* AA, whole steps: the next step's link values that this sweep's stores write (build_prepass_gather) */
    R *const lnext = use_buf ? (R *)be->lv_next : NULL;
    const tess_cpu_q_push_t *const pu = lnext ? be->push[conv_out == TESS_Q_SWAPPED] : NULL;
    const int64_t *const pus = lnext ? be->push_start[conv_out == TESS_Q_SWAPPED] : NULL;
    /* populations direction-major (cpu_q.h): tile k's direction i at k * ts + i * ds */
    const int64_t ts = tess_pop_tile_stride(g->pop, TESS_QL_Q), ds = tess_pop_dir_stride(g->pop);
#pragma omp parallel num_threads(be->nthreads)
    {
        TESS_QFN(cpu_q_buffer) buf;
#ifdef _OPENMP
        const int64_t scratch = be->ntiles + omp_get_thread_num(); /* where links from empty tiles read and write */
#else
        const int64_t scratch = be->ntiles;
#endif
#pragma omp for schedule(static)
        for (int32_t k = be->sweep_k0; k < be->sweep_k1; k++) {
            const int32_t *nb = be->neighbors + 27 * (size_t)k;
            R *base[27];
            for (int s = 0; s < 27; s++)
                base[s] = (R *)(uintptr_t)src + (nb[s] >= 0 ? nb[s] : scratch) * ts;
            const R *self = src + k * ts;
            if (conv_in == TESS_Q_CANON)
                TESS_QFN(cpu_q_rows)(base, ds, &buf, 0, ~(uint64_t)0);
            else /* swapped: every population already sits at the node, in the opposite slot */
                TESS_UNROLL
                for (int i = 0; i < TESS_QL_Q; i++)
                    memcpy(buf.f[i], self + opp[i] * ds, 64 * sizeof(R));
            const int plain = be->tile_plain[k];
            if (!plain) { /* the fix-ups that no curved link overwrites (split_fixups, cpu_q.c) */
                const int64_t fe = be->fix_end ? be->fix_end[k] : be->fix_start[k + 1];
                for (int64_t e = be->fix_start[k]; e < fe; e++) {
                    const tess_cpu_q_fix_t fx = be->fix[e];
                    if (fx.i == TESS_CPU_Q_DRY) {
                        for (int i = 0; i < TESS_QL_Q; i++)
                            buf.f[i][fx.n] = (R)w[i] / (R)TESS_QL_WDEN;
                    } else {
                        buf.f[fx.i][fx.n] =
                            TESS_QFN(tess_q_bounce_back)(fx.i, self[opp[fx.i] * ds + fx.n], &p->mat[fx.mat]);
                    }
                }
                int64_t l = be->tile_link[k];
                const int64_t l1 = be->tile_link[k + 1];
                const R *st = link_val; /* AA: the next pre-pass value (link_vbase) */
                if (curved) { /* runs of one form (sort_links, cpu_q.c), each loop with its form a constant */
                    const uint8_t *lk = be->link_local;
                    l = TESS_QFN(cpu_q_links_local)(&buf, self, ds, slots, lk, coef, l, l1, TESS_BOUZIDI_HALFWAY);
                    l = TESS_QFN(cpu_q_links_local)(&buf, self, ds, slots, lk, coef, l, l1, TESS_BOUZIDI_BEFORE1);
                    l = TESS_QFN(cpu_q_links_local)(&buf, self, ds, slots, lk, coef, l, l1, TESS_BOUZIDI_BEFORE2);
                    l = TESS_QFN(cpu_q_links_local)(&buf, self, ds, slots, lk, coef, l, l1, TESS_BOUZIDI_AFTER1);
                    l = TESS_QFN(cpu_q_links_local)(&buf, self, ds, slots, lk, coef, l, l1, TESS_BOUZIDI_AFTER2);
                    if (use_buf) { /* the tile's values packed from link_vbase[k], in this order */
                        st = link_val + be->link_vbase[k];
                        l = TESS_QFN(cpu_q_links_pre)(&buf, self, ds, slots, lk, coef, &st, k, l, l1, TESS_BOUZIDI_BEFORE2);
                        l = TESS_QFN(cpu_q_links_pre)(&buf, self, ds, slots, lk, coef, &st, k, l, l1, TESS_BOUZIDI_AFTER1);
                        l = TESS_QFN(cpu_q_links_pre)(&buf, self, ds, slots, lk, coef, &st, k, l, l1, TESS_BOUZIDI_AFTER2);
                    }
                }
                if (curved) /* what the runs left: AB's links that are not local, links whose rule does not apply */
                    for (; l < l1; l++) {
                        const tess_link_slot_t *sl = &slots[l];
                        if (sl->i == TESS_LINK_NONE)
                            continue;
                        const unsigned flags = be->link_local[l];
                        R v;
                        if (flags & 1u)
                            v = TESS_QFN(cpu_q_link_local)(&buf, self, ds, sl, coef + 4 * l, (int)(flags >> 1));
                        else if (use_buf) { /* the pre-pass's values and the tile's own */
                            v = TESS_QFN(cpu_q_link_pre)(&buf, self, ds, sl, coef + 4 * l, st, k, (int)(flags >> 1));
                            st += tess_cpu_q_link_nval((int)(flags >> 1));
                        }
                        else
                            v = TESS_QFN(cpu_q_link_value)(be, src, conv_in, k, l);
                        buf.f[sl->i][sl->node] = v;
                    }
                for (int64_t s = be->tile_special[k]; s < be->tile_special[k + 1]; s++) {
                    const int64_t node = be->special[s];
                    const int n = (int)(node % 64);
                    R fl[TESS_QL_Q];
                    if (be->special_sweep[s]) { /* a Zou-He plane: on the node's pull, fix-ups and links */
                        for (int i = 0; i < TESS_QL_Q; i++)
                            fl[i] = buf.f[i][n];
#if TESS_QL_IS_D3Q19
                        TESS_QFN(tess_q_zou_he_plane)(p, &p->mat[g->node_type[node]], g->step, fl);
#endif
                    } else if (use_buf) {
                        for (int i = 0; i < TESS_QL_Q; i++)
                            fl[i] = pre[s * TESS_QL_Q + i];
                    } else {
                        const int x = n % CPU_Q_EX, y = (n / CPU_Q_EX) % CPU_Q_EY, z = n / (CPU_Q_EX * CPU_Q_EY);
                        TESS_QFN(tess_q_gather_from)(p, g, src, (const R *)0, conv_in, k, x, y, z,
                                                     be->links + be->node_link[node], be->node_nlink[node],
                                                     tess_cpu_fd_strain_of(&be->fd, node), fl);
                    }
                    for (int i = 0; i < TESS_QL_Q; i++)
                        buf.f[i][n] = fl[i];
                }
            }
            /* into L1 the next tile's lines, into L2 those of the tile after it (cpu_q_collide_tile) */
            const char *pf[16 * TESS_QL_Q];
            const int npf = p->collision == TESS_COLLISION_LBGK && !p->use_force
                                ? TESS_QFN(cpu_q_next_lines)(be, (const char *)src, k + (be->prefetch_l1 ? 1 : 2),
                                                             conv_in == TESS_Q_CANON, pf)
                                : 0;
            const char *lf[48];
            const int nlf = curved ? TESS_QFN(cpu_q_next_link_lines)(be, k + 1, use_buf, lf) : 0;
            TESS_QFN(cpu_q_collide_tile)(p, &buf, pf, npf, be->prefetch_l1, lf, nlf);
            if (lnext && pus[k] < pus[k + 1]) /* the values this tile stores that the next step's links read */
                TESS_QFN(cpu_q_hand_over)(lnext, pu + pus[k], pus[k + 1] - pus[k], &buf);
            R *out = dst + k * ts;
            if (conv_out == TESS_Q_CANON) {
                if (src != dst) /* AB: the whole tile, no write-allocate */
                    TESS_UNROLL
                    for (int i = 0; i < TESS_QL_Q; i++)
                        tess_cpu_stream_copy(out + i * ds, buf.f[i], sizeof buf.f[i]);
                else
                    TESS_UNROLL
                    for (int i = 0; i < TESS_QL_Q; i++)
                        memcpy(out + i * ds, buf.f[i], sizeof buf.f[i]);
                continue;
            }
            /* swapped: f*_j goes to slot opp(j) of x + c_j when that node is wet, else to slot j of x (the
             * fix-up links: x + c_j = x - c_i with j = opp(i)). Dry nodes write nothing: a slot of theirs may
             * be a wet neighbour's own slot. */
            TESS_QFN(cpu_q_rows)(base, ds, &buf, 1, be->tile_wet[k]);
            if (!plain)
                for (int64_t e = be->fix_start[k]; e < be->fix_start[k + 1]; e++) {
                    const tess_cpu_q_fix_t fx = be->fix[e];
                    if (fx.i != TESS_CPU_Q_DRY)
                        out[opp[fx.i] * ds + fx.n] = buf.f[opp[fx.i]][fx.n];
                }
        }
        if (src != dst)
            tess_cpu_stream_fence(); /* streamed stores visible before the next step reads them */
    }
}

/* The reference sweep (be->reference, for the tests): every wet node through the full per-node function. */
static void TESS_QFN(cpu_q_sweep_nodes)(tess_cpu_q_t *be, const R *src, R *dst, int conv_in, int conv_out, int use_buf)
{
    const tess_params_t *p = &be->params;
    const tess_q_grid_t *g = &be->grid;
    const R *buf = (const R *)be->buf;
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int32_t k = be->sweep_k0; k < be->sweep_k1; k++)
        for (int n = 0; n < 64; n++) {
            const int64_t node = 64 * (int64_t)k + n;
            if (!tess_q_kind_is_wet(p->mat[g->node_type[node]].kind))
                continue;
            const int x = n % g->ex, y = (n / g->ex) % g->ey, z = n / (g->ex * g->ey);
            R fl[TESS_QL_Q];
            const int32_t s = use_buf ? be->special_of_node[node] : -1;
            if (s >= 0) {
                for (int i = 0; i < TESS_QL_Q; i++)
                    fl[i] = buf[(int64_t)s * TESS_QL_Q + i];
                TESS_QFN(tess_q_collide)(p, fl);
            } else {
                TESS_QFN(tess_q_node_step_fd)(p, g, src, conv_in, k, x, y, z, be->links + be->node_link[node],
                                              be->node_nlink[node], tess_cpu_fd_strain_of(&be->fd, node), fl);
            }
            for (int i = 0; i < TESS_QL_Q; i++)
                dst[TESS_QFN(tess_q_slot)(g, p, conv_out, k, x, y, z, i)] = fl[i];
        }
}

/* Moment representation (pattern mr): two copies of the stored moments (tess_q_mr_store's layout); every wet
 * node gathers through the rebuilt populations of the old copy and stores its collided moments in the new one.
 * D3Q13 has no regularized collision, so no MR (initialise refuses it before a step). */
static void TESS_QFN(cpu_q_sweep_mr)(tess_cpu_q_t *be, const R *src, R *dst)
{
#if TESS_QL_Q != 13
    const tess_params_t *p = &be->params;
    const tess_q_grid_t *g = &be->grid;
#pragma omp parallel for schedule(static) num_threads(be->nthreads)
    for (int32_t k = 0; k < be->ntiles; k++)
        for (int n = 0; n < 64; n++) {
            const int64_t node = 64 * (int64_t)k + n;
            if (!tess_q_kind_is_wet(p->mat[g->node_type[node]].kind))
                continue;
            const int x = n % g->ex, y = (n / g->ex) % g->ey, z = n / (g->ex * g->ey);
            R m[TESS_MR_NM];
            TESS_QFN(tess_q_node_step_mr_fd)(p, g, src, k, x, y, z, be->links + be->node_link[node],
                                             be->node_nlink[node], tess_cpu_fd_strain_of(&be->fd, node), m);
            TESS_QFN(tess_q_mr_store)(dst, k, n, m);
        }
#else
    (void)be, (void)src, (void)dst;
#endif
}

/* One step, or a part of one over the tiles [be->sweep_k0, be->sweep_k1) (part: TESS_CPU_Q_FIRST runs the AA
 * pre-pass, TESS_CPU_Q_LAST swaps the AB copies; tess_cpu_q_step_tiles). */
void TESS_QFN(cpu_q_step)(tess_cpu_q_t *be, int part)
{
    if (be->cfg.pattern == TESS_PATTERN_MR) { /* every tile, with the step's last part */
        if (!(part & TESS_CPU_Q_LAST))
            return;
        TESS_QFN(cpu_q_sweep_mr)(be, (const R *)be->f[be->cur], (R *)be->f[1 - be->cur]);
        be->cur = 1 - be->cur;
        return;
    }
    be->lv_now = be->link_val; /* AA sets its half below */
    be->lv_next = NULL;
    void (*sweep)(tess_cpu_q_t *, const R *, R *, int, int, int) =
        be->reference ? TESS_QFN(cpu_q_sweep_nodes) : TESS_QFN(cpu_q_sweep);
    if (be->cfg.pattern == TESS_PATTERN_AB) {
        sweep(be, (const R *)be->f[be->cur], (R *)be->f[1 - be->cur], TESS_Q_CANON, TESS_Q_CANON, 0);
        if (part & TESS_CPU_Q_LAST)
            be->cur = 1 - be->cur;
        return;
    }
    /* AA: odd steps read canonical and write swapped, even steps the reverse, in place. */
    const int odd = (be->nsteps_done & 1) == 0;
    const int conv_in = odd ? TESS_Q_CANON : TESS_Q_SWAPPED, conv_out = odd ? TESS_Q_SWAPPED : TESS_Q_CANON;
    R *f = (R *)be->f[0];
    /* link_val's halves alternate where the sweeps hand over the next step's link values (link_alt): a whole step
     * (q_step, every tile) writes the other half, and the next step's pre-pass then has no links to read */
    const int h = be->link_alt && (be->nsteps_done & 1);
    be->lv_now = h ? be->link_alt : be->link_val;
    be->lv_next = be->link_alt && be->whole && !be->reference && part == (TESS_CPU_Q_FIRST | TESS_CPU_Q_LAST) &&
                          be->sweep_k0 == 0 && be->sweep_k1 == be->ntiles
                      ? (h ? be->link_val : be->link_alt)
                      : NULL;
    if (part & TESS_CPU_Q_FIRST)
        TESS_QFN(cpu_q_prepass)(be, f, conv_in, be->pushed_step == be->nsteps_done);
    sweep(be, f, f, conv_in, conv_out, 1);
    if (part & TESS_CPU_Q_LAST)
        be->pushed_step = be->lv_next ? be->nsteps_done + 1 : -1;
}

#undef CPU_Q_EX
#undef CPU_Q_EY
#undef CPU_Q_EZ
#undef R
