/* Boundary physics of every lattice (halfway bounce-back with moving walls, Bouzidi interpolated bounce-back for
 * curved walls, non-equilibrium extrapolation for inlets and outlets of any orientation): written with the bulk
 * physics in core/tess_physics_q_t.h, one source; this header stays for its includers. Names:
 * tess_q_<what>_<lat>_<prec>, e.g. tess_q_bouzidi_d2q9_f64. */
#ifndef TESS_BOUNDARY_Q_H
#define TESS_BOUNDARY_Q_H

#include "tess_physics_q.h"

#endif
