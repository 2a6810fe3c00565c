/* The matrix suite (tess_test_matrix.h): for one backend, every pattern (ab, aa, mr) x lattice (D2Q9, D3Q13, D3Q19,
 * D3Q27) x precision (double, single) entry runs the same checks on small cases:
 *
 *   reference  the backend against the per-node reference (tess_matrix_reference.h) on the mixed case of
 *              tests/lattice (a sparse box with walls and random obstacles, a moving lid, a curved bottom wall at
 *              q = 0.3, a tilted nee velocity inlet and a nee pressure outlet, a body force, padding and plain
 *              interior tiles) and its physics variants (every collision the lattice has, every wall rule, both
 *              fluid models, a parabolic inlet), NSTEPS steps from a random state. AB and AA: the same bits where
 *              the hooks say bitwise (the C code never contracts; a GPU built with TESSERA_REPRODUCIBLE), else
 *              within FAST_ULPS ulp per step. MR (regularized collision only, the lattices that have it):
 *              NSTEPS_MR steps against the reference's AB run of the same collision, 1e-12 (double) and 1e-5
 *              (single) of the largest population: MR stores the ten moments and rebuilds every pulled population
 *              with the expression that the AB collision stores, so only round-off differs (issue 3's bound).
 *   aa=ab      AA after an even number of steps against the backend's own AB, same bits (or FAST_ULPS).
 *   threads    1 thread against the hooks' team size, same bits (each node reads only the state before the step).
 *   mass       a closed box (halfway bounce-back walls, random obstacles, a body force) conserves mass over
 *              NSTEPS_MASS steps: relative change at most S omega 4 eps (tests/core/test_closed_box.c explains the
 *              bound: streaming and bounce-back copy values, and the collision's systematic rounding of sum feq is
 *              below 3 eps per node and step).
 *   roundtrip  initialise then download gives the state back: the same bits for AB and AA; MR stores the moments
 *              of the state, and the random equilibrium state lies in the space its Hermite rebuild spans, so it
 *              comes back to round-off: the moments are sums of q terms and the rebuild adds a few roundings,
 *              so 2 q eps of the largest population (measured up to 11 eps, D3Q27).
 * A combination the backend does not run (a pattern its hooks do not claim; MR on D3Q13, which has no
 * regularized collision) must be refused with TESS_ERR_UNSUPPORTED and a message, printed as "refused: ..."; MR
 * with the LBGK collision is bad input (TESS_ERR_INPUT: the case file asks for what no backend can run, and the
 * command-line program's exit status 2 rests on it) and is checked once per backend that runs MR. */
#include "tess_test_matrix.h"
#include "lattice_test.h"
#include "tess_matrix_reference.h"
#include "tess_physics_q.h"
#include "tess_state.h"
#include "tess_test.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Steps of each check: NSTEPS for AB and AA against the reference (even, for AA), NSTEPS_MR for MR (as issue 3
 * measured it), NSTEPS_MASS for the closed box. --quick (the sanitized build, where the loops run 100 to 300 times
 * slower) divides them by 10: the same checks and cases, with tolerances that follow the step counts. */
enum { NSTEPS = 40, NSTEPS_MR = 200, NSTEPS_MASS = 500, QUICK = 10 };
enum { FAST_ULPS = 10 }; /* fast build: ulp per step (a node update has a few dozen dependent operations) */
static int nsteps = NSTEPS, nsteps_mr = NSTEPS_MR, nsteps_mass = NSTEPS_MASS;

/* One physics variant of the mixed case. */
typedef struct {
    int collision, wall, fluid, parabolic;
    int plane; /* the inlet and outlet as axis-aligned planes instead of tilted nee: PZ_ Zou-He (D3Q19), PF_ the
                * finite-difference closure (fd; D2Q9, D3Q19, D3Q27) */
    int far;   /* QF_: the bottom wall's surface at y = 0.4, so its links have q = 0.6 (the Bouzidi rules' q >= 1/2
                * forms, which divide by q; the mixed case's own q = 0.3 takes the other forms) */
    int high;  /* HT_: the moving wall, inlet and outlet as node types 19, 17 and 16 (the GPU's copy of the halo's
                * node types then takes 8 bits a type instead of 4: tess_gpu_halo_bits) */
} tm_variant_t;

#define L_ TESS_COLLISION_LBGK
#define M_ TESS_COLLISION_MRT
#define G_ TESS_COLLISION_REGULARIZED
#define BB_ TESS_WALL_BOUNCE_BACK
#define B1_ TESS_WALL_BOUZIDI_LINEAR
#define B2_ TESS_WALL_BOUZIDI_QUADRATIC
#define IN_ TESS_FLUID_INCOMPRESSIBLE
#define QC_ TESS_FLUID_QUASI_COMPRESSIBLE
#define PZ_ 1
#define PF_ 2
#define QF_ 1
#define HT_ 1
/* Per lattice (tess_lattice_id order: D3Q19, D2Q9, D3Q13, D3Q27): the first variant is the mixed case itself (the
 * lattice's first collision, quadratic Bouzidi, the incompressible model); then halfway bounce-back and linear
 * Bouzidi, every other collision the lattice has, each fluid model at least once, on D2Q9 and D3Q19 a parabolic
 * inlet (the profile reads the tile corners), on D3Q19 Zou-He planes for the inlet and outlet, fd planes on
 * every lattice that has them, both Bouzidi rules with the wall at q = 0.6, and node types 16 to 19. Together:
 * test_q_tiles' every collision with quadratic walls and every wall rule with the first collision, and
 * test_gpu_q_vs_cpu's collision, wall and inlet variants. */
static const tm_variant_t variants[4][13] = {
    {{L_, B2_, IN_, 0, 0, 0, 0}, {L_, BB_, IN_, 0, 0, 0, 0}, {L_, B1_, QC_, 0, 0, 0, 0}, {M_, B2_, QC_, 0, 0, 0, 0},
     {G_, B2_, IN_, 0, 0, 0, 0}, {M_, BB_, QC_, 0, 0, 0, 0}, {G_, B1_, QC_, 1, 0, 0, 0}, {M_, B2_, QC_, 0, PZ_, 0, 0},
     {L_, B2_, QC_, 0, PF_, 0, 0}, {L_, B2_, IN_, 0, 0, QF_, 0}, {G_, B1_, QC_, 0, 0, QF_, 0},
     {L_, B2_, IN_, 0, 0, 0, HT_}, {-1, 0, 0, 0, 0, 0, 0}},
    {{L_, B2_, IN_, 0, 0, 0, 0}, {L_, BB_, IN_, 0, 0, 0, 0}, {L_, B1_, QC_, 0, 0, 0, 0}, {M_, B2_, QC_, 0, 0, 0, 0},
     {G_, B2_, IN_, 0, 0, 0, 0}, {M_, B2_, QC_, 1, 0, 0, 0}, {L_, B2_, IN_, 0, PF_, 0, 0}, {L_, B2_, IN_, 0, 0, QF_, 0},
     {M_, B1_, QC_, 0, 0, QF_, 0}, {L_, BB_, IN_, 0, 0, 0, HT_}, {-1, 0, 0, 0, 0, 0, 0}},
    {{M_, B2_, IN_, 0, 0, 0, 0}, {M_, BB_, IN_, 0, 0, 0, 0}, {M_, B1_, QC_, 0, 0, 0, 0}, {M_, B2_, QC_, 0, 0, 0, 0},
     {M_, B2_, IN_, 0, 0, QF_, 0}, {M_, B1_, QC_, 0, 0, QF_, 0}, {M_, B2_, IN_, 0, 0, 0, HT_}, {-1, 0, 0, 0, 0, 0, 0}},
    {{L_, B2_, IN_, 0, 0, 0, 0}, {L_, BB_, IN_, 0, 0, 0, 0}, {L_, B1_, QC_, 0, 0, 0, 0}, {G_, B2_, QC_, 0, 0, 0, 0},
     {G_, B2_, IN_, 0, PF_, 0, 0}, {L_, B2_, IN_, 0, 0, QF_, 0}, {G_, B1_, QC_, 0, 0, QF_, 0},
     {L_, B2_, IN_, 0, 0, 0, HT_}, {-1, 0, 0, 0, 0, 0, 0}},
};

static const char *const coll_name[] = {"lbgk", "mrt", "regularized"};
static const char *const wall_name[] = {"bounce-back", "bouzidi-linear", "bouzidi-quadratic"};
static const char *const pattern_name[] = {"ab", "aa", "mr"};

/* The backend configuration of every run: the one place that fills it. */
static void tm_config(tess_backend_config_t *cfg, tess_pattern pattern, tess_precision prec, int threads)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->precision = prec;
    cfg->pattern = pattern;
    cfg->variant = TESS_KERNEL_FULL;
    cfg->threads = threads;
}

/* ---- the table ---- */

typedef struct {
    const tess_matrix_hooks_t *h;
    tess_pattern pat;
    tess_lattice_id lat;
    tess_precision prec;
} tm_entry_t;

/* Rows by result, for the summary line: ok, FAIL, refused, SKIPPED. */
static int tm_count[4];

static void tm_row(const tm_entry_t *e, const char *check, const char *result, double diff, double tol,
                   const char *detail)
{
    tm_count[result[0] == 'o' ? 0 : result[0] == 'F' ? 1 : result[0] == 'r' ? 2 : 3]++;
    char d[32] = "-", t[32] = "-";
    if (diff >= 0.0 || isnan(diff))
        snprintf(d, sizeof d, "%.3g", diff);
    if (tol >= 0.0)
        snprintf(t, sizeof t, "%.3g", tol);
    printf("%-7s %-7s %-7s %-9s %-10s %-8s %-10s %-10s %s\n", e->h->name, pattern_name[e->pat],
           tess_lattice_get(e->lat)->name, tess_precision_name(e->prec), check, result, d, t, detail);
}

/* A check's row: ok when diff <= tol (NaN fails), or, with bits set, when the states had the same bits. */
static void tm_result(const tm_entry_t *e, const char *check, int want_bits, int bits, double diff, double tol,
                      const char *detail)
{
    const int ok = want_bits ? bits : diff <= tol;
    tm_row(e, check, ok ? "ok" : "FAIL", diff, want_bits ? 0.0 : tol, detail);
    tess_test_failures += !ok;
}

static void tm_fail(const tm_entry_t *e, const char *check, const char *what, const tess_error_t *err)
{
    char detail[1200];
    snprintf(detail, sizeof detail, "%s: %s", what, err ? err->msg : "");
    tm_row(e, check, "FAIL", -1.0, -1.0, detail);
    tess_test_failures++;
}

/* ---- cases and comparisons ---- */

/* Largest difference over the wet nodes' populations of a and the reference b, relative to b's largest
 * population; *bits: every value has the same bits. A NaN anywhere gives NaN (a failure). */
static double tm_diff(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *a, const void *b,
                      int *bits)
{
    double scale = 0.0;
    const double worst = tess_test_wet_diff(t, p, prec, a, b, bits, NULL, &scale);
    return scale > 0.0 ? worst / scale : worst;
}

/* A case: the tiling (with curved links), its physics and a random state. */
typedef struct {
    tess_geometry_t g;
    tess_params_t p;
    tess_tiling_t t;
    void *in;
    size_t bytes;
} tm_case_t;

static void tm_case_free(tm_case_t *c)
{
    tess_tiling_free(&c->t);
    tess_geometry_free(&c->g);
    free(c->in);
    memset(c, 0, sizeof *c);
}

/* The mixed case of tests/lattice with variant v (the inlet of a parabolic variant faces -x, its profile across y
 * between the bottom wall and the lid where halfway bounce-back puts them). */
static tess_status tm_mixed(tm_case_t *c, tess_lattice_id lat, const tm_variant_t *v, tess_precision prec,
                            uint64_t seed, tess_error_t *err)
{
    memset(c, 0, sizeof *c);
    lt_planes_t pl;
    lt_mixed_case(lat, &c->g, &c->p, &pl);
    if (v->far)
        pl.d[0] = 0.4; /* links from y = 1 reach the surface at q = 0.6 */
    c->p.collision = v->collision;
    c->p.wall = v->wall;
    c->p.fluid = v->fluid;
    if (v->parabolic) {
        tess_material_t *in = &c->p.mat[3];
        in->normal[0] = -1.0;
        in->normal[1] = 0.0;
        in->profile = TESS_PROFILE_PARABOLIC;
        in->wall_lo[1] = 0.5;
        in->wall_hi[1] = c->g.ny - 1.5;
    }
    if (v->plane)
        for (int m = 3; m <= 4; m++) { /* inlet at x = 0 facing -x, outlet at x = nx - 1 facing +x */
            c->p.mat[m].method = v->plane == PZ_ ? TESS_BC_ZOU_HE : TESS_BC_FINITE_DIFFERENCE;
            c->p.mat[m].axis = 0;
            c->p.mat[m].sign = m == 3 ? -1 : 1;
            c->p.mat[m].normal[0] = m == 3 ? -1.0 : 1.0;
            c->p.mat[m].normal[1] = 0.0;
        }
    if (v->high) { /* the moving wall, inlet and outlet renumbered; types 5 to 15 stay unused (solid) */
        static const int from[3] = {2, 3, 4}, to[3] = {19, 17, 16};
        for (int m = 0; m < 3; m++) {
            c->p.mat[to[m]] = c->p.mat[from[m]];
            for (size_t n = 0; n < (size_t)c->g.nx * c->g.ny * c->g.nz; n++)
                if (c->g.type[n] == from[m])
                    c->g.type[n] = (uint8_t)to[m];
        }
        c->p.nmat = 20;
    }
    tess_status st = tess_tiling_build(&c->t, &c->g, &c->p, err);
    if (st == TESS_OK && c->p.wall != TESS_WALL_BOUNCE_BACK)
        st = tess_links_build(&c->t.links, &c->t, &c->p, lt_planes_q, &pl, err);
    if (st != TESS_OK)
        return st;
    if (c->p.wall != TESS_WALL_BOUNCE_BACK && c->t.links.n == 0)
        return tess_fail(err, TESS_ERR_INPUT, "the %s case has no curved links", tess_lattice_get(lat)->name);
    c->in = tess_test_random_state(&c->t, &c->p, prec, seed);
    c->bytes = tess_state_count(&c->t) * tess_precision_size(prec);
    return TESS_OK;
}

/* A closed box with halfway bounce-back walls, 15% random solid obstacles and a body force (test_closed_box). */
static tess_status tm_closed_box(tm_case_t *c, tess_lattice_id lat, int collision, tess_precision prec,
                                 tess_error_t *err)
{
    memset(c, 0, sizeof *c);
    const int d2 = lat == TESS_LATTICE_D2Q9;
    tess_geometry_init(&c->g, d2 ? 20 : 10, d2 ? 18 : 9, d2 ? 1 : 7, 1);
    tess_test_rng r;
    tess_test_rng_seed(&r, 99);
    for (size_t n = 0; n < (size_t)c->g.nx * c->g.ny * c->g.nz; n++)
        if (tess_test_uniform(&r) < 0.15)
            c->g.type[n] = 0;
    tess_params_default(&c->p);
    tess_params_set_lattice(&c->p, lat);
    c->p.collision = collision;
    tess_params_set_tau(&c->p, 0.6);
    c->p.use_force = 1;
    c->p.force[0] = 1e-5;
    c->p.force[d2 ? 1 : 2] = -2e-5;
    tess_status st = tess_tiling_build(&c->t, &c->g, &c->p, err);
    if (st != TESS_OK)
        return st;
    c->in = tess_test_random_state(&c->t, &c->p, prec, 3);
    c->bytes = tess_state_count(&c->t) * tess_precision_size(prec);
    return TESS_OK;
}

static double tm_mass(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *pops)
{
    const size_t nn = 64 * (size_t)t->ntiles;
    double *rho = malloc(nn * sizeof *rho), *u = malloc(3 * nn * sizeof *u), m = 0.0;
    if (!rho || !u) {
        free(rho), free(u);
        return NAN;
    }
    tess_state_fields(t, p, prec, pops, rho, u);
    for (size_t n = 0; n < nn; n++)
        m += rho[n]; /* dry nodes report 0 */
    free(rho), free(u);
    return m;
}

/* Runs the backend: create, upload, initialise from c->in, `steps` steps, download into out. */
static tess_status tm_run(const tess_matrix_hooks_t *h, tess_pattern pat, tess_precision prec, int threads,
                          const tm_case_t *c, int steps, void *out, tess_error_t *err)
{
    tess_backend_config_t cfg;
    tm_config(&cfg, pat, prec, threads);
    memset(out, 0, c->bytes);
    err->msg[0] = '\0';
    return tess_test_run_ops(h->ops, &cfg, &c->t, &c->p, c->in, steps, out, NULL, err);
}

static double tm_eps(tess_precision prec)
{
    return prec == TESS_PRECISION_SINGLE ? FLT_EPSILON : DBL_EPSILON;
}

/* Fast-build tolerance after n steps, relative to the largest population: a contracted multiply-add changes a
 * rounding by at most half an ulp; FAST_ULPS such per node and step, carried (the scheme is stable at tau 0.7 and
 * |u| <= 0.05) but not amplified, add up to n FAST_ULPS eps / 2. A wrong link, neighbour or node changes
 * populations by the random state's perturbation, 1e-2, far outside. */
static double tm_fast_tol(tess_precision prec, int n)
{
    return n * FAST_ULPS * tm_eps(prec) / 2;
}

/* ---- the checks of one entry ---- */

/* The collision of an entry's single-case checks: the lattice's first (MR: regularized). */
static int tm_entry_collision(const tm_entry_t *e)
{
    return e->pat == TESS_PATTERN_MR ? TESS_COLLISION_REGULARIZED : variants[e->lat][0].collision;
}

/* The mixed case with quadratic Bouzidi walls and this collision for a check; on failure a FAIL row and 0. */
static int tm_entry_case(const tm_entry_t *e, const char *check, int collision, uint64_t seed, tm_case_t *c)
{
    const tm_variant_t v = {collision, TESS_WALL_BOUZIDI_QUADRATIC, TESS_FLUID_INCOMPRESSIBLE, 0, 0, 0, 0};
    tess_error_t err = {0};
    if (tm_mixed(c, e->lat, &v, e->prec, seed, &err) == TESS_OK)
        return 1;
    tm_fail(e, check, "case", &err);
    tm_case_free(c);
    return 0;
}

/* The base variant's state after nsteps steps of AB on this backend (the aa=ab check's reference). */
typedef struct {
    void *ab;
    tess_lattice_id lat;
    tess_precision prec;
} tm_ab_keep_t;

static void tm_check_reference(const tm_entry_t *e, tm_ab_keep_t *keep)
{
    const tess_matrix_hooks_t *h = e->h;
    const int mr = e->pat == TESS_PATTERN_MR;
    const int steps = mr ? nsteps_mr : nsteps;
    const tm_variant_t mr_variant = {TESS_COLLISION_REGULARIZED, TESS_WALL_BOUZIDI_QUADRATIC,
                                     TESS_FLUID_INCOMPRESSIBLE, 0, 0, 0, 0};
    const tm_variant_t *list = mr ? &mr_variant : variants[e->lat];
    double worst = 0.0;
    int allbits = 1, nv = 0;
    char worst_name[160] = "";
    for (int vi = 0; (!mr || vi < 1) && list[vi].collision >= 0; vi++) {
        const tm_variant_t *v = &list[vi];
        tm_case_t c;
        tess_error_t err = {0};
        char name[160];
        snprintf(name, sizeof name, "%s %s %s%s%s%s%s", coll_name[v->collision], wall_name[v->wall],
                 v->fluid == TESS_FLUID_INCOMPRESSIBLE ? "incompressible" : "quasi-compressible",
                 v->parabolic ? " parabolic inlet" : "", v->plane == PZ_ ? " zou-he planes" : v->plane == PF_ ? " fd planes" : "",
                 v->far ? " q 0.6" : "", v->high ? " types 16-19" : "");
        if (tm_mixed(&c, e->lat, v, e->prec, 5 + (uint64_t)vi, &err) != TESS_OK) {
            tm_fail(e, "reference", name, &err);
            tm_case_free(&c);
            continue;
        }
        void *ref = malloc(c.bytes), *got = malloc(c.bytes);
        if (tess_matrix_reference_run(&c.t, &c.p, e->prec, c.in, steps, ref, &err) != TESS_OK)
            tm_fail(e, "reference", "the per-node reference did not run", &err);
        else if (tm_run(h, e->pat, e->prec, h->threads, &c, steps, got, &err) != TESS_OK)
            tm_fail(e, "reference", name, &err);
        else {
            int bits;
            const double d = tm_diff(&c.t, &c.p, e->prec, got, ref, &bits);
            nv++;
            allbits &= bits;
            if (!isnan(worst) && (isnan(d) || d > worst)) {
                worst = d;
                snprintf(worst_name, sizeof worst_name, "%s", name);
            } else if (!bits && worst_name[0] == '\0') {
                snprintf(worst_name, sizeof worst_name, "%s", name);
            }
            if (vi == 0 && e->pat == TESS_PATTERN_AB && keep) {
                free(keep->ab);
                keep->ab = got;
                keep->lat = e->lat;
                keep->prec = e->prec;
                got = NULL;
            }
        }
        free(ref);
        free(got);
        tm_case_free(&c);
    }
    if (nv == 0)
        return; /* every variant failed, each with its FAIL row */
    char detail[400];
    if (mr) {
        snprintf(detail, sizeof detail, "regularized, %d steps against the reference's AB, relative", steps);
        tm_result(e, "reference", 0, allbits, worst, e->prec == TESS_PRECISION_SINGLE ? 1e-5 : 1e-12, detail);
    } else {
        snprintf(detail, sizeof detail, "%d physics variants, %d steps, %s%s%s", nv, steps,
                 h->bitwise ? "bitwise" : "fast-build tolerance", worst_name[0] ? "; worst: " : "", worst_name);
        tm_result(e, "reference", h->bitwise, allbits, worst, tm_fast_tol(e->prec, steps), detail);
    }
}

static void tm_check_aa_ab(const tm_entry_t *e, const tm_ab_keep_t *keep)
{
    tm_case_t c;
    tess_error_t err = {0};
    if (!keep->ab || keep->lat != e->lat || keep->prec != e->prec) {
        tm_fail(e, "aa=ab", "no AB run of this lattice and precision to compare with", NULL);
        return;
    }
    if (!tm_entry_case(e, "aa=ab", tm_entry_collision(e), 5, &c))
        return;
    void *aa = malloc(c.bytes);
    if (tm_run(e->h, TESS_PATTERN_AA, e->prec, e->h->threads, &c, nsteps, aa, &err) != TESS_OK)
        tm_fail(e, "aa=ab", "AA run", &err);
    else {
        int bits;
        const double d = tm_diff(&c.t, &c.p, e->prec, aa, keep->ab, &bits);
        char detail[160];
        snprintf(detail, sizeof detail, "mixed case, AA after %d steps against this backend's AB", nsteps);
        tm_result(e, "aa=ab", e->h->bitwise, bits, d, tm_fast_tol(e->prec, nsteps), detail);
    }
    free(aa);
    tm_case_free(&c);
}

static void tm_check_threads(const tm_entry_t *e)
{
    tm_case_t c;
    tess_error_t err = {0};
    if (!tm_entry_case(e, "threads", tm_entry_collision(e), 7, &c))
        return;
    void *one = malloc(c.bytes), *team = malloc(c.bytes);
    if (tm_run(e->h, e->pat, e->prec, 1, &c, nsteps, one, &err) != TESS_OK ||
        tm_run(e->h, e->pat, e->prec, e->h->threads, &c, nsteps, team, &err) != TESS_OK)
        tm_fail(e, "threads", "run", &err);
    else {
        int bits;
        const double d = tm_diff(&c.t, &c.p, e->prec, team, one, &bits);
        char detail[160];
        snprintf(detail, sizeof detail, "mixed case, %d steps, 1 thread against %d", nsteps, e->h->threads);
        tm_result(e, "threads", 1, bits, d, 0.0, detail);
    }
    free(one);
    free(team);
    tm_case_free(&c);
}

static void tm_check_mass(const tm_entry_t *e)
{
    const int collision = tm_entry_collision(e);
    tm_case_t c;
    tess_error_t err = {0};
    if (tm_closed_box(&c, e->lat, collision, e->prec, &err) != TESS_OK) {
        tm_fail(e, "mass", "case", &err);
        tm_case_free(&c);
        return;
    }
    void *out = malloc(c.bytes);
    if (tm_run(e->h, e->pat, e->prec, e->h->threads, &c, nsteps_mass, out, &err) != TESS_OK)
        tm_fail(e, "mass", "run", &err);
    else {
        const double m0 = tm_mass(&c.t, &c.p, e->prec, c.in), m1 = tm_mass(&c.t, &c.p, e->prec, out);
        int bits;
        const double moved = tm_diff(&c.t, &c.p, e->prec, out, c.in, &bits);
        char detail[200];
        snprintf(detail, sizeof detail, "closed box, %s, %lld wet nodes, %d steps, relative change (state moved %.2g)",
                 coll_name[collision], (long long)c.t.n_wet, nsteps_mass, moved);
        /* A step that does nothing would conserve mass too: the state must have moved by the force and the
         * random state's relaxation, far more than round-off. */
        const double change = fabs(m1 - m0) / m0;
        tm_result(e, "mass", 0, 0, moved > 1e-3 ? change : NAN, nsteps_mass * (1.0 / c.p.tau) * 4.0 * tm_eps(e->prec),
                  detail);
    }
    free(out);
    tm_case_free(&c);
}

static void tm_check_roundtrip(const tm_entry_t *e)
{
    const int mr = e->pat == TESS_PATTERN_MR;
    tm_case_t c;
    tess_error_t err = {0};
    if (!tm_entry_case(e, "roundtrip", tm_entry_collision(e), 11, &c))
        return;
    void *out = malloc(c.bytes);
    if (tm_run(e->h, e->pat, e->prec, e->h->threads, &c, 0, out, &err) != TESS_OK)
        tm_fail(e, "roundtrip", "run", &err);
    else {
        int bits;
        const double d = tm_diff(&c.t, &c.p, e->prec, out, c.in, &bits);
        tm_result(e, "roundtrip", !mr, bits, d, 2.0 * c.t.q * tm_eps(e->prec),
                  mr ? "initialise then download, through the moments, relative" : "initialise then download");
    }
    free(out);
    tm_case_free(&c);
}

/* A combination that must be refused: with status `want` and a message (containing `needle` when not NULL). */
static void tm_check_refused(const tm_entry_t *e, const char *check, int collision, tess_status want,
                             const char *needle)
{
    tm_case_t c;
    tess_error_t err = {0};
    if (!tm_entry_case(e, check, collision, 5, &c))
        return;
    void *out = malloc(c.bytes);
    const tess_status st = tm_run(e->h, e->pat, e->prec, e->h->threads, &c, 2, out, &err);
    char detail[1200];
    if (st == TESS_OK) {
        tm_fail(e, check, "ran, but this combination must be refused", NULL);
    } else if (st != want || err.msg[0] == '\0' || (needle && !strstr(err.msg, needle))) {
        snprintf(detail, sizeof detail, "refused with '%s' instead of '%s'%s%s: %s", tess_status_text(st),
                 tess_status_text(want), needle ? " naming " : "", needle ? needle : "", err.msg);
        tm_fail(e, check, detail, NULL);
    } else {
        snprintf(detail, sizeof detail, "refused: %s", err.msg);
        tm_row(e, check, "refused", -1.0, -1.0, detail);
    }
    free(out);
    tm_case_free(&c);
}

int tess_matrix_main(const tess_matrix_hooks_t *h, int argc, char **argv)
{
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--quick") != 0) {
            fprintf(stderr, "%s: unknown argument '%s' (expected --quick or nothing)\n", argv[0], argv[a]);
            return 2;
        }
        nsteps = NSTEPS / QUICK, nsteps_mr = NSTEPS_MR / QUICK, nsteps_mass = NSTEPS_MASS / QUICK;
    }
    static const tess_lattice_id lats[] = {TESS_LATTICE_D2Q9, TESS_LATTICE_D3Q13, TESS_LATTICE_D3Q19,
                                           TESS_LATTICE_D3Q27};
    static const tess_pattern pats[] = {TESS_PATTERN_AB, TESS_PATTERN_AA, TESS_PATTERN_MR};
    char why[1024] = "";
    const int available = h->available(h, why, sizeof why);
    printf("matrix suite, backend %s: %s\n", h->name,
           !available ? "not available" : h->bitwise ? "bitwise against the reference" : "fast build (tolerances)");
    printf("%-7s %-7s %-7s %-9s %-10s %-8s %-10s %-10s %s\n", "backend", "pattern", "lattice", "precision", "check",
           "result", "max-diff", "tolerance", "detail");
    tm_ab_keep_t keep = {0};
    for (int l = 0; l < 4; l++)
        for (int pr = 0; pr < 2; pr++)
            for (int pa = 0; pa < 3; pa++) {
                const tm_entry_t e = {h, pats[pa], lats[l], pr ? TESS_PRECISION_SINGLE : TESS_PRECISION_DOUBLE};
                if (!available) {
                    char detail[1100];
                    snprintf(detail, sizeof detail, "SKIPPED: %s", why);
                    tm_row(&e, "all", "SKIPPED", -1.0, -1.0, detail);
                    continue;
                }
                const int base = variants[e.lat][0].collision;
                if (!h->supports(e.pat)) {
                    tm_check_refused(&e, "all", base, TESS_ERR_UNSUPPORTED, NULL);
                    continue;
                }
                if (e.pat == TESS_PATTERN_MR && !tess_q_supports(e.lat, TESS_COLLISION_REGULARIZED)) {
                    tm_check_refused(&e, "all", TESS_COLLISION_REGULARIZED, TESS_ERR_UNSUPPORTED, "regularized");
                    continue;
                }
                tm_check_reference(&e, &keep);
                if (e.pat == TESS_PATTERN_AA)
                    tm_check_aa_ab(&e, &keep);
                if (h->threads > 1)
                    tm_check_threads(&e);
                tm_check_mass(&e);
                tm_check_roundtrip(&e);
                if (e.pat == TESS_PATTERN_MR && e.lat == TESS_LATTICE_D2Q9 && e.prec == TESS_PRECISION_DOUBLE)
                    tm_check_refused(&e, "mr-lbgk", TESS_COLLISION_LBGK, TESS_ERR_INPUT, "regularized");
            }
    free(keep.ab);
    printf("%s: %d checks ok, %d failed, %d refused, %d skipped\n", h->name, tm_count[0], tm_count[1], tm_count[2],
           tm_count[3]);
    if (!available) {
        printf("%s: SKIPPED (%s)\n", h->name, why);
        return 77;
    }
    char name[64];
    snprintf(name, sizeof name, "test_matrix_%s", h->name);
    return tess_test_result(name);
}
