#!/usr/bin/env bash
# The GPU AA check for one device call (the lent H100; about 4-6 minutes, give it timeout_s 600): builds the
# reproducible and the fast configuration (sm_90), runs the matrix suite in both (GPU AA against the per-node
# reference and against the GPU's AB: bitwise in the reproducible build), the AB-beside-AA benchmark of issue 12
# (D3Q19 cavity3d 256^3 FP32 and FP64, D3Q27 FP64, spheres 192^3 porosity 0.5; fast build), test_check_gpu
# (--check cpu and restart for AB and AA) and the other GPU tests. CSV files and logs under $OUT (or
# ./gpu-aa-out). TESSERA_DEPS: a folder of Debian .debs (libinih) to unpack, as ci/gpu-check.sh.
set -u
S=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-$S/gpu-aa-out}; mkdir -p "$OUT"
extra=()
if [ -n "${TESSERA_DEPS:-}" ]; then
    mkdir -p /tmp/deps; for f in "$TESSERA_DEPS"/*.deb; do dpkg -x "$f" /tmp/deps; done
    rm -rf /tmp/deps/usr/lib/x86_64-linux-gnu/pkgconfig
    export LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu:/tmp/deps/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
    extra+=(-DCMAKE_PREFIX_PATH=/tmp/deps/usr)
fi
export TESSERA_CASES=$S/cases OMP_WAIT_POLICY=passive
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
T0=$SECONDS
cfg() { # dir reproducible targets...
    local d=$1 r=$2; shift 2
    cmake -S "$S" -B "$d" -DCMAKE_BUILD_TYPE=Release -DTESSERA_WERROR=ON -DTESSERA_WITH_HWLOC=OFF -DTESSERA_WITH_CUDA=ON \
        -DTESSERA_WITH_HIP=OFF -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc -DTESSERA_CUDA_ARCHITECTURES=90 \
        -DTESSERA_GPU_RESOURCE_REPORT=ON -DTESSERA_REPRODUCIBLE="$r" "${extra[@]}" \
        "-DCMAKE_CUDA_COMPILER_LAUNCHER=$S/ci/nvcc-keep-report.sh" >"$d.cfg.log" 2>&1 &&
        cmake --build "$d" -j 16 --target "$@" >"$d.build.log" 2>&1 ||
        { echo "BUILD FAIL $d"; grep -B2 -A12 -E "error|Error" "$d.build.log" | head -60; tail -5 "$d.cfg.log"; }
}
cfg /tmp/aa-repro ON test_matrix_cuda &
cfg /tmp/aa-fast OFF test_matrix_cuda tessera test_gpu_vs_cpu_cuda test_gpu_variants_cuda test_gpu_check_cuda &
wait
echo "build: $((SECONDS - T0)) s"
find /tmp/aa-fast -name '*.ptxas' -exec cat {} + | awk -f "$S/ci/ptxas-report.awk" | sort -u >"$OUT/resources.txt"
for b in repro fast; do
    (cd /tmp/aa-$b/tests/matrix && timeout 120 ./test_matrix_cuda >/tmp/m-$b.log 2>&1; echo "exit $?" >>/tmp/m-$b.log)
    cp /tmp/m-$b.log "$OUT/matrix-$b.log"
    echo "matrix $b: $(grep -c ' ok ' /tmp/m-$b.log) ok, $(grep -c ' FAIL ' /tmp/m-$b.log) FAIL," \
        "$(grep -c ' refused ' /tmp/m-$b.log) refused; $(tail -1 /tmp/m-$b.log) ($((SECONDS - T0)) s)"
    grep -E " FAIL " /tmp/m-$b.log | head -10 | cut -c1-200
done
T=/tmp/aa-fast/core/cli/tessera
bb() { timeout 120 "$T" bench --backend cuda --reps 3 "$@" 2>&1 | grep -vE "^(bytes per|tessera bench: backend|csv:)"; }
bb --case cavity3d --size 256 --pattern ab,aa --precision single,double --steps 100 --csv "$OUT/bench-d3q19.csv"
bb --case cavity3d --size 256 --pattern ab,aa --precision double --set lattice.model=D3Q27 --steps 50 \
    --csv "$OUT/bench-d3q27.csv"
bb --case spheres --size 192 --porosity 0.5 --pattern ab,aa --precision double,single --steps 100 \
    --csv "$OUT/bench-spheres.csv"
echo "bench: $((SECONDS - T0)) s"
(cd /tmp && timeout 120 python3 "$S/tests/cli/test_check_gpu.py" "$T" >/tmp/chk.log 2>&1)
echo "test_check_gpu: exit $?"; grep -E "ok|FAIL|fail" /tmp/chk.log | cut -c1-200 | head -14
for t in test_gpu_vs_cpu_cuda test_gpu_variants_cuda test_gpu_check_cuda; do
    (cd /tmp/aa-fast/tests/gpu && timeout 60 ./$t >/tmp/$t.log 2>&1)
    echo "$t: exit $? $(tail -1 /tmp/$t.log | cut -c1-150)"
done
echo "total: $((SECONDS - T0)) s"
