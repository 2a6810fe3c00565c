/* One AB time step over the non-empty tiles, in one precision. Included by cpu_ab.c once per precision
 * with TESS_R and TESS_FN defined (see core/tess_physics.h).
 *
 * Per tile: gather (pull) the 19 x 64 populations into a node-aligned buffer, applying bounce-back for
 * links from solid nodes; reconstruct Zou-He boundary nodes; collide all 64 nodes in one SIMD loop over
 * the core's per-node function; store into the other copy in the per-direction layouts. */

#define R TESS_R

typedef struct {
    R f[19][64];
} TESS_FN(cpu_tile_buffer);

/* Collides the 64 nodes of a tile buffer in one SIMD loop. The boundary reconstruction is already done, so
 * every node runs the bulk update; the model is passed as constants so that each loop body is branch-free. */
__attribute__((always_inline)) static inline void TESS_FN(cpu_collide_tile_model)(const tess_params_t *p,
                                                                               TESS_FN(cpu_tile_buffer) *buf,
                                                                               int collision, int fluid, int force)
{
    /* No `omp simd` here: GCC turns f[] into a per-lane array it cannot vectorise; the auto-vectoriser
     * handles the loop once everything is inlined and unrolled. */
    for (int n = 0; n < 64; n++) {
        R f[19];
        TESS_UNROLL
        for (int i = 0; i < 19; i++)
            f[i] = buf->f[i][n];
        TESS_FN(tess_collide_model)(p, collision, fluid, force, f);
        TESS_UNROLL
        for (int i = 0; i < 19; i++)
            buf->f[i][n] = f[i];
    }
}

static void TESS_FN(cpu_collide_tile)(const tess_params_t *p, TESS_FN(cpu_tile_buffer) *buf)
{
    const int quasi = p->fluid == TESS_FLUID_QUASI_COMPRESSIBLE, force = p->use_force != 0;
#define TESS_CPU_MODEL(c, q, fo)                                                                              \
    TESS_FN(cpu_collide_tile_model)(p, buf, c, q ? TESS_FLUID_QUASI_COMPRESSIBLE : TESS_FLUID_INCOMPRESSIBLE, fo)
    switch (p->collision * 4 + quasi * 2 + force) {
    case 0: TESS_CPU_MODEL(TESS_COLLISION_LBGK, 0, 0); break;
    case 1: TESS_CPU_MODEL(TESS_COLLISION_LBGK, 0, 1); break;
    case 2: TESS_CPU_MODEL(TESS_COLLISION_LBGK, 1, 0); break;
    case 3: TESS_CPU_MODEL(TESS_COLLISION_LBGK, 1, 1); break;
    case 4: TESS_CPU_MODEL(TESS_COLLISION_MRT, 0, 0); break;
    case 5: TESS_CPU_MODEL(TESS_COLLISION_MRT, 0, 1); break;
    case 6: TESS_CPU_MODEL(TESS_COLLISION_MRT, 1, 0); break;
    default: TESS_CPU_MODEL(TESS_COLLISION_MRT, 1, 1); break;
    }
#undef TESS_CPU_MODEL
}

static void TESS_FN(cpu_ab_tile)(const tess_backend_t *be, int32_t k, const R *TESS_RESTRICT src,
                                 R *TESS_RESTRICT dst, TESS_FN(cpu_tile_buffer) *buf)
{
    const tess_cpu_gather_table_t *g = &be->table;
    const int32_t *nb = be->neighbors + 27 * (size_t)k;
    const uint8_t *types = be->node_type + 64 * (size_t)k;
    const tess_params_t *p = &be->params;
    const R *self = src + (size_t)k * 19 * 64;

    if (be->tile_plain[k]) {
        /* Every node of the tile and of its neighbourhood is plain fluid: no type checks. */
        for (int i = 0; i < 19; i++) {
            const uint8_t *slot = g->src_slot[i];
            const uint16_t *off = g->src_off[i];
            for (int n = 0; n < 64; n++)
                buf->f[i][n] = src[((size_t)nb[slot[n]] * 19 + i) * 64 + off[n]];
        }
    } else {
        for (int i = 0; i < 19; i++) {
            const int opp = TESS_D3Q19_OPP(i);
            for (int n = 0; n < 64; n++) {
                if (!be->wet[types[n]]) {
                    buf->f[i][n] = (R)be->rest_w[i]; /* solid nodes in the tile: harmless rest state */
                    continue;
                }
                const int32_t t2 = nb[g->src_slot[i][n]];
                const uint8_t st = t2 < 0 ? 0 : be->node_type[64 * (size_t)t2 + g->src_xyz[i][n]];
                if (be->wet[st])
                    buf->f[i][n] = src[((size_t)t2 * 19 + i) * 64 + g->src_off[i][n]];
                else
                    buf->f[i][n] = TESS_FN(tess_bounce_back)(i, self[(size_t)opp * 64 + g->self_opp[i][n]], &p->mat[st]);
            }
        }
        if (be->tile_has_open[k]) {
            for (int n = 0; n < 64; n++) {
                const tess_material_t *m = &p->mat[types[n]];
                if (m->kind == TESS_NODE_VELOCITY || m->kind == TESS_NODE_PRESSURE) {
                    R f[19];
                    for (int i = 0; i < 19; i++)
                        f[i] = buf->f[i][n];
                    TESS_FN(tess_zou_he)(p, m, f);
                    for (int i = 0; i < 19; i++)
                        buf->f[i][n] = f[i];
                }
            }
        }
    }

    TESS_FN(cpu_collide_tile)(p, buf);

    R *out = dst + (size_t)k * 19 * 64;
    for (int i = 0; i < 19; i++) {
        const uint16_t *off = g->dst_off[i];
        R *blk = out + (size_t)i * 64;
        for (int n = 0; n < 64; n++)
            blk[off[n]] = buf->f[i][n];
    }
}

static void TESS_FN(cpu_ab_step)(tess_backend_t *be)
{
    const R *src = (const R *)be->f[be->cur];
    R *dst = (R *)be->f[1 - be->cur];
    const int32_t ntiles = be->ntiles;
#pragma omp parallel num_threads(be->nthreads)
    {
        TESS_FN(cpu_tile_buffer) buf;
#pragma omp for schedule(static)
        for (int32_t k = 0; k < ntiles; k++)
            TESS_FN(cpu_ab_tile)(be, k, src, dst, &buf);
    }
    be->cur = 1 - be->cur;
}

#undef R
