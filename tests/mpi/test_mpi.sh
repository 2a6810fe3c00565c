#!/usr/bin/env bash
# Distributed runs against the single-process run, bit for bit (docs/mpi.md): tests/mpi/sparse_pipe.ini (curved
# pipe wall and sphere with Bouzidi links, a named body, an inlet and an outlet) under mpirun -np 1, 2, 3 and 4
# (oversubscribed) for each pattern (ab, aa, mr, all with time averages; aa and mr with wall shear stress, whose
# sums the averages keep too; ab also with finite-difference inlet and outlet, wall shear stress and averages at 3
# ranks), the final populations (a checkpoint) and average.restart, and the written fields and averages byte for byte, the probe
# and line files (ab: a probe and a line across every rank) byte for byte, and the monitor (forces included) but
# its two timing columns; a checkpoint written at 4 ranks equal to the single-process
# one and read at 2 and 1 ranks, and the single process's read at 3, to the same final state and averages (average.restart
# written at 4 ranks equal to the single process's too); a damaged average.restart (a flipped byte, a cut file)
# refused by 2 ranks with one line and exit status 2; --check (a second instance) refused with one line and exit
# status 2; mr also where a rank's tiles are all boundary tiles (a flat periodic channel) and where a rank has no
# neighbour (two separate pipes). About 25 s on 2 cores.
# Over several ranks the fields come in pieces (fields_<step>.pvti): VTK's parallel reader (ParaView's) must
# assemble each into the single-process file's values byte for byte, and every piece equal it over its extent
# (compare_pieces.py): every rank makes its own piece from its own tiles; with run.output_pieces = no, the single files byte for byte. Binding: at most as many ranks
# as cores bind to disjoint blocks of cores that together are all the cores; more ranks bind nothing and say so.
# Usage: tests/mpi/test_mpi.sh TESSERA MPIRUN [PYTHON with python3-vtk9]
set -euo pipefail
tessera=${1:?usage: test_mpi.sh TESSERA MPIRUN [PYTHON]}
mpirun=${2:?usage: test_mpi.sh TESSERA MPIRUN [PYTHON]}
python=${3:-/usr/bin/python3}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The pieces are read back with VTK, as the command-line tests read the single files (SKIPPED without it).
if ! "$python" -c 'import vtk, numpy' 2>/dev/null; then
    echo "SKIPPED: $python has no vtk and numpy (python3-vtk9, python3-numpy: ci/install-deps.sh)"
    exit 77
fi
case_file=$here/sparse_pipe.ini
# CI runs as root; 3 and 4 processes on 2 cores need --oversubscribe; --bind-to none keeps one thread per rank
# from being pinned to the same core as another rank.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
MPI_TIMEOUT=120
. "$here/mpi_compare.sh" # mpi, strip, same_state_and_monitor, mr_edge
# Every field output of DIR against REF's single files: the same files, or (pieces) the same values.
same_fields() { # REF DIR LABEL
    local ref=$1 dir=$2 label=$3 f
    if compgen -G "$dir/fields_*.pvti" >/dev/null; then
        if ! "$python" "$here/compare_pieces.py" "$ref" "$dir" >"$work/cmp.out" 2>&1; then
            echo "FAIL $label: the pieces differ from the single-process fields:"
            head -5 "$work/cmp.out"
            return 1
        fi
        return 0
    fi
    for f in $(find "$ref" -maxdepth 1 \( -name 'fields_*.vti' -o -name 'wss_*.vti' -o -name 'average_*.vti' \)); do
        if ! cmp -s "$f" "$dir/$(basename "$f")"; then
            echo "FAIL $label: $(basename "$f") differs from the single-process run"
            return 1
        fi
    done
}
same_as() { # REF DIR LABEL: every field file and the monitor of DIR equal REF's
    local ref=$1 dir=$2 label=$3 n
    n=$(find "$ref" -maxdepth 1 \( -name 'fields_*.vti' -o -name 'wss_*.vti' -o -name 'average_*.vti' \) | wc -l)
    if ! same_fields "$ref" "$dir" "$label"; then
        fails=$((fails + 1))
        return
    fi
    if ! same_state_and_monitor "$ref" "$dir" "$label" "single-process run"; then
        fails=$((fails + 1))
        return
    fi
    # The time averages' sums at the final checkpoint: every rank's blocks at the single process's offsets.
    if [ -e "$ref/average.restart" ] && ! cmp -s "$ref/average.restart" "$dir/average.restart"; then
        echo "FAIL $label: average.restart differs from the single-process run"
        fails=$((fails + 1))
        return
    fi
    local f probes=""
    for f in $(find "$ref" -maxdepth 1 \( -name 'probe_*.csv' -o -name 'line_*.csv' \)); do
        if ! cmp -s "$f" "$dir/$(basename "$f")"; then
            echo "FAIL $label: $(basename "$f") differs from the single-process run"
            fails=$((fails + 1))
            return
        fi
        probes="$probes, $(basename "$f")"
    done
    local how="field files"
    compgen -G "$dir/fields_*.pvti" >/dev/null && how="fields (in pieces: $(tail -1 "$work/cmp.out"))"
    local sums=""
    [ -e "$ref/average.restart" ] && sums=", average.restart"
    echo "ok   $label: the final populations$sums, $n $how and the monitor$probes bitwise equal"
}

avg=(--set average.start=10 --set average.every=10)
for variant in ab aa mr ab-fd; do
    pattern=${variant%%-*}
    extra=()
    # ab-fd also writes wall shear stress and averages, which come in pieces too
    [ "$variant" = ab-fd ] && extra=(--set inlet.in.method=fd --set outlet.out.method=fd --set wss.enabled=yes
        --set average.start=10 --set average.every=5)
    [ "$variant" = mr ] && extra=(--set physics.collision=regularized) # MR runs the regularized collision only
    # aa and mr also write wall shear stress: each rank the stress of its own WSS nodes and their inward neighbours
    [ "$variant" = aa ] || [ "$variant" = mr ] && extra+=(--set wss.enabled=yes)
    # ab samples a probe and a line through every rank's tiles: each corner's values come from its owner rank
    [ "$variant" = ab ] && extra=(--set probe.c.point=20.3,11.7,12.2 --set probe.c.every=10
        --set line.ax.start=0,12,12 --set line.ax.end=39,12.5,11.5 --set line.ax.points=41 --set line.ax.every=20)
    # every pattern keeps time averages (each rank its own tiles' sums; even steps for aa)
    [ "$variant" = ab-fd ] || extra+=("${avg[@]}")
    ranks="1 2 3 4"
    [ "$variant" = ab-fd ] && ranks="3"
    extra+=(--checkpoint-every 40) # the final state's populations, to compare too
    "$tessera" run "$case_file" --pattern "$pattern" --threads 1 --quiet --out "$work/$variant-ref" "${extra[@]}" >/dev/null
    for n in $ranks; do
        out=$work/$variant-$n
        mpi "$n" run "$case_file" --pattern "$pattern" --threads 1 --quiet --out "$out" "${extra[@]}" >/dev/null
        same_as "$work/$variant-ref" "$out" "$variant, $n rank(s)"
        if [ "$n" -gt 1 ] && ! grep -q "\"mpi\": {\"ranks\": $n, \"imbalance\": " "$out/summary.json"; then
            echo "FAIL $variant, $n ranks: summary.json has no mpi block for $n ranks"
            fails=$((fails + 1))
        fi
    done
done

# MR's overlap at the edges of the partition (the boundary tiles stepped first, their new moments kept aside
# until the interior has read the old ones; mpi_compare.sh, mr_edge): every tile a boundary tile (channel-flat), a
# rank without neighbours and one pipe cut (two_pipes). Each against its single-process run, bit for bit.
for mrcase in channel-flat two_pipes; do
    mr_edge "$mrcase"
    extra=(--pattern mr --threads 1 --quiet --checkpoint-every 40 "${mr_extra[@]}")
    file=$mr_file ranks=$mr_ranks
    "$tessera" run "$file" --out "$work/mr-$mrcase-ref" "${extra[@]}" >/dev/null
    for n in $ranks; do
        mpi "$n" run "$file" --out "$work/mr-$mrcase-$n" "${extra[@]}" >/dev/null
        same_as "$work/mr-$mrcase-ref" "$work/mr-$mrcase-$n" "mr $mrcase, $n ranks"
    done
done

# Restart across rank counts (every rank writes and reads its own tiles, MPI-IO): a checkpoint at step 20 written
# by 4 ranks, byte for byte the single process's, read by 2 and by 1 rank, and the single process's read by 3, each
# to the end of the run: the final state (every population) and fields bitwise the uninterrupted run's.
# The time averages go with it (average.restart, sums of steps 10 and 20): written by 4 ranks, byte for byte the
# single process's, and continued by 2, 1 and 3 ranks to the uninterrupted run's averages and sums at step 40.
"$tessera" run "$case_file" --threads 1 --quiet --steps 20 --checkpoint-every 20 --out "$work/ck1" "${avg[@]}" >/dev/null
mpi 4 run "$case_file" --threads 1 --quiet --steps 20 --checkpoint-every 20 --out "$work/ck4" "${avg[@]}" >/dev/null
mkdir -p "$work/ref40"
cp "$work/ab-ref/fields_000040.vti" "$work/ab-ref/average_000040.vti" "$work/ref40/"
if ! cmp -s "$work/ck1/restart.tsr" "$work/ck4/restart.tsr" || ! cmp -s "$work/ck1/average.restart" "$work/ck4/average.restart"; then
    echo "FAIL restart: the checkpoint (restart.tsr, average.restart) written by 4 ranks differs from the single-process one"
    fails=$((fails + 1))
else
    echo "ok   restart: the checkpoint and average.restart written by 4 ranks equal the single process's, byte for byte"
fi
for rs in 4:2 4:1 1:3; do
    from=${rs%%:*} n=${rs##*:}
    mpi "$n" run "$case_file" --threads 1 --quiet --restart "$work/ck$from/restart.tsr" --checkpoint-every 40 \
        --out "$work/rs$from-$n" "${avg[@]}" >/dev/null
    if ! cmp -s "$work/ab-ref/restart.tsr" "$work/rs$from-$n/restart.tsr" ||
        ! cmp -s "$work/ab-ref/average.restart" "$work/rs$from-$n/average.restart" ||
        ! same_fields "$work/ref40" "$work/rs$from-$n" "restart" >/dev/null; then
        echo "FAIL restart: the checkpoint of $from rank(s) read by $n does not end as the uninterrupted run"
        fails=$((fails + 1))
    else
        echo "ok   restart: the checkpoint of $from rank(s) read by $n: the final state, fields, averages and average.restart bitwise the uninterrupted run's"
    fi
done

# A damaged average.restart next to a sound restart.tsr, read by 2 ranks: one flipped sum byte (the CRC-32 that
# rank 0 combines from the ranks' per-block CRC-32s) and a file cut by 8 bytes (its size): the line and exit status 2.
for bad in crc:CRC-32 cut:truncated; do
    kind=${bad%%:*} want=${bad##*:}
    mkdir -p "$work/avg-$kind"
    cp "$work/ck4/restart.tsr" "$work/ck4/average.restart" "$work/avg-$kind/"
    if [ "$kind" = crc ]; then
        "$python" -c 'import sys; f = open(sys.argv[1], "r+b"); f.seek(3000); b = f.read(1); f.seek(3000); f.write(bytes([b[0] ^ 0x01]))' "$work/avg-$kind/average.restart"
    else
        truncate -s -8 "$work/avg-$kind/average.restart"
    fi
    set +e
    mpi 2 run "$case_file" --threads 1 --quiet --restart "$work/avg-$kind/restart.tsr" --out "$work/avg-$kind-out" "${avg[@]}" \
        >"$work/avg-$kind.out" 2>&1
    rc=$?
    set -e
    if [ "$rc" -ne 2 ] || [ "$(grep -c '^tessera: ' "$work/avg-$kind.out")" -ne 1 ] ||
        ! grep -q "^tessera: .*average.restart: corrupt time-average file: .*$want" "$work/avg-$kind.out"; then
        echo "FAIL a damaged average.restart ($kind) read by 2 ranks: expected exit status 2 and one line naming the $want; got $rc:"
        grep '^tessera' "$work/avg-$kind.out"
        fails=$((fails + 1))
    else
        echo "ok   a damaged average.restart ($kind) read by 2 ranks: $(grep -m1 '^tessera' "$work/avg-$kind.out")"
    fi
done

# A corrupt checkpoint (one population byte flipped) read by 2 ranks: the CRC-32 that rank 0 makes from the ranks'
# per-tile CRC-32s must refuse it with the single process's line and exit status 2.
cp "$work/ck4/restart.tsr" "$work/bad.tsr"
"$python" -c 'import sys; f = open(sys.argv[1], "r+b"); f.seek(5000); b = f.read(1); f.seek(5000); f.write(bytes([b[0] ^ 0xff]))' "$work/bad.tsr"
set +e
mpi 2 run "$case_file" --threads 1 --quiet --restart "$work/bad.tsr" --out "$work/rsbad" >"$work/rsbad.out" 2>&1
rc=$?
set -e
if [ "$rc" -ne 2 ] || ! grep -q "^tessera: .*bad.tsr: corrupt restart file: CRC-32 " "$work/rsbad.out"; then
    echo "FAIL a corrupt checkpoint read by 2 ranks: expected exit status 2 and the CRC line; got $rc:"
    grep '^tessera' "$work/rsbad.out"
    fails=$((fails + 1))
else
    echo "ok   a corrupt checkpoint read by 2 ranks: $(grep -m1 'corrupt' "$work/rsbad.out")"
fi

# Pieces in a folder that is continued or overwritten: a 4-rank run to step 40 with a checkpoint at 20, continued
# from that checkpoint by 2 ranks in the same folder, must leave step 20 and 40 in 2 pieces each (the 4-rank ones
# and their folders gone, docs/reliability.md); --overwrite by 1 process must leave no pieces at all.
mpi 4 run "$case_file" --threads 1 --quiet --steps 20 --checkpoint-every 20 --out "$work/cont" >/dev/null
cp "$work/cont/restart.tsr" "$work/r20.tsr"
mpi 4 run "$case_file" --threads 1 --quiet --checkpoint-every 20 --restart "$work/cont/restart.tsr" --out "$work/cont" \
    >/dev/null
cp "$work/r20.tsr" "$work/cont/restart.tsr"
mpi 2 run "$case_file" --threads 1 --quiet --restart "$work/cont/restart.tsr" --out "$work/cont" >/dev/null
p20=$(find "$work/cont/fields_000020" -type f | wc -l)
p40=$(find "$work/cont/fields_000040" -type f | wc -l)
"$tessera" run "$case_file" --threads 1 --quiet --out "$work/cont" --overwrite "${avg[@]}" >/dev/null
left=$(find "$work/cont" -mindepth 1 \( -name '*.pvti' -o -type d \) | wc -l)
if [ "$p20" -ne 2 ] || [ "$p40" -ne 2 ] || [ "$left" -ne 0 ] || ! same_fields "$work/ab-ref" "$work/cont" "overwrite"; then
    echo "FAIL continued and overwritten folder: $p20 and $p40 pieces at steps 20 and 40 (expected 2 and 2), $left"
    echo "     .pvti or piece folders after --overwrite (expected 0)"
    fails=$((fails + 1))
else
    echo "ok   continued by 2 ranks in a 4-rank folder: 2 pieces at steps 20 and 40; --overwrite by 1 process: no pieces left"
fi

# The single files on request: run.output_pieces = no writes rank 0's fields_<step>.vti and average_<step>.vti
# (the ranks' means gathered at the writing step, the WSS ones included: the aa run's), byte for byte.
mpi 2 run "$case_file" --pattern aa --threads 1 --quiet --out "$work/whole2" --set run.output_pieces=no \
    --set wss.enabled=yes "${avg[@]}" >/dev/null
if compgen -G "$work/whole2/*.pvti" >/dev/null || ! same_fields "$work/aa-ref" "$work/whole2" "output_pieces=no"; then
    echo "FAIL output_pieces = no at 2 ranks: expected the single files, byte for byte"
    fails=$((fails + 1))
else
    echo "ok   output_pieces = no at 2 ranks: the single fields_*.vti, wss_*.vti and average_*.vti, byte for byte"
fi

# A piece that cannot be written (rank 1's name taken by a folder): exit status 3, and no file of that output
# stays (the other ranks' pieces removed, no .pvti), the outputs before it whole.
mkdir -p "$work/bad/fields_000020/fields_000020_1.vti"
set +e
mpi 3 run "$case_file" --threads 1 --quiet --out "$work/bad" >"$work/bad.out" 2>&1
rc=$?
set -e
left=$(cd "$work/bad" && find fields_000020* -type f | wc -l)
if [ "$rc" -ne 3 ] || [ -e "$work/bad/fields_000020.pvti" ] || [ "$left" -ne 0 ] ||
    [ ! -e "$work/bad/fields_000000.pvti" ] || ! grep -q 'rank 1: .*fields_000020_1.vti: cannot rename' "$work/bad.out" ||
    [ "$(grep -c '^tessera: ' "$work/bad.out")" -ne 2 ]; then
    echo "FAIL a piece that cannot be written: expected exit status 3, rank 1's line and rank 0's, no file of step 20;"
    echo "got $rc, $left file(s) of step 20:"
    grep '^tessera: ' "$work/bad.out"
    fails=$((fails + 1))
else
    echo "ok   a piece that cannot be written: exit status 3, no file of that output left ($(grep 'rank 1' "$work/bad.out"))"
fi

# Binding (docs/mpi.md): the per-rank core blocks in summary.json of the 2- and 4-rank runs above.
for n in 2 4; do
    if ! "$python" - "$work/ab-$n/summary.json" <<'PY'
import json, os, re, sys
ranks = json.load(open(sys.argv[1]))["mpi"]["per_rank"]
lines = [r["binding"] for r in ranks]
m = [re.fullmatch(r"cores (\d+)-(\d+) of (\d+) \(PUs ([0-9,-]+)\), 1 thread", b) for b in lines]
over = [re.fullmatch(r"not bound: (\d+) ranks on (\d+) cores \(oversubscribed\)", b) for b in lines]
if all(over) and all(int(o.group(1)) == len(ranks) > int(o.group(2)) for o in over):
    print(f"ok   binding at {len(ranks)} ranks: not bound, said by every rank ({lines[0]})")
    sys.exit(0)
if not all(m):
    sys.exit(f"FAIL binding at {len(ranks)} ranks: {lines}")
cores = int(m[0].group(3))
blocks = sorted((int(x.group(1)), int(x.group(2))) for x in m)
def pus(text):
    out = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out |= set(range(int(lo), int(hi or lo) + 1))
    return out
sets = [pus(x.group(4)) for x in m]
disjoint = sum(len(p) for p in sets) == len(set().union(*sets))
cover = blocks[0][0] == 0 and blocks[-1][1] == cores - 1 and all(b[0] == a[1] + 1 for a, b in zip(blocks, blocks[1:]))
allowed = set().union(*sets) <= os.sched_getaffinity(0)
if len(ranks) > cores or not (disjoint and cover and allowed):
    sys.exit(f"FAIL binding at {len(ranks)} ranks on {cores} cores: {lines}")
print(f"ok   binding at {len(ranks)} ranks: disjoint core blocks covering the {cores} cores: {lines}")
PY
    then
        fails=$((fails + 1))
    fi
done

# Every rank makes its own field piece: rank 0 holds no dense output arrays. cavity3d at 64^3 (262,144 nodes), 2
# ranks, two field outputs: with rank 0 assembling the dense arrays (main before the change) its peak resident
# memory was 43.5 MB above rank 1's (140.3 against 96.8 MB: 9 doubles a node of dense arrays and 4 of per-tile-node
# fields); now 1.5 MB (107.9 against 106.4 MB: the geometry and the global tiling). With time averages on (a sample
# every step, two average outputs) rank 0 kept the dense sums and fields as well: 38.7 MB above rank 1 (144.0
# against 105.3 MB) before every rank kept its own tiles' sums. Allowed: 8 MB (the geometry and the tiling,
# about 2 MB, and the run-to-run scatter of the allocator's high-water mark).
mpi 2 run "$here/../../cases/cavity3d.ini" --steps 2 --set run.output_every=2 --set run.monitor_every=2 --threads 1 \
    --set average.start=0 --set average.every=1 --quiet --out "$work/mem" >/dev/null
if ! "$python" - "$work/mem/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
mb = [r["peak_resident_mb"] for r in d["mpi"]["per_rank"]]
ok = mb[0] <= max(mb[1:]) + 8.0 and "values_seconds" in d["field_output"] and d["field_output"]["pieces"] == 2
print(("ok  " if ok else "FAIL") + f" field and average pieces made by the ranks: peak resident MB per rank {mb} (rank 0 at most 8 MB above the others)")
sys.exit(0 if ok else 1)
PY
then
    fails=$((fails + 1))
fi

# What is not distributed: a second instance (--check) is refused with one line, exit status 2, nothing written.
set +e
mpi 2 run "$case_file" --check cpu:aa --quiet --out "$work/chk" >"$work/chk.out" 2>&1
rc=$?
set -e
if [ "$rc" -ne 2 ] || [ "$(grep -c '^tessera: .*--check does not run under mpirun' "$work/chk.out")" -ne 1 ] ||
    [ -e "$work/chk" ]; then
    echo "FAIL --check: expected exit status 2, one refusal line and no output folder; got $rc:"
    cat "$work/chk.out"
    fails=$((fails + 1))
else
    echo "ok   --check refused under mpirun -np 2: $(grep '^tessera: ' "$work/chk.out")"
fi
[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
