#include "tess_lattice.h"
#include "tess_d3q19.h"
#include <string.h>

static tess_lattice_t d3q19;
static int d3q19_ready;

static void d3q19_fill(void)
{
    static const int cx[] = TESS_D3Q19_CX, cy[] = TESS_D3Q19_CY, cz[] = TESS_D3Q19_CZ;
    static const int w36[] = TESS_D3Q19_W36;
    static const char *names[] = TESS_D3Q19_NAMES;
    d3q19.id = TESS_LATTICE_D3Q19;
    d3q19.name = "D3Q19";
    d3q19.d = 3;
    d3q19.q = TESS_D3Q19_Q;
    for (int i = 0; i < TESS_D3Q19_Q; i++) {
        d3q19.c[i][0] = cx[i];
        d3q19.c[i][1] = cy[i];
        d3q19.c[i][2] = cz[i];
        d3q19.w[i] = w36[i] / 36.0;
        d3q19.opp[i] = TESS_D3Q19_OPP(i);
        d3q19.dir_name[i] = names[i];
    }
    d3q19_ready = 1;
}

const tess_lattice_t *tess_lattice_get(tess_lattice_id id)
{
    if (id != TESS_LATTICE_D3Q19)
        return NULL;
    if (!d3q19_ready)
        d3q19_fill();
    return &d3q19;
}

const tess_lattice_t *tess_lattice_by_name(const char *name)
{
    if (name && (strcmp(name, "D3Q19") == 0 || strcmp(name, "d3q19") == 0))
        return tess_lattice_get(TESS_LATTICE_D3Q19);
    return NULL;
}
