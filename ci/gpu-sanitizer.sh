#!/usr/bin/env bash
# compute-sanitizer on the GPU test binaries of a CUDA build (ci/gpu-check.sh's sanitizer step; runnable alone on a
# machine with the build): each listed binary once under memcheck (out-of-bounds and misaligned device accesses,
# leaks of device memory) and once under racecheck (shared-memory hazards), each run capped. Prints one line per
# tool ("compute-sanitizer TOOL: ..."); exit status 1 when a run reported an error or failed, else 0. A run that hits
# the cap is reported as incomplete, not as a failure.
#
# Usage: ci/gpu-sanitizer.sh BUILD_DIR [LOG_DIR]   (logs sanitizer-TOOL-NAME.log in LOG_DIR, default .)
# Environment:
#   GPU_CHECK_SANITIZER_TESTS   the entries both tools run (default: the six GPU test binaries; "none": nothing)
#   GPU_CHECK_MEMCHECK_TESTS    memcheck's entries instead (default GPU_CHECK_SANITIZER_TESTS)
#   GPU_CHECK_RACECHECK_TESTS   racecheck's entries instead (default GPU_CHECK_SANITIZER_TESTS)
#   GPU_CHECK_SANITIZER_CAP     seconds per run (default 600: the tools slow the kernels 10 to 100 times)
# An entry is a test binary, optionally with arguments after a colon, separated by commas: racecheck is too slow
# for all of test_gpu_mr_cuda in one capped run, so GPU_CHECK_RACECHECK_TESTS=test_gpu_mr_cuda:D3Q19,planes runs
# exactly its D3Q19 planes checks (docs/testing.md lists its selection words).
set -uo pipefail

build=${1:?usage: ci/gpu-sanitizer.sh BUILD_DIR [LOG_DIR]}
logs=${2:-.}
mkdir -p "$logs"
san=/usr/local/cuda/bin/compute-sanitizer
cap=${GPU_CHECK_SANITIZER_CAP:-600}
all=${GPU_CHECK_SANITIZER_TESTS:-test_gpu_vs_cpu_cuda test_gpu_variants_cuda test_matrix_cuda test_gpu_check_cuda test_gpu_mr_cuda test_gpu_mr_parts_cuda}
status=0
for tool in memcheck racecheck; do
    if [ "$tool" = memcheck ]; then list=${GPU_CHECK_MEMCHECK_TESTS:-$all}; else list=${GPU_CHECK_RACECHECK_TESTS:-$all}; fi
    res=
    if [ ! -x "$san" ]; then
        res="not run (no $san)"
    else
        for entry in $list; do
            t=${entry%%:*}
            args=
            [ "$t" != "$entry" ] && args=${entry#*:}
            args=${args//,/ }
            name=$t${args:+-${args// /-}}
            bin=$build/tests/gpu/$t
            [ -x "$bin" ] || bin=$build/tests/matrix/$t
            if ! [ -x "$bin" ]; then
                [ "$t" = none ] || res+="$name not built; "
                continue
            fi
            log=$logs/sanitizer-$tool-$name.log
            # shellcheck disable=SC2086 # args: the entry's words
            (cd "$(dirname "$bin")" && timeout "$cap" "$san" --tool "$tool" --error-exitcode 99 --print-limit 20 \
                "$bin" $args) >"$log" 2>&1
            rc=$?
            errs=$(grep -o 'ERROR SUMMARY: [0-9]* error' "$log" | tail -1 | grep -o '[0-9]*')
            checks=$(grep -c '^ok ' "$log")
            case $rc in
            0) res+="$name ok ($checks checks, ${errs:-0} errors); " ;;
            77) res+="$name skipped; " ;;
            124) res+="$name incomplete ($checks checks in the cap of $cap s); " ;;
            *) res+="$name FAILED (status $rc, ${errs:-?} errors, see $(basename "$log")); "; status=1 ;;
            esac
        done
    fi
    echo "compute-sanitizer $tool: ${res:-none listed}"
done
exit $status
