#!/usr/bin/env bash
# The largest cavity and the largest 0.5-porosity sphere bed that fit on the GPU, per pattern and precision
# (issue 12's memory bullet; docs/performance.md). Each box starts at the edge predicted from the device bytes per
# fluid node and steps down (CAPACITY_SHRINK per cent, a multiple of 4) until `tessera bench` runs it (a refusal is
# one line: device or host memory); every row that runs is a real run of a few steps, so it also checks that
# nothing overflows at a billion nodes. The table gets the fluid nodes, the device bytes per fluid node, the host's
# set-up seconds and peak memory (bench's set-up line) and the MLUPS of the steps.
#
# Builds the fast configuration's `tessera` only in /tmp/tess-fast (reused when it is there; a second call on a warm
# machine skips the build). Environment: TESSERA_DEPS (a folder of .debs the machine lacks, ci/unpack-debs.sh);
# CUDA_ARCHS (default 90); CAPACITY_ROWS ("case:pattern:precision:edge ..."; default all twelve, the most useful
# first); CAPACITY_TRIES (default 2); CAPACITY_SHRINK (default 98: the next try's edge in per cent of the last).
# The table goes to $OUT/capacity/table.txt (or /tmp/capacity) row by row, so a call cut short keeps what ran; each
# row's bench log and CSV to /tmp/capacity-logs.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CAPACITY_BUILD:-/tmp/tess-fast} # another tree's build on a warm machine: name your own
bin=$build/core/cli/tessera
start=$SECONDS
if [ ! -x "$bin" ]; then
    extra=()
    if [ -n "${TESSERA_DEPS:-}" ] && [ -d "$TESSERA_DEPS" ]; then
        . "$root/ci/unpack-debs.sh"
        unpack_debs "$TESSERA_DEPS"
        extra+=(-DCMAKE_PREFIX_PATH=/tmp/tess-deps/usr)
    fi
    echo "building the fast configuration's tessera in $build"
    if ! { cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTESSERA_WERROR=ON -DTESSERA_WITH_HWLOC=OFF \
        -DTESSERA_WITH_CUDA=ON -DTESSERA_WITH_HIP=OFF -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc \
        "-DTESSERA_CUDA_ARCHITECTURES=${CUDA_ARCHS:-90}" "${extra[@]}" >/tmp/capacity-build.log 2>&1 &&
        cmake --build "$build" -j "$(nproc)" --target tessera >>/tmp/capacity-build.log 2>&1; }; then
        echo "build failed"
        tail -30 /tmp/capacity-build.log
        exit 1
    fi
    echo "built in $((SECONDS - start)) s"
elif [ -n "${TESSERA_DEPS:-}" ] && [ -d /tmp/tess-deps ]; then
    export LD_LIBRARY_PATH=/tmp/tess-deps/usr/lib/x86_64-linux-gnu:/tmp/tess-deps/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
fi
out=${OUT:-/tmp}/capacity
logs=/tmp/capacity-logs # the device tool brings back few files: the logs stay here (tar them into $OUT if needed)
mkdir -p "$out" "$logs"
# Predicted edges: the free device memory (about 84.5e9 bytes of the H100's 85.0e9) over the device bytes per tile
# (docs/performance.md, "Largest boxes"), (edge / 4)^3 tiles for the cavity and about 0.62 of them for the bed.
rows=${CAPACITY_ROWS:-"cavity3d:aa:single:1020 cavity3d:mr:single:1004 cavity3d:ab:double:648
 spheres:aa:single:1200 spheres:mr:single:1180 spheres:ab:double:760
 cavity3d:ab:single:816 cavity3d:aa:double:816 cavity3d:mr:double:800
 spheres:ab:single:960 spheres:aa:double:960 spheres:mr:double:940"}
free -g | head -2
nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv
fmt='%-9s %-3s %-7s %6s %14s %9s %10s %8s %8s %6s  %s\n'
printf "$fmt" case pat prec edge fluid_nodes B/node MLUPS setup_s peak_GB wall_s note | tee "$out/table.txt"
# A column of the bench CSV by name (its first line is the device comment, the second the header).
csv_col() { awk -F, -v want="$2" 'NR == 2 { for (i = 1; i <= NF; i++) if ($i == want) c = i } NR == 3 { print $c }' "$1"; }
for r in $rows; do
    IFS=: read -r case pat prec edge <<<"$r"
    for try in $(seq 1 "${CAPACITY_TRIES:-2}"); do
        t0=$SECONDS
        extra=()
        [ "$case" = spheres ] && extra=(--porosity 0.5)
        [ "$pat" = mr ] && extra+=(--collision regularized)
        log=$logs/$case-$pat-$prec-$edge.log
        csv=$logs/$case-$pat-$prec-$edge.csv
        "$bin" bench --backend cuda --case "$case" --size "$edge" "${extra[@]}" --pattern "$pat" --precision "$prec" \
            --steps 4 --reps 1 --csv "$csv" >"$log" 2>&1
        rc=$?
        if [ $rc -eq 0 ] && [ -s "$csv" ]; then
            printf "$fmt" "$case" "$pat" "$prec" "$edge" "$(csv_col "$csv" fluid_nodes)" \
                "$(csv_col "$csv" bytes_per_fluid_node)" "$(csv_col "$csv" mlups_median)" \
                "$(csv_col "$csv" setup_seconds)" \
                "$(awk -v b="$(csv_col "$csv" host_peak_bytes)" 'BEGIN { printf "%.1f", b / 1e9 }')" \
                $((SECONDS - t0)) "fits (eta_t $(csv_col "$csv" eta_t)); $(grep -m1 'set-up' "$log" | sed 's/^ *//')" |
                tee -a "$out/table.txt"
            break
        fi
        # The refusal's own line: the backend's banner names the memory too, so it is skipped.
        why=$(grep -v -E "^tessera [a-z]+: backend " "$log" | grep -m1 -i -E "memory|error|refus|more than" | cut -c1-160)
        printf "$fmt" "$case" "$pat" "$prec" "$edge" - - - - - $((SECONDS - t0)) "rc $rc: ${why:-see log}" |
            tee -a "$out/table.txt"
        edge=$(( (edge * ${CAPACITY_SHRINK:-98} / 100) / 4 * 4 ))
    done
done
echo "total $((SECONDS - start)) s"
