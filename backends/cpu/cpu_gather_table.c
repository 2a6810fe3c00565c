#include "cpu_gather_table.h"
#include "tess_d3q19.h"
#include "tess_layout.h"
#include "tess_tiling.h"
#include <string.h>

void tess_cpu_gather_table_build(tess_cpu_gather_table_t *g, int plain_xyz)
{
    for (int i = 0; i < 19; i++)
        for (int z = 0; z < 4; z++)
            for (int y = 0; y < 4; y++)
                for (int x = 0; x < 4; x++) {
                    const int n = (int)tess_layout_xyz(x, y, z);
                    g->src_slot[i][n] = (uint8_t)tess_pull_slot(i, x, y, z);
                    g->src_xyz[i][n] = (uint8_t)tess_pull_offset(i, x, y, z, 1); /* L_XYZ: node-type order */
                    g->src_off[i][n] = (uint16_t)tess_pull_offset(i, x, y, z, plain_xyz);
                    g->self_opp[i][n] = (uint16_t)tess_layout_offset(TESS_D3Q19_OPP(i), x, y, z, plain_xyz);
                    g->dst_off[i][n] = (uint16_t)tess_layout_offset(i, x, y, z, plain_xyz);
                    g->src_idx[i][n] = (uint16_t)(i * 64 + g->src_off[i][n]);
                }
    for (int i = 0; i < 19; i++) {
        g->dst_plain[i] = 1;
        for (int n = 0; n < 64; n++)
            g->dst_plain[i] &= g->dst_off[i][n] == n;
    }
}

void tess_cpu_tile_convert(int32_t k, void *dst, const void *src, size_t value_size, int to_xyz)
{
    const size_t blk = (size_t)k * 19 * 64;
    for (int i = 0; i < 19; i++)
        for (unsigned z = 0; z < 4; z++)
            for (unsigned y = 0; y < 4; y++)
                for (unsigned x = 0; x < 4; x++) {
                    const size_t canon = blk + (size_t)i * 64 + tess_layout_offset(i, x, y, z, 0);
                    const size_t xyz = blk + (size_t)i * 64 + tess_layout_xyz(x, y, z);
                    char *d = (char *)dst + (to_xyz ? xyz : canon) * value_size;
                    const char *s = (const char *)src + (to_xyz ? canon : xyz) * value_size;
                    /* Constant sizes: the copy becomes one load and store instead of a call per value (the
                     * divergence test downloads the state every run.check_every steps). */
                    if (value_size == sizeof(double))
                        memcpy(d, s, sizeof(double));
                    else
                        memcpy(d, s, sizeof(float));
                }
}
