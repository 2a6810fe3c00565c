/* The cores of each MPI rank of a node (docs/mpi.md, "Binding"): the ranks on one node share its cores in
 * contiguous blocks in hwloc's order (packages, NUMA nodes, cores): as many ranks as NUMA nodes get one node each
 * (and a multiple of them share each node's cores equally), else local rank i of L the cores
 * [i C / L, (i + 1) C / L); each rank binds its OpenMP threads
 * within its block (tess_cpu_topology_bind: thread t on the block's core t mod its size). More ranks on the node
 * than cores (oversubscribed): nothing is bound, and the rank says so. One process without a launcher is local
 * rank 0 of 1: the whole machine, as before. */
#ifndef TESS_CPU_RANK_BIND_H
#define TESS_CPU_RANK_BIND_H

#include <stddef.h>

/* This process's local rank and the ranks on its node, from the launcher's environment (Open MPI:
 * OMPI_COMM_WORLD_LOCAL_RANK / _LOCAL_SIZE; MPICH's Hydra: MPI_LOCALRANKID / MPI_LOCALNRANKS); 0 of 1 without. */
void tess_cpu_rank_local(int *local, int *nlocal);

/* The block of local rank `local` of `nlocal` on ncores cores: 1 with *first and *count, or 0 when the ranks
 * outnumber the cores (or the arguments make no sense), leaving them unset. domain_cores: the cores of each of
 * ndomains NUMA nodes (or packages), in core order, summing to ncores (NULL or 0: one domain). When the ranks are
 * a multiple of the domains, each domain's cores are shared among its equal number of ranks; when the domains are
 * a multiple of the ranks, each rank takes that many whole domains (2 ranks on 4 NUMA nodes: 2 nodes each); else,
 * or when a domain would have more ranks than cores, the equal blocks of all cores above. */
int tess_cpu_rank_share(int ncores, const int *domain_cores, int ndomains, int local, int nlocal, int *first,
                        int *count);

/* What tess_cpu_topology_bind did in this process, one line: "cores 2-3 (PUs 2-3), 2 threads" (the union of
 * the threads' bindings read back from the system), "not bound: 4 ranks on 2 cores (oversubscribed)",
 * "not bound: built without hwloc" or "not bound yet". */
void tess_cpu_rank_binding(char *buf, size_t len);
/* Records it (tess_cpu_topology_bind). */
void tess_cpu_rank_binding_set(const char *line);

#endif
