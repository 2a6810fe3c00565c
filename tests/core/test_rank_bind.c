/* The ranks' blocks of a node's cores (backends/cpu/tess_cpu_rank_bind.h): for every node of 1 to 130 cores and
 * every count of local ranks up to the cores, the blocks are disjoint, in rank order, together exactly the cores,
 * and differ in size by at most one; more ranks than cores get no block (nothing is bound); with NUMA domains,
 * the blocks of a few layouts worked out by hand (one domain a rank, shared domains, whole domains, fallbacks).
 * Integers, exact. */
#include "tess_cpu_rank_bind.h"
#include "tess_test.h"
#include <stdio.h>

int main(void)
{
    long cases = 0, bad = 0, refused = 0;
    for (int cores = 1; cores <= 130; cores++)
        for (int nlocal = 1; nlocal <= cores + 3; nlocal++) {
            int next = 0, lo = cores, hi = 0, ok = 1;
            for (int r = 0; r < nlocal; r++) {
                int first = -1, count = -1;
                const int got = tess_cpu_rank_share(cores, NULL, 0, r, nlocal, &first, &count);
                if (nlocal > cores) {
                    refused += !got;
                    ok &= !got;
                    continue;
                }
                ok &= got && first == next && count >= 1;
                next = first + count;
                lo = count < lo ? count : lo;
                hi = count > hi ? count : hi;
            }
            if (nlocal <= cores)
                ok &= next == cores && hi - lo <= 1;
            cases++;
            bad += !ok;
        }
    char what[160];
    snprintf(what, sizeof what, "core blocks of %ld node/rank-count cases: disjoint, ordered, covering, balanced", cases);
    tess_test_close(what, (double)bad, 0.0, 0.0);
    /* Every oversubscribed case's every rank refused: 3 counts above the cores per node size, sum of ranks. */
    long want = 0;
    for (int cores = 1; cores <= 130; cores++)
        want += (cores + 1) + (cores + 2) + (cores + 3);
    tess_test_close("oversubscribed ranks without a block", (double)refused, (double)want, 0.0);
    int f, c;
    tess_test_true("local rank outside its count refused", !tess_cpu_rank_share(4, NULL, 0, 2, 2, &f, &c));
    /* With domains of uneven sizes (2 to 4 per node, the first ones smaller), every rank count up to the cores:
     * still disjoint, in rank order, together exactly the cores. */
    long dcases = 0, dbad = 0;
    for (int cores = 4; cores <= 64; cores++)
        for (int nd = 2; nd <= 4; nd++) {
            int dom[4], left = cores;
            for (int d = 0; d < nd; d++) {
                dom[d] = d == nd - 1 ? left : (cores / nd) - (d % 2);
                left -= dom[d];
            }
            for (int nlocal = 1; nlocal <= cores; nlocal++) {
                int next = 0, ok = 1;
                for (int r = 0; r < nlocal; r++) {
                    int first = -1, count = -1;
                    ok &= tess_cpu_rank_share(cores, dom, nd, r, nlocal, &first, &count) && first == next && count >= 1;
                    next = first + count;
                }
                dcases++;
                dbad += !(ok && next == cores);
            }
        }
    snprintf(what, sizeof what, "core blocks of %ld cases with uneven NUMA domains: disjoint, ordered, covering", dcases);
    tess_test_close(what, (double)dbad, 0.0, 0.0);
    /* NUMA domains: as many ranks as domains get one each, also when the domains differ in size; a multiple of
     * them shares each domain; a divisor of them takes whole domains; otherwise equal blocks of all cores. */
    static const struct {
        int nd, dom[4], nlocal, want[8][2]; /* want: first, count per rank */
    } layouts[] = {
        {2, {6, 10}, 2, {{0, 6}, {6, 10}}},
        {2, {6, 10}, 4, {{0, 3}, {3, 3}, {6, 5}, {11, 5}}},
        {4, {4, 4, 4, 4}, 2, {{0, 8}, {8, 8}}},
        {2, {6, 10}, 3, {{0, 5}, {5, 5}, {10, 6}}},
        {2, {1, 15}, 4, {{0, 4}, {4, 4}, {8, 4}, {12, 4}}}, /* 2 ranks in a 1-core domain: equal blocks instead */
    };
    for (size_t k = 0; k < sizeof layouts / sizeof layouts[0]; k++) {
        int ok = 1, total = 0;
        for (int d = 0; d < layouts[k].nd; d++)
            total += layouts[k].dom[d];
        for (int r = 0; r < layouts[k].nlocal; r++) {
            int first = -1, count = -1;
            ok &= tess_cpu_rank_share(total, layouts[k].dom, layouts[k].nd, r, layouts[k].nlocal, &first, &count) &&
                  first == layouts[k].want[r][0] && count == layouts[k].want[r][1];
        }
        snprintf(what, sizeof what, "%d ranks on %d NUMA domains of %d, %d, ... cores: the expected blocks",
                 layouts[k].nlocal, layouts[k].nd, layouts[k].dom[0], layouts[k].dom[1]);
        tess_test_true(what, ok);
    }
    return tess_test_result("test_rank_bind");
}
