#!/usr/bin/env bash
# MPI checks of ci/test.sh (docs/mpi.md), about 5 s: the distributed runs' bitwise test is registered with ctest
# (it runs in the whole suite: tests/mpi/test_mpi.sh); `tessera validate`, which is not distributed, refuses under
# mpirun with 2 processes with exit status 2, one line from rank 0 and no output folder, rather than every rank
# running it; `tessera info` under mpirun -np 1 names the MPI library.
# Usage: ci/mpi.sh BUILD_DIR (a build configured with TESSERA_WITH_MPI=ON).
set -euo pipefail

build=${1:?usage: ci/mpi.sh BUILD_DIR}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tessera=$build/core/cli/tessera
# CI runs as root; the 2-core machines need --oversubscribe for 2 processes and more.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! grep -q '^TESSERA_WITH_MPI:BOOL=ON' "$build/CMakeCache.txt"; then
    echo "mpi: $build was configured without MPI (TESSERA_WITH_MPI off or no MPI found)" >&2
    exit 1
fi

# The distributed runs' bitwise test (tests/mpi/test_mpi.sh) runs in the whole suite as ctest's mpi.distributed;
# a build with MPI must have registered it (FindMPI found mpiexec), or CI would pass without it.
# (the listing goes to a variable first: grep -q would close the pipe early, and pipefail would fail the check)
listed=$(ctest --test-dir "$build" -N -L mpi)
if ! grep -q 'mpi\.distributed' <<<"$listed"; then
    echo "mpi: $build has no ctest mpi.distributed (tests/mpi/CMakeLists.txt: MPIEXEC_EXECUTABLE not found?)" >&2
    exit 1
fi
echo "mpi: ctest mpi.distributed is registered (run with the whole suite)"

# A command that is not distributed (validate) refuses: exit status 2, one line from rank 0, nothing written.
set +e
timeout 120 mpirun --oversubscribe -np 2 "$tessera" validate --quick --quiet --out "$work/out" \
    >"$work/stdout" 2>"$work/stderr"
rc=$?
set -e
if [ "$rc" -ne 2 ] || [ "$(grep -c 'this command does not run distributed' "$work/stderr")" -ne 1 ] ||
    [ -e "$work/out" ] || [ -s "$work/stdout" ]; then
    echo "mpi: mpirun -np 2 tessera validate: expected exit status 2, one refusal line, no output; got $rc:" >&2
    cat "$work/stdout" "$work/stderr" >&2
    exit 1
fi
echo "mpi: mpirun -np 2 tessera validate refused: $(grep 'distributed' "$work/stderr")"

timeout 60 mpirun --oversubscribe -np 1 "$tessera" info >"$work/info"
if ! grep -q '^MPI: .*; GPU-aware: .*; 1 process$' "$work/info"; then
    echo "mpi: mpirun -np 1 tessera info has no MPI line:" >&2
    cat "$work/info" >&2
    exit 1
fi
echo "mpi: $(grep '^MPI: ' "$work/info")"
