/* Host-side lattice descriptor: what a backend, a test or the I/O needs to know about a lattice
 * without including its physics. Each lattice has one compile-time header (tess_d3q19.h, lattice/tess_d2q9.h,
 * lattice/tess_d3q13.h, lattice/tess_d3q27.h) from which both this descriptor and the physics take their
 * tables; docs/lattices.md describes them. */
#ifndef TESS_LATTICE_H
#define TESS_LATTICE_H

#define TESS_MAX_Q 27

/* Stored in tess_params_t.lattice; 0 = D3Q19 keeps every existing case and restart working. */
typedef enum {
    TESS_LATTICE_D3Q19 = 0,
    TESS_LATTICE_D2Q9 = 1,
    TESS_LATTICE_D3Q13 = 2,
    TESS_LATTICE_D3Q27 = 3
} tess_lattice_id;
#define TESS_LATTICE_COUNT 4

typedef struct {
    tess_lattice_id id;
    const char *name; /* "D3Q19", "D2Q9", ... */
    int d, q;         /* dimension (2 for D2Q9: c[i][2] = 0) and number of velocities */
    int c[TESS_MAX_Q][3];
    double w[TESS_MAX_Q]; /* weights of the rest-state equilibrium: f_i = w_i rho at u = 0 */
    int opp[TESS_MAX_Q];  /* c[opp[i]] = -c[i]; for every lattice here opp(i) = i + 1 for odd i */
    const char *dir_name[TESS_MAX_Q];
} tess_lattice_t;

/* Returns the descriptor, or NULL for an unknown id or name. Names are matched without regard to case
 * ("D2Q9", "d2q9"). The descriptors are static tables: the pointers stay valid for the whole run. */
const tess_lattice_t *tess_lattice_by_name(const char *name);
const tess_lattice_t *tess_lattice_get(tess_lattice_id id);

#endif
