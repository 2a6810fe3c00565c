#!/usr/bin/env bash
# One device call for the GPU speed work (issue 12): builds the fast configuration (tessera, test_gpu_mr_cuda,
# test_matrix_cuda) and, unless GPU_PERF_REPRO=0, the reproducible one (the two tests and tessera) in parallel,
# runs the bitwise checks in the reproducible build (matrix suite: AA = CPU AA and AA = GPU AB after even steps;
# MR: GPU MR = CPU MR, test_gpu_mr and `tessera run --check cpu` for the column sweep), then the benchmark rows
# of issue 12 and prints them (MLUPS, % of the copy bandwidth of the same bench call). On the lent H100 machine
# the two builds take about 450 s (387 s without tessera in the reproducible one): give the benchmark a second,
# back-to-back call that runs /tmp/perf-fast/core/cli/tessera bench directly (the build stays in /tmp while the
# machine is warm). Logs and CSV go to $OUT (the device tool's folder) or ./gpu-perf-out.
#
# Environment: TESSERA_DEPS: a folder of Debian .debs to unpack (libinih, as ci/gpu-check.sh); GPU_PERF_REPRO=0:
# the fast build only (no bitwise checks); GPU_PERF_ENVS: a list of `NAME=VALUE` settings (comma separated within
# one setting, `-` for none) that every test and bench row runs under, one pass each (run-time variants);
# GPU_PERF_MR_LAYERS: the MR block shapes to bench (--mr-layer, default 0); GPU_PERF_PLAN: the bench rows, each
# ROW@N[:LAYERS] (ROW one of q19 q27 mr19 mr27 spheres mrspheres, N the index of its setting in GPU_PERF_ENVS,
# LAYERS the MR rows' --mr-layer list instead of GPU_PERF_MR_LAYERS);
# GPU_PERF_DEADLINE: seconds after which no further row starts (default 400); GPU_PERF_MATRIX: the indices of the
# settings the matrix suite runs under (default all).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${OUT:-$root/gpu-perf-out}
mkdir -p "$out"
start=$SECONDS
step() { printf '\n== %s (%ds)\n' "$*" $((SECONDS - start)); }
extra=()
if [ -n "${TESSERA_DEPS:-}" ] && [ -d "$TESSERA_DEPS" ]; then
    . "$root/ci/unpack-debs.sh"
    unpack_debs "$TESSERA_DEPS"
    extra+=(-DCMAKE_PREFIX_PATH=/tmp/tess-deps/usr)
fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
build() { # dir, reproducible, targets...
    local d=$1 r=$2
    shift 2
    cmake -S "$root" -B "$d" -DCMAKE_BUILD_TYPE=Release -DTESSERA_WERROR=ON -DTESSERA_WITH_HWLOC=OFF \
        -DTESSERA_WITH_CUDA=ON -DTESSERA_WITH_HIP=OFF -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc \
        -DTESSERA_CUDA_ARCHITECTURES=90 -DTESSERA_GPU_RESOURCE_REPORT=ON -DTESSERA_REPRODUCIBLE="$r" "${extra[@]}" \
        "-DCMAKE_CUDA_COMPILER_LAUNCHER=$root/ci/nvcc-keep-report.sh" \
        >"$d.cfg.log" 2>&1 && cmake --build "$d" -j "${GPU_PERF_JOBS:-8}" --target "$@" >"$d.build.log" 2>&1 ||
        { echo "BUILD FAILED: $d"; tail -40 "$d.build.log" "$d.cfg.log"; return 1; }
}
repro=${GPU_PERF_REPRO:-1}
step build
build /tmp/perf-fast OFF tessera test_gpu_mr_cuda & p1=$!
p2=
[ "$repro" = 1 ] && { build /tmp/perf-repro ON test_gpu_mr_cuda test_matrix_cuda tessera & p2=$!; }
wait $p1 || exit 1
[ -z "$p2" ] || wait $p2 || exit 1
find /tmp/perf-fast -name '*.ptxas' -exec cat {} + | awk -f "$root/ci/ptxas-report.awk" | sed -E 's/ sm_[0-9]+\t/\t/' | c++filt |
    sed -E 's/ptxas info +: //g; s/ +/ /g' >"$out/resources.txt"
IFS=' ' read -r -a envs <<<"${GPU_PERF_ENVS:--}"
withenv() { # setting, command...
    local s=$1
    shift
    if [ "$s" = - ]; then "$@"; else env ${s//,/ } "$@"; fi
}
if [ "$repro" = 1 ]; then
    step "bitwise checks, reproducible build"
    i=0
    for s in "${envs[@]}"; do
        withenv "$s" /tmp/perf-repro/tests/gpu/test_gpu_mr_cuda >/tmp/mr.log 2>&1
        echo "[$s] test_gpu_mr exit $?: $(grep -c '^ok' /tmp/mr.log) ok, $(grep -c FAIL /tmp/mr.log) FAIL," \
            "$(grep -c 'bitwise: yes' /tmp/mr.log) bitwise vs CPU"
        grep FAIL /tmp/mr.log | head -5
        case " ${GPU_PERF_MATRIX:-all} " in *" all "* | *" $i "*) ;; *) i=$((i + 1)); continue ;; esac
        i=$((i + 1))
        (cd /tmp/perf-repro/tests/matrix && withenv "$s" ./test_matrix_cuda >/tmp/mx.log 2>&1)
        echo "[$s] test_matrix_cuda exit $?: $(grep -c ' ok ' /tmp/mx.log) ok, $(grep -c FAIL /tmp/mx.log) FAIL"
        grep FAIL /tmp/mx.log | head -5
    done
    # The MR column sweep against the CPU's MR through `tessera run --check cpu` (cavity3d 64^3, eta_t >= 0.9:
    # D3Q19's default is the column sweep; 1024 = four tile layers a block, so the chunks meet inside the box).
    for c in "double 0 D3Q19" "single 0 D3Q19" "single 1024 D3Q19" "double 4096 D3Q27"; do
        set -- $c
        /tmp/perf-repro/core/cli/tessera run "$root/cases/cavity3d.ini" --backend cuda --pattern mr --precision "$1" \
            --steps 50 --set physics.collision=regularized --set run.mr_layer="$2" --set lattice.model="$3" \
            --out "/tmp/perf-check-$1-$2-$3" --overwrite --quiet --check cpu >/tmp/check.log 2>&1
        echo "check cpu mr $c exit $?: $(grep -E 'cross-check' /tmp/check.log | tail -1 | cut -c1-150)"
    done
fi
B=/tmp/perf-fast/core/cli/tessera
plan=${GPU_PERF_PLAN:-q19@0 mr19@0 q27@0 mr27@0 spheres@0 mrspheres@0}
common=(--backend cuda --steps 20 --reps 3)
step "bench"
for item in $plan; do
    r=${item%@*}
    rest=${item#*@}
    s=${envs[${rest%%:*}]}
    layers=${GPU_PERF_MR_LAYERS:-0}
    [ "$rest" != "${rest#*:}" ] && layers=${rest#*:}
    if [ $((SECONDS - start)) -gt "${GPU_PERF_DEADLINE:-400}" ]; then
        echo "skipped $item: past ${GPU_PERF_DEADLINE:-400} s"
        continue
    fi
    case $r in
    q19) a=(--case cavity3d --size 256 --pattern ab,aa --precision double,single) ;;
    q27) a=(--case cavity3d --size 256 --set lattice.model=D3Q27 --pattern ab,aa --precision double,single) ;;
    mr19) a=(--case cavity3d --size 256 --pattern mr --collision regularized --precision double,single
        --mr-layer "$layers") ;;
    mr27) a=(--case cavity3d --size 256 --set lattice.model=D3Q27 --pattern mr --collision regularized
        --precision double,single --mr-layer "$layers") ;;
    spheres) a=(--case spheres --size 192 --porosity 0.5 --pattern ab,aa --precision double,single) ;;
    mrspheres) a=(--case spheres --size 192 --porosity 0.5 --pattern mr --collision regularized
        --precision double,single --mr-layer "$layers") ;;
    esac
    tag=${s//[^A-Za-z0-9]/_}
    withenv "$s" timeout 100 "$B" bench "${common[@]}" "${a[@]}" --csv "/tmp/bench-$tag-$r.csv" >"/tmp/bench-$r.log" 2>&1 ||
        echo "bench $item exit $?"
    grep -iE "copy|^(cavity|spheres)" "/tmp/bench-$r.log" | sed "s/^/[$s] /" | tee -a "$out/bench.txt"
done
cat /tmp/bench-*.csv >"$out/bench.csv" 2>/dev/null
step done
