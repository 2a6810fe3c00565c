#!/usr/bin/env bash
# One device call of the MR speed work (issue 12, branch gpu-mr-speed; docs/performance-notes.md, "GPU MR speed"):
# builds the fast configuration (tessera) and, with MRS_REPRO=1, the reproducible one (test_gpu_mr_cuda,
# test_gpu_mr_parts_cuda) in the background, each under a time cap (MRS_BUILD_CAP seconds from the start); runs the
# bench rows (MRS_ROWS: a list of ROW@SETTING, SETTING `-` or NAME=VALUE[,NAME=VALUE], an environment), then
# Nsight Compute on the MR kernels (MRS_NCU: a list of ROW:KERNEL[@SETTING], KERNEL the kernel's base name,
# e.g. tess_gpu_mr_column; the third matching launch of a `--steps 3` run), the per-kernel times of every MR
# launch of a `--steps 3` run (MRS_TIMES: a list of ROW[@SETTING]; the median per kernel, times.txt), then the
# bitwise tests in the reproducible build under each setting of MRS_TEST_ENVS (MRS_TESTS_FIRST=1: before the
# bench); prints the MR
# kernels' registers, the tests and the bench rows last. No row starts after MRS_DEADLINE seconds. On the lent H100
# the two builds take about 270 s.
# Rows: mr19 (D3Q19 cavity3d 256^3, FP32 and FP64), mr27 (D3Q27), mr19s / mr27s / mr19d / mr27d (one precision),
# mrsph (spheres 192^3, porosity 0.5; mrsphs / mrsphd one precision; mrsphp without its two Zou-He planes, periodic
# along x; mrsph64 / mrsph256 / mrsph2048 / mrsph4096 with that mr_layer), mr27c / mr27cd (D3Q27 column sweep,
# C = 8 FP32 / 16 FP64), mr19o / mr27o
# (one copy of the moments), mr19s4 / mr19s16 / mr19s32 / mr19d8 / mr19d32 (D3Q19 column sweep, C = 4 / 16 / 32 FP32,
# 8 / 32 FP64). Branch gpu-mr-wide ran it with SETTING TESS_GPU_MR_WIDE=1 / 2, the column sweep over 4 x 2 tiles
# (commits a785a18, e22c6a1; not kept: docs/performance-notes.md, "GPU MR: a wider column"); branch gpu-mr-async
# with TESS_GPU_MR_ASYNC=1 / 2 / 9, the next layer staged by cp.async (commits 65c08cb, 6b46376; not kept: "GPU MR:
# the next layer by cp.async"); branch gpu-mr-ring with TESS_GPU_MR_RING=5, a five-plane ring
# (commit f01ef5e; not kept: "GPU MR: a five-plane ring"); branch gpu-mr-bed with TESS_GPU_MR_ZH=0 (the planes
# through the list kernel, as before), 1 and 3 (commits 90833eb, 0e926a6: "GPU MR: the bed's pressure planes");
# branch gpu-mr-bed2 with no setting, one tree a call (commits 19c55da, 0e75232: "GPU MR: the plane tiles' own path");
# branch gpu-mr-bed5 with TESS_GPU_MR_SPLIT=1..4 and 9 (tests), the sparse groups split into smaller blocks (commit
# 3c2b85c; not kept: "GPU MR: the bed's sparse groups split"); branch gpu-mr27 with TESS_GPU_MR_ROWS=10, main's ten
# coefficient rows against 13 and 11 (commits c2e9355, 3f9a120; 11 kept: "GPU MR: partial sums of the Hermite
# coefficients"); branch gpu-mr-bed6 with TESS_GPU_MR_BED6=1, 2 (the 2x2x2 FP32 group's gather), 4, 8 (the group
# order) and MRS_FAST_TESTS (commit 925c2d8; 1 kept for D3Q19: "GPU MR: the bed's gather and group order");
# branch gpu-mr28 with TESS_GPU_MR_CAP=1, the D3Q19 column sweep capped at 5 blocks (FP32) / 3
# (FP64) a multiprocessor (commit af48dcb; not kept: "GPU MR: tighter register caps on the column sweep").
# Outputs under $OUT
# (the device tool's folder) or ./gpu-mr-speed-out; TESSERA_DEPS: a folder of .debs to unpack (ci/unpack-debs.sh).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deadline=${MRS_DEADLINE:-420}
. "$root/ci/device-bench-lib.sh" gpu-mr-speed
step build
rm -f /tmp/mrs-fast.status /tmp/mrs-repro.status
# MRS_FAST_TESTS (a list of settings): test_gpu_mr_cuda built in the fast tree too and run under each (its
# block-shape checks are asserted there as well)
ftarget=
[ -n "${MRS_FAST_TESTS:-}" ] && ftarget=test_gpu_mr_cuda
setsid bash -c "$(declare -f build); root='$root'; extra=(${extra[*]:-}); build '$root' /tmp/mrs-fast OFF tessera $ftarget" &
pf=$!
pr=
if [ "${MRS_REPRO:-0}" = 1 ]; then
    setsid bash -c "$(declare -f build); root='$root'; extra=(${extra[*]:-});
        build '$root' /tmp/mrs-repro ON test_gpu_mr_cuda test_gpu_mr_parts_cuda" &
    pr=$!
fi
fast_ok=1
waitfor /tmp/mrs-fast $pf "${MRS_BUILD_CAP:-300}" || fast_ok=0
step "fast build done"
find /tmp/mrs-fast -name '*.ptxas' -exec cat {} + | awk -f "$root/ci/ptxas-report.awk" | sed -E 's/ sm_[0-9]+\t/\t/' | c++filt |
    sed -E 's/ptxas info +: //g; s/ +/ /g; s/\(float const\*[^\t]*\)|\(double const\*[^\t]*\)//' |
    grep -E 'tess_gpu_mr_(step|column)' >"$out/resources.txt"
B=/tmp/mrs-fast/core/cli/tessera
# mrsphp: the sphere bed with its two Zou-He pressure planes taken out, periodic along x too (what the planes cost)
pcase=/tmp/spheres-periodic.ini
sed -E 's/^name = spheres$/name = spheres_periodic/; s/^periodic = y z$/periodic = x y z/; /^\[outlet/,$d' \
    "$root/cases/spheres.ini" >"$pcase"
rowargs() {
    case $1 in
    mr19) echo "--case cavity3d --size 256 --precision single,double" ;;
    mr19s) echo "--case cavity3d --size 256 --precision single" ;;
    mr19d) echo "--case cavity3d --size 256 --precision double" ;;
    mr27) echo "--case cavity3d --size 256 --set lattice.model=D3Q27 --precision single,double" ;;
    mr27s) echo "--case cavity3d --size 256 --set lattice.model=D3Q27 --precision single" ;;
    mr27d) echo "--case cavity3d --size 256 --set lattice.model=D3Q27 --precision double" ;;
    mrsph) echo "--case spheres --size 192 --porosity 0.5 --precision single,double" ;;
    mrsphs) echo "--case spheres --size 192 --porosity 0.5 --precision single" ;;
    mrsphd) echo "--case spheres --size 192 --porosity 0.5 --precision double" ;;
    mrsphp) echo "--case $pcase --size 192 --porosity 0.5 --precision single,double" ;;
    mrsph64) echo "--case spheres --size 192 --porosity 0.5 --precision single,double --mr-layer 64" ;;
    mrsph256) echo "--case spheres --size 192 --porosity 0.5 --precision single,double --mr-layer 256" ;;
    mrsph2048) echo "--case spheres --size 192 --porosity 0.5 --precision single --mr-layer 2048" ;;
    mrsph4096) echo "--case spheres --size 192 --porosity 0.5 --precision double --mr-layer 4096" ;;
    mr27c) echo "--case cavity3d --size 256 --set lattice.model=D3Q27 --precision single --mr-layer 2048" ;;
    mr27cd) echo "--case cavity3d --size 256 --set lattice.model=D3Q27 --precision double --mr-layer 4096" ;;
    mr19o) echo "--case cavity3d --size 256 --precision single,double --set run.mr_copies=1" ;;
    mr27o) echo "--case cavity3d --size 256 --set lattice.model=D3Q27 --precision single,double" \
        "--set run.mr_copies=1" ;;
    mr19s4) echo "--case cavity3d --size 256 --precision single --mr-layer 1024" ;;
    mr19s16) echo "--case cavity3d --size 256 --precision single --mr-layer 4096" ;;
    mr19d8) echo "--case cavity3d --size 256 --precision double --mr-layer 2048" ;;
    mr19s32) echo "--case cavity3d --size 256 --precision single --mr-layer 8192" ;;
    mr19d32) echo "--case cavity3d --size 256 --precision double --mr-layer 8192" ;;
    esac
}
run_tests() { # the bitwise tests in the reproducible build, under each setting of MRS_TEST_ENVS
    if [ -n "$pr" ]; then
        step "reproducible build"
        if waitfor /tmp/mrs-repro $pr "${MRS_BUILD_CAP:-300}"; then
            step "bitwise tests (reproducible build)"
            for s in ${MRS_TEST_ENVS:--}; do
                [ "$(left)" -lt 40 ] && { echo "tests [$s] skipped: time"; continue; }
                withenv "$s" timeout 120 /tmp/mrs-repro/tests/gpu/test_gpu_mr_cuda >/tmp/mr.log 2>&1
                echo "[$s] test_gpu_mr exit $?: $(grep -c '^ok' /tmp/mr.log) ok, $(grep -c FAIL /tmp/mr.log) FAIL," \
                    "$(grep -c 'bitwise: yes' /tmp/mr.log) bitwise vs CPU" |
                    tee -a "$out/tests.txt"
                grep FAIL /tmp/mr.log | head -5
                withenv "$s" timeout 120 /tmp/mrs-repro/tests/gpu/test_gpu_mr_parts_cuda >/tmp/mrp.log 2>&1
                echo "[$s] test_gpu_mr_parts exit $?: $(grep -c '^ok' /tmp/mrp.log) ok," \
                    "$(grep -c FAIL /tmp/mrp.log) FAIL" |
                    tee -a "$out/tests.txt"
                grep FAIL /tmp/mrp.log | head -5
            done
        fi
    fi
}
[ "${MRS_TESTS_FIRST:-0}" = 1 ] && run_tests
if [ "$fast_ok" = 1 ] && [ -n "${MRS_FAST_TESTS:-}" ]; then
    for s in $MRS_FAST_TESTS; do
        [ "$(left)" -lt 40 ] && { echo "fast tests [$s] skipped: time"; continue; }
        withenv "$s" timeout 120 /tmp/mrs-fast/tests/gpu/test_gpu_mr_cuda >/tmp/mrf.log 2>&1
        echo "[fast $s] test_gpu_mr exit $?: $(grep -c '^ok' /tmp/mrf.log) ok, $(grep -c FAIL /tmp/mrf.log) FAIL" |
            tee -a "$out/tests.txt"
        grep FAIL /tmp/mrf.log | head -5
    done
fi
if [ "$fast_ok" = 1 ]; then
    step bench
    for item in ${MRS_ROWS:-}; do
        r=${item%%@*} s=${item#*@}
        [ "$(left)" -lt 25 ] && { echo "bench $item skipped: time"; continue; }
        withenv "$s" timeout "${MRS_ROW_CAP:-60}" "$B" bench --backend cuda --pattern mr --collision regularized \
            --steps "${MRS_STEPS:-20}" --reps 3 $(rowargs "$r") >"/tmp/bench.log" 2>&1 || echo "bench $item exit $?"
        grep -iE "^copy" /tmp/bench.log | sed "s/^/[$item] /" >>"$out/bench.txt"
        grep -E "^(cavity|spheres)" /tmp/bench.log | sed "s/^/[$item] /" >>"$out/bench.txt"
    done
fi
# DRAM, L2 and L1 traffic, shared-memory wavefronts and bank conflicts, issue and occupancy
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum
metrics+=,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed.sum
metrics+=,smsp__issue_active.avg.pct_of_peak_sustained_active
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sectors.avg.pct_of_peak_sustained_elapsed
metrics+=,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
if [ "$fast_ok" = 1 ] && [ -n "${MRS_NCU:-}" ]; then
    step "ncu ($NCU)"
    i=0
    for item in $MRS_NCU; do
        r=${item%%:*} k=${item#*:} ns=-
        [ "$k" != "${k#*@}" ] && { ns=${k#*@}; k=${k%@*}; }
        i=$((i + 1))
        [ "$(left)" -lt 60 ] && { echo "ncu $item skipped: time"; continue; }
        # -k matches the kernel's base name; --launch-skip counts only the matching launches (the copy kernel
        # of the bench's bandwidth measurement is not one), so the third MR launch is profiled.
        withenv "$ns" timeout 90 "$NCU" --clock-control none -k "regex:^$k\$" --launch-skip 2 --launch-count 1 \
            --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
            --section ComputeWorkloadAnalysis --section SchedulerStats --section WarpStateStats \
            --section Occupancy --section LaunchStats --section InstructionStats \
            --metrics "$metrics" \
            -f -o "$out/ncu-$i-$r" "$B" bench --backend cuda --pattern mr --collision regularized --steps 3 --reps 1 \
            $(rowargs "$r") >"/tmp/ncu-$i.log" 2>&1
        echo "ncu $item exit $?"
        grep -E '==(PROF|ERROR|WARNING)==' "/tmp/ncu-$i.log" | head -5
        if [ ! -f "$out/ncu-$i-$r.ncu-rep" ] && [ "$(left)" -gt 60 ]; then # a section or metric unknown: the full set
            withenv "$ns" timeout 90 "$NCU" --clock-control none -k "regex:^$k\$" --launch-skip 2 --launch-count 1 \
                --set full \
                -f -o "$out/ncu-$i-$r" "$B" bench --backend cuda --pattern mr --collision regularized --steps 3 \
                --reps 1 $(rowargs "$r") >"/tmp/ncu-$i.log" 2>&1
            echo "ncu $item (--set full) exit $?"
            grep -E '==(PROF|ERROR|WARNING)==' "/tmp/ncu-$i.log" | head -5
        fi
        [ -f "$out/ncu-$i-$r.ncu-rep" ] && "$NCU" -i "$out/ncu-$i-$r.ncu-rep" --page details --print-units base \
            >>"$out/ncu.txt" 2>&1
    done
fi
# Per-kernel times (MRS_TIMES: a list of ROW[@SETTING]): every MR kernel launch of a `--steps 3 --reps 1` run
# under Nsight Compute (duration only, caches not flushed), the median per kernel in times.txt
if [ "$fast_ok" = 1 ] && [ -n "${MRS_TIMES:-}" ]; then
    step "kernel times ($NCU)"
    for item in $MRS_TIMES; do
        r=${item%%@*} s=-
        [ "$r" != "$item" ] && s=${item#*@}
        [ "$(left)" -lt 40 ] && { echo "times $item skipped: time"; continue; }
        withenv "$s" timeout 90 "$NCU" --clock-control none --cache-control none --metrics gpu__time_duration.sum \
            -k "regex:tess_gpu_mr" --print-units base --csv "$B" bench --backend cuda --pattern mr \
            --collision regularized --steps 3 --reps 1 $(rowargs "$r") >"/tmp/times.log" 2>&1
        echo "times $item exit $?"
        cp /tmp/times.log "$out/times-$r-${s//[^A-Za-z0-9]/_}.csv"
        # CSV: "ID","Process ID","Process Name","Host Name","Kernel Name",...,"Metric Value" last
        grep -E '^"[0-9]+"' /tmp/times.log | awk -F'","' -v tag="[$item]" '
            { k = $5; sub(/\(.*/, "", k); sub(/<.*/, "", k); t = $NF; gsub(/[",]/, "", t); t += 0
              n[k]++; v[k, n[k]] = t }
            END { for (k in n) { m = n[k]; for (i = 1; i <= m; i++) a[i] = v[k, i]
                    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
                    printf "%s %s launches %d median %.1f us min %.1f max %.1f\n", tag, k, m, a[int((m + 1) / 2)] / 1000,
                        a[1] / 1000, a[m] / 1000 } }' | tee -a "$out/times.txt"
    done
fi
[ "${MRS_TESTS_FIRST:-0}" = 1 ] || run_tests
step done
echo "== resources (MR block kernels)"
sed -E 's/void tess_gpu_mr_//; s/ 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads//' \
    "$out/resources.txt" |
    cut -c1-110 | head -60
echo "== tests"
cat "$out/tests.txt" 2>/dev/null
echo "== kernel times"
cat "$out/times.txt" 2>/dev/null
echo "== bench (row@setting ... lattice prec MLUPS, % of copy)"
awk '/copy bandwidth/ {print $1, "copy", $10} / (cavity3d|spheres|spheres_periodic) / {print $1, $3, $9, $14, $17, $19}' \
    "$out/bench.txt" 2>/dev/null
