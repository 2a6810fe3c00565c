/* A small timing driver for the GPU backend until `tessera bench` exists: lid-driven cavity (cavity3d) of N^3
 * nodes (solid walls, moving lid at z = N-1), or a box of random solid spheres at a given porosity (spheres),
 * through the ops table. Prints one CSV line per run:
 *   device,case,size,precision,variant,collision,layout,tiles_per_block,wet_nodes,tiles,eta_t,mlups,model_gbs,
 *   copy_gbs,fraction
 * MLUPS counts wet nodes per second (the tile paper's measure); model_gbs = MLUPS x 2 x 19 x sizeof(real)
 * (each population read once and written once: the AB floor), fraction = model_gbs / copy_gbs with copy_gbs the
 * backend's measured copy bandwidth. Time: median of 5 timed batches after a warm-up batch.
 * Usage: tess_gpu_bench [--case cavity3d|spheres] [--size N] [--porosity P] [--precision double|single]
 *        [--variant full|propagation|readwrite] [--collision lbgk|mrt]
 *        [--tiles-per-block 0|1|2] [--steps S] [--copy-bytes B] [--header] */
#define _POSIX_C_SOURCE 199309L
#include "tess_backend.h"
#include "tess_physics.h"
#include "tess_state.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern const tess_backend_ops_t TESS_TEST_GPU_OPS;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void usage(const char *arg)
{
    fprintf(stderr, "tess_gpu_bench: unexpected argument '%s' (see the comment at the top of tess_gpu_bench.c)\n", arg);
    exit(2);
}

int main(int argc, char **argv)
{
    const char *kase = "cavity3d";
    int n = 128, steps = 50, tpb = 0, header = 0;
    double porosity = 0.5, copy_bytes = 2e9;
    tess_backend_config_t cfg = {0};
    int collision = TESS_COLLISION_LBGK;
    for (int a = 1; a < argc; a++) {
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (!strcmp(argv[a], "--header")) {
            header = 1;
            continue;
        }
        if (!v)
            usage(argv[a]);
        if (!strcmp(argv[a], "--case"))
            kase = v;
        else if (!strcmp(argv[a], "--size"))
            n = atoi(v);
        else if (!strcmp(argv[a], "--porosity"))
            porosity = atof(v);
        else if (!strcmp(argv[a], "--precision"))
            cfg.precision = !strcmp(v, "single") ? TESS_PRECISION_SINGLE : TESS_PRECISION_DOUBLE;
        else if (!strcmp(argv[a], "--variant"))
            cfg.variant = !strcmp(v, "propagation") ? TESS_KERNEL_PROPAGATION_ONLY
                          : !strcmp(v, "readwrite") ? TESS_KERNEL_READ_WRITE_ONLY
                                                    : TESS_KERNEL_FULL;
        else if (!strcmp(argv[a], "--collision"))
            collision = !strcmp(v, "mrt") ? TESS_COLLISION_MRT : TESS_COLLISION_LBGK;
        else if (!strcmp(argv[a], "--tiles-per-block"))
            tpb = atoi(v);
        else if (!strcmp(argv[a], "--steps"))
            steps = atoi(v);
        else if (!strcmp(argv[a], "--copy-bytes"))
            copy_bytes = atof(v);
        else
            usage(argv[a]);
        a++;
    }
    if (header)
        printf("device,case,size,precision,variant,collision,layout,tiles_per_block,wet_nodes,tiles,eta_t,mlups,"
               "model_gbs,copy_gbs,fraction\n");
    cfg.tiles_per_block = tpb;

    tess_params_t p;
    tess_params_default(&p);
    p.collision = collision;
    p.nmat = 3;
    p.mat[2].kind = TESS_NODE_WALL;
    p.mat[2].u[0] = 0.05;
    p.mat[2].rho = 1.0;
    tess_geometry_t g;
    if (tess_geometry_init(&g, n, n, n, 1) != 0) {
        fprintf(stderr, "tess_gpu_bench: cannot allocate a %d^3 geometry\n", n);
        return 4;
    }
    srand(7);
    const int nsph = !strcmp(kase, "spheres") ? 1 : 0;
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                uint8_t m = 1;
                if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1)
                    m = 0;
                else if (z == n - 1)
                    m = nsph ? 0 : 2;
                g.type[tess_geometry_index(&g, x, y, z)] = m;
            }
    if (nsph) {
        /* Random spheres of radius n/10 until the solid fraction reaches 1 - porosity. */
        const double r = n / 10.0;
        size_t solid = 0, total = (size_t)n * n * n;
        for (size_t i = 0; i < total; i++)
            solid += g.type[i] == 0;
        while ((double)solid < (1.0 - porosity) * (double)total) {
            const double cx = rand() % n, cy = rand() % n, cz = rand() % n;
            for (int z = (int)(cz - r); z <= (int)(cz + r); z++)
                for (int y = (int)(cy - r); y <= (int)(cy + r); y++)
                    for (int x = (int)(cx - r); x <= (int)(cx + r); x++) {
                        if (x < 0 || y < 0 || z < 0 || x >= n || y >= n || z >= n)
                            continue;
                        if ((x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz) > r * r)
                            continue;
                        uint8_t *t = &g.type[tess_geometry_index(&g, x, y, z)];
                        solid += *t != 0;
                        *t = 0;
                    }
        }
    }
    tess_tiling_t t;
    tess_error_t err = {0};
    if (tess_tiling_build(&t, &g, &p, &err) != TESS_OK) {
        fprintf(stderr, "tess_gpu_bench: %s\n", err.msg);
        return 2;
    }
    tess_geometry_free(&g);
    /* Fluid at rest: every node holds the rest equilibrium, the same in every layout, so fill it directly
     * (tess_state_equilibrium would spend seconds on 256^3). */
    const size_t count = tess_state_count(&t);
    void *pops = malloc(count * tess_precision_size(cfg.precision));
    if (!pops) {
        fprintf(stderr, "tess_gpu_bench: out of host memory for %zu populations\n", count);
        return 4;
    }
    double feq[19];
    tess_equilibrium_f64(p.fluid, 1.0, 0.0, 0.0, 0.0, feq);
    for (size_t j = 0; j < count; j++) {
        const int i = (int)((j / 64) % 19);
        if (cfg.precision == TESS_PRECISION_SINGLE)
            ((float *)pops)[j] = (float)feq[i];
        else
            ((double *)pops)[j] = feq[i];
    }

    const tess_backend_ops_t *ops = &TESS_TEST_GPU_OPS;
    tess_backend_t *be = NULL;
    tess_status s = ops->create(&cfg, &be, &err);
    if (s == TESS_OK)
        s = ops->upload_geometry(be, &t, &err);
    if (s == TESS_OK)
        s = ops->initialise(be, &p, pops, &err);
    free(pops);
    if (s == TESS_OK)
        s = ops->step(be, 5, &err); /* warm-up: module load, clocks */
    double times[5];
    for (int r = 0; r < 5 && s == TESS_OK; r++) {
        const double t0 = now();
        s = ops->step(be, steps, &err);
        times[r] = now() - t0;
    }
    if (s != TESS_OK) {
        fprintf(stderr, "tess_gpu_bench: %s\n", err.msg);
        if (be)
            ops->destroy(be);
        return s == TESS_ERR_DEVICE ? 77 : 1;
    }
    qsort(times, 5, sizeof times[0], cmp_double);
    const double mlups = (double)t.n_wet * steps / times[2] / 1e6;
    const double model = mlups * 1e6 * 2 * 19 * (double)tess_precision_size(cfg.precision) / 1e9;
    double copy = ops->copy_bandwidth ? ops->copy_bandwidth(be, (size_t)copy_bytes, &err) : 0.0;
    char desc[512] = "";
    if (ops->describe)
        ops->describe(be, desc, sizeof desc);
    char *comma = strchr(desc, ',');
    if (comma)
        *comma = '\0'; /* the device name only, for the CSV */
    static const char *vname[] = {"full", "propagation", "readwrite"};
    printf("%s,%s,%d,%s,%s,%s,%s,%d,%lld,%d,%.4f,%.1f,%.1f,%.1f,%.3f\n", desc, kase, n,
           tess_precision_name(cfg.precision), vname[cfg.variant], collision == TESS_COLLISION_MRT ? "mrt" : "lbgk",
           "xyz", tpb, (long long)t.n_wet, t.ntiles, t.eta_t, mlups, model, copy,
           copy > 0 ? model / copy : 0.0);
    ops->destroy(be);
    tess_tiling_free(&t);
    return 0;
}
