#!/usr/bin/env bash
# Fuzzes the readers (docs/reliability.md, "Fuzzing"): builds the libFuzzer targets with clang, AddressSanitizer
# and UBSan (TESSERA_FUZZ=ON), then runs each for a given time on a copy of its seed corpus.
#
#   ci/fuzz.sh [SECONDS_PER_TARGET [TARGET...]]     default: 60 s, every target
#
# Environment: TESSERA_BUILD_ROOT (default <repo>/build-ci) holds build folder `fuzz`, the growing corpora
# (fuzz-corpus/<target>) and what libFuzzer finds (fuzz-findings/<target>: crash-*, leak-*, timeout-*);
# TESSERA_JOBS (default 2) is the build parallelism and the number of targets run at once.
# Prints one line per target (executions, corpus size, result) and exits non-zero when a target found anything:
# a finding becomes a test input under tests/fuzz/regressions/<target>/ once fixed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_root=${TESSERA_BUILD_ROOT:-$root/build-ci}
jobs=${TESSERA_JOBS:-2}
seconds=${1:-60}
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then
    targets=(case stl_ascii stl_binary vti_voxels vti_init raw_voxels restart)
fi
build=$build_root/fuzz
mkdir -p "$build_root" # its logs sit beside the build folder

command -v clang >/dev/null || { echo "fuzz: clang not found (ci/install-deps.sh installs it)" >&2; exit 1; }
echo "+ configure and build the fuzz targets in $build (clang, -fsanitize=fuzzer,address,undefined)"
CC=clang cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DTESSERA_FUZZ=ON -DTESSERA_WERROR=ON \
    -DTESSERA_WITH_CUDA=OFF -DTESSERA_WITH_HIP=OFF >"$build_root/fuzz-configure.log"
cmake --build "$build" -j "$jobs" --target fuzz_targets >"$build_root/fuzz-build.log" ||
    { tail -40 "$build_root/fuzz-build.log"; exit 1; }

run_one() {
    local t=$1 corpus=$build_root/fuzz-corpus/$1 findings=$build_root/fuzz-findings/$1 log=$build_root/fuzz-$1.log
    mkdir -p "$corpus" "$findings"
    # -timeout: an input that takes 10 s is a hang; -rss_limit_mb: no input may make a reader use 2 GB.
    if OMP_NUM_THREADS=1 ASAN_OPTIONS=detect_leaks=1 "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" \
        "$corpus" "$root/tests/fuzz/corpus/$t" >"$log" 2>&1; then
        result=ok
    else
        result="FOUND (see $log and $findings)"
    fi
    printf '%-11s %10s executions in %4s s, corpus %5s inputs: %s\n' "$t" \
        "$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)" "$seconds" \
        "$(ls "$corpus" | wc -l)" "$result"
    [ "$result" = ok ]
}

status=0
pids=()
for t in "${targets[@]}"; do
    run_one "$t" &
    pids+=($!)
    if ((${#pids[@]} >= jobs)); then
        wait "${pids[0]}" || status=1
        pids=("${pids[@]:1}")
    fi
done
for p in "${pids[@]}"; do
    wait "$p" || status=1
done
exit $status
