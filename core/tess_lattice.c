#include "tess_lattice.h"
#include "lattice/tess_d2q9.h"
#include "lattice/tess_d3q13.h"
#include "lattice/tess_d3q27.h"
#include "tess_d3q19.h"
#include <ctype.h>
#include <stddef.h>

/* Fills a descriptor from a lattice header's initialiser macros; weights are numerator / denominator, so the
 * doubles are the correctly rounded fractions. */
#define TESS_LATTICE_FILL(L, ID, NAME, D, Q, CXM, CYM, CZM, WNUM, WDEN, OPPT, NAMES)                            \
    do {                                                                                                      \
        static const int cx_[] = CXM, cy_[] = CYM, cz_[] = CZM, w_[] = WNUM, opp_[] = OPPT;                   \
        static const char *names_[] = NAMES;                                                                  \
        (L)->id = (ID);                                                                                       \
        (L)->name = (NAME);                                                                                   \
        (L)->d = (D);                                                                                         \
        (L)->q = (Q);                                                                                         \
        for (int i = 0; i < (Q); i++) {                                                                       \
            (L)->c[i][0] = cx_[i];                                                                            \
            (L)->c[i][1] = cy_[i];                                                                            \
            (L)->c[i][2] = cz_[i];                                                                            \
            (L)->w[i] = (double)w_[i] / (double)(WDEN);                                                       \
            (L)->opp[i] = opp_[i];                                                                            \
            (L)->dir_name[i] = names_[i];                                                                     \
        }                                                                                                     \
    } while (0)

static tess_lattice_t lattices[TESS_LATTICE_COUNT];
static int ready;

static void fill_all(void)
{
    TESS_LATTICE_FILL(&lattices[TESS_LATTICE_D3Q19], TESS_LATTICE_D3Q19, "D3Q19", 3, TESS_D3Q19_Q, TESS_D3Q19_CX,
                      TESS_D3Q19_CY, TESS_D3Q19_CZ, TESS_D3Q19_W36, 36, TESS_D3Q19_OPP_TABLE, TESS_D3Q19_NAMES);
    TESS_LATTICE_FILL(&lattices[TESS_LATTICE_D2Q9], TESS_LATTICE_D2Q9, "D2Q9", 2, TESS_D2Q9_Q, TESS_D2Q9_CX,
                      TESS_D2Q9_CY, TESS_D2Q9_CZ, TESS_D2Q9_W, TESS_D2Q9_WDEN, TESS_D2Q9_OPP, TESS_D2Q9_NAMES);
    TESS_LATTICE_FILL(&lattices[TESS_LATTICE_D3Q13], TESS_LATTICE_D3Q13, "D3Q13", 3, TESS_D3Q13_Q, TESS_D3Q13_CX,
                      TESS_D3Q13_CY, TESS_D3Q13_CZ, TESS_D3Q13_W, TESS_D3Q13_WDEN, TESS_D3Q13_OPP,
                      TESS_D3Q13_NAMES);
    TESS_LATTICE_FILL(&lattices[TESS_LATTICE_D3Q27], TESS_LATTICE_D3Q27, "D3Q27", 3, TESS_D3Q27_Q, TESS_D3Q27_CX,
                      TESS_D3Q27_CY, TESS_D3Q27_CZ, TESS_D3Q27_W, TESS_D3Q27_WDEN, TESS_D3Q27_OPP,
                      TESS_D3Q27_NAMES);
    ready = 1;
}

const tess_lattice_t *tess_lattice_get(tess_lattice_id id)
{
    if ((int)id < 0 || (int)id >= TESS_LATTICE_COUNT)
        return NULL;
    if (!ready)
        fill_all();
    return &lattices[id];
}

static int same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (toupper((unsigned char)*a) != toupper((unsigned char)*b))
            return 0;
    return *a == *b;
}

const tess_lattice_t *tess_lattice_by_name(const char *name)
{
    if (!name)
        return NULL;
    if (!ready)
        fill_all();
    for (int k = 0; k < TESS_LATTICE_COUNT; k++)
        if (same_name(name, lattices[k].name))
            return &lattices[k];
    return NULL;
}
