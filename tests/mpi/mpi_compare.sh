# Sourced by tests/mpi/test_mpi.sh and test_mpi_gpu.sh: the launcher and the comparison of a distributed run's
# final state and monitor with a reference run's. Needs $mpirun, $tessera, and MPI_TIMEOUT (seconds per run).
mpi() { # N ARGS...: tessera under mpirun with N processes (oversubscribed: CI has 2 cores)
    local n=$1
    shift
    timeout "${MPI_TIMEOUT:-120}" "$mpirun" --oversubscribe --bind-to none -np "$n" "$tessera" "$@"
}
# The monitor without wall_s and mlups (columns 2 and 3): what must be bitwise.
strip() { cut -d, -f1,4- "$1"; }
same_state_and_monitor() { # REF DIR LABEL REF_NAME: the final populations (restart.tsr) and the monitor
    local ref=$1 dir=$2 label=$3 name=$4
    if ! cmp -s "$ref/restart.tsr" "$dir/restart.tsr"; then
        echo "FAIL $label: the final state (restart.tsr, every population) differs from the $name"
        return 1
    fi
    if ! cmp -s <(strip "$ref/monitor.csv") <(strip "$dir/monitor.csv"); then
        echo "FAIL $label: monitor.csv (forces, max_u, mean_rho) differs from the $name"
        diff <(strip "$ref/monitor.csv") <(strip "$dir/monitor.csv") | head -4
        return 1
    fi
}
