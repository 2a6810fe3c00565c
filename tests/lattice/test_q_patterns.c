/* The generic engine's determinism: for every lattice, a small box with every boundary kind (a curved wall at
 * q = 0.3 with quadratic Bouzidi, a moving lid, a tilted extrapolated velocity inlet and pressure outlet, random
 * obstacles, a body force, padding, and interior tiles that take the plain-tile path) runs 20 steps with AB on 1 and 2 threads and AA on 1 and 2 threads. The
 * canonical populations of every wet node must agree bitwise: each node's update reads only the state before
 * the step (AA gathers its special nodes in a pre-pass), so neither the thread count nor the pattern may change
 * a bit. Exact equality is the only honest tolerance for that claim. */
#include "lattice_test.h"
#include "tess_state.h"
#include "tess_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void mixed_case(tess_lattice_id lat, tess_geometry_t *g, tess_params_t *p, lt_planes_t *pl)
{
    const int d2 = lat == TESS_LATTICE_D2Q9;
    /* big enough for interior tiles whose whole neighbourhood is fluid (the engine's plain-tile path): the
     * obstacles stay in x < nx / 4 */
    const int nx = d2 ? 41 : 21, ny = d2 ? 35 : 18, nz = d2 ? 1 : 8;
    tess_geometry_init(g, nx, ny, nz, 1);
    g->periodic[2] = !d2;
    tess_test_rng r;
    tess_test_rng_seed(&r, 7 + (uint64_t)lat);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                uint8_t m = 1;
                if (y == 0)
                    m = 0;
                else if (y == ny - 1)
                    m = 2;
                else if (x == 0)
                    m = 3;
                else if (x == nx - 1)
                    m = 4;
                else if (x >= 3 && x < nx / 4 && tess_test_uniform(&r) < 0.2)
                    m = 0;
                g->type[tess_geometry_index(g, x, y, z)] = m;
            }
    tess_params_default(p);
    tess_params_set_lattice(p, lat);
    p->collision = lat == TESS_LATTICE_D3Q13 ? TESS_COLLISION_MRT : TESS_COLLISION_LBGK;
    tess_params_set_tau(p, 0.7);
    p->wall = TESS_WALL_BOUZIDI_QUADRATIC;
    p->use_force = 1;
    p->force[0] = 2e-5;
    p->force[1] = -1e-5;
    p->nmat = 5;
    p->mat[2].kind = TESS_NODE_WALL;
    p->mat[2].u[0] = 0.05;
    p->mat[3].kind = TESS_NODE_VELOCITY;
    p->mat[3].method = TESS_BC_NEE;
    p->mat[3].u[0] = 0.03;
    p->mat[3].u[1] = 0.01;
    p->mat[3].normal[0] = -0.9578;
    p->mat[3].normal[1] = 0.2873;
    p->mat[4].kind = TESS_NODE_PRESSURE;
    p->mat[4].method = TESS_BC_NEE;
    p->mat[4].rho = 1.0;
    p->mat[4].normal[0] = 1.0;
    /* the bottom wall surface at y = 0.7: q = 0.3 on the links from y = 1 */
    memset(pl, 0, sizeof *pl);
    pl->n = 1;
    pl->normal[0][1] = 1.0;
    pl->d[0] = 0.7;
}

static void *run(tess_lattice_id lat, tess_pattern pat, int threads, tess_precision prec, int steps, int64_t *nlinks,
                 tess_tiling_t *keep)
{
    tess_geometry_t g;
    tess_params_t p;
    lt_planes_t pl;
    mixed_case(lat, &g, &p, &pl);
    lt_run_t r;
    tess_error_t err;
    void *out = NULL;
    if (lt_start(&r, &g, &p, pat, threads, prec, lt_planes_q, &pl, &err) != TESS_OK || lt_step(&r, steps, &err) != TESS_OK ||
        lt_fields(&r, &err) != TESS_OK) {
        printf("FAIL run: %s\n", err.msg);
        tess_test_failures++;
    } else {
        const size_t bytes = tess_state_count(&r.t) * tess_precision_size(prec);
        out = malloc(bytes);
        memcpy(out, r.pops, bytes);
        *nlinks = r.t.links.n;
        if (keep) {
            /* the comparison needs the node types: build the same tiling again */
            tess_error_t e2;
            tess_tiling_build(keep, &g, &p, &e2);
        }
    }
    lt_free(&r);
    tess_geometry_free(&g);
    return out;
}

/* Wet nodes whose populations differ in any bit. */
static long differing(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec, const void *a, const void *b)
{
    const size_t vs = tess_precision_size(prec);
    long bad = 0;
    for (int32_t k = 0; k < t->ntiles; k++)
        for (int n = 0; n < 64; n++) {
            if (!tess_kind_is_wet(p->mat[t->node_type[64 * (size_t)k + n]].kind))
                continue;
            for (int i = 0; i < t->q; i++) {
                const size_t at = tess_state_index(t, k, i, n) * vs;
                if (memcmp((const char *)a + at, (const char *)b + at, vs) != 0) {
                    bad++;
                    break;
                }
            }
        }
    return bad;
}

int main(void)
{
    static const tess_lattice_id lats[] = {TESS_LATTICE_D2Q9, TESS_LATTICE_D3Q13, TESS_LATTICE_D3Q19, TESS_LATTICE_D3Q27};
    for (int l = 0; l < 4; l++)
        for (int pr = 0; pr < 2; pr++) {
            const tess_precision prec = pr ? TESS_PRECISION_SINGLE : TESS_PRECISION_DOUBLE;
            if (pr && lats[l] != TESS_LATTICE_D2Q9)
                continue; /* one single-precision lattice keeps the test short */
            const tess_lattice_t *L = tess_lattice_get(lats[l]);
            tess_tiling_t t;
            memset(&t, 0, sizeof t);
            int64_t nl = 0, nl2 = 0;
            void *ab1 = run(lats[l], TESS_PATTERN_AB, 1, prec, 20, &nl, &t);
            void *ab2 = run(lats[l], TESS_PATTERN_AB, 2, prec, 20, &nl2, NULL);
            void *aa1 = run(lats[l], TESS_PATTERN_AA, 1, prec, 20, &nl2, NULL);
            void *aa2 = run(lats[l], TESS_PATTERN_AA, 2, prec, 20, &nl2, NULL);
            tess_geometry_t g;
            tess_params_t p;
            lt_planes_t pl;
            mixed_case(lats[l], &g, &p, &pl);
            char what[160];
            snprintf(what, sizeof what, "%s %s: curved links present (%lld)", L->name, tess_precision_name(prec), (long long)nl);
            tess_test_true(what, nl > 0);
            if (ab1 && ab2 && aa1 && aa2) {
                snprintf(what, sizeof what, "%s %s: AB 1 thread vs 2 threads, wet nodes differing", L->name,
                         tess_precision_name(prec));
                tess_test_close(what, (double)differing(&t, &p, prec, ab1, ab2), 0, 0);
                snprintf(what, sizeof what, "%s %s: AA vs AB after 20 steps, wet nodes differing", L->name,
                         tess_precision_name(prec));
                tess_test_close(what, (double)differing(&t, &p, prec, ab1, aa1), 0, 0);
                snprintf(what, sizeof what, "%s %s: AA 1 thread vs 2 threads, wet nodes differing", L->name,
                         tess_precision_name(prec));
                tess_test_close(what, (double)differing(&t, &p, prec, aa1, aa2), 0, 0);
            }
            free(ab1);
            free(ab2);
            free(aa1);
            free(aa2);
            tess_tiling_free(&t);
            tess_geometry_free(&g);
        }
    return tess_test_result("test_q_patterns");
}
