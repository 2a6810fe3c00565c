#!/usr/bin/env bash
# The largest cavity and the largest 0.5-porosity sphere bed that fit on the GPU, per pattern and precision
# (issue 12's memory bullet; docs/performance.md). Each box starts at the edge predicted from the bytes per fluid
# node and shrinks by about 6% until `tessera bench` runs it (a refusal is one line: device or host memory);
# every row that runs is a real run of a few steps, so it also checks that nothing overflows at a billion nodes.
#
# Uses the fast build of ci/gpu-check.sh (/tmp/tess-fast) when it is there, else builds it. Environment:
# CAPACITY_ROWS ("case:pattern:precision:edge ..."; default all twelve), CAPACITY_TRIES (default 3).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=/tmp/tess-fast/core/cli/tessera
if [ ! -x "$bin" ]; then
    echo "no fast build in /tmp/tess-fast: building one"
    CUDA_ARCHS=${CUDA_ARCHS:-90} GPU_CHECK_TESTS=0 GPU_CHECK_BENCH=0 GPU_CHECK_VALIDATE=0 bash "$root/ci/gpu-check.sh" \
        >/tmp/capacity-build.log 2>&1
    [ -x "$bin" ] || { echo "build failed"; tail -20 /tmp/capacity-build.log; exit 1; }
fi
out=${OUT:-/tmp}/capacity
mkdir -p "$out"
# Predicted edges (docs/performance.md: 79 GiB over the device bytes per fluid node; a tile is 4 nodes wide).
rows=${CAPACITY_ROWS:-"cavity3d:aa:single:1016 cavity3d:mr:single:1000 cavity3d:ab:single:812
 cavity3d:aa:double:812 cavity3d:mr:double:796 cavity3d:ab:double:648
 spheres:aa:single:1200 spheres:mr:single:1176 spheres:ab:single:960
 spheres:aa:double:960 spheres:mr:double:940 spheres:ab:double:764"}
free -g | head -2
nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv
printf '%-9s %-3s %-7s %6s %14s %10s %8s  %s\n' case pat prec edge fluid_nodes MLUPS seconds note | tee "$out/table.txt"
start=$SECONDS
for r in $rows; do
    IFS=: read -r case pat prec edge <<<"$r"
    for try in $(seq 1 "${CAPACITY_TRIES:-3}"); do
        t0=$SECONDS
        extra=()
        [ "$case" = spheres ] && extra=(--porosity 0.5)
        [ "$pat" = mr ] && extra+=(--collision regularized)
        log=$out/$case-$pat-$prec-$edge.log
        "$bin" bench --backend cuda --case "$case" --size "$edge" "${extra[@]}" --pattern "$pat" --precision "$prec" \
            --steps 4 --reps 1 --csv "$out/$case-$pat-$prec-$edge.csv" >"$log" 2>&1
        rc=$?
        line=$(grep -E "^$case " "$log" | tail -1)
        if [ $rc -eq 0 ] && [ -n "$line" ]; then
            mlups=$(awk '{print $(NF-3)}' <<<"$line")
            eta=$(awk '{print $6}' <<<"$line")
            por=$(awk '{print $5}' <<<"$line")
            nodes=$(awk -v e="$edge" -v p="$por" 'BEGIN{if (p == "-") p = 1; printf "%.0f", e*e*e*p}')
            printf '%-9s %-3s %-7s %6s %14s %10s %8s  %s\n' "$case" "$pat" "$prec" "$edge" "$nodes" "$mlups" \
                $((SECONDS - t0)) "fits (eta_t $eta)" | tee -a "$out/table.txt"
            break
        fi
        why=$(grep -m1 -i -E "memory|error|refus" "$log" | cut -c1-110)
        printf '%-9s %-3s %-7s %6s %14s %10s %8s  %s\n' "$case" "$pat" "$prec" "$edge" - - $((SECONDS - t0)) \
            "rc $rc: ${why:-see log}" | tee -a "$out/table.txt"
        edge=$(( (edge * 94 / 100) / 4 * 4 ))
    done
done
echo "total $((SECONDS - start)) s"
