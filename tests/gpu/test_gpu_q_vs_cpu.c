/* The GPU backend's tile kernel (backends/gpu/tess_gpu_tile_step.h) against the CPU engine
 * (backends/cpu/cpu_q.c, AB), through the ops tables only. Every lattice with each collision model it has
 * (D2Q9 LBGK, MRT, regularized; D3Q13 MRT; D3Q19 LBGK, MRT, regularized; D3Q27 LBGK, regularized), both
 * precisions, on the box of tests/lattice/test_q_patterns.c: a curved bottom wall at q = 0.3 (quadratic
 * Bouzidi), a moving lid, a tilted extrapolated (nee) velocity inlet, an extrapolated pressure outlet, random
 * obstacles, a body force, padding and interior tiles. D3Q19 also with linear Bouzidi, and with halfway walls
 * and nee planes only (a tiling without curved links); D2Q9 and D3Q19 also with a parabolic inlet profile (the
 * kernel's tile corners). 200 steps from a random state.
 *
 * Built with TESSERA_REPRODUCIBLE (no FMA contraction on either side) the GPU must give the same bits as the
 * CPU for every wet node: both run the same per-node source (core/tess_q_step.h). Otherwise the tolerance
 * below applies. Without a usable device the test exits 77 (ctest: skipped). */
#include "gpu_test.h"
#include "lattice_test.h"
#include "tess_state.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const tess_backend_ops_t TESS_TEST_GPU_OPS;
extern const tess_backend_ops_t tess_backend_cpu;

enum { NSTEPS = 200 };

/* Fast-mode tolerances, absolute on populations (at most 1/2: D3Q13's rest weight). A fused multiply-add changes
 * one rounding by at most one unit in the last place; a node update with Bouzidi or extrapolation has a few
 * dozen dependent operations, so allow 10 ulp(1/2) per step; the scheme is stable (tau 0.7, |u| <= 0.05), so
 * differences of earlier steps are carried, not amplified, and add up to at most NSTEPS times that:
 * 200 * 10 * 1.1e-16 = 2.2e-13 in FP64 and 200 * 10 * 6.0e-8 = 1.2e-4 in FP32. A wrong link, neighbour or
 * missed node changes populations by the size of the random state's perturbation (1e-2), far outside. */
static const double tol_fast[2] = {2.2e-13, 1.2e-4};

typedef struct {
    tess_lattice_id lat;
    int collision;
    int wall;    /* TESS_WALL_* */
    int fluid;
    int parabolic; /* the inlet with the parabolic profile (tess_inlet.h) */
} variant_t;

/* The box of lt_mixed_case (every boundary kind of the engine) with the variant's model and walls; a
 * parabolic variant turns the inlet to face -x with the profile across y between the bottom wall (y = 0.5) and
 * the lid (y = ny - 1.5), where halfway bounce-back puts them. */
static void mixed_case(const variant_t *v, tess_geometry_t *g, tess_params_t *p, lt_planes_t *pl)
{
    lt_mixed_case(v->lat, g, p, pl);
    p->collision = v->collision;
    p->fluid = v->fluid;
    p->wall = v->wall;
    if (v->parabolic) {
        tess_material_t *in = &p->mat[3];
        in->normal[0] = -1.0;
        in->normal[1] = 0.0;
        in->profile = TESS_PROFILE_PARABOLIC;
        in->wall_lo[1] = 0.5;
        in->wall_hi[1] = g->ny - 1.5;
    }
}





int main(void)
{
    static const char *coll_name[] = {"lbgk", "mrt", "regularized"};
    static const char *wall_name[] = {"bounce-back", "bouzidi-linear", "bouzidi-quadratic"};
    const int L = TESS_COLLISION_LBGK, M = TESS_COLLISION_MRT, G = TESS_COLLISION_REGULARIZED;
    const int BB = TESS_WALL_BOUNCE_BACK, B1 = TESS_WALL_BOUZIDI_LINEAR, B2 = TESS_WALL_BOUZIDI_QUADRATIC;
    const variant_t variants[] = {
        {TESS_LATTICE_D2Q9, L, B2, 1, 0},  {TESS_LATTICE_D2Q9, M, B2, 0, 0},  {TESS_LATTICE_D2Q9, G, B2, 1, 0},
        {TESS_LATTICE_D3Q13, M, B2, 1, 0}, {TESS_LATTICE_D3Q13, M, B2, 0, 0}, {TESS_LATTICE_D3Q19, L, B2, 1, 0},
        {TESS_LATTICE_D3Q19, M, B2, 0, 0}, {TESS_LATTICE_D3Q19, G, B2, 1, 0}, {TESS_LATTICE_D3Q19, L, B1, 0, 0},
        {TESS_LATTICE_D3Q19, M, BB, 1, 0}, {TESS_LATTICE_D3Q27, L, B2, 1, 0}, {TESS_LATTICE_D3Q27, G, B2, 0, 0},
        {TESS_LATTICE_D2Q9, M, B2, 0, 1}, {TESS_LATTICE_D3Q19, G, B1, 1, 1},
    };
    int first = 1;
    const int want_bits = gt_want_bits();
    for (size_t vi = 0; vi < sizeof variants / sizeof variants[0]; vi++)
        for (int prec_i = 0; prec_i < 2; prec_i++) {
            const variant_t *v = &variants[vi];
            const tess_precision prec = (tess_precision)prec_i;
            tess_geometry_t g;
            tess_params_t p;
            tess_tiling_t t;
            lt_planes_t pl;
            tess_error_t err = {0};
            mixed_case(v, &g, &p, &pl);
            if (tess_tiling_build(&t, &g, &p, &err) != TESS_OK ||
                (p.wall != TESS_WALL_BOUNCE_BACK && tess_links_build(&t.links, &t, &p, lt_planes_q, &pl, &err) != TESS_OK))
                return gt_skip_or_fail(&err, 0);
            void *in = tess_test_random_state(&t, &p, prec, 5 + vi);
            const size_t bytes = tess_state_count(&t) * tess_precision_size(prec);
            void *ref = malloc(bytes), *got = malloc(bytes);
            if (!ref || !got) {
                printf("FAIL out of memory\n");
                return 1;
            }
            tess_backend_config_t cfg = {0};
            cfg.precision = prec;
            cfg.pattern = TESS_PATTERN_AB;
            cfg.variant = TESS_KERNEL_FULL;
            if (tess_test_run_ops(&tess_backend_cpu, &cfg, &t, &p, in, NSTEPS, ref, NULL, &err) != TESS_OK)
                return gt_skip_or_fail(&err, 0);
            memset(got, 0, bytes);
            if (tess_test_run_ops(&TESS_TEST_GPU_OPS, &cfg, &t, &p, in, NSTEPS, got, NULL, &err) != TESS_OK)
                return gt_skip_or_fail(&err, first);
            first = 0;
            int bits, finite;
            const double d = gt_wet_diff(&t, &p, prec, got, ref, &bits, &finite);
            const tess_lattice_t *lat = tess_lattice_get(v->lat);
            char what[256];
            snprintf(what, sizeof what, "%s %s %s %s fluid=%d%s (%lld curved links): %d steps vs cpu, max |diff| %.3g",
                     lat->name, tess_precision_name(prec), coll_name[v->collision], wall_name[v->wall], v->fluid,
                     v->parabolic ? " parabolic inlet" : "", (long long)t.links.n, NSTEPS, d);
            tess_test_true("cpu reference finite", finite);
            if (v->wall != TESS_WALL_BOUNCE_BACK)
                tess_test_true("curved links present", t.links.n > 0);
            gt_check(what, want_bits, bits, d, tol_fast[prec_i]);
            free(in);
            free(ref);
            free(got);
            tess_tiling_free(&t);
            tess_geometry_free(&g);
        }
    return tess_test_result("test_gpu_q_vs_cpu");
}
