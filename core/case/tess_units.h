/* Physical units: a case with a [units] section gives its problem in SI (or any consistent units); this turns
 * it into the lattice units the rest of Tessera uses, at case load, so that the backends and the engine see
 * plain lattice values (docs/case-format.md, "Physical units", has the formulas). The output helpers turn
 * lattice values back into the case's units. */
#ifndef TESS_UNITS_H
#define TESS_UNITS_H

#include "tess_case_entries.h"
#include "tess_error.h"

typedef struct {
    int active;          /* the case has a [units] section */
    int physical_output; /* fields, times and the .pvd in the case's units (else lattice units) */
    double dx, dt;       /* grid spacing and time step, case units */
    double rho, nu;      /* fluid density and kinematic viscosity, case units */
    double u_ref;        /* reference speed U: [units] velocity or the largest prescribed speed; 0 if none */
    double length;       /* reference length L ([units] length); 0 if none */
    double tau;          /* the derived relaxation time */
    double u_lattice;    /* U dt / dx */
    double mach;         /* u_lattice sqrt(3) */
    double re;           /* U L / nu; 0 without a length or a speed */
} tess_units_t;

#define TESS_UNITS_MACH_MAX 0.3

/* With a [units] section: reads it, derives dt and tau (from mach, tau or dt), refuses tau <= 1/2 and a
 * lattice Mach number above TESS_UNITS_MACH_MAX (unless override = yes), and rewrites every physical entry
 * (coordinates, lengths, speeds, accelerations, pressures, densities, times) into the lattice entry the loader
 * reads. Without one: u->active = 0 and nothing changes. Errors (TESS_ERR_INPUT) name the file and key. */
tess_status tess_units_apply(tess_entries_t *es, tess_units_t *u, tess_error_t *err);

/* Lattice to output units: the case's units when u is active with physical output, lattice units otherwise.
 * Pressure is p - p_ref = c_s^2 (rho - 1) (times rho0 (dx/dt)^2), p_ref being the pressure at lattice density 1. */
double tess_units_velocity_scale(const tess_units_t *u);
double tess_units_density(const tess_units_t *u, double rho_lattice);
double tess_units_pressure(const tess_units_t *u, double rho_lattice);
double tess_units_time(const tess_units_t *u, long step);

/* One line "dx ..., dt ..., tau ..., lattice velocity ..., Mach ..., Re ..." for the start of a run. */
void tess_units_describe(const tess_units_t *u, char *buf, size_t len);

#endif
