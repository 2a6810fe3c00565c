/* Boundary physics of the lattice-generic engine (any lattice, both precisions): halfway bounce-back with
 * moving walls, Bouzidi interpolated bounce-back for curved walls, non-equilibrium extrapolation for inlets
 * and outlets of any orientation. Names: tess_q_<what>_<lat>_<prec>, e.g. tess_q_bouzidi_d2q9_f64. Bulk
 * physics (equilibrium, moments, collision) comes from tess_physics_q.h. */
#ifndef TESS_BOUNDARY_Q_H
#define TESS_BOUNDARY_Q_H

#include "tess_physics_q.h"


#define TESS_QTEMPLATE "tess_boundary_q_t.h"
#include "tess_instantiate_q.h"

#endif
