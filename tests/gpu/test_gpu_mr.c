/* The GPU's moment representation (pattern mr, backends/gpu/tess_gpu_mr.h) against the CPU's MR and against the
 * GPU's own AB with the regularized collision, through the ops tables only, on every lattice with a regularized
 * collision (D2Q9, D3Q19, D3Q27) and both precisions, on two cases of tests/lattice's mixed box:
 *   curved   quadratic Bouzidi bottom wall, moving lid, tilted nee velocity inlet and pressure outlet, random
 *            obstacles, body force (the list kernel's curved links and nee nodes);
 *   planes   halfway bounce-back walls and fd inlet/outlet planes (D3Q19: Zou-He planes), quasi-compressible
 *            (the plain kernel's bounce-back and moving wall; the list kernel's fd and Zou-He nodes).
 * Tolerance: relative to the largest population, 1e-12 (FP64) and 1e-5 (FP32), the matrix suite's MR bound
 * (issue 3): MR and AB rebuild every population with the same expression, the CPU's MR and the GPU's call the
 * same core functions in the same order, so only round-off (FMA contraction on the GPU) differs. Whether the
 * states have the same bits is printed (expected, not asserted, in the reproducible build). A wrong neighbour,
 * a missed wall or list node changes populations by the random state's 1e-2, far outside. The block shapes
 * (mr_layer: one tile, 2x2x1 tiles, the default) must give the same bits: every node runs the same operations on
 * the same values whichever block gathers them (a wrong tile map would not). Without a device: exit 77. */
#include "gpu_test.h"
#include "lattice_test.h"
#include "tess_links.h"
#include "tess_state.h"
#include "tess_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const tess_backend_ops_t TESS_TEST_GPU_OPS;
extern const tess_backend_ops_t tess_backend_cpu;

enum { NSTEPS = 100 };

/* The GPU's copies of the moments (tess_backend_config_t.mr_copies; 0: two where they fit). */
static int mr_copies = 0;

/* mr_layer: on the GPU the nodes a block updates (0: the default shape). */
static tess_status run_layer(const tess_backend_ops_t *ops, tess_pattern pat, tess_precision prec, int layer,
                             const tess_tiling_t *t, const tess_params_t *p, const void *in, void *out, size_t bytes,
                             tess_error_t *err)
{
    tess_backend_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.precision = prec;
    cfg.pattern = pat;
    cfg.mr_layer = layer;
    cfg.mr_copies = mr_copies;
    cfg.variant = TESS_KERNEL_FULL;
    memset(out, 0, bytes);
    return tess_test_run_ops(ops, &cfg, t, p, in, NSTEPS, out, NULL, err);
}

static double rel_diff(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *a,
                       const void *b, int *bits)
{
    double scale = 0.0;
    const double d = tess_test_wet_diff(t, p, prec, a, b, bits, NULL, &scale);
    return scale > 0.0 ? d / scale : d;
}

static tess_status run(const tess_backend_ops_t *ops, tess_pattern pat, tess_precision prec, const tess_tiling_t *t,
                       const tess_params_t *p, const void *in, void *out, size_t bytes, tess_error_t *err)
{
    return run_layer(ops, pat, prec, 0, t, p, in, out, bytes, err);
}

/* One of the test's cases of the mixed box, nz nodes high (0: the default) and periodic along z or not: curved
 * (cs 0) or planes (cs 1), regularized, tiled, with its curved links. */
static tess_status build_case(tess_lattice_id lat, int cs, int nz, int periodic_z, tess_geometry_t *g,
                              tess_params_t *p, tess_tiling_t *t, tess_error_t *err)
{
    lt_planes_t pl;
    lt_mixed_nz = nz;
    lt_mixed_periodic_z = periodic_z;
    lt_mixed_case(lat, g, p, &pl);
    lt_mixed_nz = 0;
    lt_mixed_periodic_z = 1;
    p->collision = TESS_COLLISION_REGULARIZED;
    if (cs == 1) {
        p->wall = TESS_WALL_BOUNCE_BACK;
        p->fluid = TESS_FLUID_QUASI_COMPRESSIBLE;
        for (int m = 3; m <= 4; m++) { /* inlet at x = 0 facing -x, outlet at x = nx - 1 facing +x */
            p->mat[m].method = lat == TESS_LATTICE_D3Q19 ? TESS_BC_ZOU_HE : TESS_BC_FINITE_DIFFERENCE;
            p->mat[m].axis = 0;
            p->mat[m].sign = m == 3 ? -1 : 1;
            p->mat[m].normal[0] = m == 3 ? -1.0 : 1.0;
            p->mat[m].normal[1] = 0.0;
        }
    }
    tess_status st = tess_tiling_build(t, g, p, err);
    if (st == TESS_OK && p->wall != TESS_WALL_BOUNCE_BACK)
        st = tess_links_build(&t->links, t, p, lt_planes_q, &pl, err);
    return st;
}

/* One copy of the moments (backends/gpu/tess_gpu_mr_order.h): on the default box the array's extra tiles G cover
 * every tile, so nothing old is overwritten within a step. A box of 10 tile layers (nz 40), periodic along z and
 * not, makes G smaller than the tiles (4 layers with one tile or 2x2x1 tiles a block, 5 with 2x2x2 tiles or the
 * column sweep over 4 layers): blocks overwrite old moments that others read earlier in the step, in both phases
 * (the step order alternates), with the plane across the periodic boundary from its saved copy. Every shape with
 * one copy (mr_copies 1) against the CPU's MR (cpu; the curved case: the list kernel's nodes go through the side
 * buffer), and bitwise against two copies in any build (the same operations per node): a block that wrote too
 * early, or a wrong saved plane, moves a node by the random state's 1e-2. */
static tess_status one_copy_checks(const char *name, const tess_tiling_t *t, const tess_params_t *p,
                                   tess_precision prec, double tol, const void *in, const void *cpu, int periodic,
                                   tess_error_t *err)
{
    const size_t bytes = tess_state_count(t) * tess_precision_size(prec);
    void *mr = malloc(bytes), *two = malloc(bytes);
    static const int layers[] = {64, 256, 512, 1024};
    tess_status st = TESS_OK;
    for (int s = 0; s < 4 && st == TESS_OK; s++) {
        mr_copies = 2;
        st = run_layer(&TESS_TEST_GPU_OPS, TESS_PATTERN_MR, prec, layers[s], t, p, in, two, bytes, err);
        mr_copies = 1;
        if (st == TESS_OK)
            st = run_layer(&TESS_TEST_GPU_OPS, TESS_PATTERN_MR, prec, layers[s], t, p, in, mr, bytes, err);
        mr_copies = 0;
        if (st != TESS_OK)
            break;
        int bits;
        char what[256];
        rel_diff(t, p, prec, mr, two, &bits);
        snprintf(what, sizeof what,
                 "%s %s curved, 10 tile layers, z %s: gpu mr, %d nodes per block, one copy vs two copies, bitwise",
                 name, tess_precision_name(prec), periodic ? "periodic" : "walled", layers[s]);
        tess_test_true(what, bits);
        const double d = rel_diff(t, p, prec, mr, cpu, &bits);
        snprintf(what, sizeof what,
                 "%s %s curved, 10 tile layers, z %s: gpu mr one copy, %d nodes per block vs cpu mr, %d steps, "
                 "relative (bitwise: %s)",
                 name, tess_precision_name(prec), periodic ? "periodic" : "walled", layers[s], NSTEPS,
                 bits ? "yes" : "no");
        tess_test_close(what, d, 0.0, tol);
    }
    free(mr);
    free(two);
    return st;
}

/* The names the arguments select by: each argument is a lattice, a case or a precision. */
static const tess_lattice_id lats[] = {TESS_LATTICE_D2Q9, TESS_LATTICE_D3Q19, TESS_LATTICE_D3Q27};
static const char *const case_names[] = {"curved", "planes", "one-copy-walled", "one-copy-periodic"};
static const char *const prec_names[] = {"double", "single"};

/* Which checks run: per kind a bit per name (lattice, case, precision); a kind no argument names keeps every bit.
 * compute-sanitizer's racecheck slows the kernels so much that a capped run needs a few cases at a time
 * (ci/gpu-check.sh, GPU_CHECK_RACECHECK_TESTS). */
typedef struct {
    unsigned lat, cs, prec;
} selection_t;

static int name_bit(const char *word, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(word, names[i]) == 0)
            return 1 << i;
    return 0;
}

/* Fills s from the arguments; an unknown word, or words that select no check (D2Q9 has no one-copy box), is one
 * line on stderr and -1. */
static int parse_selection(int argc, char **argv, selection_t *s)
{
    const char *lat_names[3];
    for (int l = 0; l < 3; l++)
        lat_names[l] = tess_lattice_get(lats[l])->name;
    *s = (selection_t){0, 0, 0};
    for (int a = 1; a < argc; a++) {
        int b;
        if ((b = name_bit(argv[a], lat_names, 3)))
            s->lat |= (unsigned)b;
        else if ((b = name_bit(argv[a], case_names, 4)))
            s->cs |= (unsigned)b;
        else if ((b = name_bit(argv[a], prec_names, 2)))
            s->prec |= (unsigned)b;
        else {
            fprintf(stderr,
                    "test_gpu_mr: unknown argument '%s' (expected a lattice D2Q9, D3Q19 or D3Q27, a case curved, "
                    "planes, one-copy-walled or one-copy-periodic, or a precision double or single)\n",
                    argv[a]);
            return -1;
        }
    }
    s->lat = s->lat ? s->lat : 7u;
    s->cs = s->cs ? s->cs : 15u;
    s->prec = s->prec ? s->prec : 3u;
    /* D2Q9 has the curved and planes cases only */
    int any = 0;
    for (int l = 0; l < 3; l++)
        any |= (s->lat >> l & 1u) && (s->cs & (l ? 15u : 3u));
    if (!any) {
        fprintf(stderr, "test_gpu_mr: the arguments select no check (D2Q9 has no one-copy box)\n");
        return -1;
    }
    return 0;
}

/* Arguments select checks by lattice (D2Q9, D3Q19, D3Q27), case (curved, planes, one-copy-walled,
 * one-copy-periodic) and precision (double, single); none: every check. */
int main(int argc, char **argv)
{
    selection_t sel;
    int first = 1;
    if (parse_selection(argc, argv, &sel) != 0)
        return 2;
    printf("mode: %s\n",
#ifdef TESS_GPU_REPRODUCIBLE
           "reproducible (the same bits expected)"
#else
           "fast (FMA contraction on the GPU)"
#endif
    );
    for (int l = 0; l < 3; l++)
        /* cs: curved, planes, then (3D) the box of 10 tile layers walled and periodic along z (one_copy_checks) */
        for (int cs = 0; cs < (l ? 4 : 2); cs++)
            for (int pr = 0; pr < 2; pr++) {
                if (!(sel.lat >> l & 1u) || !(sel.cs >> cs & 1u) || !(sel.prec >> pr & 1u))
                    continue;
                const tess_precision prec = pr ? TESS_PRECISION_SINGLE : TESS_PRECISION_DOUBLE;
                const double tol = pr ? 1e-5 : 1e-12;
                tess_geometry_t g;
                tess_params_t p;
                tess_tiling_t t;
                tess_error_t err = {0};
                if (build_case(lats[l], cs % 2 * (cs < 2), cs < 2 ? 0 : 40, cs != 2, &g, &p, &t, &err) != TESS_OK)
                    return gt_skip_or_fail(&err, 0);
                void *in = tess_test_random_state(&t, &p, prec, 17 + (uint64_t)cs);
                const size_t bytes = tess_state_count(&t) * tess_precision_size(prec);
                void *cpu = malloc(bytes), *mr = malloc(bytes), *ab = malloc(bytes);
                char what[256];
                const char *name = tess_lattice_get(lats[l])->name;
                tess_status st = TESS_OK;
                if (cs >= 2) {
                    st = run(&tess_backend_cpu, TESS_PATTERN_MR, prec, &t, &p, in, cpu, bytes, &err);
                    if (st == TESS_OK)
                        st = one_copy_checks(name, &t, &p, prec, tol, in, cpu, cs == 3, &err);
                } else {
                    const char *cname = cs ? (lats[l] == TESS_LATTICE_D3Q19 ? "planes (zou-he)" : "planes (fd)")
                                           : "curved (bouzidi-quadratic, nee)";
                    if (run(&TESS_TEST_GPU_OPS, TESS_PATTERN_MR, prec, &t, &p, in, mr, bytes, &err) != TESS_OK)
                        return gt_skip_or_fail(&err, first);
                    first = 0;
                    if (run(&tess_backend_cpu, TESS_PATTERN_MR, prec, &t, &p, in, cpu, bytes, &err) != TESS_OK ||
                        run(&TESS_TEST_GPU_OPS, TESS_PATTERN_AB, prec, &t, &p, in, ab, bytes, &err) != TESS_OK)
                        return gt_skip_or_fail(&err, 0);
                    int bits;
                    double d = rel_diff(&t, &p, prec, mr, cpu, &bits);
                    snprintf(what, sizeof what, "%s %s %s: gpu mr vs cpu mr, %d steps, relative (bitwise: %s)", name,
                             tess_precision_name(prec), cname, NSTEPS, bits ? "yes" : "no");
                    tess_test_close(what, d, 0.0, tol);
                    d = rel_diff(&t, &p, prec, mr, ab, &bits);
                    snprintf(what, sizeof what, "%s %s %s: gpu mr vs gpu ab regularized, %d steps, relative", name,
                             tess_precision_name(prec), cname, NSTEPS);
                    tess_test_close(what, d, 0.0, tol);
                    for (int layer = 64; layer <= 256; layer *= 4) {
                        if (run_layer(&TESS_TEST_GPU_OPS, TESS_PATTERN_MR, prec, layer, &t, &p, in, ab, bytes, &err) !=
                            TESS_OK)
                            return gt_skip_or_fail(&err, 0);
                        d = rel_diff(&t, &p, prec, ab, mr, &bits);
                        snprintf(what, sizeof what, "%s %s %s: gpu mr, %d nodes per block vs the default, bitwise",
                                 name, tess_precision_name(prec), cname, layer);
                        tess_test_true(what, bits);
                    }
                    /* the run moved the state: the comparisons are not of two copies of the start */
                    d = rel_diff(&t, &p, prec, mr, in, &bits);
                    snprintf(what, sizeof what, "%s %s %s: the state moved (relative change > 1e-4)", name,
                             tess_precision_name(prec), cname);
                    tess_test_true(what, d > 1e-4);
                }
                free(in);
                free(cpu);
                free(mr);
                free(ab);
                tess_tiling_free(&t);
                tess_geometry_free(&g);
                /* a selection of one-copy boxes makes its first GPU run there: a device error then means no
                 * device */
                if (st != TESS_OK)
                    return gt_skip_or_fail(&err, first);
                first = 0;
            }
    return tess_test_result("test_gpu_mr");
}
