/* Host-side lattice descriptor: what a backend, a test or the I/O needs to know about a lattice
 * without including its physics. New lattices (D2Q9, D3Q27, D3Q13) add one entry here and one
 * header like tess_d3q19.h; the backends stay the same shape. */
#ifndef TESS_LATTICE_H
#define TESS_LATTICE_H

#define TESS_MAX_Q 27

typedef enum { TESS_LATTICE_D3Q19 = 0 } tess_lattice_id;

typedef struct {
    tess_lattice_id id;
    const char *name;
    int d, q;
    int c[TESS_MAX_Q][3];
    double w[TESS_MAX_Q];
    int opp[TESS_MAX_Q];
    const char *dir_name[TESS_MAX_Q];
} tess_lattice_t;

/* Returns the descriptor, or NULL for an unknown name. */
const tess_lattice_t *tess_lattice_by_name(const char *name);
const tess_lattice_t *tess_lattice_get(tess_lattice_id id);

#endif
