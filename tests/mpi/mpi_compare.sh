# Sourced by tests/mpi/test_mpi.sh and test_mpi_gpu.sh: a distributed run's outputs against a reference run's,
# byte for byte. The caller sets `fails` (a count) and REF_NAME (what the reference is, for the messages).
strip() { cut -d, -f1,4- "$1"; } # the monitor without wall_s and mlups (columns 2 and 3): what must be bitwise
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
    if ! cmp -s "$ref/restart.tsr" "$dir/restart.tsr"; then
        echo "FAIL $label: the final state (restart.tsr, every population) differs from the $REF_NAME"
        fails=$((fails + 1))
        return
    fi
    if ! cmp -s <(strip "$ref/monitor.csv") <(strip "$dir/monitor.csv"); then
        echo "FAIL $label: monitor.csv (forces, max_u, mean_rho) differs from the $REF_NAME"
        diff <(strip "$ref/monitor.csv") <(strip "$dir/monitor.csv") | head -4
        fails=$((fails + 1))
        return
    fi
    echo "ok   $label: the final populations, $n field files and the monitor bitwise equal"
}
