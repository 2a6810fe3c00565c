#!/bin/sh
# CMAKE_CUDA_COMPILER_LAUNCHER of ci/gpu-check.sh: runs one nvcc compile and keeps what it prints on stderr (the
# ptxas report of -Xptxas=-v) in OBJECT.ptxas as well, so that the report of each object stays in order: in the
# shared build log the lines of parallel compiles interleave, and kernels got each other's registers.
out=
prev=
for a in "$@"; do
    [ "$prev" = -o ] && out=$a
    prev=$a
done
[ -n "$out" ] || exec "$@"
"$@" 2>"$out.ptxas"
rc=$?
cat "$out.ptxas" >&2
exit $rc
