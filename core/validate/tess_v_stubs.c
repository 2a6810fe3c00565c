#include "tess_validate.h"
tess_status tess_validate_cylinder2d(tess_vctx_t *v, tess_error_t *err) { (void)err; tess_v_not_run(v, "Cylinder", "needs"); return TESS_OK; }
tess_status tess_validate_sphere_pipe(tess_vctx_t *v, tess_error_t *err) { (void)err; tess_v_not_run(v, "Sphere", "needs"); return TESS_OK; }
