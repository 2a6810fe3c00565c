/* Intra-tile layouts (tile paper eqs. 11-13) and tile neighbour addressing. Every layout must be a bijection
 * of the 64 tile nodes onto offsets 0..63 (otherwise two nodes would share storage). On random sparse
 * geometries, the node reached from every node of every non-empty tile in every direction through the
 * 27-neighbour list plus the layout offsets must be the dense neighbour x + c_i (periodic wrap included):
 * same coordinates, same node type, same canonical storage index. These are integer facts: no tolerance. */
#include "tess_d3q19.h"
#include "tess_layout.h"
#include "tess_lattice.h"
#include "tess_state.h"
#include <stdlib.h>
#include "tess_test.h"
#include <stdio.h>
#include <string.h>

static void test_bijections(void)
{
    static const char *kind_name[3] = {"L_XYZ", "L_YXZ", "L_zigzagNE"};
    for (int kind = 0; kind < 3; kind++) {
        int seen[64] = {0}, ok = 1;
        for (unsigned z = 0; z < 4; z++)
            for (unsigned y = 0; y < 4; y++)
                for (unsigned x = 0; x < 4; x++) {
                    const unsigned o = tess_layout_apply(kind, x, y, z);
                    if (o >= 64)
                        ok = 0;
                    else
                        seen[o]++;
                }
        for (int o = 0; o < 64; o++)
            ok &= seen[o] == 1;
        char what[96];
        snprintf(what, sizeof what, "%s maps the 64 tile nodes one-to-one onto 0..63", kind_name[kind]);
        tess_test_true(what, ok);
    }
    int ok = 1;
    for (int plain = 0; plain < 2; plain++)
        for (int i = 0; i < 19; i++) {
            int seen[64] = {0};
            for (unsigned n = 0; n < 64; n++) {
                const unsigned o = tess_layout_offset(i, n & 3, (n >> 2) & 3, n >> 4, plain);
                if (o < 64)
                    seen[o]++;
            }
            for (int o = 0; o < 64; o++)
                ok &= seen[o] == 1;
        }
    tess_test_true("tess_layout_offset is a bijection on 0..63 for all 19 directions, both layout sets", ok);
    /* Section 3.2 of the tile paper, by direction name. */
    static const char *names[19] = TESS_D3Q19_NAMES;
    int assign_ok = 1;
    for (int i = 0; i < 19; i++) {
        const char *nm = names[i];
        int want = TESS_LAYOUT_XYZ;
        if (!strcmp(nm, "E") || !strcmp(nm, "W") || !strcmp(nm, "ET") || !strcmp(nm, "EB") || !strcmp(nm, "NW") ||
            !strcmp(nm, "SW") || !strcmp(nm, "WT") || !strcmp(nm, "WB"))
            want = TESS_LAYOUT_YXZ;
        else if (!strcmp(nm, "NE") || !strcmp(nm, "SE"))
            want = TESS_LAYOUT_ZIGZAG_NE;
        assign_ok &= tess_layout_of_dir_d3q19(i) == want;
    }
    tess_test_true("per-direction layouts follow the paper: YXZ for E W ET EB NW SW WT WB, zigzagNE for NE SE",
                   assign_ok);
}

static int floor4(int v)
{
    return v < 0 ? -1 : v / 4;
}

/* A random box (porosity 0.7) with random all-solid 6x6x6 blocks: every such block contains a whole tile, so
 * boxes of at least 12 nodes a side get empty tiles and the -1 neighbour entries are exercised. */
static void check_addressing(int nx, int ny, int nz, const int periodic[3], uint64_t seed, int want_empty)
{
    static const int cx[19] = TESS_D3Q19_CX, cy[19] = TESS_D3Q19_CY, cz[19] = TESS_D3Q19_CZ;
    tess_geometry_t g;
    tess_params_t p;
    tess_params_default(&p);
    tess_geometry_init(&g, nx, ny, nz, 0);
    memcpy(g.periodic, periodic, sizeof g.periodic);
    tess_test_rng r;
    tess_test_rng_seed(&r, seed);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                tess_test_rng b;
                tess_test_rng_seed(&b, seed * 1000003u + (uint64_t)(x / 6 + 97 * (y / 6) + 9973 * (z / 6)));
                const double porosity = tess_test_uniform(&b) < 0.4 ? 0.0 : 0.7;
                g.type[tess_geometry_index(&g, x, y, z)] = tess_test_uniform(&r) < porosity;
            }
    tess_tiling_t t;
    tess_error_t err;
    if (!tess_test_true("random geometry tiles", tess_tiling_build(&t, &g, &p, &err) == TESS_OK)) {
        tess_geometry_free(&g);
        return;
    }
    const int pn[3] = {t.px, t.py, t.pz};
    long checked = 0, bad = 0, wet_links = 0;
    char first[256] = "";
    for (int32_t k = 0; k < t.ntiles; k++)
        for (int n = 0; n < 64; n++) {
            const int l[3] = {n & 3, (n >> 2) & 3, n >> 4};
            const uint8_t self_type = t.node_type[64 * (size_t)k + n];
            for (int i = 0; i < 19; i++) {
                const int c[3] = {cx[i], cy[i], cz[i]};
                /* tile route: neighbour slot and position inside that tile */
                int tl[3], d[3];
                for (int a = 0; a < 3; a++) {
                    d[a] = floor4(l[a] + c[a]);
                    tl[a] = (l[a] + c[a]) & 3;
                }
                const int32_t nb = t.neighbors[27 * (size_t)k + tess_tiling_slot(d[0], d[1], d[2])];
                /* dense route: global coordinates, wrapped on periodic axes */
                int gc[3], outside = 0;
                for (int a = 0; a < 3; a++) {
                    gc[a] = t.tile_corner[3 * k + a] + l[a] + c[a];
                    if (gc[a] < 0 || gc[a] >= pn[a]) {
                        if (t.periodic[a])
                            gc[a] = (gc[a] + pn[a]) % pn[a];
                        else
                            outside = 1;
                    }
                }
                const int32_t want_tile =
                    outside ? -1 : t.tile_map[gc[0] / 4 + t.tx * (gc[1] / 4 + t.ty * (gc[2] / 4))];
                const int in_box = !outside && gc[0] < nx && gc[1] < ny && gc[2] < nz;
                const uint8_t want_type = in_box ? g.type[tess_geometry_index(&g, gc[0], gc[1], gc[2])] : 0;
                int ok = nb == want_tile;
                if (ok && nb >= 0) {
                    for (int a = 0; a < 3; a++)
                        ok &= t.tile_corner[3 * nb + a] + tl[a] == gc[a];
                    ok &= t.node_type[64 * (size_t)nb + tess_layout_xyz(tl[0], tl[1], tl[2])] == want_type;
                    const int64_t pop = ((int64_t)nb * 19 + i) * 64 + tess_layout_offset(i, tl[0], tl[1], tl[2], 0);
                    ok &= pop == tess_test_pop_index(&t, gc[0], gc[1], gc[2], i);
                }
                /* a wet node must always see its neighbour's true type (an empty tile reads as solid) */
                if (self_type == 1) {
                    const uint8_t seen = nb >= 0 ? t.node_type[64 * (size_t)nb + tess_layout_xyz(tl[0], tl[1], tl[2])] : 0;
                    ok &= seen == want_type;
                    wet_links++;
                }
                checked++;
                if (!ok && bad++ == 0)
                    snprintf(first, sizeof first, "; first: tile %d node (%d,%d,%d) direction %d: neighbour tile %d, expected %d",
                             (int)k, l[0], l[1], l[2], i, (int)nb, (int)want_tile);
            }
        }
    char what[512];
    snprintf(what, sizeof what,
             "%dx%dx%d periodic (%d,%d,%d), %d tiles (eta_t %.2f): %ld of %ld node-direction pairs (%ld from wet "
             "nodes) disagree with the dense neighbour%s",
             nx, ny, nz, periodic[0], periodic[1], periodic[2], t.ntiles, t.eta_t, bad, checked, wet_links, first);
    tess_test_true(what, bad == 0 && checked == 64L * 19 * t.ntiles && t.ntiles > 0 &&
                             (!want_empty || t.ntiles < t.tx * t.ty * t.tz));
    tess_tiling_free(&t);
    tess_geometry_free(&g);
}

/* tess_state_convert over a range of tiles, both ways, against tess_state_index value by value: the GPU
 * backends upload and download through it in chunks, so a chunk must land exactly where the whole copy would
 * and leave the canonical values outside its range alone. Integer facts (values are their own indices). */
static void test_convert(int lattice, int q, tess_precision prec)
{
    tess_tiling_t t;
    memset(&t, 0, sizeof t);
    t.lattice = lattice;
    t.q = q;
    const int32_t nt = 7, k0 = 2, k1 = 5;
    const size_t n = (size_t)nt * q * 64, vs = tess_precision_size(prec);
    char *canon = malloc(n * vs), *tiles = malloc(n * vs), *back = calloc(n, vs);
    for (size_t j = 0; j < n; j++) {
        if (prec == TESS_PRECISION_SINGLE)
            ((float *)canon)[j] = (float)j;
        else
            ((double *)canon)[j] = (double)j;
    }
    tess_state_convert(&t, prec, canon, tiles, k0, k1, 1);
    int ok = 1;
    for (int32_t k = k0; k < k1; k++)
        for (int i = 0; i < q; i++)
            for (int l = 0; l < 64; l++) {
                const size_t ti = ((size_t)(k - k0) * q + i) * 64 + l, ci = tess_state_index(&t, k, i, l);
                const double got = prec == TESS_PRECISION_SINGLE ? ((float *)tiles)[ti] : ((double *)tiles)[ti];
                ok &= got == (double)ci;
            }
    tess_state_convert(&t, prec, back, tiles, k0, k1, 0);
    for (size_t j = 0; j < n; j++) {
        const double got = prec == TESS_PRECISION_SINGLE ? ((float *)back)[j] : ((double *)back)[j];
        const int in_range = j >= (size_t)k0 * q * 64 && j < (size_t)k1 * q * 64;
        ok &= got == (in_range ? (double)j : 0.0);
    }
    char what[160];
    snprintf(what, sizeof what, "%s %s: tiles 2..4 of 7 to tile-major order and back, value by value, the rest untouched",
             tess_lattice_get(lattice)->name, tess_precision_name(prec));
    tess_test_true(what, ok);
    free(canon);
    free(tiles);
    free(back);
}

int main(void)
{
    test_bijections();
    for (int p = 0; p < 2; p++) {
        const tess_precision prec = p ? TESS_PRECISION_SINGLE : TESS_PRECISION_DOUBLE;
        test_convert(TESS_LATTICE_D3Q19, 19, prec);
        test_convert(TESS_LATTICE_D3Q27, 27, prec);
        test_convert(TESS_LATTICE_D2Q9, 9, prec);
    }
    const int none[3] = {0, 0, 0}, px[3] = {1, 0, 0}, pyz[3] = {0, 1, 1}, all[3] = {1, 1, 1};
    check_addressing(21, 18, 15, none, 1, 1);
    check_addressing(20, 13, 10, px, 2, 1);
    check_addressing(17, 12, 16, pyz, 3, 1);
    check_addressing(16, 12, 20, all, 4, 1);
    check_addressing(8, 4, 4, all, 5, 0); /* neighbour lists wrap onto the tile itself */
    return tess_test_result("test_layout");
}
