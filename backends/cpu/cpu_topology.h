/* Machine topology for the CPU backend: thread binding, cache sizes and a summary line. With hwloc (built
 * with TESS_HAVE_HWLOC) the answers come from the hardware description; without it, from sysconf and the
 * OpenMP runtime's own binding, so every function works in both builds. */
#ifndef TESS_CPU_TOPOLOGY_H
#define TESS_CPU_TOPOLOGY_H

#include <stddef.h>

/* Binds OpenMP thread t of a team of nthreads to core t (compact) of this MPI rank's block of the node's cores
 * (all of them for one process; none when the node's ranks outnumber its cores: tess_cpu_rank_bind.h), once per
 * process; later calls with the same team size do nothing. Without hwloc the binding is left to OMP_PROC_BIND /
 * OMP_PLACES. */
void tess_cpu_topology_bind(int nthreads);

/* The team size for a backend: `requested` threads, or OpenMP's default when 0 (1 without OpenMP), bound
 * compactly through tess_cpu_topology_bind so that first touch places each tile near its thread. */
int tess_cpu_topology_team(int requested);

/* Size in bytes of the cache at level (1, 2, 3) seen by one core, and how many cores share it; 0 when unknown. */
size_t tess_cpu_topology_cache(int level, int *shared_by);

/* One line: packages, cores, processing units and caches, e.g. "1 package, 2 cores, 2 PUs, L2 1024 KiB/core,
 * L3 32768 KiB shared by 2 (hwloc)". */
void tess_cpu_topology_summary(char *buf, size_t len);

#endif
