/* `tessera info`: what this build contains and what the machine offers. */
#include "tess_cli.h"
#include "tess_lattice.h"
#include "tess_mpi.h"
#include "tess_physics_q.h"
#include <stdio.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef TESS_HAVE_HWLOC
#include <hwloc.h>
#endif

#ifndef TESS_VERSION
#define TESS_VERSION "unknown"
#endif

#ifdef TESS_HAVE_HWLOC
static void print_cache(hwloc_topology_t topo, hwloc_obj_type_t type, const char *name)
{
    const int n = hwloc_get_nbobjs_by_type(topo, type);
    if (n <= 0) {
        printf("  %s: none reported\n", name);
        return;
    }
    const hwloc_obj_t o = hwloc_get_obj_by_type(topo, type, 0);
    printf("  %s: %d x %llu KiB\n", name, n, (unsigned long long)(o->attr->cache.size / 1024));
}

static void print_topology(void)
{
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0) {
        printf("CPU topology: hwloc could not load the topology\n");
        return;
    }
    printf("CPU topology (hwloc %s):\n", HWLOC_VERSION);
    printf("  packages: %d, cores: %d, PUs: %d, NUMA nodes: %d\n", hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE),
           hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE), hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU),
           hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE));
    print_cache(topo, HWLOC_OBJ_L1CACHE, "L1d");
    print_cache(topo, HWLOC_OBJ_L2CACHE, "L2");
    print_cache(topo, HWLOC_OBJ_L3CACHE, "L3");
    hwloc_topology_destroy(topo);
}
#endif

int tess_cmd_info(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "tessera info: takes no arguments\n");
        return 2;
    }
    printf("tessera %s\n", TESS_VERSION);
    int n;
    const tess_backend_ops_t *const *list = tess_backend_list(&n);
    printf("backends:");
    for (int i = 0; i < n; i++)
        printf(" %s", list[i]->name);
    /* The GPU backends run AB, AA and MR (docs/gpu.md), as the CPU (docs/patterns.md). */
    printf(" (precisions: double, single)\npatterns:");
    for (int i = 0; i < n; i++)
        printf("%s %s: %s", i ? ";" : "", list[i]->name, "ab, aa, mr");
    /* The collisions each lattice runs, as the case file names them ([physics] collision). */
    static const char *const collisions[] = {"lbgk", "mrt", "regularized"}; /* tess_collision_model order */
    printf("\nlattices:");
    for (int l = 0; l < TESS_LATTICE_COUNT; l++) {
        printf("%s %s (", l ? "," : "", tess_lattice_get((tess_lattice_id)l)->name);
        int first = 1;
        for (int k = 0; k < 3; k++)
            if (tess_q_supports((tess_lattice_id)l, k)) {
                printf("%s%s", first ? "" : ", ", collisions[k]);
                first = 0;
            }
        printf(")");
    }
    printf("\n");
#ifdef _OPENMP
    printf("OpenMP threads: %d\n", omp_get_max_threads());
#endif
    if (tess_mpi_built()) {
        char lib[256];
        tess_mpi_library(lib, sizeof lib);
        printf("MPI: %s; GPU-aware: %s; %d process%s\n", lib, tess_mpi_gpu_aware(), tess_mpi_size(),
               tess_mpi_size() == 1 ? "" : "es");
    } else {
        printf("MPI: not built (TESSERA_WITH_MPI off or no MPI found)\n");
    }
#ifdef TESS_HAVE_HWLOC
    print_topology();
#else
    printf("CPU topology: hwloc was not used in this build (TESSERA_WITH_HWLOC off or hwloc not found)\n");
#endif
    return 0;
}
