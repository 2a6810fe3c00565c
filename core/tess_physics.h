/* The single source of the physics: every backend includes this header and nothing else for it.
 * Functions come in two precisions: name_f64 (double) and name_f32 (float). */
#ifndef TESS_PHYSICS_H
#define TESS_PHYSICS_H

#include "tess_config.h"
#include "tess_d3q19.h"
#include "tess_params.h"

#define TESS_TEMPLATE "tess_physics_t.h"
#include "tess_instantiate.h"

#endif
