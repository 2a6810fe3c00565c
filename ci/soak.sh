#!/usr/bin/env bash
# Soak test (docs/reliability.md, "Soak test"): runs a sparse case (cases/spheres.ini, shrunk) with checkpoints,
# kills it at random moments (SIGKILL, and every third cycle SIGTERM), restarts it from its last checkpoint in the
# same folder, and after the last cycle lets it finish. The end state must equal an uninterrupted run byte for
# byte: the final restart file and every field file both runs wrote. No temporary file may remain.
#
# usage: ci/soak.sh [CYCLES] [--tessera PATH] [--backend cpu|cuda|hip] [--size N] [--steps N] [--every N]
#                   [--out DIR] [--seed N]
#   CYCLES    kill-and-restart cycles (default 3: under a minute on 2 busy CPU cores, what ci/test.sh runs)
#   --tessera the tessera binary (default build-ci/full/core/cli/tessera, else build/core/cli/tessera)
#   --backend backend of both runs (default cpu); on a GPU: --backend cuda --size 192 --steps 4000
#   --size    cube edge of the spheres case (default 32; sphere diameter size/5)
#   --steps   steps of a whole run (default 4800); --every: checkpoint and output interval (default 200)
#   --out     scratch folder (default a new folder under /tmp, removed on success); --seed: random seed
# Exits 0 when every comparison holds, 1 otherwise.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cycles=3
tessera=
backend=cpu
size=32
steps=4800
every=200
out=
seed=${SOAK_SEED:-$$}
while [ $# -gt 0 ]; do
    case $1 in
    --tessera) tessera=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --every) every=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    [0-9]*) cycles=$1; shift ;;
    *) echo "soak: unknown argument '$1' (see the comment at the top of ci/soak.sh)" >&2; exit 2 ;;
    esac
done
if [ -z "$tessera" ]; then
    for t in "$root/build-ci/full/core/cli/tessera" "$root/build/core/cli/tessera"; do
        [ -x "$t" ] && { tessera=$t; break; }
    done
fi
[ -x "$tessera" ] || { echo "soak: no tessera binary (give --tessera PATH)" >&2; exit 2; }
own_out=0
[ -n "$out" ] || { out=$(mktemp -d /tmp/tess_soak_XXXXXX); own_out=1; }
mkdir -p "$out"
RANDOM=$seed
start=$SECONDS

# The spheres case shrunk to size^3 (periodic in y and z, so size must be a multiple of 4).
args=("$root/cases/spheres.ini" --backend "$backend" --quiet --steps "$steps" --checkpoint-every "$every"
      --set "domain.nx=$size" --set "domain.ny=$size" --set "domain.nz=$size"
      --set "spheres.bed.diameter=$((size / 5))" --set "run.output_every=$every" --set "run.monitor_every=$every")

echo "soak: $tessera, backend $backend, spheres ${size}^3, $steps steps, checkpoints every $every, $cycles cycles, seed $seed"
t0=$(date +%s%N)
"$tessera" run "${args[@]}" --out "$out/ref" >"$out/ref.log" 2>&1 || { echo "soak: the reference run failed"; cat "$out/ref.log"; exit 1; }
ref_ms=$((($(date +%s%N) - t0) / 1000000))
echo "soak: uninterrupted reference run: ${ref_ms} ms"

kills=0
fresh=1
for ((c = 1; c <= cycles; c++)); do
    # From the last checkpoint; from scratch over the old fields when there is none yet or the run had finished
    # (so that every cycle has steps left to interrupt).
    from=(--overwrite)
    [ $fresh = 0 ] && [ -f "$out/soak/restart.tsr" ] && from=(--restart "$out/soak/restart.tsr")
    fresh=0
    "$tessera" run "${args[@]}" --out "$out/soak" "${from[@]}" >"$out/cycle$c.log" 2>&1 &
    pid=$!
    # A random moment within the first quarter of the reference run's length, past the first 0.3 s (the
    # set-up), so that a run restarted late still has steps left then. In milliseconds: on an idle machine the
    # 600 steps this once ran took 0.5 s, and a whole-second clock put the moments at the run's end.
    ms=$((300 + RANDOM % (ref_ms / 4 + 1)))
    sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
    sig=KILL
    [ $((c % 3)) -eq 0 ] && sig=TERM
    begun=$(grep -o 'steps [0-9]*\.\.' "$out/cycle$c.log" | head -1)
    if kill -s "$sig" "$pid" 2>/dev/null; then
        wait "$pid" 2>/dev/null
        rc=$?
        # kill succeeds on a run that has ended but was not yet waited for: status 0 and the run's last line
        # mean it finished before the signal, as below
        if [ $rc -eq 0 ] && grep -q '^tessera run: done:' "$out/cycle$c.log"; then
            echo "soak: cycle $c: the run finished (status 0) before SIG$sig at $ms ms; the next cycle starts afresh"
            fresh=1
            continue
        fi
        kills=$((kills + 1))
        echo "soak: cycle $c: ${begun:-steps ?..} SIG$sig after $ms ms, exit status $rc"
        if [ "$sig" = TERM ] && [ $rc -ne 143 ]; then
            echo "soak: FAIL: SIGTERM must end the run with status 143"; cat "$out/cycle$c.log"; exit 1
        fi
    else
        wait "$pid"
        echo "soak: cycle $c: the run finished (status $?) before SIG$sig at $ms ms; the next cycle starts afresh"
        fresh=1
    fi
done

if [ $fresh = 1 ] && [ "$cycles" -gt 0 ]; then
    echo "soak: the last cycle's run completed: its end state is compared"
else
    from=(--overwrite)
    [ -f "$out/soak/restart.tsr" ] && from=(--restart "$out/soak/restart.tsr")
    "$tessera" run "${args[@]}" --out "$out/soak" "${from[@]}" >"$out/final.log" 2>&1 || {
        echo "soak: FAIL: the last run did not finish"; cat "$out/final.log"; exit 1; }
    echo "soak: last run: $(grep -o 'steps [0-9]*\.\.[0-9]*' "$out/final.log" | head -1)"
fi

status=0
# A soak in which no signal reached a running run tested nothing.
if [ "$cycles" -gt 0 ] && [ $kills -eq 0 ]; then
    echo "FAIL  no signal reached a running run in $cycles cycles (runs of ${ref_ms} ms: give more --steps)"; status=1
fi
if cmp -s "$out/ref/restart.tsr" "$out/soak/restart.tsr"; then
    echo "ok    final restart file (step $steps) identical to the uninterrupted run's"
else
    echo "FAIL  final restart file differs from the uninterrupted run's"; status=1
fi
same=0
for f in "$out"/soak/fields_*.vti; do
    g=$out/ref/$(basename "$f")
    [ -f "$g" ] || continue # a restart from a SIGTERM checkpoint writes fields at its own step
    if cmp -s "$f" "$g"; then same=$((same + 1)); else echo "FAIL  $(basename "$f") differs"; status=1; fi
done
final=$(printf 'fields_%06d.vti' "$steps")
[ -f "$out/soak/$final" ] || { echo "FAIL  $final missing"; status=1; }
echo "ok    $same field files identical to the uninterrupted run's (byte for byte)"
tmp=$(find "$out/soak" -name '*.tmp' | wc -l)
if [ "$tmp" -eq 0 ]; then echo "ok    no temporary file left"; else echo "FAIL  $tmp temporary files left"; status=1; fi
echo "soak: $kills signals delivered to running runs in $cycles cycles, $((SECONDS - start)) s, status $status"
[ $status -eq 0 ] && [ $own_out = 1 ] && rm -rf "$out"
exit $status
