/* The engines this build runs distributed (tess_dist_engines.c). */
#ifndef TESS_DIST_ENGINES_H
#define TESS_DIST_ENGINES_H

/* Hands the built GPU engines to the distributed driver (backends/cpu/cpu_dist.h); main() calls it on every
 * rank, before any command. */
void tess_dist_engines_register(void);

#endif
