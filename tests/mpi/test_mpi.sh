#!/usr/bin/env bash
# Distributed runs against the single-process run, bit for bit (docs/mpi.md): tests/mpi/sparse_pipe.ini (curved
# pipe wall and sphere with Bouzidi links, a named body, an inlet and an outlet) under mpirun -np 1, 2, 3 and 4
# (oversubscribed) for each pattern (ab, aa, mr; ab also with finite-difference inlet and outlet at 3 ranks), the
# final populations (a checkpoint) and the written fields byte for byte, and the monitor (forces included) but its
# two timing columns; a checkpoint written at 4 ranks equal to the single-process one and read at 2 ranks to the
# same final fields; --check (a second instance) refused with one line and exit status 2. About 20 s on 2 cores.
# Usage: tests/mpi/test_mpi.sh TESSERA MPIRUN
set -euo pipefail
tessera=${1:?usage: test_mpi.sh TESSERA MPIRUN}
mpirun=${2:?usage: test_mpi.sh TESSERA MPIRUN}
case_file=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/sparse_pipe.ini
# CI runs as root; 3 and 4 processes on 2 cores need --oversubscribe; --bind-to none keeps one thread per rank
# from being pinned to the same core as another rank.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
mpi() {
    local n=$1
    shift
    timeout 120 "$mpirun" --oversubscribe --bind-to none -np "$n" "$tessera" "$@"
}
REF_NAME="single-process run"
# shellcheck source=tests/mpi/mpi_compare.sh
source "$(dirname "${BASH_SOURCE[0]}")/mpi_compare.sh"

for variant in ab aa mr ab-fd; do
    pattern=${variant%%-*}
    extra=()
    [ "$variant" = ab-fd ] && extra=(--set inlet.in.method=fd --set outlet.out.method=fd)
    [ "$variant" = mr ] && extra=(--set physics.collision=regularized) # MR runs the regularized collision only
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

# Restart across rank counts: a checkpoint at step 20 written by 4 ranks, read by 2, to the end of the run.
"$tessera" run "$case_file" --threads 1 --quiet --steps 20 --checkpoint-every 20 --out "$work/ck1" >/dev/null
mpi 4 run "$case_file" --threads 1 --quiet --steps 20 --checkpoint-every 20 --out "$work/ck4" >/dev/null
mpi 2 run "$case_file" --threads 1 --quiet --restart "$work/ck4/restart.tsr" --out "$work/rs2" >/dev/null
if ! cmp -s "$work/ck1/restart.tsr" "$work/ck4/restart.tsr"; then
    echo "FAIL restart: the checkpoint written by 4 ranks differs from the single-process one"
    fails=$((fails + 1))
elif ! cmp -s "$work/ab-ref/fields_000040.vti" "$work/rs2/fields_000040.vti"; then
    echo "FAIL restart: 4-rank checkpoint read by 2 ranks does not end as the uninterrupted run"
    fails=$((fails + 1))
else
    echo "ok   restart: checkpoint of 4 ranks equals the single process's; read by 2 ranks, the run ends bitwise"
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
