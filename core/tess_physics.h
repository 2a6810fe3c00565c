/* The single source of the physics: every backend includes this header (or tess_physics_q.h) and nothing else
 * for it. tess_physics_t.h holds the lattice-free pieces in two precisions (name_f64, name_f32);
 * tess_physics_q_t.h every lattice's equilibria, moments, collisions and boundary rules, instantiated per lattice
 * and precision (tess_q_<what>_<lat>_<prec>, tess_instantiate_q.h). */
#ifndef TESS_PHYSICS_H
#define TESS_PHYSICS_H

#include "tess_config.h"
#include "tess_d3q19.h"
#include "tess_params.h"

#define TESS_TEMPLATE "tess_physics_t.h"
#include "tess_instantiate.h"

#define TESS_QTEMPLATE "tess_physics_q_t.h"
#include "tess_instantiate_q.h"

/* The older D3Q19 names (the D3Q19 MR kernel, the tests, the GPU benchmark): aliases of the d3q19 instance, so that
 * there is one function behind each. New code should call the tess_q_*_d3q19_* names. */
#define tess_collide_model_f64 tess_q_collide_model_d3q19_f64
#define tess_collide_model_f32 tess_q_collide_model_d3q19_f32
#define tess_node_collide_f64 tess_q_node_collide_d3q19_f64
#define tess_node_collide_f32 tess_q_node_collide_d3q19_f32
#define tess_macroscopic_f64 tess_q_macroscopic_d3q19_f64
#define tess_macroscopic_f32 tess_q_macroscopic_d3q19_f32
#define tess_bounce_back_f64 tess_q_bounce_back_d3q19_f64
#define tess_bounce_back_f32 tess_q_bounce_back_d3q19_f32
#define tess_zou_he_f64 tess_q_zou_he_d3q19_f64
#define tess_zou_he_f32 tess_q_zou_he_d3q19_f32
#define tess_fd_boundary_f64 tess_q_fd_boundary_d3q19_f64
#define tess_fd_boundary_f32 tess_q_fd_boundary_d3q19_f32
/* tess_equilibrium takes the velocity as three scalars (the older signature) instead of u[3]. */
#define TESS_EQUILIBRIUM_ALIAS(P, R)                                                                              \
    TESS_HD TESS_INLINE void tess_equilibrium_##P(int fluid, R rho, R ux, R uy, R uz, R *feq)                     \
    {                                                                                                             \
        const R u[3] = {ux, uy, uz};                                                                              \
        tess_q_equilibrium_d3q19_##P(fluid, rho, u, feq);                                                         \
    }
TESS_EQUILIBRIUM_ALIAS(f64, double)
TESS_EQUILIBRIUM_ALIAS(f32, float)
#undef TESS_EQUILIBRIUM_ALIAS

#endif
