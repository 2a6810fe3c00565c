/* Curved walls on random sphere beds ([spheres.NAME]): the case records every sphere it carves, and the link
 * table of `wall = bouzidi-quadratic` (tess_wall_q_case through the beds' cell grids) equals a brute-force scan
 * of every sphere of every bed at every periodic image, link for link and bit for bit; a link next to the one
 * sphere of a bed has the analytic wall distance; the cell grid stays O(n) for tiny spheres in a large box. */
#include "tess_case.h"
#include "tess_lattice.h"
#include "tess_links.h"
#include "tess_sphere_grid.h"
#include "tess_test.h"
#include "tess_tiling.h"
#include "tess_wall_q.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes the case text to DIR/NAME and loads it; 0 (a failed check) when either fails. */
static int load_case(const char *dir, const char *name, const char *text, tess_case_t *c)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    int bad = !f;
    if (f) {
        bad = fputs(text, f) < 0;
        bad |= fclose(f) != 0;
    }
    if (bad)
        return tess_test_true("write the case file", 0);
    tess_error_t err;
    if (tess_case_load(path, NULL, 0, c, &err) != TESS_OK)
        return tess_test_true(err.msg, 0);
    return 1;
}

/* The reference: every sphere of every bed, at every periodic image of the link (as tess_wall_q_case shifts
 * it), through the primitive's own intersection, smallest positive entry parameter. */
static double brute_q(const tess_case_t *c, const double x[3], const double d[3])
{
    const tess_geometry_t *g = &c->geometry;
    const int n[3] = {g->nx, g->ny, g->nz};
    double best = -1.0;
    for (int m = 0; m < 27; m++) {
        const int sh[3] = {m % 3 - 1, m / 3 % 3 - 1, m / 9 - 1};
        if ((sh[0] && !g->periodic[0]) || (sh[1] && !g->periodic[1]) || (sh[2] && !g->periodic[2]))
            continue;
        const double y[3] = {x[0] + sh[0] * n[0], x[1] + sh[1] * n[1], x[2] + sh[2] * n[2]};
        for (int b = 0; b < c->nbeds; b++) {
            const tess_sphere_bed_t *bed = &c->beds[b].spheres;
            for (long i = 0; i < bed->n; i++) {
                tess_shape_t s;
                memset(&s, 0, sizeof s);
                s.kind = TESS_SHAPE_SPHERE;
                memcpy(s.a, bed->centre + 3 * i, sizeof s.a);
                s.r = bed->r;
                const double q = tess_wall_q_shape(&s, y, d);
                if (q > 0.0 && (best < 0.0 || q < best))
                    best = q;
            }
        }
    }
    return best;
}

/* Two overlapping beds (the second in a sub-region) in a box periodic in y and z, x not a multiple of the tile. */
static void check_two_beds(const char *dir)
{
    char label[256];
    tess_case_t c;
    tess_error_t err;
    if (!load_case(dir, "sphere_bed_two.ini",
                   "[case]\nname = beds\n[domain]\nnx = 22\nny = 20\nnz = 16\nperiodic = y z\n"
                   "[physics]\ntau = 0.8\nwall = bouzidi-quadratic\n"
                   "[spheres.big]\ndiameter = 7\nporosity = 0.75\nseed = 3\n"
                   "[spheres.small]\ndiameter = 3.5\nporosity = 0.6\nseed = 5\nmin = 4 2 0\nmax = 15 17 15\n"
                   "[run]\nsteps = 1\n",
                   &c))
        return;
    const tess_geometry_t *g = &c.geometry;
    tess_test_true("two beds recorded, radii 3.5 and 1.75, each with spheres",
                   c.nbeds == 2 && c.beds[0].spheres.r == 3.5 && c.beds[1].spheres.r == 1.75 &&
                       c.beds[0].spheres.n > 0 && c.beds[1].spheres.n > 0);
    /* The record is complete: a node is solid exactly when a recorded sphere of a bed whose region holds it
     * contains it (the carving's own test, d^2 <= r^2). */
    const int rlo[2][3] = {{0, 0, 0}, {4, 2, 0}}, rhi[2][3] = {{21, 19, 15}, {15, 17, 15}};
    long mismatched = 0, solid = 0;
    for (int z = 0; z < g->nz; z++)
        for (int y = 0; y < g->ny; y++)
            for (int x = 0; x < g->nx; x++) {
                int inside = 0;
                for (int b = 0; b < c.nbeds && !inside; b++) {
                    const tess_sphere_bed_t *bed = &c.beds[b].spheres;
                    if (x < rlo[b][0] || y < rlo[b][1] || z < rlo[b][2] || x > rhi[b][0] || y > rhi[b][1] ||
                        z > rhi[b][2])
                        continue;
                    for (long i = 0; i < bed->n && !inside; i++) {
                        const double *p = bed->centre + 3 * i;
                        const double d2 = (x - p[0]) * (x - p[0]) + (y - p[1]) * (y - p[1]) + (z - p[2]) * (z - p[2]);
                        inside = d2 <= bed->r * bed->r;
                    }
                }
                const int is_solid = g->type[tess_geometry_index(g, x, y, z)] == 0;
                solid += is_solid;
                mismatched += is_solid != inside;
            }
    snprintf(label, sizeof label, "%ld solid nodes, %ld + %ld spheres: nodes solid but in no sphere or the reverse",
             solid, c.beds[0].spheres.n, c.beds[1].spheres.n);
    tess_test_close(label, (double)mismatched, 0, 0);

    tess_tiling_t t;
    if (tess_tiling_build(&t, g, &c.params, &err) != TESS_OK ||
        tess_links_build(&t.links, &t, &c.params, tess_wall_q_case, &c, &err) != TESS_OK) {
        tess_test_true(err.msg, 0);
        tess_case_free(&c);
        return;
    }
    const tess_lattice_t *lat = tess_lattice_get((tess_lattice_id)t.lattice);
    /* Every link against the brute force. Bitwise: the grid passes the same shifted point and the same sphere
     * to the same function, and only skips spheres that cannot be entered (tess_sphere_grid.h), so the
     * minimum is the same double. */
    long differ = 0, outside = 0;
    double worst = 0.0;
    for (int32_t k = 0; k < t.ntiles; k++)
        for (int64_t l = t.links.start[k]; l < t.links.start[k + 1]; l++) {
            const tess_link_t *e = &t.links.link[l];
            int lx, ly, lz;
            tess_tiling_local_xyz(&t, e->node, &lx, &ly, &lz);
            const int32_t *corner = t.tile_corner + 3 * k;
            const double x[3] = {corner[0] + lx, corner[1] + ly, corner[2] + lz};
            const double d[3] = {lat->c[e->dir][0], lat->c[e->dir][1], lat->c[e->dir][2]};
            const double q = brute_q(&c, x, d);
            differ += e->q != q;
            worst = fmax(worst, fabs(e->q - q));
            outside += !(e->q > 0.0 && e->q <= 1.0);
        }
    snprintf(label, sizeof label, "%lld links: q differing from the brute force over all spheres (largest %.3g)",
             (long long)t.links.n, worst);
    tess_test_close(label, (double)differ, 0, 0);
    tess_test_close("links with q outside (0, 1]", (double)outside, 0, 0);
    /* The count: every wet node's link to a solid node whose brute-force q is a crossing off the halfway
     * point (tess_links_build keeps q = 0.5 as plain bounce-back). Equal counts and equal q per stored link
     * make the two sets equal. */
    long want = 0, halfway = 0;
    for (int z = 0; z < g->nz; z++)
        for (int y = 0; y < g->ny; y++)
            for (int x = 0; x < g->nx; x++) {
                if (!tess_kind_is_wet(c.params.mat[g->type[tess_geometry_index(g, x, y, z)]].kind))
                    continue;
                for (int i = 1; i < lat->q; i++) {
                    const int *ci = lat->c[i];
                    const int kind = c.params.mat[tess_tiling_node_type_at(&t, x + ci[0], y + ci[1], z + ci[2])].kind;
                    if (kind != TESS_NODE_SOLID && kind != TESS_NODE_WALL)
                        continue;
                    const double xd[3] = {x, y, z}, d[3] = {ci[0], ci[1], ci[2]};
                    const double q = brute_q(&c, xd, d);
                    want += q != -1.0 && q != 0.5;
                    halfway += q == -1.0 || q == 0.5;
                }
            }
    snprintf(label, sizeof label,
             "link count against the brute force (%ld more links to solid keep halfway: q = -1 or 0.5)", halfway);
    tess_test_close(label, (double)t.links.n, (double)want, 0);
    tess_test_true("the bed gives links at all (more than 1000)", t.links.n > 1000);
    tess_tiling_free(&t);
    tess_case_free(&c);
}

/* One sphere (diameter 9 carves about 380 of 32768 nodes, more than the 0.5 % asked): the link along +x from
 * the last fluid node before it, on the node row nearest its centre, against the chord's end. */
static void check_single_sphere(const char *dir)
{
    char label[256];
    tess_case_t c;
    if (!load_case(dir, "sphere_bed_one.ini",
                   "[case]\nname = one\n[domain]\nnx = 32\nny = 32\nnz = 32\n"
                   "[physics]\ntau = 0.8\nwall = bouzidi-linear\n"
                   "[spheres.one]\ndiameter = 9\nporosity = 0.995\nseed = 7\nmin = 10 10 10\nmax = 21 21 21\n"
                   "[run]\nsteps = 1\n",
                   &c))
        return;
    if (!tess_test_true("one bed of one sphere", c.nbeds == 1 && c.beds[0].spheres.n == 1)) {
        tess_case_free(&c);
        return;
    }
    const double *p = c.beds[0].spheres.centre, r = 4.5;
    const int y0 = (int)lround(p[1]), z0 = (int)lround(p[2]);
    const double dy = y0 - p[1], dz = z0 - p[2];
    const double xs = p[0] - sqrt(r * r - dy * dy - dz * dz); /* the chord's end on the -x side */
    const int x0 = (int)ceil(xs) - 1;                          /* the last node outside the sphere */
    const tess_geometry_t *g = &c.geometry;
    tess_test_true("node x0 is fluid, x0 + 1 solid", g->type[tess_geometry_index(g, x0, y0, z0)] != 0 &&
                                                           g->type[tess_geometry_index(g, x0 + 1, y0, z0)] == 0);
    const double x[3] = {x0, y0, z0}, cx[3] = {1, 0, 0};
    /* 1e-12: a few ulps of coordinates near 16 (3.6e-15 each) through the root and the sqrt, with margin. */
    snprintf(label, sizeof label, "q along +x from (%d, %d, %d), centre (%.4f, %.4f, %.4f): analytic x_s - x0", x0,
             y0, z0, p[0], p[1], p[2]);
    tess_test_close(label, tess_wall_q_case(&c, x, cx), xs - x0, 1e-12);
    /* A diagonal link (1, 1, 0) from the same node: the smaller root of |x + t c - p|^2 = r^2. */
    const double cd[3] = {1, 1, 0};
    double a = 0, b = 0, cc = -r * r;
    for (int k = 0; k < 3; k++) {
        a += cd[k] * cd[k];
        b += 2 * cd[k] * (x[k] - p[k]);
        cc += (x[k] - p[k]) * (x[k] - p[k]);
    }
    const double disc = b * b - 4 * a * cc;
    const double tq = disc >= 0 ? (-b - sqrt(disc)) / (2 * a) : -1.0;
    const double want = tq > 0 && tq <= 1 ? tq : -1.0;
    snprintf(label, sizeof label, "q along (1, 1, 0) from the same node against the quadratic's root %.6f", want);
    tess_test_close(label, tess_wall_q_case(&c, x, cd), want, 1e-12);
    tess_case_free(&c);
}

/* 1000 spheres of radius 0.5 spread over a box of 1000: the edge grows past r + 2 until the cells number at
 * most 8 per sphere, and the near ranges of a centre still hold it. */
static void check_grid_size(void)
{
    enum { N = 1000 };
    double *centre = malloc(3 * N * sizeof *centre);
    tess_test_rng rng;
    tess_test_rng_seed(&rng, 11);
    for (int i = 0; i < 3 * N; i++)
        centre[i] = 1000.0 * tess_test_uniform(&rng);
    tess_sphere_grid_t g;
    tess_error_t err;
    if (tess_sphere_grid_build(&g, centre, N, 0.5, &err) != TESS_OK) {
        tess_test_true(err.msg, 0);
        free(centre);
        return;
    }
    const double cells = (double)g.nc[0] * g.nc[1] * g.nc[2];
    char label[160];
    snprintf(label, sizeof label, "grid of %d tiny spheres: %.0f cells of edge %.1f, at most 8 a sphere", N, cells,
             g.h);
    tess_test_true(label, cells <= 8.0 * N && g.h >= 2.5);
    long lost = 0;
    for (int i = 0; i < N; i++) {
        int64_t range[9][2];
        const int m = tess_sphere_grid_near(&g, centre + 3 * i, range);
        int found = 0;
        for (int j = 0; j < m; j++)
            for (int64_t s = range[j][0]; s < range[j][1]; s++)
                found |= memcmp(g.sphere[s].a, centre + 3 * i, sizeof g.sphere[s].a) == 0;
        lost += !found;
    }
    tess_test_close("spheres missing from the near ranges of their own centre", (double)lost, 0, 0);
    tess_sphere_grid_free(&g);
    free(centre);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    check_two_beds(argv[2]);
    check_single_sphere(argv[2]);
    check_grid_size();
    return tess_test_result("test_sphere_bed");
}
