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
# MR at the edges of the partition (test_mpi.sh, test_mpi_gpu.sh): NAME sets mr_file, mr_ranks and mr_extra (the
# case's settings). channel-flat: cases/channel.ini cut to 16x16x8 (periodic in x and y) at 2 ranks, where each
# rank's two tile planes both touch the other rank (every tile a boundary tile, an empty interior); two_pipes:
# tests/mpi/two_pipes.ini (two pipes with curved walls, 16 tile layers of solid between them) at 2 ranks, where each
# rank holds one pipe and has no neighbour (no boundary tile, nothing exchanged), and at 3 (one pipe cut in two).
# Needs $here (tests/mpi).
mr_edge() {
    case $1 in
    channel-flat)
        mr_file=$here/../../cases/channel.ini mr_ranks="2"
        mr_extra=(--set domain.nz=8 --set physics.collision=regularized --set run.steps=40 --set run.output_every=20
            --set run.monitor_every=10) ;;
    two_pipes) mr_file=$here/two_pipes.ini mr_ranks="2 3" mr_extra=() ;;
    esac
}
