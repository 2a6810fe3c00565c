#!/usr/bin/env bash
# GPU check for a machine with an NVIDIA GPU: builds the fast and the reproducible configurations, runs the GPU
# tests (bitwise against the CPU in the reproducible build, within docs/gpu.md's tolerances in the fast one;
# the engine's tile kernel on every lattice through the matrix suite, test_matrix_cuda), the GPU tests again
# under compute-sanitizer memcheck and racecheck,
# `tessera run --check cpu` cross-checks (cavity3d, cavity2d),
# the validations on the GPU, the compiler's resource report, the benchmark (every lattice, curved walls), and
# prints a short table last. Logs and CSV files go to ./gpu-check-out, or into $OUT/gpu-check.tgz when OUT is set.
#
# Environment: CUDA_ARCHS (default "80;90"); BENCH_SIZE (default 256); BENCH_SIZES (the size sweep, default
# 64,128,192,256,320,384); BENCH_POROSITIES (the sphere-bed sweep, default 0.1,...,0.9); TESSERA_DEPS: a folder of Debian .debs
# (libinih1, libinih-dev) to unpack when the machine has no libinih (the lent GPU machines have none);
# GPU_CHECK_BENCH=0 skips the benchmark, GPU_CHECK_BENCH=spheres runs the sphere beds only; GPU_CHECK_SOAK: cycles
# of the GPU soak test (default 4, 0 skips); GPU_CHECK_VALIDATE=0 skips the validations on the GPU (2D quick cases and
# the porous beds at 192^3), GPU_CHECK_VALIDATE=quick runs the 2D quick cases only; GPU_CHECK_SPHERE="sphere:PART ..." adds parts of the sphere validation; GPU_CHECK_TESTS=0
# skips the reproducible build, the GPU tests and the cross-checks (a second call that only validates);
# GPU_CHECK_WRONG_ARCH=1 checks the error of an sm_80-only build on a newer GPU; GPU_CHECK_NCU=1 adds Nsight
# Compute DRAM/L2 sector counts of the propagation kernel; GPU_CHECK_SANITIZER_CAP: seconds per
# compute-sanitizer run (default 600); GPU_CHECK_SANITIZER_TESTS: the test binaries run under it (default all six;
# "none" skips); GPU_CHECK_MEMCHECK_TESTS, GPU_CHECK_RACECHECK_TESTS: one tool's list instead, an entry
# BINARY:ARG,ARG passing arguments (test_gpu_mr_cuda:D3Q19,planes: its D3Q19 planes checks; ci/gpu-sanitizer.sh);
# GPU_CHECK_FLUIDX3D: the source
# folder of the peer FluidX3D, fetched outside the project, to build and measure in the same call (ci/peer-fluidx3d.sh);
# TESSERA_MPI_DEPS: a folder of Open MPI's .debs for the GPU-ranks test on a machine without mpirun (below);
# GPU_CHECK_REUSE=1 takes the builds in /tmp/tess-fast and /tmp/tess-repro as they are where both exist (a second
# call on a machine still warm from one that ran out of time after its builds: on 2026-11-25 the builds and the
# two test runs no longer fitted in the 600 s a call may run with the mpirun and --check steps after them).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# With $OUT set (the device tool's folder, which returns few files), everything is collected in one archive,
# $OUT/gpu-check.tgz, on exit.
if [ -n "${OUT:-}" ]; then
    out=/tmp/gpu-check-files
    trap 'tar -C "$out" -czf "$OUT/gpu-check.tgz" .' EXIT
else
    out=$root/gpu-check-out
fi
archs=${CUDA_ARCHS:-80;90}
size=${BENCH_SIZE:-256}
mkdir -p "$out"
start=$SECONDS
step() { printf '\n== %s (%ds)\n' "$*" $((SECONDS - start)); }
status=0

cmake_extra=()
if [ -n "${TESSERA_DEPS:-}" ] && [ -d "$TESSERA_DEPS" ]; then
    step "unpacking $TESSERA_DEPS"
    . "$root/ci/unpack-debs.sh"
    unpack_debs "$TESSERA_DEPS"
    cmake_extra+=(-DCMAKE_PREFIX_PATH=/tmp/tess-deps/usr)
fi
# TESSERA_MPI_DEPS: a folder of Open MPI's Debian .debs (openmpi-bin, libopenmpi3, libopenmpi-dev, openmpi-common
# and the libraries they need) for a machine without MPI: unpacked into /tmp/tess-mpi and run from there
# (OPAL_PREFIX relocates Open MPI; the isolated launcher needs no ssh; no single-copy shared memory in a container).
mpi_run=$(command -v mpirun || true)
if [ -n "${TESSERA_MPI_DEPS:-}" ] && [ -d "$TESSERA_MPI_DEPS" ]; then
    step "unpacking Open MPI from $TESSERA_MPI_DEPS"
    for f in "$TESSERA_MPI_DEPS"/*.deb; do dpkg -x "$f" /tmp/tess-mpi; done
    m=/tmp/tess-mpi/usr
    ln -sf orterun "$m/bin/mpirun"
    ln -sf opal_wrapper "$m/bin/mpicc"
    export OPAL_PREFIX=$m PATH=$m/bin:$PATH OMPI_MCA_plm=isolated OMPI_MCA_btl_vader_single_copy_mechanism=none
    export PMIX_MCA_mca_base_component_path=$m/lib/x86_64-linux-gnu/pmix2/lib/pmix PMIX_MCA_pcompress_base_silence_warning=1
    export LD_LIBRARY_PATH=$m/lib/x86_64-linux-gnu:$m/lib/x86_64-linux-gnu/openmpi/lib:${LD_LIBRARY_PATH:-}
    cmake_extra+=(-DMPI_C_COMPILER=$m/bin/mpicc -DMPIEXEC_EXECUTABLE=$m/bin/mpirun)
    mpi_run=$m/bin/mpirun
fi
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1 | tee "$out/device.txt"

configure() { # dir, reproducible
    if [ "${GPU_CHECK_REUSE:-0}" = 1 ] && [ -x "$1/core/cli/tessera" ] && [ -f "$1/CTestTestfile.cmake" ]; then
        echo "reusing the build in $1 (GPU_CHECK_REUSE=1)"
        return 0
    fi
    cmake -S "$root" -B "$1" -DCMAKE_BUILD_TYPE=Release -DTESSERA_WERROR=ON -DTESSERA_WITH_HWLOC=OFF \
        -DTESSERA_WITH_CUDA=ON -DTESSERA_WITH_HIP=OFF -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc \
        "-DTESSERA_CUDA_ARCHITECTURES=$archs" -DTESSERA_GPU_RESOURCE_REPORT=ON -DTESSERA_REPRODUCIBLE="$2" \
        "-DCMAKE_CUDA_COMPILER_LAUNCHER=$root/ci/nvcc-keep-report.sh" \
        "${cmake_extra[@]}" >"$1.configure.log" 2>&1 || return 1
    # The GPU targets first and on their own: the check must not depend on unrelated work in progress.
    cmake --build "$1" -j 8 --target test_gpu_vs_cpu_cuda test_gpu_variants_cuda test_matrix_cuda \
        test_gpu_check_cuda test_gpu_mr_cuda test_gpu_mr_parts_cuda tess_gpu_bench_cuda \
        >"$1.build.log" 2>&1 || return 1
    cmake --build "$1" -j 8 --target tessera >>"$1.build.log" 2>&1 || echo "tessera did not build (see $1.build.log)"
}
tests=${GPU_CHECK_TESTS:-1}
step "building the fast configuration$([ "$tests" = 1 ] && echo ' and the reproducible one') (CUDA $archs) in parallel"
configure /tmp/tess-fast OFF & p1=$!
p2=
[ "$tests" = 1 ] && { configure /tmp/tess-repro ON & p2=$!; }
if [ "${GPU_CHECK_WRONG_ARCH:-0}" = 1 ]; then
    # A build with machine code for sm_80 only and no PTX: on a newer GPU the backend must refuse in one line.
    (cmake -S "$root" -B /tmp/tess-wrong -DTESSERA_WITH_HWLOC=OFF -DTESSERA_WITH_CUDA=ON -DTESSERA_WITH_HIP=OFF \
        -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc -DTESSERA_CUDA_ARCHITECTURES=80-real "${cmake_extra[@]}" &&
        cmake --build /tmp/tess-wrong -j 4 --target tess_gpu_bench_cuda) >/tmp/tess-wrong.log 2>&1 &
    p3=$!
fi
wait $p1 || { echo "fast build FAILED"; tail -30 /tmp/tess-fast.build.log /tmp/tess-fast.configure.log; status=1; }
[ -z "$p2" ] || wait $p2 || { echo "reproducible build FAILED"; tail -30 /tmp/tess-repro.build.log; status=1; }
[ $status -eq 0 ] || cp /tmp/tess-fast.build.log "$out/build-fast.log" 2>/dev/null
[ $status -eq 0 ] || cp /tmp/tess-repro.build.log "$out/build-repro.log" 2>/dev/null
[ $status -eq 0 ] || exit $status

step "resource report (ptxas, fast build)"
# Each object's report from its own file (ci/nvcc-keep-report.sh): the build log interleaves parallel compiles.
find /tmp/tess-fast -name '*.ptxas' -exec cat {} + | awk -f "$root/ci/ptxas-report.awk" | sort -u |
    tee "$out/resources.txt"

if [ "$tests" = 1 ]; then
step "GPU tests, fast build"
(cd /tmp/tess-fast && ctest -L gpu -V) >/tmp/tests-fast.log 2>&1 || status=1
grep -E "^[0-9]+: (ok|FAIL|SKIP|mode|matrix suite|cuda )|tests passed|tests failed" /tmp/tests-fast.log | sed 's/^[0-9]*: //' >"$out/tests.log"
grep -E "FAIL|tests passed|tests failed|SKIP" /tmp/tests-fast.log | tail -5
step "GPU tests, reproducible build (bitwise)"
(cd /tmp/tess-repro && ctest -L gpu -V) >/tmp/tests-repro.log 2>&1 || status=1
grep -E "^[0-9]+: (ok|FAIL|SKIP|mode|matrix suite|cuda )|tests passed|tests failed" /tmp/tests-repro.log | sed 's/^[0-9]*: //' >>"$out/tests.log"
grep -E "FAIL|tests passed|tests failed|SKIP" /tmp/tests-repro.log | tail -5

# GPU ranks (docs/mpi.md, "GPU ranks"): mpirun -np 2 and 3 with every rank on the one GPU, each pattern, bitwise
# against the single-rank GPU run in the reproducible build (tests/mpi/test_mpi_gpu.sh). Needs mpirun: the
# machine's, or Open MPI unpacked from TESSERA_MPI_DEPS.
step "GPU ranks under mpirun (reproducible build)"
mpi_rows=()
if [ -z "$mpi_run" ]; then
    echo "SKIPPED: no mpirun on this machine (set TESSERA_MPI_DEPS to a folder of Open MPI's .debs)"
    mpi_rows+=("GPU ranks under mpirun: skipped (no mpirun)")
else
    cmake --build /tmp/tess-repro -j 8 --target tessera >>/tmp/tess-repro.build.log 2>&1
    bash "$root/tests/mpi/test_mpi_gpu.sh" /tmp/tess-repro/core/cli/tessera "$mpi_run" >"$out/mpi-gpu.log" 2>&1
    rc=$?
    cat "$out/mpi-gpu.log"
    case $rc in
    0) mpi_rows+=("GPU ranks under mpirun (2 and 3 ranks, one GPU): bitwise equal to one rank") ;;
    77) mpi_rows+=("GPU ranks under mpirun: skipped ($(tail -1 "$out/mpi-gpu.log"))") ;;
    *) mpi_rows+=("GPU ranks under mpirun: FAILED (see mpi-gpu.log)"); status=1 ;;
    esac
fi

# compute-sanitizer: every GPU test binary once under memcheck (out-of-bounds and misaligned accesses, leaks of
# device memory) and once under racecheck (shared-memory hazards), fast build; each run capped at
# GPU_CHECK_SANITIZER_CAP seconds (default 600: the tools slow the kernels 10 to 100 times). A tool error fails
# the check; a run that hits the cap is reported as incomplete. ci/gpu-sanitizer.sh (the lists per tool, a
# binary's arguments: GPU_CHECK_RACECHECK_TESTS=test_gpu_mr_cuda:D3Q19,planes).
step "compute-sanitizer memcheck and racecheck on the GPU tests (fast build)"
sanitizer_rows=("${mpi_rows[@]}")
bash "$root/ci/gpu-sanitizer.sh" /tmp/tess-fast "$out" | tee /tmp/sanitizer.log || status=1
while IFS= read -r row; do sanitizer_rows+=("$row"); done < <(grep '^compute-sanitizer ' /tmp/sanitizer.log)

step "tessera run --backend cuda --check cpu"
for b in /tmp/tess-fast /tmp/tess-repro; do
    for prec in double single; do
        "$b/core/cli/tessera" run "$root/cases/cavity3d.ini" --backend cuda --precision $prec --steps 200 \
            --out "/tmp/tess-check-$(basename "$b")-$prec" --overwrite --quiet --check cpu >>/tmp/check.log 2>&1 &&
            echo "ok   $b $prec cross-check" || { echo "FAIL $b $prec cross-check"; status=1; }
        # D2Q9 on the GPU against the CPU.
        "$b/core/cli/tessera" run "$root/cases/cavity2d.ini" --backend cuda --precision $prec --steps 200 \
            --out "/tmp/tess-check2d-$(basename "$b")-$prec" --overwrite --quiet --check cpu >>/tmp/check.log 2>&1 &&
            echo "ok   $b $prec cavity2d cross-check" || { echo "FAIL $b $prec cavity2d cross-check"; status=1; }
    done
done
tail -4 /tmp/check.log
cp /tmp/check.log "$out/check.log"

# The soak test on the GPU (docs/reliability.md): a sparse case killed at random steps and restarted from its
# checkpoints must end with the bits of an uninterrupted run. GPU_CHECK_SOAK: cycles (default 4; 0 skips).
if [ "${GPU_CHECK_SOAK:-4}" != 0 ]; then
    step "soak: ${GPU_CHECK_SOAK:-4} kill-and-restart cycles on the GPU (spheres 96^3, 4000 steps)"
    bash "$root/ci/soak.sh" "${GPU_CHECK_SOAK:-4}" --tessera /tmp/tess-fast/core/cli/tessera --backend cuda \
        --size 96 --steps 4000 --every 400 >"$out/soak.log" 2>&1
    rc=$?
    tail -3 "$out/soak.log"
    sanitizer_rows+=("soak (cuda, ${GPU_CHECK_SOAK:-4} cycles): exit status $rc")
    [ $rc -eq 0 ] || status=1
fi
fi

if [ "${GPU_CHECK_VALIDATE:-1}" != 0 ] || [ -n "${GPU_CHECK_SPHERE:-}" ]; then
    # The validations on the GPU: D2Q9 Poiseuille and cavity (quick) and the random-sphere beds at
    # 192^3 (full, about 5 minutes) with GPU_CHECK_VALIDATE=1; parts of the sphere in a pipe on the paper's grids
    # (Re 1 at d = 30.24, Re 10 and 50 at d = 60.96; 1 to 3 minutes a run) with
    # GPU_CHECK_SPHERE="sphere:D3Q19+bounce-back+Re10 ...". A "not run" row, a failing row of the 2D cases or the
    # porous beds, or an exit status other than 0 or 1 fails the check; the sphere's rows are reported (their
    # tolerances, the paper's own errors, are met by some runs and missed by others: docs/validation.md).
    step "tessera validate --backend cuda"
    v=/tmp/tess-fast/core/cli/tessera
    runs=()
    [ "${GPU_CHECK_VALIDATE:-1}" != 0 ] && runs+=("poiseuille2d,cavity2d,womersley --quick")
    [ "${GPU_CHECK_VALIDATE:-1}" = 1 ] && runs+=("porous")
    for part in ${GPU_CHECK_SPHERE:-}; do runs+=("$part"); done
    for r in "${runs[@]}"; do
        only=${r%% *}; extra=; [ "$only" != "$r" ] && extra=${r#* }
        name=$(echo "$only" | tr ':,+' '___')
        # shellcheck disable=SC2086 # extra is one optional flag
        timeout 580 "$v" validate --backend cuda --only "$only" $extra --out "/tmp/tess-validate-$name" --quiet \
            >"/tmp/validate-$name.log" 2>&1
        rc=$?
        rep=/tmp/tess-validate-$name/report.md
        cp "$rep" "$out/validate-$name.md" 2>/dev/null
        mkdir -p "$out/validate-$name" && cp /tmp/tess-validate-$name/*.dat /tmp/tess-validate-$name/*.gp \
            "$out/validate-$name/" 2>/dev/null
        grep -E '^[|] ' "$rep" 2>/dev/null | grep -vE '^[|] (validation|---)' | cut -c1-200
        echo "validate $only: exit status $rc (0: all passed, 1: a check failed)"
        if ! [ -f "$rep" ] || grep -q '| not run |' "$rep" || [ $rc -gt 1 ]; then
            echo "FAIL validate $only: not run, or stopped"; status=1
        elif [ $rc -ne 0 ] && [ "${only%%:*}" != sphere ]; then
            echo "FAIL validate $only: a check failed"; status=1
        fi
    done
fi

if [ "${GPU_CHECK_WRONG_ARCH:-0}" = 1 ]; then
    step "wrong architecture (sm_80 machine code only)"
    wait $p3 || { echo "sm_80 build FAILED"; tail -5 /tmp/tess-wrong.log; }
    /tmp/tess-wrong/tests/gpu/tess_gpu_bench_cuda --size 16 --steps 1 2>&1 | tee -a "$out/tests.log"
    echo "exit status $? (expected: one line naming the device and TESSERA_CUDA_ARCHITECTURES)"
fi

if [ "${GPU_CHECK_BENCH:-1}" != 0 ]; then
# `tessera bench` (fast build): the issue's sweeps, each with its CSV in $OUT (GPU_CHECK_BENCH=spheres: the
# sphere beds only).
bench=/tmp/tess-fast/core/cli/tessera
drv=/tmp/tess-fast/tests/gpu/tess_gpu_bench_cuda
bsteps=${BENCH_STEPS:-20}
if [ "${GPU_CHECK_BENCH:-1}" = 1 ]; then
step "benchmark: cavity3d ${BENCH_SIZES:-64,128,192,256,320,384}, double and single, full LBGK"
"$bench" bench --backend cuda --case cavity3d --size "${BENCH_SIZES:-64,128,192,256,320,384}" --precision double,single \
    --steps "$bsteps" --reps 3 --csv "$out/bench-sizes.csv" 2>&1 | tee /tmp/bench-sizes.log || status=1
step "benchmark: cavity3d ${size}^3, kernel variants and collisions"
{
    "$bench" bench --backend cuda --case cavity3d --size "$size" --precision double,single --variant all \
        --steps "$bsteps" --reps 3 --csv /tmp/bench-k1.csv &&
    "$bench" bench --backend cuda --case cavity3d --size "$size" --precision double,single \
        --collision mrt,regularized --steps "$bsteps" --reps 3 --csv /tmp/bench-k2.csv
} 2>&1 | tee /tmp/bench-kernels.log || status=1
cat /tmp/bench-k1.csv >"$out/bench-kernels.csv" && grep -v '^#\|^case' /tmp/bench-k2.csv >>"$out/bench-kernels.csv"
step "benchmark: the other lattices (D3Q27 ${size}^3, D3Q13 ${size}^3 MRT, D2Q9 cavity 4096^2)"
{
    "$bench" bench --backend cuda --case cavity3d --size "$size" --precision double,single --set lattice.model=D3Q27 \
        --collision lbgk,regularized --steps "$bsteps" --reps 3 --csv /tmp/bench-l1.csv &&
    "$bench" bench --backend cuda --case cavity3d --size "$size" --precision double,single --set lattice.model=D3Q13 \
        --collision mrt --steps "$bsteps" --reps 3 --csv /tmp/bench-l2.csv &&
    "$bench" bench --backend cuda --case cavity2d --size 4096 --precision double,single --steps "$bsteps" --reps 3 \
        --csv /tmp/bench-l3.csv
} 2>&1 | tee /tmp/bench-lattices.log || status=1
cat /tmp/bench-l1.csv >"$out/bench-lattices.csv" && grep -hv '^#\|^case' /tmp/bench-l2.csv /tmp/bench-l3.csv >>"$out/bench-lattices.csv"
fi
step "benchmark: the patterns (AB, AA, MR) on cavity3d ${size}^3 D3Q19 and D3Q27, spheres 192^3 porosity 0.5"
{
    "$bench" bench --backend cuda --case cavity3d --size "$size" --pattern ab,aa --precision double,single \
        --steps "$bsteps" --reps 3 --csv /tmp/bench-p1.csv &&
    "$bench" bench --backend cuda --case cavity3d --size "$size" --pattern ab,mr --collision regularized \
        --precision double,single --steps "$bsteps" --reps 3 --csv /tmp/bench-p2.csv &&
    "$bench" bench --backend cuda --case cavity3d --size "$size" --set lattice.model=D3Q27 --pattern ab,aa \
        --precision double,single --steps "$bsteps" --reps 3 --csv /tmp/bench-p3.csv &&
    "$bench" bench --backend cuda --case cavity3d --size "$size" --set lattice.model=D3Q27 --pattern mr \
        --collision regularized --precision double,single --steps "$bsteps" --reps 3 --csv /tmp/bench-p4.csv &&
    "$bench" bench --backend cuda --case spheres --size 192 --porosity 0.5 --pattern ab,aa --precision double,single \
        --steps "$bsteps" --reps 3 --csv /tmp/bench-p5.csv &&
    "$bench" bench --backend cuda --case spheres --size 192 --porosity 0.5 --pattern ab,mr --collision regularized \
        --precision double,single --steps "$bsteps" --reps 3 --csv /tmp/bench-p6.csv
} 2>&1 | tee /tmp/bench-patterns.log || status=1
cat /tmp/bench-p1.csv >"$out/bench-patterns.csv" 2>/dev/null &&
    grep -hv '^#\|^case' /tmp/bench-p2.csv /tmp/bench-p3.csv /tmp/bench-p4.csv /tmp/bench-p5.csv /tmp/bench-p6.csv \
        >>"$out/bench-patterns.csv" 2>/dev/null
step "benchmark: random spheres 192^3, porosity 0.1..0.9, double and single; curved walls (bouzidi-quadratic)"
{
    "$bench" bench --backend cuda --case spheres --size 192 --porosity "${BENCH_POROSITIES:-0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9}" \
        --precision double,single --steps "$bsteps" --reps 3 --csv "$out/bench-spheres.csv" &&
    "$bench" bench --backend cuda --case spheres --size 192 --porosity 0.3,0.5,0.7,0.9 --precision double,single \
        --set physics.wall=bouzidi-quadratic --steps "$bsteps" --reps 3 --csv /tmp/bench-curved.csv
} 2>&1 | tee /tmp/bench-spheres.log || status=1
grep -v '^#\|^case' /tmp/bench-curved.csv >>"$out/bench-spheres.csv"
if [ "${GPU_CHECK_TPB:-0}" = 1 ]; then
    step "tiles per block (timing driver)"
    for prec in double single; do
        for tpb in 1 2; do
            "$drv" --size "$size" --precision $prec --tiles-per-block $tpb --steps 50 || status=1
        done
    done
fi
fi

if [ "${GPU_CHECK_NCU:-0}" = 1 ] && command -v ncu >/dev/null; then
    step "ncu: DRAM and L2 sectors of one propagation step, 100^3 double"
    ncu --launch-skip 3 --launch-count 1 -k regex:tess_gpu_q_step --metrics \
        dram__sectors_read.sum,dram__sectors_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpu__time_duration.sum \
        "$drv" --size 100 --variant propagation --steps 1 >/tmp/ncu.log 2>&1 || true
    grep -E "dram__|lts__|gpu__time" /tmp/ncu.log | tee -a "$out/ncu.txt"
fi

if [ -n "${GPU_CHECK_FLUIDX3D:-}" ]; then
    # The peer FluidX3D in the same call (issue 12's ratios): GPU_CHECK_FLUIDX3D names its fetched source folder.
    step "peer: FluidX3D BENCHMARK 256^3, FP32 and FP16S storage"
    bash "$root/ci/peer-fluidx3d.sh" "$GPU_CHECK_FLUIDX3D" "$out/fluidx3d" | tee /tmp/fluidx3d.log
fi

step "summary"
grep -h "FAIL" /tmp/tests-fast.log /tmp/tests-repro.log /tmp/check.log 2>/dev/null | head -20
for row in "${sanitizer_rows[@]+"${sanitizer_rows[@]}"}"; do echo "$row"; done
for f in "$out"/bench-sizes.csv "$out"/bench-kernels.csv "$out"/bench-lattices.csv "$out"/bench-patterns.csv "$out"/bench-spheres.csv; do
    [ -f "$f" ] && awk -F, 'NR > 2 && $1 != "case" { printf "%-9s %-5s %-12s %4s %5.2f eta %5.3f %-6s %-11s %-11s %9.1f MLUPS %7.1f GB/s %5.1f%% of copy\n", $1, $21, $22, $2, $3, $4, $9, $10, $11, $14, $18, 100 * $19 }' "$f"
done
cat /tmp/fluidx3d.log 2>/dev/null
echo "status: $status"
exit $status
