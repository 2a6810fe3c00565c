/* Pull addressing by rows over tiles stored in L_XYZ (tess_cpu_tile_convert): a row of 4 nodes (x = 0..3 at one
 * y, z) pulls f_i from contiguous values: the upstream row of the tile at the same x, shifted by c_ix, plus for
 * c_ix != 0 one end value of the x-neighbour tile's row. Moving whole runs (memcpy of 3 or 4 values, one vector
 * move) instead of single values is what lets the gathers vectorise. Included inside a precision template
 * after cpu_collide_tile_t.h.
 *
 * base: the 27 tiles of the neighbourhood (tess_tiling_slot order). write = 0: gather every f_i of the tile's
 * nodes from their upstream locations into buf (the AB pull, the AA odd step's read); write = 1: store
 * f*_opp(i) of buf back to those locations (the AA odd step's write; the caller then owns every location). */
static void TESS_FN(cpu_pull_rows)(R *const *base, TESS_FN(cpu_tile_buffer) *TESS_RESTRICT buf, int write)
{
    const int cx[19] = TESS_D3Q19_CX, cy[19] = TESS_D3Q19_CY, cz[19] = TESS_D3Q19_CZ;
    TESS_UNROLL
    for (int i = 0; i < 19; i++)
        TESS_UNROLL
        for (int z = 0; z < 4; z++)
            TESS_UNROLL
            for (int y = 0; y < 4; y++) {
                const int zu = z - cz[i], yu = y - cy[i];
                const int sz = zu < 0 ? -1 : zu > 3 ? 1 : 0, sy = yu < 0 ? -1 : yu > 3 ? 1 : 0;
                const int row = 16 * (zu - 4 * sz) + 4 * (yu - 4 * sy);
                R *a = base[tess_tiling_slot(0, sy, sz)] + i * 64 + row;
                R *b = base[tess_tiling_slot(cx[i] > 0 ? -1 : 1, sy, sz)] + i * 64 + row;
                R *v = &buf->f[write ? TESS_D3Q19_OPP(i) : i][16 * z + 4 * y];
                if (cx[i] == 0) {
                    if (write)
                        memcpy(a, v, 4 * sizeof(R));
                    else
                        memcpy(v, a, 4 * sizeof(R));
                } else if (cx[i] > 0) { /* x pulls from x - 1: b[3], a[0..2] */
                    if (write) {
                        b[3] = v[0];
                        memcpy(a, v + 1, 3 * sizeof(R));
                    } else {
                        v[0] = b[3];
                        memcpy(v + 1, a, 3 * sizeof(R));
                    }
                } else { /* x pulls from x + 1: a[1..3], b[0] */
                    if (write) {
                        memcpy(a + 1, v, 3 * sizeof(R));
                        b[0] = v[3];
                    } else {
                        memcpy(v, a + 1, 3 * sizeof(R));
                        v[3] = b[0];
                    }
                }
            }
}
