/* Bulk physics of every lattice (D2Q9, D3Q13, D3Q19, D3Q27): one node's equilibrium, moments, velocity,
 * collision and output moments, header-only and TESS_HD, in double and float, from the one source
 * core/tess_physics_q_t.h (instantiated by tess_physics.h). Names: tess_q_<what>_<lat>_<prec>, e.g.
 * tess_q_collide_d2q9_f64 (lat: d2q9, d3q13, d3q19, d3q27; prec: f64, f32). Each lattice L and precision P
 * (R = double or float) provides
 *   void tess_q_equilibrium_L_P(int fluid, R rho, const R u[3], R *feq)           second-order equilibrium
 *   void tess_q_raw_moments_L_P(const R *f, R *rho, R j[3])                      rho = sum f, j = sum c f
 *   void tess_q_velocity_L_P(const tess_params_t *p, R rho, const R j[3], R shift_sign, R u[3])
 *                                                      u from (rho, j) with shift_sign * F/2 when p->use_force
 *   void tess_q_collide_L_P(const tess_params_t *p, R *f)                  full bulk update of a node, in place
 *   void tess_q_collide_model_L_P(const tess_params_t *p, int collision, int fluid, int use_force, R *f)
 *                                              the same with the model choices as (possibly constant) arguments
 *   void tess_q_macroscopic_L_P(const tess_params_t *p, const R *f, R *rho, R u[3])     output moments
 *   the wall rules tess_q_wall_term_L_P, tess_q_bounce_back_L_P, tess_q_bouzidi_L_P (and its two halves
 *   tess_q_bouzidi_coefs_L_P, per link at initialise, and tess_q_bouzidi_apply_L_P) and tess_q_nee_L_P
 * and, except for D3Q13, tess_q_guo_source_L_P, tess_q_collide_lbgk_L_P, tess_q_collide_regularized_L_P and the
 * Hermite moments and rebuild (tess_q_hermite_*) and the finite-difference closure (tess_q_fd_known_sum,
 * tess_q_fd_boundary); for D2Q9, D3Q13 and D3Q19, tess_q_collide_mrt_L_P; for D3Q13, tess_q_mrt_equilibrium_d3q13_P
 * and tess_q_from_moments_d3q13_P; for D3Q19, tess_q_zou_he and tess_q_node_collide. The
 * run-time lattice id is dispatched by the backend (a switch over p->lattice around its loops), never inside the
 * per-node code. docs/lattices.md describes the lattices, their
 * moments and rates. */
#ifndef TESS_PHYSICS_Q_H
#define TESS_PHYSICS_Q_H

#include "tess_config.h"
#include "tess_lattice.h"
#include "tess_params.h"
#include "tess_physics.h"

/* Whether the engine can run this lattice with this collision (tess_collision_model): D2Q9 and D3Q19 all three,
 * D3Q13 MRT only (the D3Q13 paper's model; the lattice lacks the isotropy LBGK needs), D3Q27 LBGK and
 * regularized (no MRT basis here). Case load and backend initialise refuse the others. */
TESS_HD TESS_INLINE int tess_q_supports(tess_lattice_id id, int collision)
{
    const int lbgk = collision == TESS_COLLISION_LBGK, mrt = collision == TESS_COLLISION_MRT,
              reg = collision == TESS_COLLISION_REGULARIZED;
    switch (id) {
    case TESS_LATTICE_D3Q19:
    case TESS_LATTICE_D2Q9: return lbgk || mrt || reg;
    case TESS_LATTICE_D3Q13: return mrt;
    case TESS_LATTICE_D3Q27: return lbgk || reg;
    }
    return 0;
}

/* Whether the lattice has the finite-difference inlet/outlet (method fd, tess_q_fd_boundary): every lattice with
 * the second-order Hermite rebuild of the regularized collision, i.e. all but D3Q13. */
TESS_HD TESS_INLINE int tess_q_supports_fd(tess_lattice_id id)
{
    return id != TESS_LATTICE_D3Q13;
}

#endif
