/* Writes the test surfaces shipped in cases/stl/ (tess_stl_gen OUTDIR): a sphere and a bent tube, each as
 * ASCII and binary STL. The binary headers begin with "solid" on purpose: readers must not take that
 * word as a sign of an ASCII file. test_stl_files checks that the shipped files are this program's output. */
#include "tess_stl_shapes.h"
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: tess_stl_gen OUTDIR\n");
        return 2;
    }
    tess_stl_mesh_t sphere, tube;
    /* 1280 triangles; the tube: radius 1, straight length 3, bend radius 3, 24 corners around, 4 + 16
     * segments (960 triangles). */
    if (tess_shape_icosphere(&sphere, 3) || tess_shape_bent_tube(&tube, 1.0, 3.0, 3.0, 24, 4, 16)) {
        fprintf(stderr, "tess_stl_gen: out of memory\n");
        return 4;
    }
    static const struct {
        const char *name;
        int tube, binary;
        const char *header;
    } files[] = {{"sphere.stl", 0, 0, "tessera_unit_sphere"},
                 {"sphere_binary.stl", 0, 1, "solid tessera unit sphere (binary STL; this header starts with 'solid')"},
                 {"bent_tube.stl", 1, 0, "tessera_bent_tube"},
                 {"bent_tube_binary.stl", 1, 1, "solid tessera bent tube (binary STL; this header starts with 'solid')"}};
    int rc = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], files[i].name);
        tess_error_t err;
        if (tess_stl_write(path, files[i].tube ? &tube : &sphere, files[i].binary, files[i].header, &err) != TESS_OK) {
            fprintf(stderr, "tess_stl_gen: %s\n", err.msg);
            rc = 3;
        }
    }
    tess_stl_free(&sphere);
    tess_stl_free(&tube);
    return rc;
}
