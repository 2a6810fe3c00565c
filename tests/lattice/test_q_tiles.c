/* The engine's tile sweep against its reference: the tile sweep pulls every link of a tile by rows without
 * looking at node types and then applies fix-ups (bounce-back links, dry nodes, curved links through
 * tess_q_pull_link, inlets and outlets through the whole gather); the reference sweep sends every wet node
 * through the core's full per-node function tess_q_node_step. Both must give the same bits: the fix-ups call
 * the same core functions on the same values, and the tile's collision is tess_q_collide_model with the model
 * as constants. For every lattice, both patterns (AB; AA, whose odd steps store through the swapped
 * convention), both precisions, every collision model the lattice has, and every wall rule (halfway
 * bounce-back, Bouzidi linear and quadratic), on the mixed case (moving lid, a curved wall at q = 0.3, tilted
 * extrapolated inlet and outlet, obstacles, a body force, plain interior tiles), 20 steps on 2 threads. The
 * canonical populations of every wet node must agree bitwise: exact equality is the claim. */
#include "lattice_test.h"
#include "tess_physics_q.h"
#include "tess_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    static const tess_lattice_id lats[] = {TESS_LATTICE_D2Q9, TESS_LATTICE_D3Q13, TESS_LATTICE_D3Q19, TESS_LATTICE_D3Q27};
    static const int walls[] = {TESS_WALL_BOUNCE_BACK, TESS_WALL_BOUZIDI_LINEAR, TESS_WALL_BOUZIDI_QUADRATIC};
    static const char *wall_names[] = {"bounce-back", "bouzidi-linear", "bouzidi-quadratic"};
    static const int colls[] = {TESS_COLLISION_LBGK, TESS_COLLISION_MRT, TESS_COLLISION_REGULARIZED};
    static const char *coll_names[] = {"lbgk", "mrt", "regularized"};
    for (int l = 0; l < 4; l++)
        for (int pr = 0; pr < 2; pr++)
            for (int c = 0; c < 3; c++)
                for (int w = 0; w < 3; w++)
                    for (int pa = 0; pa < 2; pa++) {
                        if (!tess_q_supports(lats[l], colls[c]))
                            continue;
                        if (w != 2 && c != 0 && !(lats[l] == TESS_LATTICE_D3Q13))
                            continue; /* every model with the quadratic walls, every wall rule with LBGK (D3Q13: MRT) */
                        const tess_precision prec = pr ? TESS_PRECISION_SINGLE : TESS_PRECISION_DOUBLE;
                        const tess_pattern pat = pa ? TESS_PATTERN_AA : TESS_PATTERN_AB;
                        tess_tiling_t t;
                        tess_params_t p;
                        memset(&t, 0, sizeof t);
                        int64_t nl = 0, nl2 = 0;
                        void *fast = lt_mixed_run_wall(lats[l], walls[w], colls[c], pat, 2, prec, 20, &nl, &t);
                        lt_reference_sweep = 1;
                        void *ref = lt_mixed_run_wall(lats[l], walls[w], colls[c], pat, 2, prec, 20, &nl2, NULL);
                        lt_reference_sweep = 0;
                        tess_geometry_t g;
                        lt_planes_t pl;
                        lt_mixed_case(lats[l], &g, &p, &pl); /* the materials, for the wet nodes */
                        tess_geometry_free(&g);
                        char what[200];
                        if (w > 0) {
                            snprintf(what, sizeof what, "%s %s %s %s %s: curved links present (%lld)",
                                     tess_lattice_get(lats[l])->name, tess_precision_name(prec), coll_names[c],
                                     wall_names[w], pa ? "aa" : "ab", (long long)nl);
                            tess_test_true(what, nl > 0);
                        }
                        if (fast && ref) {
                            snprintf(what, sizeof what, "%s %s %s %s %s: tile sweep vs per-node reference, wet nodes differing",
                                     tess_lattice_get(lats[l])->name, tess_precision_name(prec), coll_names[c],
                                     wall_names[w], pa ? "aa" : "ab");
                            tess_test_close(what, (double)lt_wet_differing(&t, &p, prec, fast, ref), 0, 0);
                        }
                        free(fast);
                        free(ref);
                        tess_tiling_free(&t);
                    }
    return tess_test_result("test_q_tiles");
}
