/* Instantiates a precision template twice: define TESS_TEMPLATE as the template's file name (a string), then
 * include this file. The template sees TESS_R (double, then float) and TESS_FN(name) (name_f64, name_f32), the
 * convention of core/tess_physics_t.h. C has no templates; this keeps each body written once. No include guard:
 * every inclusion instantiates another template. */
#ifndef TESS_TEMPLATE
#error "define TESS_TEMPLATE (the template's file name) before including tess_instantiate.h"
#endif

#define TESS_R double
#define TESS_FN(name) name##_f64
#include TESS_TEMPLATE
#undef TESS_R
#undef TESS_FN

#define TESS_R float
#define TESS_FN(name) name##_f32
#include TESS_TEMPLATE
#undef TESS_R
#undef TESS_FN

#undef TESS_TEMPLATE
