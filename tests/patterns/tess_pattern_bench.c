/* Timing driver for the CPU patterns (not a test): a lid-driven cavity of n^3 nodes (walls of solid, the lid a
 * moving wall), as the cavity3d case of the benchmark.
 *   tess_pattern_bench PATTERN N STEPS [collision lbgk|mrt|regularized] [precision 64|32] [mr_layer] [threads]
 * Prints MFLUPS (million wet-node updates per second) and bytes per wet node. */
#include "pattern_test.h"
#include "tess_state.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern const tess_backend_ops_t tess_backend_cpu;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* CPU time of the process: on a shared, oversubscribed machine MFLUPS per CPU-second of one thread is the
 * steadier figure for comparing patterns. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s ab|aa|mr N STEPS [lbgk|mrt|regularized] [64|32] [mr_layer] [threads]\n", argv[0]);
        return 2;
    }
    const tess_pattern pat = !strcmp(argv[1], "aa") ? TESS_PATTERN_AA : !strcmp(argv[1], "mr") ? TESS_PATTERN_MR : TESS_PATTERN_AB;
    const int n = atoi(argv[2]), steps = atoi(argv[3]);
    const char *coll = argc > 4 ? argv[4] : "lbgk";
    const tess_precision prec = argc > 5 && !strcmp(argv[5], "32") ? TESS_PRECISION_SINGLE : TESS_PRECISION_DOUBLE;
    const int layer = argc > 6 ? atoi(argv[6]) : 0, threads = argc > 7 ? atoi(argv[7]) : 0;
    tess_geometry_t g;
    tess_geometry_init(&g, n, n, n, 1);
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++)
                if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1)
                    g.type[tess_geometry_index(&g, x, y, z)] = (uint8_t)(z == n - 1 ? 2 : 0);
    tess_params_t p;
    tess_params_default(&p);
    p.collision = !strcmp(coll, "mrt") ? TESS_COLLISION_MRT : !strcmp(coll, "regularized") ? TESS_COLLISION_REGULARIZED : TESS_COLLISION_LBGK;
    p.nmat = 3;
    p.mat[2].kind = TESS_NODE_WALL;
    p.mat[2].u[0] = 0.05;
    p.mat[2].rho = 1.0;
    tess_tiling_t t;
    tess_error_t err;
    if (tess_tiling_build(&t, &g, &p, &err) != TESS_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    void *pops = malloc(tess_state_count(&t) * tess_precision_size(prec));
    const double u0[3] = {0, 0, 0};
    tess_state_equilibrium(&t, &p, prec, pops, 1.0, u0, NULL, NULL);
    const tess_backend_ops_t *ops = &tess_backend_cpu;
    tess_backend_config_t cfg = {0};
    cfg.precision = prec;
    cfg.pattern = pat;
    cfg.threads = threads;
    cfg.mr_layer = layer;
    tess_backend_t *be = NULL;
    if (ops->create(&cfg, &be, &err) || ops->upload_geometry(be, &t, &err) || ops->initialise(be, &p, pops, &err) ||
        ops->step(be, 2, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    const double t0 = now(), c0 = cpu_now();
    ops->step(be, steps, &err);
    const double dt = now() - t0, dc = cpu_now() - c0;
    char desc[512] = "";
    if (ops->describe)
        ops->describe(be, desc, sizeof desc);
    printf("%s n=%d %s fp%d steps=%d: %.1f MFLUPS (wall), %.1f MFLUPS per CPU-second, %.1f bytes/wet node  [%s]\n",
           argv[1], n, coll, prec == TESS_PRECISION_SINGLE ? 32 : 64, steps, (double)t.n_wet * steps / dt * 1e-6,
           (double)t.n_wet * steps / dc * 1e-6,
           (double)ops->bytes_allocated(be) / (double)t.n_wet, desc);
    ops->destroy(be);
    free(pops);
    tess_tiling_free(&t);
    tess_geometry_free(&g);
    return 0;
}
