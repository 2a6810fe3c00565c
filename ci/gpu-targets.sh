#!/usr/bin/env bash
# One device call for the rows that issues 11 and 12 set targets on (docs/performance.md, "On the H200: where the
# targets ... stand"): `tessera bench` on each of them, the peer FluidX3D in the same call (ci/peer-fluidx3d.sh,
# built in the background while the rows run) for the ratios the targets name, then the reproducible build's bitwise
# GPU tests and `tessera run --check cpu` with the time that is left. Prints the rows, the peer and the tests last.
#
# The builds can be made beforehand on the development machine and carried (the device's minutes are the scarce
# ones; on the lent H100 the two builds took about 270 s): GT_FAST and GT_REPRO name folders, relative to the
# repository, that hold the executables and shared libraries of a fast and a reproducible build
# (-DTESSERA_SHARED_LIBS=ON -DTESSERA_WITH_MPI=OFF -DTESSERA_WITH_HWLOC=OFF -DTESSERA_CUDA_ARCHITECTURES=90);
# a folder whose `tessera` does not start here is built again from this tree (ci/device-bench-lib.sh).
# Environment: TESSERA_DEPS (.debs to unpack: libinih), GT_FLUIDX3D (the peer's fetched source, outside this
# project), GT_DEADLINE (seconds, default 570: no row or test starts after it), GT_STEPS (default 20; MR rows 100),
# GT_ROWS (the row names below, default all), GT_TESTS (the reproducible build's test binaries). Outputs under
# $OUT or ./gpu-targets-out.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deadline=${GT_DEADLINE:-570}
. "$root/ci/device-bench-lib.sh" gpu-targets
log=$out/targets.txt
: >"$log"
status=0 # non-zero when a row, a test or a cross-check fails

if [ -n "${GT_FLUIDX3D:-}" ]; then
    step "peer FluidX3D: building in the background"
    PEER_PHASE=build setsid nice -n 10 bash "$root/ci/peer-fluidx3d.sh" "$root/$GT_FLUIDX3D" /tmp/fluidx3d-out \
        >/tmp/fluidx3d-build.log 2>&1 &
    peer_build=$!
fi

# A carried folder: its libraries on the search path; it must start here, else it is built again.
usable() { # dir
    [ -d "$1" ] || return 1
    export LD_LIBRARY_PATH=$(find "$1" -name '*.so*' -printf '%h\n' | sort -u | paste -sd:):${LD_LIBRARY_PATH:-}
    "$(find "$1" -name tessera -type f | head -1)" info >/dev/null 2>&1
}
fast=${GT_FAST:+$root/$GT_FAST}
repro=${GT_REPRO:+$root/$GT_REPRO}
tests=${GT_TESTS:-test_matrix_cuda test_gpu_mr_cuda test_gpu_vs_cpu_cuda}
if ! usable "${fast:-/nonexistent}"; then
    step "building the fast configuration"
    build "$root" /tmp/gt-fast OFF tessera
    [ "$(cat /tmp/gt-fast.status)" = ok ] || { echo "fast build FAILED"; tail -20 /tmp/gt-fast.build.log; exit 1; }
    fast=/tmp/gt-fast
fi
if ! usable "${repro:-/nonexistent}"; then
    step "building the reproducible configuration (background)"
    fn="$(declare -f build); extra=(${extra[*]:-})"
    setsid nice -n 5 bash -c "$fn; build '$root' /tmp/gt-repro ON tessera $tests" &
    repro_pid=$!
    repro=/tmp/gt-repro
fi
tessera=$(find "$fast" -name tessera -type f | head -1)
echo "fast: $tessera; reproducible: $repro"

rowargs() {
    case $1 in
    c19) echo "--case cavity3d --size 256 --pattern ab,aa --precision double,single" ;;
    mr19) echo "--case cavity3d --size 256 --pattern mr --collision regularized --precision single,double" ;;
    c27) echo "--case cavity3d --size 256 --set lattice.model=D3Q27 --pattern ab,aa --collision lbgk,regularized" \
        "--precision double,single" ;;
    mr27) echo "--case cavity3d --size 256 --set lattice.model=D3Q27 --pattern mr --collision regularized" \
        "--precision single,double" ;;
    d13) echo "--case cavity3d --size 256 --set lattice.model=D3Q13 --collision mrt --precision double,single" ;;
    d2q9) echo "--case cavity2d --size 4096 --precision double,single" ;;
    s5) echo "--case spheres --size 192 --porosity 0.5 --pattern ab,aa --precision double,single" ;;
    s5mr) echo "--case spheres --size 192 --porosity 0.5 --pattern ab,mr --collision regularized" \
        "--precision single,double" ;;
    sbb) echo "--case spheres --size 192 --porosity 0.3,0.5,0.7,0.9 --pattern ab --precision double" ;;
    sbz) echo "--case spheres --size 192 --porosity 0.3,0.5,0.7,0.9 --pattern ab --precision double" \
        "--set physics.wall=bouzidi-quadratic" ;;
    esac
}
step "bench rows"
for r in ${GT_ROWS:-c19 mr19 c27 mr27 d13 d2q9 s5 s5mr sbb sbz}; do
    [ "$(left)" -lt 60 ] && { echo "row $r skipped: time" | tee -a "$log"; continue; }
    steps=${GT_STEPS:-20}
    case $r in mr* | s5mr) steps=100 ;; esac
    # shellcheck disable=SC2046 # rowargs is a list of arguments
    timeout 90 "$tessera" bench --backend cuda --steps "$steps" --reps 3 --out /tmp/gt-bench $(rowargs "$r") \
        >"/tmp/gt-$r.log" 2>&1 || { echo "row $r: exit $?" | tee -a "$log"; status=1; }
    grep -E "^copy bandwidth" "/tmp/gt-$r.log" | sed "s/^/[$r] /" >>"$log"
    grep -E "^(cavity|spheres)" "/tmp/gt-$r.log" | sed "s/^/[$r] /" >>"$log"
done

if [ -n "${peer_build:-}" ]; then
    step "peer FluidX3D: waiting for its build, then its runs"
    wait "$peer_build"
    cat /tmp/fluidx3d-build.log
    if [ "$(left)" -gt 90 ]; then
        PEER_PHASE=run bash "$root/ci/peer-fluidx3d.sh" "$root/$GT_FLUIDX3D" /tmp/fluidx3d-out | tee -a "$log"
    else
        echo "peer FluidX3D skipped: time" | tee -a "$log"
    fi
fi

if [ -n "${repro_pid:-}" ]; then
    step "waiting for the reproducible build"
    waitfor /tmp/gt-repro "$repro_pid" $((deadline - 60)) || repro=
fi
if [ -n "$repro" ]; then
    step "bitwise GPU tests (reproducible build)"
    for t in $tests; do
        [ "$(left)" -lt 20 ] && { echo "test $t: not run (time)" | tee -a "$log"; continue; }
        f=$(find "$repro" -name "$t" -type f | head -1)
        timeout "$(($(left) - 10))" "$f" >"/tmp/$t.log" 2>&1
        rc=$?
        [ $rc -eq 0 ] || status=1
        echo "test $t: exit $rc, $(grep -cw ok "/tmp/$t.log") ok, $(grep -cw FAIL "/tmp/$t.log") FAIL; last line:" \
            "$(tail -1 "/tmp/$t.log")" | tee -a "$log"
        grep -w FAIL "/tmp/$t.log" | head -5 | tee -a "$log"
    done
    step "tessera run --check cpu"
    for b in "$tessera" "$(find "$repro" -name tessera -type f | head -1)"; do
        for prec in double single; do
            [ "$(left)" -lt 20 ] && continue
            timeout 60 "$b" run "$root/cases/cavity3d.ini" --backend cuda --precision $prec --steps 200 \
                --out /tmp/gt-check --overwrite --quiet --check cpu >/tmp/gt-check.log 2>&1
            rc=$?
            [ $rc -eq 0 ] || status=1
            echo "check cpu ($b, $prec): exit $rc $(grep -iE 'check|diff' /tmp/gt-check.log | tail -1)" | tee -a "$log"
        done
    done
fi
step done
cat "$log"
echo "status: $status"
exit $status
