#include "cpu_topology.h"
#include "tess_cpu_rank_bind.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef TESS_HAVE_HWLOC
#include <hwloc.h>
#endif

#ifdef TESS_HAVE_HWLOC
/* One topology per process, loaded on first use (loading reads sysfs: a few milliseconds). */
static hwloc_topology_t topology_get(void)
{
    static hwloc_topology_t topo;
    static int state; /* 0 not tried, 1 loaded, -1 failed */
#pragma omp critical(tess_topology)
    {
        if (state == 0) {
            state = -1;
            if (hwloc_topology_init(&topo) == 0) {
                if (hwloc_topology_load(topo) == 0)
                    state = 1;
                else
                    hwloc_topology_destroy(topo);
            }
        }
    }
    return state == 1 ? topo : NULL;
}
#endif

#ifdef TESS_HAVE_HWLOC
/* The cores of each NUMA node that has cores, in the cores' order (tess_cpu_rank_share's domains); 0 when there is
 * one such node, more than max, or one whose cores are not a run of that order. */
static int numa_domains(hwloc_topology_t topo, int ncores, int *cores, int max)
{
    const int nn = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    int nd = 0, next = 0;
    for (int i = 0; i < nn; i++) {
        hwloc_obj_t numa = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)i);
        if (!numa || !numa->cpuset || hwloc_bitmap_iszero(numa->cpuset))
            continue; /* memory without cores (HBM, CXL) */
        int n = 0;
        for (int c = 0; c < ncores; c++) {
            hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)c);
            if (core && core->cpuset && hwloc_bitmap_isincluded(core->cpuset, numa->cpuset)) {
                if (c != next + n)
                    return 0;
                n++;
            }
        }
        if (n == 0 || nd == max)
            return 0;
        cores[nd++] = n;
        next += n;
    }
    return nd > 1 && next == ncores ? nd : 0;
}
#endif

void tess_cpu_topology_bind(int nthreads)
{
#ifdef TESS_HAVE_HWLOC
    static int bound_team;
    hwloc_topology_t topo = topology_get();
    if (!topo || nthreads <= 0 || bound_team == nthreads)
        return;
    const int ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    if (ncores <= 0)
        return;
    /* This rank's block of the node's cores (all of them for one process: tess_cpu_rank_bind.h). */
    int local, nlocal, first, count;
    tess_cpu_rank_local(&local, &nlocal);
    char line[160];
    int domains[256];
    const int ndomains = numa_domains(topo, ncores, domains, 256);
    if (!tess_cpu_rank_share(ncores, domains, ndomains, local, nlocal, &first, &count)) {
        snprintf(line, sizeof line, "not bound: %d ranks on %d cores (oversubscribed)", nlocal, ncores);
        tess_cpu_rank_binding_set(line);
        bound_team = nthreads;
        return;
    }
    hwloc_bitmap_t done = hwloc_bitmap_alloc();
    /* Compact: thread t on the block's core t mod its size; the first-touch of the tile arrays then puts each
     * thread's tiles in its own NUMA node. What each thread is bound to is read back from the system. */
#pragma omp parallel num_threads(nthreads)
    {
#ifdef _OPENMP
        const int t = omp_get_thread_num();
#else
        const int t = 0;
#endif
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)(first + t % count));
        if (core && core->cpuset) {
            hwloc_bitmap_t set = hwloc_bitmap_dup(core->cpuset);
            hwloc_bitmap_singlify(set);
            hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD);
            if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_THREAD) == 0 && done) {
#pragma omp critical(tess_topology_done)
                hwloc_bitmap_or(done, done, set);
            }
            hwloc_bitmap_free(set);
        }
    }
    char pus[96] = "?";
    if (done)
        hwloc_bitmap_list_snprintf(pus, sizeof pus, done);
    snprintf(line, sizeof line, "cores %d-%d of %d (PUs %s), %d thread%s", first, first + count - 1, ncores, pus,
             nthreads, nthreads == 1 ? "" : "s");
    tess_cpu_rank_binding_set(line);
    hwloc_bitmap_free(done);
    bound_team = nthreads;
#else
    (void)nthreads;
    tess_cpu_rank_binding_set("not bound: built without hwloc (OMP_PROC_BIND / OMP_PLACES decide)");
#endif
}

size_t tess_cpu_topology_cache(int level, int *shared_by)
{
    if (shared_by)
        *shared_by = 1;
#ifdef TESS_HAVE_HWLOC
    hwloc_topology_t topo = topology_get();
    if (topo) {
        static const hwloc_obj_type_t types[4] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE,
                                                  HWLOC_OBJ_L3CACHE};
        if (level < 1 || level > 3)
            return 0;
        hwloc_obj_t c = hwloc_get_obj_by_type(topo, types[level], 0);
        if (c && c->attr) {
            if (shared_by) {
                const int n = hwloc_get_nbobjs_inside_cpuset_by_type(topo, c->cpuset, HWLOC_OBJ_CORE);
                *shared_by = n > 0 ? n : 1;
            }
            return (size_t)c->attr->cache.size;
        }
        return 0;
    }
#endif
#if defined(_SC_LEVEL2_CACHE_SIZE) && defined(_SC_LEVEL3_CACHE_SIZE)
    long v = level == 1 ? sysconf(_SC_LEVEL1_DCACHE_SIZE) : level == 2 ? sysconf(_SC_LEVEL2_CACHE_SIZE)
                                                                        : sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (level == 3 && shared_by && v > 0) {
        const long n = sysconf(_SC_NPROCESSORS_ONLN);
        *shared_by = n > 0 ? (int)n : 1;
    }
    return v > 0 ? (size_t)v : 0;
#else
    (void)level;
    return 0;
#endif
}

void tess_cpu_topology_summary(char *buf, size_t len)
{
    int s2 = 1, s3 = 1;
    const size_t l2 = tess_cpu_topology_cache(2, &s2), l3 = tess_cpu_topology_cache(3, &s3);
#ifdef TESS_HAVE_HWLOC
    hwloc_topology_t topo = topology_get();
    if (topo) {
        snprintf(buf, len, "%d package(s), %d cores, %d PUs, L2 %zu KiB shared by %d, L3 %zu KiB shared by %d (hwloc)",
                 hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE), hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE),
                 hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU), l2 >> 10, s2, l3 >> 10, s3);
        return;
    }
#endif
    snprintf(buf, len, "%ld processors, L2 %zu KiB, L3 %zu KiB shared by %d (sysconf; no hwloc)",
             sysconf(_SC_NPROCESSORS_ONLN), l2 >> 10, l3 >> 10, s3);
}

int tess_cpu_topology_team(int requested)
{
#ifdef _OPENMP
    const int n = requested > 0 ? requested : omp_get_max_threads();
#else
    const int n = 1;
    (void)requested;
#endif
    tess_cpu_topology_bind(n);
    return n;
}
