/* The finite-difference velocity-gradient inlet/outlet (method fd, Latt et al. 2008) in the engine, as boundary
 * data: a pre-pass over the fd nodes computes each one's strain rate from the state the step starts from, and
 * the node update closes the node with it (core/tess_q_step.h: tess_q_fd_strain, tess_q_gather_from).
 * The case: a channel with solid walls, random obstacles, an fd velocity inlet and an fd pressure outlet (3D:
 * along z, periodic x; D2Q9: along x), from a random state, regularized collision, both fluid models.
 * 1. The tile sweep (AB and AA) equals the engine's per-node reference sweep (tess_cpu_q_t.reference: every
 *    wet node through tess_q_node_step_fd) bitwise on every wet node after 40 steps, for D2Q9, D3Q19 and
 *    D3Q27 in both precisions: the same core functions on the same values, so any differing bit is a bug
 *    (tolerance 0). 1 thread equals 2 threads bitwise. MR (one copy, the sliding window) on 2 threads equals
 *    the two-copy per-node MR reference (tess_q_node_step_mr_fd) bitwise, and MR on 1 thread (other blocks)
 *    equals it on 2 threads bitwise; and MR agrees with AB within 1e-12 (fp64) / 1e-5 (fp32) of the largest
 *    population, both started from the Hermite rebuild of the random state (MR stores ten moments, so only the
 *    rebuild is a state both can hold; the rebuild of the stored moments differs from it by round-off, about
 *    1e-16 / 6e-8, which a few dozen steps amplify).
 *    Before the D3Q19 AA kernel was removed (issue 11), the engine equalled it bitwise here too.
 * 2. D3Q13 (no second-order Hermite rebuild) is refused with TESS_ERR_UNSUPPORTED at initialise.
 * 3. (argument "poiseuille") Physics on the lattices the fd planes are new to (D2Q9, D3Q27; D3Q19:
 *    tests/patterns/test_fd_boundary.c): plane Poiseuille inflow, the analytic parabola imposed by an fd velocity
 *    inlet (one material per row) and the density by an fd pressure outlet, halfway walls, LBGK, tau 0.8, u_max =
 *    0.24 / H, started from the analytic state. At steady state the relative L2 error of u_x must be below 1% at H
 *    = 8 (D3Q19: 0.32% at H = 6) and fall with an observed order of at least 1.7 between H = 8 and 16 (second order: 2;
 *    D3Q19 shows 1.74 between 6 and 12 and 2.00 between 12 and 24, its pre-asymptotic range ends near H = 12). */
#include "cpu_q.h"
#include "lattice_test.h"
#include "tess_state.h"
#include "tess_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const tess_backend_ops_t tess_backend_cpu;

static void fd_channel(tess_lattice_id lat, tess_geometry_t *g, tess_params_t *p, int fluid)
{
    const int d2 = lat == TESS_LATTICE_D2Q9;
    const int nx = d2 ? 40 : 8, ny = 14, nz = d2 ? 1 : 30, flow = d2 ? 0 : 2;
    const int len = d2 ? nx : nz;
    tess_geometry_init(g, nx, ny, nz, 1);
    g->periodic[0] = !d2;
    tess_test_rng r;
    tess_test_rng_seed(&r, 99 + (uint64_t)lat);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                const int s = d2 ? x : z;
                uint8_t m = 1;
                if (y == 0 || y == ny - 1)
                    m = 0;
                else if (s == 0)
                    m = 2;
                else if (s == len - 1)
                    m = 3;
                else if (s > 2 && s < len - 3 && tess_test_uniform(&r) < 0.1)
                    m = 0;
                g->type[tess_geometry_index(g, x, y, z)] = m;
            }
    tess_params_default(p);
    tess_params_set_lattice(p, lat);
    p->collision = TESS_COLLISION_REGULARIZED;
    p->fluid = fluid;
    tess_params_set_tau(p, 0.8);
    p->nmat = 4;
    p->mat[2].kind = TESS_NODE_VELOCITY;
    p->mat[2].axis = flow;
    p->mat[2].sign = -1;
    p->mat[2].normal[flow] = -1.0;
    p->mat[2].u[flow] = 0.04;
    p->mat[2].method = TESS_BC_FINITE_DIFFERENCE;
    p->mat[3].kind = TESS_NODE_PRESSURE;
    p->mat[3].axis = flow;
    p->mat[3].sign = 1;
    p->mat[3].normal[flow] = 1.0;
    p->mat[3].rho = 1.0;
    p->mat[3].method = TESS_BC_FINITE_DIFFERENCE;
    for (int m = 0; m < p->nmat; m++)
        if (p->mat[m].rho == 0.0)
            p->mat[m].rho = 1.0;
}

/* The engine from state `in` for `steps` steps: canonical populations out (malloc'd), NULL with err on failure. */
static void *run_engine(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, tess_pattern pat,
                        int threads, int reference, const void *in, int steps, tess_error_t *err)
{
    tess_backend_config_t cfg = {0};
    cfg.precision = prec;
    cfg.pattern = pat;
    cfg.threads = threads;
    tess_backend_t *be = NULL;
    void *out = malloc(tess_state_count(t) * tess_precision_size(prec));
    tess_status s = tess_backend_cpu.create(&cfg, &be, err);
    if (s == TESS_OK)
        s = tess_backend_cpu.upload_geometry(be, t, err);
    if (s == TESS_OK) {
        ((tess_cpu_q_t *)(void *)be)->reference = reference;
        s = tess_backend_cpu.initialise(be, p, in, err);
    }
    if (s == TESS_OK)
        s = tess_backend_cpu.step(be, steps, err);
    if (s == TESS_OK)
        s = tess_backend_cpu.download_populations(be, out, err);
    if (be)
        tess_backend_cpu.destroy(be);
    if (s != TESS_OK) {
        free(out);
        return NULL;
    }
    return out;
}

static void compare(const char *what, const tess_tiling_t *t, const tess_params_t *p, tess_precision prec,
                    const void *a, const void *b, const char *err)
{
    if (!a || !b) {
        printf("FAIL %s: %s\n", what, err);
        tess_test_failures++;
        return;
    }
    int bits = 0, finite = 0;
    (void)tess_test_wet_diff(t, p, prec, a, b, &bits, &finite, NULL);
    tess_test_close(what, bits && finite ? 0.0 : 1.0, 0.0, 0.0); /* 1: some wet value differs in a bit (or a NaN) */
}

/* Relative L2 error of u_x against the parabola at steady state, channel width H (see 3. above). */
static double poiseuille_error(tess_lattice_id lat, int H)
{
    const int d2 = lat == TESS_LATTICE_D2Q9;
    const int nx = 2 * H, ny = H + 2, nz = d2 ? 1 : 4;
    const double umax = 0.24 / H;
    tess_geometry_t g;
    tess_geometry_init(&g, nx, ny, nz, 1);
    g.periodic[2] = !d2;
    tess_params_t p;
    tess_params_default(&p);
    tess_params_set_lattice(&p, lat);
    tess_params_set_tau(&p, 0.8);
    tess_test_poiseuille_planes(&p, 0, H, umax, TESS_BC_FINITE_DIFFERENCE); /* 2 outlet, 3 + (y - 1) inlet row y */
    p.mat[0].rho = p.mat[1].rho = 1.0;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++)
                g.type[tess_geometry_index(&g, x, y, z)] =
                    (uint8_t)(y == 0 || y == ny - 1 ? 0 : x == 0 ? 3 + y - 1 : x == nx - 1 ? 2 : 1);
    lt_run_t r;
    tess_error_t err = {0};
    double e = INFINITY;
    if (lt_start(&r, &g, &p, TESS_PATTERN_AB, 2, TESS_PRECISION_DOUBLE, NULL, NULL, &err) == TESS_OK) {
        /* the analytic state (parabola and linear pressure along x) */
        if (tess_test_poiseuille_state(&g, &r.t, &p, 0, H, umax, r.pops) == 0 &&
            tess_backend_cpu.initialise(r.be, &p, r.pops, &err) == TESS_OK &&
            lt_converge(&r, H * H, 1e-8, 400L * H * H, &err) > 0) {
            double num = 0.0, den = 0.0;
            for (int z = 0; z < nz; z++)
                for (int y = 1; y <= H; y++)
                    for (int x = 1; x < nx - 1; x++) {
                        const double sy = y - 0.5, ua = 4.0 * umax * sy * (H - sy) / ((double)H * H);
                        const double du = r.u[3 * tess_geometry_index(&g, x, y, z)] - ua;
                        num += du * du;
                        den += ua * ua;
                    }
            e = sqrt(num / den);
        }
    }
    if (!(e < INFINITY))
        printf("FAIL Poiseuille run: %s\n", err.msg);
    lt_free(&r);
    tess_geometry_free(&g);
    return e;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 1 && strcmp(argv[1], "poiseuille") == 0) { /* 3. alone: minutes at -O0 under the sanitizers */
        for (int l = 0; l < 2; l++) {
            const tess_lattice_id lat = l ? TESS_LATTICE_D3Q27 : TESS_LATTICE_D2Q9;
            const char *name = l ? "D3Q27" : "D2Q9";
            const double e8 = poiseuille_error(lat, 8), e16 = poiseuille_error(lat, 16);
            char what[160];
            printf("     %s Poiseuille inflow, fd planes: relative L2 error %.4g (H = 8), %.4g (H = 16)\n", name, e8,
                   e16);
            snprintf(what, sizeof what, "%s fd Poiseuille inflow: relative L2 error at H = 8 below 1%%", name);
            tess_test_true(what, e8 < 0.01);
            snprintf(what, sizeof what, "%s fd Poiseuille inflow: observed order between H = 8 and 16 (>= 1.7)", name);
            const double order = log(e8 / e16) / log(2.0);
            tess_test_close(what, order, 2.0, 0.3 + fmax(0.0, order - 2.0));
        }
        return tess_test_result("test_q_fd poiseuille");
    }
    static const tess_lattice_id lats[3] = {TESS_LATTICE_D2Q9, TESS_LATTICE_D3Q19, TESS_LATTICE_D3Q27};
    static const char *const names[3] = {"D2Q9", "D3Q19", "D3Q27"};
    const int steps = 40;
    for (int l = 0; l < 3; l++)
        for (int fluid = 0; fluid < 2; fluid++)
            for (int pr = 0; pr < 2; pr++) {
                const tess_precision prec = pr ? TESS_PRECISION_SINGLE : TESS_PRECISION_DOUBLE;
                tess_geometry_t g;
                tess_params_t p;
                tess_tiling_t t;
                tess_error_t err = {0};
                fd_channel(lats[l], &g, &p, fluid);
                if (tess_tiling_build(&t, &g, &p, &err) != TESS_OK) {
                    printf("FAIL tiling: %s\n", err.msg);
                    return 1;
                }
                void *in = tess_test_random_state(&t, &p, prec, 5 + (uint64_t)l);
                char what[200], tag[80];
                snprintf(tag, sizeof tag, "%s %s %s, %d steps", names[l], fluid ? "quasi-compressible" : "incompressible",
                         pr ? "fp32" : "fp64", steps);
                void *ref = run_engine(&t, &p, prec, TESS_PATTERN_AB, 2, 1, in, steps, &err);
                void *ab = run_engine(&t, &p, prec, TESS_PATTERN_AB, 2, 0, in, steps, &err);
                void *aa = run_engine(&t, &p, prec, TESS_PATTERN_AA, 2, 0, in, steps, &err);
                void *ab1 = run_engine(&t, &p, prec, TESS_PATTERN_AB, 1, 0, in, steps, &err);
                snprintf(what, sizeof what, "%s: wet nodes where the AB tile sweep and the per-node reference differ", tag);
                compare(what, &t, &p, prec, ab, ref, err.msg);
                snprintf(what, sizeof what, "%s: wet nodes where AA and the per-node reference differ", tag);
                compare(what, &t, &p, prec, aa, ref, err.msg);
                snprintf(what, sizeof what, "%s: wet nodes where AB on 1 and on 2 threads differ", tag);
                compare(what, &t, &p, prec, ab1, ab, err.msg);
                /* MR: the Hermite rebuild of `in` (MR's download after 0 steps) as the common start */
                void *h = run_engine(&t, &p, prec, TESS_PATTERN_MR, 2, 0, in, 0, &err);
                void *mref = h ? run_engine(&t, &p, prec, TESS_PATTERN_MR, 2, 1, h, steps, &err) : NULL;
                void *mr = h ? run_engine(&t, &p, prec, TESS_PATTERN_MR, 2, 0, h, steps, &err) : NULL;
                void *mr1 = h ? run_engine(&t, &p, prec, TESS_PATTERN_MR, 1, 0, h, steps, &err) : NULL;
                void *abh = h ? run_engine(&t, &p, prec, TESS_PATTERN_AB, 2, 0, h, steps, &err) : NULL;
                snprintf(what, sizeof what, "%s: wet nodes where the MR window and the two-copy per-node MR differ",
                         tag);
                compare(what, &t, &p, prec, mr, mref, err.msg);
                snprintf(what, sizeof what, "%s: wet nodes where MR on 1 and on 2 threads differ", tag);
                compare(what, &t, &p, prec, mr1, mr, err.msg);
                const double dmr = lt_wet_relative(&t, &p, prec, mr, abh);
                printf("info  %s: largest MR - AB difference %.3g of the largest population\n", tag, dmr);
                snprintf(what, sizeof what, "%s: MR vs AB, largest difference relative to the largest population", tag);
                tess_test_close(what, dmr, 0.0, pr ? 1e-5 : 1e-12);
                free(h);
                free(mref);
                free(mr);
                free(mr1);
                free(abh);
                free(ref);
                free(ab);
                free(aa);
                free(ab1);
                free(in);
                tess_tiling_free(&t);
                tess_geometry_free(&g);
            }
    /* D3Q13: no Hermite rebuild, hence no fd closure */
    {
        tess_geometry_t g;
        tess_params_t p;
        tess_tiling_t t;
        tess_error_t err = {0};
        fd_channel(TESS_LATTICE_D3Q13, &g, &p, 0);
        p.collision = TESS_COLLISION_MRT;
        tess_tiling_build(&t, &g, &p, &err);
        void *in = tess_test_random_state(&t, &p, TESS_PRECISION_DOUBLE, 3);
        tess_backend_config_t cfg = {0};
        cfg.precision = TESS_PRECISION_DOUBLE;
            const tess_status s = tess_test_run_ops(&tess_backend_cpu, &cfg, &t, &p, in, 1, NULL, NULL, &err);
        printf("     D3Q13 fd: %s\n", err.msg);
        tess_test_true("D3Q13 with method fd: initialise refuses it (TESS_ERR_UNSUPPORTED)", s == TESS_ERR_UNSUPPORTED);
        free(in);
        tess_tiling_free(&t);
        tess_geometry_free(&g);
    }
    return tess_test_result("test_q_fd");
}
