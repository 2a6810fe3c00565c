#!/usr/bin/env bash
# Builds and runs the peer FluidX3D (ProjectPhysX/FluidX3D, public source, fetched outside this project and never
# copied into it) in its BENCHMARK mode (D3Q19 SRT, 256^3), once with FP32 storage (FP16S commented out) and once
# with FP16S storage, and prints its peak MLUPS: issue 12's targets are ratios to these figures, measured in the
# same device call as Tessera's. Usage: ci/peer-fluidx3d.sh FLUIDX3D_SOURCE_DIR [OUTPUT_DIR]
# Needs g++, make and an OpenCL runtime (the lent NVIDIA machines have one through the driver). PEER_PHASE=build
# only builds (in /tmp/fluidx3d-fp32 and -fp16s), PEER_PHASE=run only runs those builds (ci/gpu-targets.sh builds
# while the GPU is busy with other rows); the default does both.
set -uo pipefail
src=${1:?usage: ci/peer-fluidx3d.sh FLUIDX3D_SOURCE_DIR [OUTPUT_DIR]}
out=${2:-/tmp/fluidx3d-out}
mkdir -p "$out"
[ -f "$src/src/defines.hpp" ] || { echo "peer-fluidx3d: $src/src/defines.hpp not found"; exit 2; }
phase=${PEER_PHASE:-all}
for storage in fp32 fp16s; do
    d=/tmp/fluidx3d-$storage
    if [ "$phase" != run ]; then
        rm -rf "$d" && cp -r "$src" "$d" || exit 1
        # The benchmark mode must be on; FP32 storage comments FP16S out, as the issue asks.
        grep -q '^#define BENCHMARK' "$d/src/defines.hpp" || { echo "peer-fluidx3d: BENCHMARK is not on in defines.hpp"; exit 2; }
        [ $storage = fp32 ] && sed -i 's|^#define FP16S|//#define FP16S|' "$d/src/defines.hpp"
        (cd "$d" && make Linux -j "$(nproc)" >"$out/build-$storage.log" 2>&1) || { echo "FluidX3D $storage: build FAILED"; tail -5 "$out/build-$storage.log"; continue; }
        echo "FluidX3D $storage: built"
    fi
    [ "$phase" = build ] && continue
    [ -x "$d/bin/FluidX3D" ] || { echo "FluidX3D $storage: no build in $d"; continue; }
    # It prints a progress line per 10 steps; keep the log, report the peak.
    (cd "$d" && timeout 300 ./bin/FluidX3D >"$out/run-$storage.log" 2>&1)
    peak=$(grep -ao 'Peak MLUPs/s = [0-9]*' "$out/run-$storage.log" | tail -1 | grep -o '[0-9]*$')
    echo "FluidX3D BENCHMARK 256^3 D3Q19 SRT, $storage storage: ${peak:-FAILED} MLUPS"
done
