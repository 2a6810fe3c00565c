/* The ranks' blocks of a node's cores (backends/cpu/tess_cpu_rank_bind.h): for every node of 1 to 130 cores and
 * every count of local ranks up to the cores, the blocks are disjoint, in rank order, together exactly the cores,
 * and differ in size by at most one; more ranks than cores get no block (nothing is bound). Integers, exact. */
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
                const int got = tess_cpu_rank_share(cores, r, nlocal, &first, &count);
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
    tess_test_true("local rank outside its count refused", !tess_cpu_rank_share(4, 2, 2, &f, &c));
    return tess_test_result("test_rank_bind");
}
