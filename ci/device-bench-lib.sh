# Sourced by the device measurement scripts (gpu-aa-speed.sh, gpu-mr-speed.sh) after they set root and deadline,
# with the script's name as argument: sets out ($OUT or ./NAME-out), TESSERA_CASES, start, step and left (seconds to
# the deadline), unpacks TESSERA_DEPS (ci/unpack-debs.sh) into `extra` CMake options, prints the GPU,
# sets NCU, and defines build, waitfor and withenv, so that each script keeps only its rows and tests.
out=${OUT:-$root/$1-out}
mkdir -p "$out"
# A build made elsewhere (AAS_AFTER_DIR and the like) looks for `--case NAME` in its own source tree's cases/,
# which this machine does not have: name this tree's.
export TESSERA_CASES=${TESSERA_CASES:-$root/cases}
start=$SECONDS
step() { printf '\n== %s (%ds)\n' "$*" $((SECONDS - start)); }
left() { echo $((deadline - (SECONDS - start))); }
extra=()
if [ -n "${TESSERA_DEPS:-}" ] && [ -d "$TESSERA_DEPS" ]; then
    . "$root/ci/unpack-debs.sh"
    unpack_debs "$TESSERA_DEPS"
    extra+=(-DCMAKE_PREFIX_PATH=/tmp/tess-deps/usr)
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
# The fast (reproducible OFF) or reproducible configuration of a source tree, sm_90 only, with the resource report;
# writes DIR.status (ok or failed) and DIR.cfg.log / DIR.build.log beside DIR.
build() { # source, dir, reproducible, targets...
    local s=$1 d=$2 r=$3 launcher=
    shift 3
    # each object's ptxas report kept beside it (ci/nvcc-keep-report.sh), where the tree has the launcher
    [ -x "$s/ci/nvcc-keep-report.sh" ] && launcher=$s/ci/nvcc-keep-report.sh
    { cmake -S "$s" -B "$d" -DCMAKE_BUILD_TYPE=Release -DTESSERA_WERROR=ON -DTESSERA_WITH_HWLOC=OFF \
        -DTESSERA_NATIVE=OFF -DTESSERA_WITH_CUDA=ON -DTESSERA_WITH_HIP=OFF \
        -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc -DTESSERA_CUDA_ARCHITECTURES=90 \
        -DTESSERA_GPU_RESOURCE_REPORT=ON -DTESSERA_REPRODUCIBLE="$r" "${extra[@]}" \
        ${launcher:+"-DCMAKE_CUDA_COMPILER_LAUNCHER=$launcher"} >"$d.cfg.log" 2>&1 &&
        cmake --build "$d" -j 16 --target "$@" >"$d.build.log" 2>&1; } && echo ok >"$d.status" ||
        echo failed >"$d.status"
}
# Waits for a background build until CAP seconds from the script's start; a build still running then is stopped
# (its process group), so that the rows keep their time.
waitfor() { # dir, pid, cap
    local d=$1 p=$2 cap=$3
    while kill -0 "$p" 2>/dev/null && [ $((SECONDS - start)) -lt "$cap" ]; do sleep 2; done
    if kill -0 "$p" 2>/dev/null; then
        kill -- -"$p" 2>/dev/null
        echo "BUILD $d: past $cap s, stopped"
        return 1
    fi
    if [ "$(cat "$d.status" 2>/dev/null)" != ok ]; then
        echo "BUILD FAILED: $d"
        tail -30 "$d.build.log" "$d.cfg.log"
        return 1
    fi
}
withenv() { # setting (`-` or NAME=VALUE[,NAME=VALUE]), command...
    local s=$1
    shift
    if [ "$s" = - ]; then "$@"; else env ${s//,/ } "$@"; fi
}
