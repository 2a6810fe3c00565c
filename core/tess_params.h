/* Run-time physics choices, passed by value to every backend (and to GPU kernels as an argument):
 * no pointers inside, so the same bytes mean the same thing on the host and on a device. */
#ifndef TESS_PARAMS_H
#define TESS_PARAMS_H

#include "tess_lattice.h"
#include "tess_waveform.h"
#include "tess_womersley.h"
#include <stdint.h>

#define TESS_MAX_MATERIALS 32

/* What a node type (the uint8 stored per node) means. Node type 0 is always plain solid, 1 plain fluid;
 * the case file defines the others (moving walls, inlets, outlets). */
typedef enum {
    TESS_NODE_SOLID = 0,    /* halfway bounce-back wall, not computed */
    TESS_NODE_FLUID = 1,
    TESS_NODE_WALL = 2,     /* solid moving wall: bounce-back with wall velocity */
    TESS_NODE_VELOCITY = 3, /* Zou-He velocity inlet on an axis-aligned plane */
    TESS_NODE_PRESSURE = 4  /* Zou-He pressure (density) outlet on an axis-aligned plane */
} tess_node_kind;

typedef enum {
    TESS_COLLISION_LBGK = 0,
    TESS_COLLISION_MRT = 1,
    TESS_COLLISION_REGULARIZED = 2 /* Latt & Chopard projection; the only model the MR pattern can run */
} tess_collision_model;
/* How an inlet or outlet (TESS_NODE_VELOCITY / TESS_NODE_PRESSURE) rebuilds its unknown populations. */
/* TESS_BC_NEE: non-equilibrium extrapolation (Guo, Zheng & Shi 2002), any outward normal. */
typedef enum { TESS_BC_ZOU_HE = 0, TESS_BC_FINITE_DIFFERENCE = 1, TESS_BC_NEE = 2 } tess_bc_method;
/* Curved-wall treatment of links with a wall distance (tess_links.h); plain walls stay halfway bounce-back. */
typedef enum { TESS_WALL_BOUNCE_BACK = 0, TESS_WALL_BOUZIDI_LINEAR = 1, TESS_WALL_BOUZIDI_QUADRATIC = 2 } tess_wall_model;
/* The forms of a curved link's Bouzidi rule (tess_q_bouzidi_coefs): halfway (no wet x + c_i), before / after the
 * wall (q < 1/2, q >= 1/2), linear or quadratic. */
enum { TESS_BOUZIDI_HALFWAY = 0, TESS_BOUZIDI_BEFORE1, TESS_BOUZIDI_BEFORE2, TESS_BOUZIDI_AFTER1, TESS_BOUZIDI_AFTER2 };
typedef enum { TESS_FLUID_INCOMPRESSIBLE = 0, TESS_FLUID_QUASI_COMPRESSIBLE = 1 } tess_fluid_model;
/* Velocity profile of an inlet (tess_inlet.h): u everywhere, u times a parabola across the plane, or u (the mean)
 * times the Womersley profile of a circular opening (tess_womersley.h). */
typedef enum { TESS_PROFILE_UNIFORM = 0, TESS_PROFILE_PARABOLIC = 1, TESS_PROFILE_WOMERSLEY = 2 } tess_inlet_profile;

typedef struct {
    int32_t kind;    /* tess_node_kind */
    int32_t axis;    /* outward normal of a Zou-He plane: axis 0..2 ... */
    int32_t sign;    /* ... and sign +1 / -1 */
    int32_t womersley; /* Womersley inlets: w, the table tess_params_t.wom[w - 1]; else 0 */
    double u[3];     /* wall or inlet velocity */
    double rho;      /* outlet density */
    int32_t method;  /* inlets and outlets: tess_bc_method (0 Zou-He, 1 finite-difference velocity gradient) */
    int32_t pad2;
    double normal[3]; /* inlets and outlets: outward unit normal (any direction with method nee) */
    int32_t profile;  /* inlets: tess_inlet_profile; u is then the peak velocity */
    int32_t waveform; /* inlets and outlets: 0 none, w: tess_params_t.wave[w - 1] scales u (inlet) or rho - 1 (outlet) */
    double wall_lo[3], wall_hi[3]; /* parabolic inlet: wall coordinates across each axis (lo == hi: none) */
} tess_material_t;

typedef struct {
    int32_t collision;    /* tess_collision_model */
    int32_t fluid;        /* tess_fluid_model */
    int32_t use_force;
    int32_t nmat;
    int32_t lattice;      /* tess_lattice_id (core/tess_lattice.h); 0 = D3Q19 */
    int32_t wall;         /* tess_wall_model; also keeps the struct free of padding holes (restart hash) */
    double tau;
    /* MRT relaxation rates per moment, in the lattice's moment order: D3Q19 d'Humieres (2002) order
     * (TESS_M_*), D2Q9 Lallemand & Luo (2000) order (TESS_M9_*, s[0..8]), D3Q13 the D3Q13 paper's order
     * (TESS_M13_*, s[0..12]); docs/lattices.md lists them. */
    double s[19];
    double we, wej, wxx;  /* MRT equilibrium parameters */
    double force[3];      /* constant body force density (Guo forcing) */
    tess_material_t mat[TESS_MAX_MATERIALS];
    /* Time-dependent inlets and outlets (tess_waveform.h, tess_inlet.h): the case's waveform tables, and the step
     * of the state that a backend's initialise receives (0 at the start, the restart's step after a restart):
     * the n-th sweep after initialise computes the state of step step0 + n, whose boundaries take the waveforms'
     * values at time step0 + n (tess_q_grid_t.step). */
    int32_t nwave;
    int32_t pad_w;
    int64_t step0;
    tess_waveform_t wave[TESS_MAX_WAVEFORMS];
    /* The profile tables of the Womersley inlets (tess_womersley.h), nwom of them. */
    int32_t nwom;
    int32_t pad_wom;
    tess_womersley_t wom[TESS_MAX_WOMERSLEY];
} tess_params_t;

/* A GPU backend keeps the parameters in constant memory (64 KiB in all, with a few hundred bytes of its own). */
#ifdef __cplusplus
static_assert(sizeof(tess_params_t) <= 48 * 1024, "tess_params_t must fit in GPU constant memory");
#else
_Static_assert(sizeof(tess_params_t) <= 48 * 1024, "tess_params_t must fit in GPU constant memory");
#endif

/* Fills the defaults: LBGK, incompressible, tau 0.6, d'Humieres' rates, no force, solid and fluid. */
void tess_params_default(tess_params_t *p);
/* Sets tau and the rates of the viscous moments for the lattice in p->lattice (MRT keeps its other rates):
 * 1/tau for D3Q19 and D2Q9; for D3Q13 s_nu = 2 / (8 nu + 1) and s'_nu = 2 / (4 nu + 1) with
 * nu = (tau - 1/2) / 3 (D3Q13 paper, eq. 7), so that tau means the same viscosity on every lattice. */
void tess_params_set_tau(tess_params_t *p, double tau);
/* Sets the lattice (a tess_lattice_id) and its default MRT rates, then the viscous rates from p->tau. */
void tess_params_set_lattice(tess_params_t *p, tess_lattice_id id);

/* The case file's MRT rate keys ([physics] rate_e, rate_eps, rate_q, rate_pi, rate_m, rate_h): tess_params_rate_key
 * names key k (0 <= k < TESS_PARAMS_RATE_KEYS); tess_params_rate_moments fills idx with the indices into s that
 * the key sets on lattice id and returns how many (at most 3), 0 when the key is not a rate of that lattice
 * (docs/lattices.md: e.g. rate_h is D3Q13's s_h, rate_m exists only on D3Q19). */
#define TESS_PARAMS_RATE_KEYS 6
const char *tess_params_rate_key(int k);
int tess_params_rate_moments(tess_lattice_id id, int k, int idx[3]);


#endif
