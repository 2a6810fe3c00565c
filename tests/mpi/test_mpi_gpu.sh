#!/usr/bin/env bash
# GPU ranks against the single-rank GPU run, bit for bit (docs/mpi.md, "GPU ranks"): tests/mpi/sparse_pipe.ini
# (curved pipe wall and sphere with Bouzidi links, a named body, extrapolated inlet and outlet) with --backend cuda
# under mpirun -np 2 and 3, every rank on the one GPU (local rank modulo the devices), for each pattern (ab, aa,
# mr; ab and aa also with finite-difference inlet and outlet, aa in single precision; ab staged through pageable
# instead of page-locked buffers, TESSERA_MPI_PAGEABLE_STAGING=1; mr and ab with the staging copies on a stream of
# their own beside the interior, TESSERA_MPI_ASYNC_STAGING=1): the final populations
# (a checkpoint), the written fields byte for byte and the monitor (forces included) but its two timing columns,
# and summary.json's mpi block with its transport. MR steps in parts on the GPU as well (the boundary tiles into the
# next copy of the moments, sent from there, the interior meanwhile): every block shape (the default 2x2x1 tiles in
# double precision, one tile a block, 2x2x2 tiles in single precision, the column sweep over 16 tile layers) at 2
# and 3 ranks, fd openings at 2, and the edges of the partition of tests/mpi/test_mpi.sh: cases/channel.ini cut to
# 16x16x8 at 2 ranks (every tile a boundary tile, an empty interior) and tests/mpi/two_pipes.ini at 2 ranks (no
# neighbour, nothing exchanged) and 3 (one pipe cut). The build must be reproducible for the GPU's bits to be those
# of every rank count (TESSERA_REPRODUCIBLE=ON; the test still runs in a fast build). Exit status 77 (skipped)
# without mpirun or without a CUDA device.
# Usage: tests/mpi/test_mpi_gpu.sh TESSERA [MPIRUN]
set -euo pipefail
tessera=${1:?usage: test_mpi_gpu.sh TESSERA [MPIRUN]}
mpirun=${2:-$(command -v mpirun || true)}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
case_file=$here/sparse_pipe.ini
if [ -z "$mpirun" ] || ! [ -x "$mpirun" ]; then
    echo "SKIP: no mpirun"
    exit 77
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! "$tessera" run "$case_file" --backend cuda --steps 2 --quiet --out "$work/probe" >"$work/probe.out" 2>&1; then
    echo "SKIP: no CUDA device ($(head -1 "$work/probe.out"))"
    exit 77
fi
fails=0
MPI_TIMEOUT=180
. "$here/mpi_compare.sh" # mpi, strip, same_state_and_monitor, mr_edge
REF_NAME="single-rank GPU run"
same_as() { # REF DIR LABEL: every field file, the final state and the monitor of DIR equal REF's
    local ref=$1 dir=$2 label=$3 f n=0
    for f in "$ref"/fields_*.vti; do
        n=$((n + 1))
        if ! cmp -s "$f" "$dir/$(basename "$f")"; then
            echo "FAIL $label: $(basename "$f") differs from the $REF_NAME"
            fails=$((fails + 1))
            return
        fi
    done
    if ! same_state_and_monitor "$ref" "$dir" "$label" "$REF_NAME"; then
        fails=$((fails + 1))
        return
    fi
    echo "ok   $label: the final populations, $n field files and the monitor bitwise equal"
}

for variant in ab aa mr ab-fd aa-fd aa-single ab-pageable mr-tile mr-single mr-column mr-fd mr-async ab-async; do
    pattern=${variant%%-*}
    # Single .vti files from rank 0 under mpirun too (not pieces), to compare byte for byte; the pieces are cut from
    # rank 0's arrays whatever the backend (tests/mpi/test_mpi.sh checks them).
    extra=(--backend cuda --checkpoint-every 40 --set run.output_pieces=no)
    [ "$pattern" = mr ] && extra+=(--set physics.collision=regularized)
    case $variant in
    *-fd) extra+=(--set inlet.in.method=fd --set outlet.out.method=fd) ;;
    *-single) extra+=(--precision single) ;;          # mr: 2x2x2 tiles a block
    mr-tile) extra+=(--set run.mr_layer=64) ;;        # one tile a block
    mr-column) extra+=(--set run.mr_layer=4096) ;;    # the column sweep: 2 x 2 x 16 tiles a block
    esac
    # The transport summary.json must name: page-locked staging unless the library takes device pointers.
    transport='host staging (pinned)\|device buffers'
    envs=()
    if [ "$variant" = ab-pageable ]; then
        envs=(TESSERA_MPI_HOST_STAGING=1 TESSERA_MPI_PAGEABLE_STAGING=1) # the ranks inherit mpirun's environment
        transport='host staging'
    fi
    # the staging copies on the kernels' stream before the interior is launched (not on their own stream beside it)
    case $variant in *-async) envs=(TESSERA_MPI_ASYNC_STAGING=1) ;; esac
    "$tessera" run "$case_file" --pattern "$pattern" --quiet --out "$work/$variant-ref" "${extra[@]}" >/dev/null
    ranks="2"
    case $variant in ab | aa | mr | mr-tile | mr-single | mr-column) ranks="2 3" ;; esac
    for n in $ranks; do
        out=$work/$variant-$n
        if ! ( [ ${#envs[@]} -eq 0 ] || export "${envs[@]}"; mpi "$n" run "$case_file" --pattern "$pattern" --quiet --out "$out" "${extra[@]}" ) >"$out.log" 2>&1; then
            echo "FAIL $variant, $n ranks: the run failed:"
            tail -3 "$out.log"
            fails=$((fails + 1))
            continue
        fi
        same_as "$work/$variant-ref" "$out" "$variant, $n GPU ranks"
        if ! grep -q "\"mpi\": {\"ranks\": $n, \"imbalance\": [0-9.]*, \"transport\": \"\($transport\)\"" \
            "$out/summary.json"; then
            echo "FAIL $variant, $n ranks: summary.json has no mpi block naming the transport '$transport'"
            grep '"mpi"' "$out/summary.json" || true
            fails=$((fails + 1))
        fi
    done
done

# MR at the edges of the partition (as tests/mpi/test_mpi.sh on the CPU; mpi_compare.sh, mr_edge): every tile of
# each rank a boundary tile (channel-flat: the interior part empty), a rank without neighbours (no boundary tile,
# nothing exchanged) and one pipe cut in two (two_pipes).
for mrcase in channel-flat two_pipes; do
    mr_edge "$mrcase"
    extra=(--backend cuda --pattern mr --quiet --checkpoint-every 40 --set run.output_pieces=no "${mr_extra[@]}")
    file=$mr_file ranks=$mr_ranks
    "$tessera" run "$file" --out "$work/mr-$mrcase-ref" "${extra[@]}" >/dev/null
    for n in $ranks; do
        out=$work/mr-$mrcase-$n
        if ! mpi "$n" run "$file" --out "$out" "${extra[@]}" >"$out.log" 2>&1; then
            echo "FAIL mr $mrcase, $n ranks: the run failed:"
            tail -3 "$out.log"
            fails=$((fails + 1))
            continue
        fi
        same_as "$work/mr-$mrcase-ref" "$out" "mr $mrcase, $n GPU ranks"
    done
done
echo "transport: $(grep -o '"transport": "[^"]*"' "$work/ab-2/summary.json" 2>/dev/null || echo none)"
[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
