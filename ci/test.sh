#!/usr/bin/env bash
# The test command, for CI and for developers: installs what is missing, builds everything this machine
# can build with warnings as errors (CUDA for sm_90, the lent GPU, when nvcc is present, HIP for gfx90a/gfx940/gfx1030
# when hipcc is present), runs the whole test suite and the soak test (ci/soak.sh, 3 cycles), then rebuilds the
# CPU code with AddressSanitizer and UndefinedBehaviorSanitizer and runs the fast tests, and fuzzes each file
# reader for 30 s (ci/fuzz.sh). Exits non-zero on the first failure.
#
# Environment: TESSERA_BUILD_ROOT (default <repo>/build-ci) holds the build directories; each is removed once its
# stage has passed (CI machines can have little free disk), unless TESSERA_KEEP_BUILDS=1;
# TESSERA_JOBS (default 2) is the build and test parallelism.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_root=${TESSERA_BUILD_ROOT:-$root/build-ci}
jobs=${TESSERA_JOBS:-2}
keep_builds=${TESSERA_KEEP_BUILDS:-0}
start=$SECONDS

step() { printf '\n== %s (%ds)\n' "$*" $((SECONDS - start)); }
run() {
    printf '+ %s\n' "$*"
    "$@"
}

# A build that fills the disk fails at a link step far from the cause: say up front how much there is.
# The peak is the sanitized build folder, about 0.4 GB with shared libraries (docs/testing.md, "Disk").
report_disk() {
    mkdir -p "$build_root"
    df -h "$build_root" | tail -n 1 | awk '{ printf "disk: %s free of %s at %s\n", $4, $2, $6 }'
}
# A stage's build folder goes once the stage has passed: the next build then has its room.
drop_build() {
    if [ "$keep_builds" != 1 ]; then
        run rm -rf "$1"
    fi
}

step "dependencies"
report_disk
run "$root/ci/install-deps.sh"
report_disk

# Ninja for every CMake folder of this run (the main build, the sanitized one, ci/fuzz.sh's): one build graph, no
# recursive make (docs/testing.md, "CI time").
if command -v ninja >/dev/null; then
    export CMAKE_GENERATOR=Ninja
fi

gpu_opts=()
if [ -x /usr/local/cuda/bin/nvcc ]; then
    # sm_90 only (the lent H100/H200): each architecture compiles every kernel again, and the build is most of
    # CI's 30 minutes on 2 cores; the default build and ci/gpu-check.sh keep sm_80 as well.
    gpu_opts+=(-DTESSERA_WITH_CUDA=ON -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc "-DTESSERA_CUDA_ARCHITECTURES=90")
    echo "CUDA: /usr/local/cuda/bin/nvcc, sm_90"
else
    gpu_opts+=(-DTESSERA_WITH_CUDA=OFF)
    echo "CUDA: no nvcc at /usr/local/cuda/bin/nvcc, CUDA backend not built"
fi
if command -v hipcc >/dev/null; then
    # No AMD GPU anywhere: gfx940 and gfx1030 compile as a check, their device code at -O0 (a quarter of -O3's
    # time); gfx90a and the host code at -O3 (docs/testing.md, "CI time").
    gpu_opts+=(-DTESSERA_WITH_HIP=ON "-DTESSERA_HIP_ARCHITECTURES=gfx90a;gfx940;gfx1030"
        "-DTESSERA_HIP_CHECK_ONLY_ARCHITECTURES=gfx940;gfx1030")
    echo "HIP: $(command -v hipcc), gfx90a (-O3), gfx940 and gfx1030 (device code at -O0: a compile check)"
else
    gpu_opts+=(-DTESSERA_WITH_HIP=OFF)
    echo "HIP: no hipcc, HIP backend not built"
fi

step "configure (all backends this machine can build, warnings are errors)"
run cmake -S "$root" -B "$build_root/full" -DCMAKE_BUILD_TYPE=Release -DTESSERA_WERROR=ON \
    -DTESSERA_SHARED_LIBS=ON "${gpu_opts[@]}"
step "build"
run cmake --build "$build_root/full" -j "$jobs"
step "test: whole suite"
run ctest --test-dir "$build_root/full" --output-on-failure -j "$jobs"
step "MPI: the distributed runs' test registered (it ran in the suite), validate refused under mpirun -np 2, info (ci/mpi.sh)"
run "$root/ci/mpi.sh" "$build_root/full"
step "soak: a sparse case killed and restarted 3 times must end bitwise as an uninterrupted run (ci/soak.sh)"
run "$root/ci/soak.sh" 3 --tessera "$build_root/full/core/cli/tessera"
step "validation: tessera validate --quick (default backend; report and plots in $build_root/validate)"
run "$build_root/full/core/cli/tessera" validate --quick --quiet --out "$build_root/validate"
drop_build "$build_root/full"

# Debug (-O0): at -O2 the sanitizers make gcc take over ten minutes on each unrolled CPU kernel file, at -O0
# seconds; the fast tests then run in a few minutes.
step "configure (CPU only, AddressSanitizer + UndefinedBehaviorSanitizer, -O0)"
run cmake -S "$root" -B "$build_root/sanitize" -DCMAKE_BUILD_TYPE=Debug -DTESSERA_WERROR=ON -DTESSERA_SANITIZE=ON \
    -DTESSERA_SHARED_LIBS=ON -DTESSERA_WITH_CUDA=OFF -DTESSERA_WITH_HIP=OFF
step "build (sanitized)"
run cmake --build "$build_root/sanitize" -j "$jobs"
# Less the 3D Poiseuille convergence runs (tens of thousands of steps: 220 of the stage's 580 CPU-seconds at -O0
# under the sanitizers): they ran in the suite above, and their code (a body force and bounce-back walls on D3Q13
# and D3Q27) runs under the sanitizers in test_matrix_cpu.
step "test: fast tests under the sanitizers"
run ctest --test-dir "$build_root/sanitize" --output-on-failure -j "$jobs" -L fast \
    -E '^lattice[.]test_q_poiseuille_d3q(13|27)$'
drop_build "$build_root/sanitize"

# Each reader's libFuzzer target for 30 s, two at a time (docs/reliability.md, "Fuzzing"): about 4.5 minutes
# with the build (30 s, not 45: the whole CI run measured 1,547-1,809 s on 2 cores). ci/fuzz.sh SECONDS runs them longer.
step "fuzz: every reader for 30 s (clang, libFuzzer, ASan + UBSan)"
run env TESSERA_BUILD_ROOT="$build_root" TESSERA_JOBS="$jobs" "$root/ci/fuzz.sh" 30

step "all passed"
