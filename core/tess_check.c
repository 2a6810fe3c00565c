#include "tess_check.h"
#include "tess_layout.h"
#include "tess_physics_q.h"
#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#endif

int tess_check_fails(const tess_check_t *r, const tess_check_bounds_t *b)
{
    return r->nonfinite > 0 ||
           (r->wet > 0 && !(r->rho_min >= b->rho_min && r->rho_max <= b->rho_max && r->u_max <= b->u_max));
}

void tess_check_fields(const tess_tiling_t *t, const tess_params_t *p, const double *rho, const double *u,
                       tess_check_t *r)
{
    r->rho_min = INFINITY;
    r->rho_max = -INFINITY;
    r->nonfinite = r->wet = 0;
    double u2max = 0.0;
    const size_t n = 64 * (size_t)t->ntiles;
    for (size_t i = 0; i < n; i++) {
        if (!tess_kind_is_wet(p->mat[t->node_type[i]].kind))
            continue;
        r->wet++;
        const double *v = u + 3 * i, u2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        if (!isfinite(rho[i]) || !isfinite(u2)) {
            r->nonfinite++;
            continue;
        }
        r->rho_min = fmin(r->rho_min, rho[i]);
        r->rho_max = fmax(r->rho_max, rho[i]);
        u2max = fmax(u2max, u2);
    }
    r->u_max = sqrt(u2max);
}

int tess_check_locate(const tess_tiling_t *t, const tess_params_t *p, const double *rho, const double *u,
                      const tess_check_bounds_t *b, int at[3], double *bad_rho, double *bad_u)
{
    size_t best = (size_t)-1, best_i = 0;
    const size_t n = 64 * (size_t)t->ntiles;
    for (size_t i = 0; i < n; i++) {
        if (!tess_kind_is_wet(p->mat[t->node_type[i]].kind) || !tess_check_node_bad(b, rho[i], u + 3 * i))
            continue;
        int x, y, z;
        const size_t k = i / 64;
        tess_tiling_local_xyz(t, (int)(i % 64), &x, &y, &z);
        x += t->tile_corner[3 * k];
        y += t->tile_corner[3 * k + 1];
        z += t->tile_corner[3 * k + 2];
        const size_t d = (size_t)x + (size_t)t->nx * ((size_t)y + (size_t)t->ny * z);
        if (d < best) {
            best = d;
            best_i = i;
            at[0] = x;
            at[1] = y;
            at[2] = z;
        }
    }
    if (best == (size_t)-1)
        return 0;
    const double *v = u + 3 * best_i;
    *bad_rho = rho[best_i];
    *bad_u = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    return 1;
}

/* Storage offset of direction i of node `local` inside its tile's block of 64: D3Q19's per-direction layouts
 * (tess_layout.h), local itself for the other lattices (tess_state_index). */
static void offsets(const tess_tiling_t *t, unsigned off[TESS_MAX_Q][64])
{
    for (int i = 0; i < t->q; i++)
        for (int n = 0; n < 64; n++)
            off[i][n] = t->lattice == TESS_LATTICE_D3Q19 ? tess_layout_offset(i, n & 3, (n >> 2) & 3, n >> 4, 0)
                                                        : (unsigned)n;
}

/* One reduction per lattice and precision, so that the core's output moments (as tess_state_fields) inline.
 * The tiles are shared among the OpenMP threads; min, max and counts do not depend on the order, so the result
 * is the same for any thread count. */
#define TESS_CHECK_REDUCE(NAME, R, MOMENTS, Q)                                                                  \
    static void NAME(const tess_tiling_t *t, const tess_params_t *p, const R *pops, int nt, tess_check_t *r)   \
    {                                                                                                           \
        unsigned off[TESS_MAX_Q][64];                                                                           \
        offsets(t, off);                                                                                        \
        double rmin = INFINITY, rmax = -INFINITY, u2max = 0.0;                                                  \
        long long wet = 0, bad = 0;                                                                             \
        (void)nt;                                                                                               \
        _Pragma("omp parallel for num_threads(nt) schedule(static) reduction(min : rmin) \
                 reduction(max : rmax, u2max) reduction(+ : wet, bad)")                                         \
        for (int32_t k = 0; k < t->ntiles; k++) {                                                               \
            const R *base = pops + (size_t)k * Q * 64;                                                          \
            for (int n = 0; n < 64; n++) {                                                                      \
                if (!tess_kind_is_wet(p->mat[t->node_type[64 * (size_t)k + n]].kind))                           \
                    continue;                                                                                   \
                R f[Q], rho, u[3];                                                                              \
                for (int i = 0; i < Q; i++)                                                                     \
                    f[i] = base[64 * i + off[i][n]];                                                            \
                MOMENTS(p, f, &rho, u);                                                                         \
                const double rd = rho, u2 = (double)u[0] * u[0] + (double)u[1] * u[1] + (double)u[2] * u[2];    \
                wet++;                                                                                          \
                if (!isfinite(rd) || !isfinite(u2)) {                                                           \
                    bad++;                                                                                      \
                    continue;                                                                                   \
                }                                                                                               \
                rmin = rd < rmin ? rd : rmin;                                                                   \
                rmax = rd > rmax ? rd : rmax;                                                                   \
                u2max = u2 > u2max ? u2 : u2max;                                                                \
            }                                                                                                   \
        }                                                                                                       \
        r->rho_min = rmin;                                                                                      \
        r->rho_max = rmax;                                                                                      \
        r->u_max = sqrt(u2max);                                                                                 \
        r->wet = wet;                                                                                           \
        r->nonfinite = bad;                                                                                     \
    }
TESS_CHECK_REDUCE(reduce_d3q19_f64, double, tess_q_macroscopic_d3q19_f64, 19)
TESS_CHECK_REDUCE(reduce_d3q19_f32, float, tess_q_macroscopic_d3q19_f32, 19)
TESS_CHECK_REDUCE(reduce_d2q9_f64, double, tess_q_macroscopic_d2q9_f64, 9)
TESS_CHECK_REDUCE(reduce_d2q9_f32, float, tess_q_macroscopic_d2q9_f32, 9)
TESS_CHECK_REDUCE(reduce_d3q13_f64, double, tess_q_macroscopic_d3q13_f64, 13)
TESS_CHECK_REDUCE(reduce_d3q13_f32, float, tess_q_macroscopic_d3q13_f32, 13)
TESS_CHECK_REDUCE(reduce_d3q27_f64, double, tess_q_macroscopic_d3q27_f64, 27)
TESS_CHECK_REDUCE(reduce_d3q27_f32, float, tess_q_macroscopic_d3q27_f32, 27)
#undef TESS_CHECK_REDUCE

void tess_check_populations(const tess_tiling_t *t, const tess_params_t *p, int single, int threads,
                            const void *pops, tess_check_t *r)
{
    int nt = threads;
#ifdef _OPENMP
    if (nt <= 0)
        nt = omp_get_max_threads();
#endif
    r->rho_min = INFINITY;
    r->rho_max = -INFINITY;
    r->u_max = 0.0;
    r->nonfinite = r->wet = 0;
    const float *f32 = pops;
    const double *f64 = pops;
    switch (t->lattice) {
    case TESS_LATTICE_D2Q9: single ? reduce_d2q9_f32(t, p, f32, nt, r) : reduce_d2q9_f64(t, p, f64, nt, r); break;
    case TESS_LATTICE_D3Q13: single ? reduce_d3q13_f32(t, p, f32, nt, r) : reduce_d3q13_f64(t, p, f64, nt, r); break;
    case TESS_LATTICE_D3Q27: single ? reduce_d3q27_f32(t, p, f32, nt, r) : reduce_d3q27_f64(t, p, f64, nt, r); break;
    default: single ? reduce_d3q19_f32(t, p, f32, nt, r) : reduce_d3q19_f64(t, p, f64, nt, r); break;
    }
}
