#!/usr/bin/env bash
# One device call of the AA store and curved-link work (issues 11 and 12, branch gpu-aa; docs/performance-notes.md,
# "GPU AA" and "Bouzidi on the GPU"): builds this tree's fast configuration (tessera, with the resource report), the
# fast configuration of a second tree AAS_BEFORE (main's, for the figures before), and with AAS_REPRO=1 this tree's
# reproducible configuration (AAS_TESTS), in parallel; then the bench rows (AAS_ROWS: ROW@BINARY@SETTING, BINARY
# `before` or `after`, SETTING `-` or NAME=VALUE[,NAME=VALUE], an environment), Nsight Compute's memory counters of
# the tile kernel (AAS_NCU: ROW@BINARY@SETTING[@COUNT[@stalls|breakdown]], COUNT launches of tess_gpu_q_step from the
# third, default 1, so 2 takes an AA odd step and the even one after it; `stalls` adds a second pass for the warps'
# stall reasons per issue, `breakdown` one for the sub-units of the L2's and L1's throughput, `l1` one for L1's hit
# rate, the L2's requests and the fabric between the L2's partitions; AAS_NCU_KERNEL: another kernel regex, such as
# `^tess_gpu_q_(step|link_pass)$` for AA's link pre-pass beside the sweep; each skipped with under
# 60 s + AAS_NCU_RESERVE left) and the tests; prints the tile kernels' registers, the tests and the bench rows last.
# Rows: c27 (D3Q27 cavity3d 256^3, AB and AA, FP64 and FP32), c27aa (its AA only), c27aad (its AA FP64 only), c27ab
# (its AB only), c19 / c19aa / c19ab (the same for D3Q19), c19aas / c19aad (D3Q19 AA FP32 / FP64 only), s5aa (s5's AA only), s5
# (spheres 192^3 at porosity 0.5, AB and AA, both precisions), sbb / sbz (spheres 192^3 at porosity 0.3 and 0.5, AB
# FP64, bounce-back / bouzidi-quadratic), sbb3 / sbz3 (porosity 0.3 only), sbb4 / sbz4 (0.3, 0.5, 0.7, 0.9), sbbf /
# sbzf (0.3 and 0.7, FP32), c2d (D2Q9 cavity2d 4096^2, AB), c13 (D3Q13 MRT cavity3d 256^3, AB), c27r (c27
# regularized), c19x (D3Q19 cavity, FP32, MRT and regularized), sqa (spheres 192^3 at porosity 0.3 and 0.5, AA FP64
# and FP32, quadratic Bouzidi), sla (the same, linear Bouzidi), sba (the same, bounce-back), sqar (sqa's FP64 with the
# regularized and MRT collisions), sqa27 (D3Q27 spheres at 0.5, AA, LBGK and regularized, quadratic Bouzidi), sbzr /
# sbzl / sqb27 (AB: sbz with the regularized and MRT collisions; sbz FP64 and FP32 with linear Bouzidi; sqa27's rows).
# AAS_AFTER_DIR / AAS_BEFORE_DIR: folders, relative to the tree, holding a fast build's tessera and its shared
# libraries made elsewhere (the development machine), used instead of building that side (AAS_BEFORE_DIR may hold
# only the libraries that differ). AAS_CHECK: `tessera run --check cpu` rows (below). Outputs under $OUT or
# ./gpu-aa-speed-out; TESSERA_DEPS: a folder of .debs to unpack (ci/unpack-debs.sh).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deadline=${AAS_DEADLINE:-540}
. "$root/ci/device-bench-lib.sh" gpu-aa-speed
step build
rm -f /tmp/aas-*.status
fn="$(declare -f build); extra=(${extra[*]:-})"
pa=
[ -z "${AAS_AFTER_DIR:-}" ] && { setsid bash -c "$fn; build '$root' /tmp/aas-after OFF tessera" & pa=$!; }
pb=
if [ -n "${AAS_BEFORE:-}" ] && [ -z "${AAS_BEFORE_DIR:-}" ]; then
    setsid bash -c "$fn; build '$AAS_BEFORE' /tmp/aas-before OFF tessera" &
    pb=$!
fi
pr=
if [ "${AAS_REPRO:-0}" = 1 ]; then
    setsid nice -n 5 bash -c "$fn; build '$root' /tmp/aas-repro ON ${AAS_TESTS:-test_matrix_cuda}" &
    pr=$!
fi
ok_after=1 ok_before=0
[ -n "$pa" ] && { waitfor /tmp/aas-after $pa "${AAS_BUILD_CAP:-330}" || ok_after=0; }
[ -n "$pb" ] && waitfor /tmp/aas-before $pb "${AAS_BUILD_CAP:-330}" && ok_before=1
[ -n "${AAS_BEFORE_DIR:-}" ] && [ -f "$root/$AAS_BEFORE_DIR/libtessera_cuda.so" ] && ok_before=1
[ -n "${AAS_AFTER_DIR:-}" ] && ! [ -x "$root/$AAS_AFTER_DIR/tessera" ] && { echo "no $AAS_AFTER_DIR/tessera"; ok_after=0; }
step "fast builds done"
find /tmp/aas-after -name '*.ptxas' -exec cat {} + | awk -f "$root/ci/ptxas-report.awk" | sed -E 's/ sm_[0-9]+\t/\t/' | c++filt |
    sed -E 's/ptxas info +: //g; s/ +/ /g; s/\(float const\*[^\t]*\)|\(double const\*[^\t]*\)//' |
    grep -E 'tess_gpu_q_step' | sort -u >"$out/resources.txt"
rowargs() {
    case $1 in
    c27) echo "--case cavity3d --size 256 --set lattice.model=D3Q27 --pattern ab,aa --precision double,single" ;;
    c27aa) echo "--case cavity3d --size 256 --set lattice.model=D3Q27 --pattern aa --precision double,single" ;;
    c27aad) echo "--case cavity3d --size 256 --set lattice.model=D3Q27 --pattern aa --precision double" ;;
    c19) echo "--case cavity3d --size 256 --pattern ab,aa --precision double,single" ;;
    c19aa) echo "--case cavity3d --size 256 --pattern aa --precision double,single" ;;
    c19aas) echo "--case cavity3d --size 256 --pattern aa --precision single" ;;
    c19aad) echo "--case cavity3d --size 256 --pattern aa --precision double" ;;
    s5aa) echo "--case spheres --size 192 --porosity 0.5 --pattern aa --precision double,single" ;;
    c27ab) echo "--case cavity3d --size 256 --set lattice.model=D3Q27 --pattern ab --precision double,single" ;;
    c19ab) echo "--case cavity3d --size 256 --pattern ab --precision double,single" ;;
    s5) echo "--case spheres --size 192 --porosity 0.5 --pattern ab,aa --precision double,single" ;;
    sbb) echo "--case spheres --size 192 --porosity 0.3,0.5 --pattern ab --precision double" ;;
    sbz) echo "--case spheres --size 192 --porosity 0.3,0.5 --pattern ab --precision double" \
        "--set physics.wall=bouzidi-quadratic" ;;
    sbb4) echo "--case spheres --size 192 --porosity 0.3,0.5,0.7,0.9 --pattern ab --precision double" ;;
    sbz4) echo "--case spheres --size 192 --porosity 0.3,0.5,0.7,0.9 --pattern ab --precision double" \
        "--set physics.wall=bouzidi-quadratic" ;;
    c2d) echo "--case cavity2d --size 4096 --pattern ab --precision double,single" ;;
    c27r) echo "--case cavity3d --size 256 --set lattice.model=D3Q27 --collision regularized --pattern ab,aa" \
        "--precision double,single" ;;
    c19x) echo "--case cavity3d --size 256 --collision mrt,regularized --pattern ab,aa --precision single" ;;
    c13) echo "--case cavity3d --size 256 --set lattice.model=D3Q13 --collision mrt --pattern ab" \
        "--precision double,single" ;;
    sqa) echo "--case spheres --size 192 --porosity 0.3,0.5 --pattern aa --precision double,single" \
        "--set physics.wall=bouzidi-quadratic" ;;
    sla) echo "--case spheres --size 192 --porosity 0.3,0.5 --pattern aa --precision double,single" \
        "--set physics.wall=bouzidi-linear" ;;
    sba) echo "--case spheres --size 192 --porosity 0.3,0.5 --pattern aa --precision double,single" ;;
    sqar) echo "--case spheres --size 192 --porosity 0.3,0.5 --pattern aa --precision double --collision" \
        "regularized,mrt --set physics.wall=bouzidi-quadratic" ;;
    sqa27) echo "--case spheres --size 192 --porosity 0.5 --pattern aa --precision double,single --collision" \
        "lbgk,regularized --set lattice.model=D3Q27 --set physics.wall=bouzidi-quadratic" ;;
    sbbf) echo "--case spheres --size 192 --porosity 0.3,0.7 --pattern ab --precision single" ;;
    sbzf) echo "--case spheres --size 192 --porosity 0.3,0.7 --pattern ab --precision single" \
        "--set physics.wall=bouzidi-quadratic" ;;
    sbzr) echo "--case spheres --size 192 --porosity 0.3,0.5 --pattern ab --precision double --collision" \
        "regularized,mrt --set physics.wall=bouzidi-quadratic" ;;
    sbzl) echo "--case spheres --size 192 --porosity 0.3,0.5 --pattern ab --precision double,single" \
        "--set physics.wall=bouzidi-linear" ;;
    sqb27) echo "--case spheres --size 192 --porosity 0.5 --pattern ab --precision double,single --collision" \
        "lbgk,regularized --set lattice.model=D3Q27 --set physics.wall=bouzidi-quadratic" ;;
    sbb3) echo "--case spheres --size 192 --porosity 0.3 --pattern ab --precision double" ;;
    sbz3) echo "--case spheres --size 192 --porosity 0.3 --pattern ab --precision double" \
        "--set physics.wall=bouzidi-quadratic" ;;
    esac
}
# A prebuilt side's libraries come first on the library path (the build tree's run path names this machine's
# folders); a prebuilt `before` may hold only the libraries that differ, the rest coming from AAS_AFTER_DIR.
binary() {
    local d e
    if [ "$1" = before ]; then d=${AAS_BEFORE_DIR:-}; else d=${AAS_AFTER_DIR:-}; fi
    if [ -n "$d" ]; then
        e=$root/$d/tessera
        [ -x "$e" ] || e=$root/${AAS_AFTER_DIR:-}/tessera
        printf 'env LD_LIBRARY_PATH=%s:%s:%s %s' "$root/$d" "$root/${AAS_AFTER_DIR:-$d}" "${LD_LIBRARY_PATH:-}" "$e"
    elif [ "$1" = before ]; then echo /tmp/aas-before/core/cli/tessera; else echo /tmp/aas-after/core/cli/tessera; fi
}
step bench
for item in ${AAS_ROWS:-}; do
    IFS=@ read -r r b s <<<"$item"
    [ "$b" = before ] && [ "$ok_before" != 1 ] && continue
    [ "$b" = after ] && [ "$ok_after" != 1 ] && continue
    [ "$(left)" -lt 30 ] && { echo "bench $item skipped: time"; continue; }
    withenv "$s" timeout "${AAS_ROW_CAP:-60}" $(binary "$b") bench --backend cuda --steps "${AAS_STEPS:-20}" \
        --reps 3 $(rowargs "$r") >/tmp/bench.log 2>&1 || echo "bench $item exit $?"
    grep -iE "^copy" /tmp/bench.log | sed "s/^/[$item] /" >>"$out/bench.txt"
    grep -E "^(cavity|spheres)" /tmp/bench.log | sed "s/^/[$item] /" >>"$out/bench.txt"
done
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum
metrics+=,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sector_op_read_hit_rate.pct
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_write.sum
metrics+=,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.avg.pct_of_peak_sustained_elapsed
metrics+=,l1tex__throughput.avg.pct_of_peak_sustained_active,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
i=0
for item in ${AAS_NCU:-}; do
    IFS=@ read -r r b s c st <<<"$item"
    stm=
    [ "$st" = stalls ] && stm="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio"
    [ "$st" = breakdown ] && stm="breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,breakdown:l1tex__throughput.avg.pct_of_peak_sustained_active"
    [ "$st" = l1 ] && stm="l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_write.sum,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
    for m in "$metrics" ${stm:+"$stm"}; do
        i=$((i + 1))
        [ "$(left)" -lt $((60 + ${AAS_NCU_RESERVE:-0})) ] && { echo "ncu $item skipped: time"; continue; }
        step "ncu $item ($i)"
        withenv "$s" timeout 60 "$NCU" --clock-control none -k "regex:${AAS_NCU_KERNEL:-^tess_gpu_q_step\$}" \
            --launch-skip 2 --launch-count "${c:-1}" --metrics "$m" --print-units base $(binary "$b") bench --backend cuda \
            --steps 3 --reps 1 $(rowargs "$r") >"/tmp/ncu-$i.log" 2>&1
        echo "ncu $item exit $?"
        grep -E "==(PROF|ERROR|WARNING)==" "/tmp/ncu-$i.log" | head -3
        sed -n '/tess_gpu_q_/,$p' "/tmp/ncu-$i.log" | grep -E "tess_gpu_q_|__" | sed "s/^/[$item] /" >>"$out/ncu.txt"
    done
done
# AAS_CHECK: `tessera run --check cpu` of this tree's fast build on the 96^3 sphere bed at porosity 0.5, 100 steps
# (PATTERN@PRECISION@WALL each)
for c in ${AAS_CHECK:-}; do
    IFS=@ read -r pat prec wall <<<"$c"
    [ "$ok_after" = 1 ] && [ "$(left)" -ge 40 ] || { echo "check $c skipped"; continue; }
    step "check cpu $c"
    timeout 120 $(binary after) run "$root/cases/spheres.ini" --backend cuda --pattern "$pat" --precision "$prec" \
        --steps 100 --set domain.nx=96 --set domain.ny=96 --set domain.nz=96 --set physics.wall="$wall" \
        --out /tmp/aas-check --overwrite --quiet --check cpu >/tmp/aas-check.log 2>&1
    echo "check cpu $c: exit $? $(grep -iE 'check|diff' /tmp/aas-check.log | tail -1)" | tee -a "$out/tests.txt"
done
if [ -n "$pr" ]; then
    step "reproducible build"
    if waitfor /tmp/aas-repro $pr $((deadline - 40)); then
        step "bitwise tests (reproducible build)"
        for t in ${AAS_TESTS:-test_matrix_cuda}; do
            [ "$(left)" -lt 20 ] && { echo "test $t skipped: time"; continue; }
            f=$(find /tmp/aas-repro/tests -name "$t" -type f | head -1)
            timeout "$(($(left) - 10))" "$f" >"/tmp/$t.log" 2>&1
            rc=$?
            echo "$t: exit $rc, $(grep -cw ok "/tmp/$t.log") rows ok, $(grep -cw FAIL "/tmp/$t.log") FAIL;" \
                "last line: $(tail -1 "/tmp/$t.log")" | tee -a "$out/tests.txt"
            grep -w FAIL "/tmp/$t.log" | head -5
            cp "/tmp/$t.log" "$out/" 2>/dev/null
        done
    fi
fi
step done
echo "== resources (tile kernel: LBGK, FULL; R, lattice, collision, variant, links, pattern, cap)"
grep -E 'step<(double|float), (0|3), 0, 0,' "$out/resources.txt" | sed -E 's/void tess_gpu_q_step//' | cut -c1-140
echo "== tests"
cat "$out/tests.txt" 2>/dev/null
echo "== ncu"
cat "$out/ncu.txt" 2>/dev/null | cut -c1-140
echo "== bench (row@binary@setting ... case lattice pattern prec MLUPS, % of copy)"
awk '/copy bandwidth/ {print $1, "copy", $10} / (cavity3d|cavity2d|spheres) / {$1 = $1; print}' "$out/bench.txt" 2>/dev/null |
    cut -c1-160
