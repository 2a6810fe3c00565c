/* Curved-wall link slots (core/tess_link_slots.h) against the per-link walk they replace (tess_q_pull_link_from):
 * for every link of two spheres in a walled box (close to each other, so that links lose their
 * second or first node: every fallback of the Bouzidi rules), both rules, every lattice, both precisions, the slot's
 * value must equal the walk's bit for bit from the same random populations read in the canonical and in the swapped
 * convention, and from random moments (the MR pattern). Tolerance 0: both call the core's tess_q_bouzidi on the same
 * loaded values, so any difference is a wrong slot. Also counts that each branch was reached, and runs the geometry
 * with AA (whose sweep computes the links that stay in their tile) against AB: equal bits after even steps. */
#include "lattice_test.h"
#include "tess_link_slots.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int n;
    double c[2][3], r;
} spheres_t;

/* Smallest t in (0, 1] with |x + t c - centre| = r over the spheres, or -1. */
static double spheres_q(void *ctx, const double x[3], const double c[3])
{
    const spheres_t *s = ctx;
    double best = -1.0;
    for (int k = 0; k < s->n; k++) {
        const double d[3] = {x[0] - s->c[k][0], x[1] - s->c[k][1], x[2] - s->c[k][2]};
        const double a = c[0] * c[0] + c[1] * c[1] + c[2] * c[2], b = 2 * (d[0] * c[0] + d[1] * c[1] + d[2] * c[2]);
        const double cc = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - s->r * s->r, disc = b * b - 4 * a * cc;
        if (disc < 0)
            continue;
        const double t = (-b - sqrt(disc)) / (2 * a);
        if (t > 0 && t <= 1 && (best < 0 || t < best))
            best = t;
    }
    return best;
}

static uint64_t rng = 88172645463325252ull;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static int branches[4]; /* links with q < 1/2, q >= 1/2, no x + c_i, no x + 2 c_i (quadratic) */

#define CHECK_LATTICE(LAT, R, Q, NM)                                                                                  \
    static int check_##LAT##_##R(const tess_params_t *p, const tess_tiling_t *t)                                      \
    {                                                                                                                  \
        const size_t nv = (size_t)t->ntiles * 64 * (Q), nm = (size_t)t->ntiles * 64 * (NM);                          \
        R *f = malloc(nv * sizeof *f), *ms = malloc((nm ? nm : 1) * sizeof *ms);                                      \
        for (size_t v = 0; v < nv; v++)                                                                                \
            f[v] = (R)(0.01 + 0.1 * uniform());                                                                        \
        for (size_t v = 0; v < nm; v++)                                                                                \
            ms[v] = (R)((v / 64) % ((NM) ? (NM) : 1) == 0 ? 1.0 : 0.01 * (uniform() - 0.5)); /* rho 1 */     \
        const tess_q_grid_t g = {t->neighbors, t->node_type, t->tile_corner, t->ex, t->ey, t->ez, 0, {0}};                 \
        int bad = 0;                                                                                                   \
        for (int32_t k = 0; k < t->ntiles; k++)                                                                        \
            for (int64_t l = t->links.start[k]; l < t->links.start[k + 1]; l++) {                                    \
                const tess_link_t *lk = &t->links.link[l];                                                             \
                tess_link_slot_t s;                                                                                    \
                tess_link_slot_fill_##LAT##_f64(p, &g, k, lk, &s);                                                     \
                if (s.i == TESS_LINK_NONE) {                                                                           \
                    bad++; /* every link of this box ends in a sphere: x - c_i is dry */                              \
                    continue;                                                                                          \
                }                                                                                                      \
                branches[s.q < 0.5 ? 0 : 1]++;                                                                         \
                branches[2] += s.n1 < 0;                                                                               \
                branches[3] += s.n1 >= 0 && s.n2 < 0 && p->wall == TESS_WALL_BOUZIDI_QUADRATIC;                        \
                const int n = lk->node, x = n % t->ex, y = (n / t->ex) % t->ey, z = n / (t->ex * t->ey);               \
                for (int conv = 0; conv < 3; conv++) { /* canonical, swapped, moments */                              \
                    const R *fp = conv < 2 ? f : (const R *)0, *mp = conv < 2 ? (const R *)0 : ms;                     \
                    if (conv == 2 && (NM) == 0)                                                                        \
                        continue;                                                                                      \
                    const int cv = conv == 1 ? TESS_Q_SWAPPED : TESS_Q_CANON;                                          \
                    const R a = tess_link_slot_value_##LAT##_##R(p, g.pop, fp, mp, cv, k, &s);                        \
                    const R b = tess_q_pull_link_from_##LAT##_##R(p, &g, fp, mp, cv, k, x, y, z, s.i, lk->q);         \
                    if (memcmp(&a, &b, sizeof a) != 0) {                                                               \
                        if (bad < 5)                                                                                   \
                            printf("  %s %s: link %lld (tile %d node %d dir %d q %.3f) conv %d: %.17g != %.17g\n",     \
                                   #LAT, #R, (long long)l, k, n, lk->dir, lk->q, conv, (double)a, (double)b);          \
                        bad++;                                                                                         \
                    }                                                                                                  \
                }                                                                                                      \
            }                                                                                                          \
        free(f);                                                                                                       \
        free(ms);                                                                                                      \
        return bad;                                                                                                    \
    }
typedef double f64;
typedef float f32;
CHECK_LATTICE(d2q9, f64, 9, 6)
CHECK_LATTICE(d2q9, f32, 9, 6)
CHECK_LATTICE(d3q13, f64, 13, 0)
CHECK_LATTICE(d3q13, f32, 13, 0)
CHECK_LATTICE(d3q19, f64, 19, TESS_MR_NM)
CHECK_LATTICE(d3q19, f32, 19, TESS_MR_NM)
CHECK_LATTICE(d3q27, f64, 27, TESS_MR_NM)
CHECK_LATTICE(d3q27, f32, 27, TESS_MR_NM)

int main(void)
{
    static const tess_lattice_id lats[4] = {TESS_LATTICE_D2Q9, TESS_LATTICE_D3Q13, TESS_LATTICE_D3Q19,
                                            TESS_LATTICE_D3Q27};
    for (int li = 0; li < 4; li++)
        for (int order = 1; order <= 2; order++) {
            const int d2 = lats[li] == TESS_LATTICE_D2Q9;
            const int nx = 24, ny = 18, nz = d2 ? 1 : 16; /* periodic x: a multiple of the tile width */
            /* radius 4.3, about one node apart */
            spheres_t sp = {2, {{6.1, 8.4, d2 ? 0.0 : 7.6}, {15.5, 8.9, d2 ? 0.0 : 8.2}}, 4.3};
            tess_geometry_t geo;
            tess_geometry_init(&geo, nx, ny, nz, 1);
            for (int z = 0; z < nz; z++)
                for (int y = 0; y < ny; y++)
                    for (int x = 0; x < nx; x++) {
                        const int wall = y == 0 || y == ny - 1 || (!d2 && (z == 0 || z == nz - 1));
                        const double xd[3] = {x, y, z};
                        int in = 0;
                        for (int k = 0; k < sp.n; k++) {
                            const double dx = xd[0] - sp.c[k][0], dy = xd[1] - sp.c[k][1], dz = xd[2] - sp.c[k][2];
                            in |= dx * dx + dy * dy + dz * dz < sp.r * sp.r;
                        }
                        if (wall || in)
                            geo.type[tess_geometry_index(&geo, x, y, z)] = 0;
                    }
            geo.periodic[0] = 1;
            tess_params_t p;
            tess_params_default(&p);
            tess_params_set_lattice(&p, lats[li]);
            if (lats[li] == TESS_LATTICE_D3Q13)
                p.collision = TESS_COLLISION_MRT;
            p.wall = order == 2 ? TESS_WALL_BOUZIDI_QUADRATIC : TESS_WALL_BOUZIDI_LINEAR;
            lt_run_t r;
            tess_error_t err;
            char what[128];
            snprintf(what, sizeof what, "lattice %d, order %d: the run starts", (int)lats[li], order);
            if (!tess_test_true(what, lt_start(&r, &geo, &p, TESS_PATTERN_AB, 1, TESS_PRECISION_DOUBLE, spheres_q,
                                               &sp, &err) == TESS_OK)) {
                printf("  %s\n", err.msg);
                tess_geometry_free(&geo);
                continue;
            }
            int bad = 0;
            switch (lats[li]) {
            case TESS_LATTICE_D2Q9: bad = check_d2q9_f64(&p, &r.t) + check_d2q9_f32(&p, &r.t); break;
            case TESS_LATTICE_D3Q13: bad = check_d3q13_f64(&p, &r.t) + check_d3q13_f32(&p, &r.t); break;
            case TESS_LATTICE_D3Q19: bad = check_d3q19_f64(&p, &r.t) + check_d3q19_f32(&p, &r.t); break;
            default: bad = check_d3q27_f64(&p, &r.t) + check_d3q27_f32(&p, &r.t); break;
            }
            printf("lattice %d, order %d: %lld links\n", (int)lats[li], order, (long long)r.t.links.n);
            snprintf(what, sizeof what, "lattice %d, order %d: links of the spheres", (int)lats[li], order);
            tess_test_true(what, r.t.links.n > 100);
            snprintf(what, sizeof what, "lattice %d, order %d: slot values equal the link walk", (int)lats[li], order);
            tess_test_close(what, bad, 0, 0);
            lt_free(&r);
            /* End to end: AA (links from the pre-pass, or computed in the sweep when local) equals AB bit for bit
             * after even steps, with a body force so that the links carry non-trivial values. */
            p.use_force = 1;
            p.force[0] = 1e-4;
            lt_run_t ab, aa;
            memset(&ab, 0, sizeof ab);
            memset(&aa, 0, sizeof aa);
            const tess_precision dp = TESS_PRECISION_DOUBLE;
            if (lt_start(&ab, &geo, &p, TESS_PATTERN_AB, 2, dp, spheres_q, &sp, &err) == TESS_OK &&
                lt_start(&aa, &geo, &p, TESS_PATTERN_AA, 2, dp, spheres_q, &sp, &err) == TESS_OK &&
                lt_step(&ab, 6, &err) == TESS_OK && lt_step(&aa, 6, &err) == TESS_OK &&
                lt_fields(&ab, &err) == TESS_OK && lt_fields(&aa, &err) == TESS_OK) {
                snprintf(what, sizeof what, "lattice %d, order %d: AA equals AB after 6 steps (relative)",
                         (int)lats[li], order);
                tess_test_close(what, lt_wet_relative(&ab.t, &p, dp, aa.pops, ab.pops), 0, 0);
            } else {
                printf("  %s\n", err.msg);
                tess_test_true("AA and AB runs", 0);
            }
            lt_free(&aa);
            lt_free(&ab);
            tess_geometry_free(&geo);
        }
    printf("links with q < 1/2: %d, q >= 1/2: %d, without x + c_i: %d, without x + 2 c_i: %d\n", branches[0],
           branches[1], branches[2], branches[3]);
    tess_test_true("every branch of the rules reached", branches[0] && branches[1] && branches[2] && branches[3]);
    return tess_test_result("test_link_slots");
}
