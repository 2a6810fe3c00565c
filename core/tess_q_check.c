/* The physics the engine runs (tess_links.h: tess_q_check_physics), checked once for every
 * backend of the engine. */
#include "tess_lattice.h"
#include "tess_links.h"
#include "tess_physics_q.h"

tess_status tess_q_check_physics(const tess_params_t *p, tess_error_t *err)
{
    const tess_lattice_t *lat = tess_lattice_get((tess_lattice_id)p->lattice);
    static const char *const coll[] = {"lbgk", "mrt", "regularized"};
    if (!lat)
        return tess_fail(err, TESS_ERR_INPUT, "unknown lattice id %d", (int)p->lattice);
    if (p->collision < 0 || p->collision > 2 || !tess_q_supports((tess_lattice_id)p->lattice, p->collision))
        return tess_fail(err, TESS_ERR_UNSUPPORTED, "lattice %s has no %s collision", lat->name,
                         p->collision >= 0 && p->collision <= 2 ? coll[p->collision] : "such");
    for (int m = 0; m < p->nmat; m++) {
        const tess_material_t *mt = &p->mat[m];
        if (mt->kind != TESS_NODE_VELOCITY && mt->kind != TESS_NODE_PRESSURE)
            continue;
        if (mt->method == TESS_BC_FINITE_DIFFERENCE) {
            if (!tess_q_supports_fd((tess_lattice_id)p->lattice))
                return tess_fail(err, TESS_ERR_UNSUPPORTED,
                                 "material %d: the finite-difference inlet/outlet needs the second-order Hermite "
                                 "rebuild, which %s lacks; use method = nee",
                                 m, lat->name);
            if (mt->axis < 0 || mt->axis >= lat->d || (mt->sign != 1 && mt->sign != -1))
                return tess_fail(err, TESS_ERR_INPUT,
                                 "material %d: a finite-difference plane needs an axis-aligned outward normal (%s)", m,
                                 lat->d == 2 ? "-x, +x, -y or +y" : "-x, +x, -y, +y, -z or +z");
            if (mt->waveform > 0)
                return tess_fail(err, TESS_ERR_INPUT,
                                 "material %d: a waveform needs method = nee or zou-he (fd planes are steady)", m);
        }
        if (mt->profile != TESS_PROFILE_UNIFORM && mt->method != TESS_BC_NEE)
            return tess_fail(err, TESS_ERR_INPUT, "material %d: a profiled inlet needs method = nee", m);
        if (mt->profile == TESS_PROFILE_WOMERSLEY &&
            (mt->womersley < 1 || mt->womersley > p->nwom || p->nwom > TESS_MAX_WOMERSLEY))
            return tess_fail(err, TESS_ERR_INPUT, "material %d: womersley table %d, the parameters hold %d", m,
                             (int)mt->womersley, (int)p->nwom);
        if (mt->waveform < 0 || mt->waveform > p->nwave || p->nwave > TESS_MAX_WAVEFORMS)
            return tess_fail(err, TESS_ERR_INPUT, "material %d: waveform %d, the parameters hold %d", m,
                             (int)mt->waveform, (int)p->nwave);
        if (mt->waveform > 0) {
            const tess_waveform_t *w = &p->wave[mt->waveform - 1];
            int ok = w->n >= 2 && w->n <= TESS_WAVEFORM_ROWS;
            for (int i = 1; ok && i < w->n; i++)
                ok = w->t[i] > w->t[i - 1];
            if (!ok)
                return tess_fail(err, TESS_ERR_INPUT,
                                 "material %d: waveform %d needs 2..%d rows with increasing times", m,
                                 (int)mt->waveform, TESS_WAVEFORM_ROWS);
        }
        if (mt->method == TESS_BC_ZOU_HE && p->lattice != TESS_LATTICE_D3Q19)
            return tess_fail(err, TESS_ERR_UNSUPPORTED,
                             "material %d: Zou-He planes exist for D3Q19 only; use method = nee on %s", m, lat->name);
    }
    return TESS_OK;
}
