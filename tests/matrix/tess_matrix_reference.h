/* The per-node reference of the matrix suite (tess_test_matrix.h): the AB pattern written as plainly as it can be,
 * every wet node of the tiling through the core's whole per-node update tess_q_node_step (gather with every
 * boundary rule, then the collision), one node after the other, no tile fast paths, no fix-up lists, no threads.
 * It calls the same core functions as every backend, so a backend that reproduces it differs from it only in
 * addressing, loops and the compiler's contraction, never in the physics. */
#ifndef TESS_MATRIX_REFERENCE_H
#define TESS_MATRIX_REFERENCE_H

#include "tess_backend.h"
#include "tess_params.h"
#include "tess_tiling.h"

/* Advances the canonical populations pops_in (precision prec) nsteps AB steps of physics p on tiling t (its curved
 * links included) and writes the result to pops_out (wet nodes; every other value is copied from pops_in).
 * Errors: TESS_ERR_NOMEM; TESS_ERR_UNSUPPORTED when the engine does not run p (tess_q_check_physics). */
tess_status tess_matrix_reference_run(const tess_tiling_t *t, const tess_params_t *p, tess_precision prec,
                                      const void *pops_in, int nsteps, void *pops_out, tess_error_t *err);

#endif
