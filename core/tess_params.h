/* Run-time physics choices, passed by value to every backend (and to GPU kernels as an argument):
 * no pointers inside, so the same bytes mean the same thing on the host and on a device. */
#ifndef TESS_PARAMS_H
#define TESS_PARAMS_H

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
typedef enum { TESS_BC_ZOU_HE = 0, TESS_BC_FINITE_DIFFERENCE = 1 } tess_bc_method;
typedef enum { TESS_FLUID_INCOMPRESSIBLE = 0, TESS_FLUID_QUASI_COMPRESSIBLE = 1 } tess_fluid_model;

typedef struct {
    int32_t kind;    /* tess_node_kind */
    int32_t axis;    /* outward normal of a Zou-He plane: axis 0..2 ... */
    int32_t sign;    /* ... and sign +1 / -1 */
    int32_t pad;
    double u[3];     /* wall or inlet velocity */
    double rho;      /* outlet density */
    int32_t method;  /* inlets and outlets: tess_bc_method (0 Zou-He, 1 finite-difference velocity gradient) */
    int32_t pad2;
} tess_material_t;

typedef struct {
    int32_t collision;    /* tess_collision_model */
    int32_t fluid;        /* tess_fluid_model */
    int32_t use_force;
    int32_t nmat;
    double tau;
    double s[19];         /* MRT relaxation rates per moment (d'Humieres order) */
    double we, wej, wxx;  /* MRT equilibrium parameters */
    double force[3];      /* constant body force density (Guo forcing) */
    tess_material_t mat[TESS_MAX_MATERIALS];
} tess_params_t;

/* Fills the defaults: LBGK, incompressible, tau 0.6, d'Humieres' rates, no force, solid and fluid. */
void tess_params_default(tess_params_t *p);
/* Sets the rates of the viscous moments to 1/tau (MRT keeps its other rates). */
void tess_params_set_tau(tess_params_t *p, double tau);


#endif
