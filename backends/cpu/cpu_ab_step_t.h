/* One AB time step over the non-empty tiles, in one precision. Included by cpu_ab.c once per precision
 * with TESS_R and TESS_FN defined (see core/tess_physics.h).
 *
 * Per tile: gather (pull) the 19 x 64 populations into a node-aligned buffer, applying bounce-back for
 * links from solid nodes; reconstruct Zou-He boundary nodes; collide all 64 nodes in one SIMD loop over
 * the core's per-node function; store into the other copy in the per-direction layouts. */

#define R TESS_R

#include "cpu_collide_tile_t.h"
#include "cpu_pull_rows_t.h"

/* Pull of all 19 x 64 links of a tile by rows (cpu_pull_rows_t.h), unconditionally: empty neighbours point at the
 * rest-state dummy tile, and links from solid nodes are corrected afterwards from the fix-up list. */
static void TESS_FN(cpu_gather_tile)(const R *TESS_RESTRICT src, const int32_t *TESS_RESTRICT nb,
                                     TESS_FN(cpu_tile_buffer) *TESS_RESTRICT buf)
{
    R *base[27]; /* read only: cpu_pull_rows stores nothing with write = 0 */
    for (int s = 0; s < 27; s++)
        base[s] = (R *)(uintptr_t)(src + (size_t)nb[s] * 19 * 64);
    TESS_FN(cpu_pull_rows)(base, buf, 0);
}

/* The tile's post-collision populations: the buffer is already in the copy's L_XYZ order, so it is streamed to
 * memory as it is, with non-temporal stores that skip reading the destination lines first (456 -> 304 bytes
 * of memory traffic per FP64 update). */
static void TESS_FN(cpu_store_tile)(const TESS_FN(cpu_tile_buffer) *TESS_RESTRICT buf, R *TESS_RESTRICT out)
{
    tess_cpu_stream_copy(out, buf->f, sizeof buf->f);
}

static void TESS_FN(cpu_ab_tile)(const tess_backend_t *be, int32_t k, const R *TESS_RESTRICT src,
                                 R *TESS_RESTRICT dst, TESS_FN(cpu_tile_buffer) *buf)
{
    const tess_cpu_gather_table_t *g = &be->table;
    const int32_t *nb = be->neighbors + 27 * (size_t)k;
    const uint8_t *types = be->node_type + 64 * (size_t)k;
    const tess_params_t *p = &be->params;
    const R *self = src + (size_t)k * 19 * 64;

    /* Pull every link unconditionally (empty neighbours point at the rest-state dummy tile), then correct
     * the few links that come from solid nodes: cheaper than testing all 1216 links of the tile. */
    TESS_FN(cpu_gather_tile)(src, nb, buf);
    for (int64_t e = be->fix_start[k]; e < be->fix_start[k + 1]; e++) {
        const tess_cpu_fixup_t fx = be->fix[e];
        if (fx.i == 0xff) {
            for (int i = 0; i < 19; i++)
                buf->f[i][fx.n] = (R)be->rest_w[i];
        } else {
            const int opp = TESS_D3Q19_OPP(fx.i);
            buf->f[fx.i][fx.n] = TESS_FN(tess_bounce_back)(fx.i, self[(size_t)opp * 64 + g->self_opp[fx.i][fx.n]],
                                                           &p->mat[fx.mat]);
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

    TESS_FN(cpu_collide_tile)(p, buf);

    TESS_FN(cpu_store_tile)(buf, dst + (size_t)k * 19 * 64);
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
        for (int32_t j = 0; j < ntiles; j++) {
            /* The hardware prefetchers lose the tile's 19 blocks among the neighbour reads: fetch the next
             * tile's own data while this one is computed. */
            if (j + 1 < ntiles) {
                const size_t next = (size_t)be->order[j + 1] * 19 * 64;
                for (size_t b = 0; b < 19 * 64 * sizeof(R); b += 64)
                    __builtin_prefetch((const char *)(src + next) + b, 0, 3);
            }
            TESS_FN(cpu_ab_tile)(be, be->order[j], src, dst, &buf);
        }
        tess_cpu_stream_fence(); /* streamed stores visible before the next step reads them */
    }
    be->cur = 1 - be->cur;
}

#undef R
