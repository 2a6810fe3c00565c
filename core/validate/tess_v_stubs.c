/* Validations of the issue that this build does not run yet: each reports one "not run" row saying what it
 * needs, so that the report never passes over them in silence (docs/validation.md). */
#include "tess_validate.h"

tess_status tess_validate_cylinder2d(tess_vctx_t *v, tess_error_t *err)
{
    (void)err;
    tess_v_not_run(v, "Cylinder in a channel, Schaefer-Turek 2D-1 / 2D-2",
                   "needs a parabolic velocity inlet (the benchmark's inflow u = 4 Um y (H - y) / H^2; inlets are "
                   "uniform so far) and its driver in core/validate");
    return TESS_OK;
}
