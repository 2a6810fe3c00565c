#include "tess_state.h"
#include "tess_layout.h"
#include "tess_physics.h"
#include "tess_physics_q.h"
#include "tess_pop_layout.h"
#include <string.h>

size_t tess_state_count(const tess_tiling_t *t)
{
    return (size_t)t->ntiles * (size_t)t->q * 64;
}

int tess_state_node_values(tess_pattern pattern, int lattice, int q)
{
    if (pattern == TESS_PATTERN_MR)
        return lattice == TESS_LATTICE_D2Q9 ? 6 : 10;
    return q;
}

size_t tess_state_index(const tess_tiling_t *t, int32_t k, int i, int local)
{
    if (t->lattice == TESS_LATTICE_D3Q19)
        return ((size_t)k * 19 + i) * 64 + tess_layout_offset(i, local & 3, (local >> 2) & 3, local >> 4, 0);
    return (size_t)tess_pop_index(tess_pop_layout_tiles(), t->q, k, i, local);
}

void tess_state_convert(const tess_tiling_t *t, tess_precision prec, void *canon, void *tiles, int32_t k0, int32_t k1,
                        int to_tiles)
{
    const size_t vs = tess_precision_size(prec), tile = (size_t)t->q * 64;
    if (t->lattice != TESS_LATTICE_D3Q19) { /* the same order: one block */
        char *c = (char *)canon + (size_t)k0 * tile * vs;
        if (to_tiles)
            memcpy(tiles, c, (size_t)(k1 - k0) * tile * vs);
        else
            memcpy(c, tiles, (size_t)(k1 - k0) * tile * vs);
        return;
    }
    /* Tiles are independent and every value moves once: threads change no bit (a billion-node box would spend
     * minutes here on one core). */
#pragma omp parallel for schedule(static)
    for (int32_t k = k0; k < k1; k++)
        for (int i = 0; i < t->q; i++) {
            const size_t blk = (size_t)tess_pop_index(tess_pop_layout_tiles(), t->q, k - k0, i, 0);
            for (int n = 0; n < 64; n++) {
                const size_t ci = tess_state_index(t, k, i, n);
                if (vs == sizeof(float)) {
                    float *a = (float *)canon, *b = (float *)tiles;
                    if (to_tiles)
                        b[blk + n] = a[ci];
                    else
                        a[ci] = b[blk + n];
                } else {
                    double *a = (double *)canon, *b = (double *)tiles;
                    if (to_tiles)
                        b[blk + n] = a[ci];
                    else
                        a[ci] = b[blk + n];
                }
            }
        }
}

/* Equilibrium and output moments of the lattices other than D3Q19, by run-time lattice id. */
static void equilibrium_q(int lattice, int fluid, double rho, const double u[3], double *feq)
{
    switch (lattice) {
    case TESS_LATTICE_D2Q9: tess_q_equilibrium_d2q9_f64(fluid, rho, u, feq); break;
    case TESS_LATTICE_D3Q13: tess_q_equilibrium_d3q13_f64(fluid, rho, u, feq); break;
    case TESS_LATTICE_D3Q27: tess_q_equilibrium_d3q27_f64(fluid, rho, u, feq); break;
    default: tess_equilibrium_f64(fluid, rho, u[0], u[1], u[2], feq); break;
    }
}

static void macroscopic_q(int lattice, const tess_params_t *p, const double *f, double *rho, double *u)
{
    switch (lattice) {
    case TESS_LATTICE_D2Q9: tess_q_macroscopic_d2q9_f64(p, f, rho, u); break;
    case TESS_LATTICE_D3Q13: tess_q_macroscopic_d3q13_f64(p, f, rho, u); break;
    case TESS_LATTICE_D3Q27: tess_q_macroscopic_d3q27_f64(p, f, rho, u); break;
    default: tess_macroscopic_f64(p, f, rho, u); break;
    }
}

static void macroscopic_q32(int lattice, const tess_params_t *p, const float *f, float *rho, float *u)
{
    switch (lattice) {
    case TESS_LATTICE_D2Q9: tess_q_macroscopic_d2q9_f32(p, f, rho, u); break;
    case TESS_LATTICE_D3Q13: tess_q_macroscopic_d3q13_f32(p, f, rho, u); break;
    case TESS_LATTICE_D3Q27: tess_q_macroscopic_d3q27_f32(p, f, rho, u); break;
    default: tess_macroscopic_f32(p, f, rho, u); break;
    }
}

static void equilibrium_q32(int lattice, int fluid, float rho, const float u[3], float *feq)
{
    switch (lattice) {
    case TESS_LATTICE_D2Q9: tess_q_equilibrium_d2q9_f32(fluid, rho, u, feq); break;
    case TESS_LATTICE_D3Q13: tess_q_equilibrium_d3q13_f32(fluid, rho, u, feq); break;
    case TESS_LATTICE_D3Q27: tess_q_equilibrium_d3q27_f32(fluid, rho, u, feq); break;
    default: tess_equilibrium_f32(fluid, rho, u[0], u[1], u[2], feq); break;
    }
}

/* The density and velocity whose equilibrium node n of tile k starts from: rho0 and u0 (or the dense fields rho
 * and u where given) on wet nodes, the rest state on dry ones; no z velocity on a 2D lattice. */
static void node_state(const tess_tiling_t *t, const tess_params_t *p, int32_t k, int n, double rho0, const double u0[3],
                       const double *rho, const double *u, double *r, double v[3])
{
    int x, y, z;
    tess_tiling_local_xyz(t, n, &x, &y, &z);
    const int gx = t->tile_corner[3 * k] + x, gy = t->tile_corner[3 * k + 1] + y, gz = t->tile_corner[3 * k + 2] + z;
    const uint8_t ty = t->node_type[64 * (size_t)k + n];
    *r = rho0;
    v[0] = u0[0];
    v[1] = u0[1];
    v[2] = u0[2];
    if (!tess_kind_is_wet(p->mat[ty].kind)) {
        *r = 1.0;
        v[0] = v[1] = v[2] = 0.0;
    } else if (rho && u && gx < t->nx && gy < t->ny && gz < t->nz) {
        const size_t d = (size_t)gx + (size_t)t->nx * ((size_t)gy + (size_t)t->ny * gz);
        *r = rho[d];
        v[0] = u[3 * d];
        v[1] = u[3 * d + 1];
        v[2] = u[3 * d + 2];
    }
    if (t->lattice != TESS_LATTICE_D3Q19 && t->ez == 1)
        v[2] = 0.0; /* a 2D lattice has no z velocity */
}

/* The equilibrium of (r, v) in the run's precision: q values into f32 (single) or f64 (double). */
static void state_equilibrium(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, double r,
                              const double v[3], float *f32, double *f64)
{
    if (prec == TESS_PRECISION_SINGLE) {
        const float vf[3] = {(float)v[0], (float)v[1], (float)v[2]};
        equilibrium_q32(t->lattice, p->fluid, (float)r, vf, f32);
    } else {
        equilibrium_q(t->lattice, p->fluid, r, v, f64);
    }
}

/* Both orders below in one loop over tiles [k0, k1): value i of node n of tile k goes to canonical index
 * tess_state_index (tile_major 0; k0 = 0) or to ((k - k0) * q + i) * 64 + n (tile_major 1). A uniform start (no
 * dense fields) has two states only, wet and dry: their equilibria are computed once and copied, the same bits as
 * computing them per node. Tiles are independent and every value is written once, so threads change no bit; a
 * billion-node box (the largest that fits one GPU) would otherwise spend minutes here on one core. */
static void equilibrium_range(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, int32_t k0,
                              int32_t k1, int tile_major, void *out, double rho0, const double u0[3], const double *rho,
                              const double *u)
{
    const int q = t->q, uniform = !(rho && u);
    float w32[2][TESS_MAX_Q];
    double w64[2][TESS_MAX_Q];
    if (uniform) { /* [0] dry, [1] wet, as node_state gives them */
        const double rest[3] = {0.0, 0.0, 0.0};
        double v[3] = {u0[0], u0[1], t->lattice != TESS_LATTICE_D3Q19 && t->ez == 1 ? 0.0 : u0[2]};
        state_equilibrium(t, p, prec, 1.0, rest, w32[0], w64[0]);
        state_equilibrium(t, p, prec, rho0, v, w32[1], w64[1]);
    }
#pragma omp parallel for schedule(static)
    for (int32_t k = k0; k < k1; k++)
        for (int n = 0; n < 64; n++) {
            float n32[TESS_MAX_Q];
            double n64[TESS_MAX_Q];
            const float *f32 = n32;
            const double *f64 = n64;
            if (uniform) {
                const int wet = tess_kind_is_wet(p->mat[t->node_type[64 * (size_t)k + n]].kind);
                f32 = w32[wet];
                f64 = w64[wet];
            } else {
                double r, v[3];
                node_state(t, p, k, n, rho0, u0, rho, u, &r, v);
                state_equilibrium(t, p, prec, r, v, n32, n64);
            }
            for (int i = 0; i < q; i++) {
                const size_t at = tile_major ? ((size_t)(k - k0) * q + i) * 64 + n : tess_state_index(t, k, i, n);
                if (prec == TESS_PRECISION_SINGLE)
                    ((float *)out)[at] = f32[i];
                else
                    ((double *)out)[at] = f64[i];
            }
        }
}

void tess_state_equilibrium(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, void *pops,
                            double rho0, const double u0[3], const double *rho, const double *u)
{
    equilibrium_range(t, p, prec, 0, t->ntiles, 0, pops, rho0, u0, rho, u);
}

void tess_state_equilibrium_tiles(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, int32_t k0,
                                  int32_t k1, void *tiles, double rho0, const double u0[3], const double *rho,
                                  const double *u)
{
    equilibrium_range(t, p, prec, k0, k1, 1, tiles, rho0, u0, rho, u);
}

void tess_state_fields(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *pops,
                       double *rho, double *u)
{
    const int q = t->q;
    /* every node's fields are its own: threads change no bit */
#pragma omp parallel for schedule(static)
    for (int32_t k = 0; k < t->ntiles; k++)
        for (int n0 = 0; n0 < 64; n0++) {
            const size_t n = 64 * (size_t)k + n0;
            if (!tess_kind_is_wet(p->mat[t->node_type[n]].kind)) {
                rho[n] = 0.0;
                u[3 * n] = u[3 * n + 1] = u[3 * n + 2] = 0.0;
                continue;
            }
            if (prec == TESS_PRECISION_SINGLE) {
                float f[TESS_MAX_Q], r, v[3];
                for (int i = 0; i < q; i++)
                    f[i] = ((const float *)pops)[tess_state_index(t, k, i, n0)];
                macroscopic_q32(t->lattice, p, f, &r, v);
                rho[n] = r;
                u[3 * n] = v[0];
                u[3 * n + 1] = v[1];
                u[3 * n + 2] = v[2];
            } else {
                double f[TESS_MAX_Q];
                for (int i = 0; i < q; i++)
                    f[i] = ((const double *)pops)[tess_state_index(t, k, i, n0)];
                macroscopic_q(t->lattice, p, f, &rho[n], &u[3 * n]);
            }
        }
}

void tess_state_to_dense(const tess_tiling_t *t, const double *tiled, int ncomp, double empty, double *dense)
{
    for (int z = 0; z < t->nz; z++)
        for (int y = 0; y < t->ny; y++)
            for (int x = 0; x < t->nx; x++) {
                const size_t d = (size_t)x + (size_t)t->nx * ((size_t)y + (size_t)t->ny * z);
                const int64_t n = tess_tiling_node_index(t, x, y, z);
                for (int c = 0; c < ncomp; c++)
                    dense[ncomp * d + c] = n < 0 ? empty : tiled[ncomp * (size_t)n + c];
            }
}
