/* Replays inputs through a fuzz target without libFuzzer (every build): `fuzz_replay_X [--expect N] FILE...`
 * runs each file, prints its status and message, and fails when a status differs from N (a TESS_ERR_INPUT
 * code, 2; or "any": only the target's own checks). The regression tests feed tests/fuzz/regressions/ and
 * the seed corpora through it under the sanitizers. */
#include "tess_fuzz.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int expect = -1, failed = 0, n = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--expect") == 0 && i + 1 < argc) {
            i++;
            expect = strcmp(argv[i], "any") == 0 ? -1 : atoi(argv[i]);
            continue;
        }
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            printf("FAIL %s: cannot open\n", argv[i]);
            failed++;
            continue;
        }
        fseek(f, 0, SEEK_END);
        const long len = ftell(f);
        fseek(f, 0, SEEK_SET);
        unsigned char *b = malloc(len > 0 ? (size_t)len : 1);
        const size_t got = b ? fread(b, 1, (size_t)(len > 0 ? len : 0), f) : 0;
        fclose(f);
        LLVMFuzzerTestOneInput(b, got);
        free(b);
        const int code = tess_status_exit_code(tess_fuzz_status);
        const int ok = expect < 0 || code == expect;
        char want[16] = "0 or 2";
        if (expect >= 0)
            snprintf(want, sizeof want, "%d", expect);
        printf("%s %s: exit status %d (expected %s)%s%s\n", ok ? "ok  " : "FAIL", argv[i], code, want,
               tess_fuzz_message[0] ? ": " : "", tess_fuzz_message);
        failed += !ok;
        n++;
    }
    printf("%s: %d input(s), %d failed\n", argv[0], n, failed);
    return failed || n == 0;
}
