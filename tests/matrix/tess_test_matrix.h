/* The one test suite over the matrix backend x pattern x lattice x precision (SUNDIALS' test_nvector model,
 * ../shared/STYLE.md): the suite (tess_test_matrix.c) is written once; each backend's driver (test_matrix_cpu.c,
 * test_matrix_gpu.c) fills these hooks and calls tess_matrix_main. The suite drives the backend through its ops
 * table only (core/tess_backend.h) and compares with the per-node reference of tess_matrix_reference.h.
 * docs/testing.md lists the checks, cases and tolerances. */
#ifndef TESS_TEST_MATRIX_H
#define TESS_TEST_MATRIX_H

#include "tess_backend.h"
#include <stddef.h>

typedef struct tess_matrix_hooks {
    const char *name;               /* "cpu", "cuda", "hip": the table's first column */
    const tess_backend_ops_t *ops;  /* the backend under test */
    /* 1 when the backend can run here; 0 with the reason in why (a GPU backend without a device): every entry
     * then prints SKIPPED and the program exits 77, which ctest reports as skipped, never as passed. */
    int (*available)(const struct tess_matrix_hooks *h, char *why, size_t len);
    /* Whether the backend runs a pattern. One it does not must be refused with TESS_ERR_UNSUPPORTED and a
     * message, and one it claims must run: the suite asserts both, so the hooks cannot hide a refusal. */
    int (*supports)(tess_pattern pattern);
    int bitwise; /* 1: agreement with the reference means the same bits (no contraction anywhere); 0: within the
                  * fast build's tolerance (a GPU build with FMA contraction) */
    int threads; /* team size of every run; > 1 adds the check that 1 thread gives the same bits (0: no threads) */
} tess_matrix_hooks_t;

/* Runs every entry of the matrix on the backend of h, prints the table (one line per entry and check: backend,
 * pattern, lattice, precision, check, result, largest difference, tolerance) and returns the exit status: 0 all
 * passed, 1 a check failed, 77 the backend is not available here, 2 a bad argument. argv may hold --quick (a
 * tenth of the steps: the sanitized build). */
int tess_matrix_main(const tess_matrix_hooks_t *h, int argc, char **argv);

#endif
