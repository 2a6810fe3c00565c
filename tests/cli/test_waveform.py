"""Time-dependent inlets and outlets through `tessera run` (docs/case-format.md, "Time-dependent inlets and
outlets"): every bad waveform file or key gives exit status 2 and one line naming the case line and key, the CSV
file and its line, and what was expected, with nothing written; and a run restarted half-way equals the
uninterrupted run bitwise (the waveform's time goes on from the restart's step: the two restart files at the
last step are the same bytes), and so does the case in physical units ([units]), the waveform's times in its time
unit; the same restart check for the Womersley inlet of cases/bent_tube_womersley.ini (the profile's phase goes on
from the restart's step), which also runs without a warning."""
import os
import sys
from tess_cli_test import check, check_bad_input, cleanup, finish, run, scratch, write

# A D3Q19 channel 16 x 8 x 4 (periodic z) with a nee velocity inlet and a nee pressure outlet.
CASE = """[case]
name = pulse
[domain]
nx = 16
ny = 8
nz = 4
periodic = z
[physics]
tau = 0.8
[inlet.in]
face = -x
velocity = 0.02 0 0
method = nee
waveform = %s
[outlet.out]
face = +x
density = 1
method = nee
[run]
steps = 40
monitor_every = 10
threads = 1
backend = cpu
"""
LINE = [i + 1 for i, l in enumerate(CASE.splitlines()) if l.startswith("waveform")][0]
GOOD = "time,value\n0,0\n10,1\n25,-0.5\n30,0\n"

T = []  # (description, csv file name, csv text or None, extra case text, expected substrings)
T.append(("missing file", "nothere.csv", None, "",
          ["case.ini:%d: key 'waveform' in [inlet.in]: cannot open the waveform file" % LINE, "nothere.csv"]))
T.append(("not a number", "bad.csv", "time,value\n0,1\n10,fast\n20,1\n", "",
          ["key 'waveform' in [inlet.in]", "bad.csv:3: expected two numbers 'time,value', got '10,fast'"]))
T.append(("three columns", "three.csv", "0,1,2\n", "", ["three.csv:1: expected two numbers 'time,value', got '0,1,2'"]))
T.append(("time not increasing", "back.csv", "# t v\n0 1\n10 2\n10 3\n20 1\n", "",
          ["back.csv:4: expected a time greater than the previous row's 10, got 10"]))
T.append(("one row", "one.csv", "t,v\n0,1\n", "", ["one.csv: expected at least two rows 'time,value' (one period), found 1"]))
T.append(("period not closed", "open.csv", "0,1\n10,2\n20,1.5\n\n", "",
          ["open.csv:3: expected the last row to close the period (value 1, the first row's, at time 20"]))
T.append(("infinite value", "inf.csv", "0,1\n10,inf\n20,1\n", "", ["inf.csv:2: expected finite numbers, got '10,inf'"]))
T.append(("too many rows", "long.csv", "".join("%d,0\n" % i for i in range(300)), "",
          ["long.csv:257: more than 256 rows (resample the waveform to at most 256)"]))
T.append(("fd method", "good.csv", GOOD, "fd",
          ["key 'waveform' in [inlet.in]: a waveform needs method = nee or zou-he (fd planes are steady)"]))

d = scratch()


def same_restart(f1, f2, what):
    """Checks that the restart files of the output folders f1 and f2 (under d) hold the same bytes."""
    try:
        a = open(os.path.join(d, f1, "restart.tsr"), "rb").read()
        b = open(os.path.join(d, f2, "restart.tsr"), "rb").read()
        check(a == b, "%s (%d and %d bytes)" % (what, len(a), len(b)))
    except OSError as ex:
        check(False, "restart files readable: %s" % ex)


for what, name, text, extra, expect in T:
    if text is not None:
        write(os.path.join(d, name), text)
    case = CASE % name
    if extra == "fd":
        case = case.replace("velocity = 0.02 0 0\nmethod = nee", "velocity = 0.02 0 0\nmethod = fd")
    write(os.path.join(d, "case.ini"), case)
    rc, out, err = run(["run", "case.ini", "--out", "out"], d)
    check_bad_input(what, rc, err, expect)
    check(not os.path.exists(os.path.join(d, "out")), "%s: nothing written" % what)
    if text is not None:
        os.remove(os.path.join(d, name))

# Restart: 40 steps at once against 20 steps, a restart file, and 20 more.
write(os.path.join(d, "good.csv"), GOOD)
write(os.path.join(d, "case.ini"), CASE % "good.csv")
rc1, _, e1 = run(["run", "case.ini", "--checkpoint-every", "40", "--out", "whole", "--quiet"], d)
rc2, _, e2 = run(["run", "case.ini", "--steps", "20", "--checkpoint-every", "20", "--out", "half", "--quiet"], d)
rc3, _, e3 = run(["run", "case.ini", "--restart", "half/restart.tsr", "--checkpoint-every", "20", "--out", "half",
                  "--quiet"], d)
check(rc1 == 0 and rc2 == 0 and rc3 == 0, "the three runs succeed (exit %d, %d, %d: %s%s%s)" % (rc1, rc2, rc3, e1, e2, e3))
same_restart("whole", "half", "restart at step 20 then 20 steps equals 40 steps bitwise")
# [units]: the same case in physical units whose conversion is exact in binary (dx = dt = 0.5, so speeds are
# unchanged, nu = 0.05 is the lattice 0.1, and the waveform's times in the case's time unit are half the steps)
# runs the same table and the same populations: the restart files after 40 steps are the same bytes.
SI = (CASE % "good_si.csv").replace("[physics]\ntau = 0.8\n", "[units]\ndx = 0.5\ndt = 0.5\nviscosity = 0.05\n"
                                     "density = 1\n")
write(os.path.join(d, "good_si.csv"), "time,value\n0,0\n5,1\n12.5,-0.5\n15,0\n")
write(os.path.join(d, "si.ini"), SI)
rc4, _, e4 = run(["run", "si.ini", "--checkpoint-every", "40", "--out", "si", "--quiet"], d)
check(rc4 == 0, "the [units] run succeeds (exit %d: %s)" % (rc4, e4))
same_restart("whole", "si", "[units] case with the waveform's times in its time unit equals the lattice case bitwise")
cases = sys.argv[2] if len(sys.argv) > 2 else None
if cases:
    bent = os.path.join(cases, "bent_tube_womersley.ini")
    args = ["run", bent, "--set", "run.output_every=0", "--set", "wss.enabled=no", "--quiet"]
    rc5, _, e5 = run(args + ["--steps", "40", "--checkpoint-every", "40", "--out", "bw_whole"], d)
    rc6, _, e6 = run(args + ["--steps", "20", "--checkpoint-every", "20", "--out", "bw_part"], d)
    rc7, _, e7 = run(args + ["--steps", "40", "--checkpoint-every", "40", "--out", "bw_part", "--restart",
                             os.path.join("bw_part", "restart.tsr")], d)
    check(rc5 == rc6 == rc7 == 0 and not (e5 + e6 + e7).strip(),
          "bent_tube_womersley.ini runs, restarts, without a warning (%d %d %d: %s)"
          % (rc5, rc6, rc7, (e5 + e6 + e7).strip()))
    same_restart("bw_whole", "bw_part", "Womersley inlet: restart at step 20 then 20 steps equals 40 steps bitwise")
cleanup(d)
finish()
