"""Reliability of `tessera run` (docs/reliability.md): SIGINT and SIGTERM end a run with status 130 / 143, a
checkpoint that restarts bitwise, summary.json with "interrupted": true and no temporary file, a second signal
ends it at once without temporaries; the divergence test between monitor rows (speed bound, NaN) with the step
and node; bad [init] files are bad input (status 2); output folders with another run's fields are refused unless
--overwrite or --restart from there, and a run that fails at step 0 leaves no folder behind."""
import json
import os
import signal
import subprocess
import time
from tess_cli_test import SMALL_CASE, TESSERA, check, cleanup, finish, run, scratch, write

SANITIZED = os.environ.get("TESSERA_SANITIZED", "0") in ("1", "ON", "TRUE", "true")
d = scratch()
write(os.path.join(d, "small.ini"), SMALL_CASE)
# 64^3: its restart file (about 40 MB) takes long enough to write that a second signal can land during it; 32^3
# under the sanitizers, whose -O0 build steps 100 times slower.
NB = 32 if SANITIZED else 64
BIG_CASE = SMALL_CASE.replace("nx = 16", "nx = %d" % NB).replace("ny = 16", "ny = %d" % NB) \
    .replace("nz = 16", "nz = %d" % NB).replace("min = 0 0 15", "min = 0 0 %d" % (NB - 1)) \
    .replace("max = 15 15 15", "max = %d %d %d" % (NB - 1, NB - 1, NB - 1)).replace("name = small", "name = big")
write(os.path.join(d, "big.ini"), BIG_CASE)
LONG = ["--steps", "100000000", "--set", "run.output_every=0", "--set", "run.monitor_every=0", "--checkpoint-every",
        "100000000", "--quiet"]


def start(case, out, extra=()):
    e = dict(os.environ)
    e["OMP_WAIT_POLICY"] = "passive"
    p = subprocess.Popen([TESSERA, "run", case, "--out", out] + LONG + list(extra), cwd=d, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=e)
    # The step-0 output is the sign that the run is stepping.
    t0 = time.time()
    while not os.path.exists(os.path.join(d, out, "fields_000000.vti")) and time.time() - t0 < 120 and p.poll() is None:
        time.sleep(0.02)
    return p


def temporaries(folder):
    return [f for f in os.listdir(os.path.join(d, folder)) if f.endswith(".tmp")]


# --- first signal: checkpoint, summary, status 128 + signal, a checkpoint that restarts bitwise --------------
for sig, code, name in [(signal.SIGINT, 130, "SIGINT"), (signal.SIGTERM, 143, "SIGTERM")]:
    out = "S" + name
    p = start("small.ini", out)
    time.sleep(0.5)
    p.send_signal(sig)
    o, e = p.communicate(timeout=120)
    check(p.returncode == code, "%s: exit status %d (expected %d): %s" % (name, p.returncode, code, e.strip()))
    check(e.count("\n") == 1 and ("%s: stopped at step" % name) in e, "%s: one line on stderr (%s)" % (name, e.strip()))
    s = json.load(open(os.path.join(d, out, "summary.json")))
    last = s.get("last_step", -1)
    check(s.get("interrupted") is True and s.get("signal") == name and last > 0 and s["steps"] == last,
          "%s: summary.json interrupted true, signal, last_step %d > 0 = steps" % (name, last))
    left = sorted(os.listdir(os.path.join(d, out)))
    check(left == ["fields.pvd", "fields_000000.vti", "monitor.csv", "restart.tsr", "summary.json"],
          "%s: the folder holds the step-0 outputs, the checkpoint and the summary, no temporary: %s" % (name, left))
    # The checkpoint is at last_step: restarting from it for 10 more steps equals an uninterrupted run bitwise.
    rc1, o1, e1 = run(["run", "small.ini", "--out", out + "r", "--restart", out + "/restart.tsr", "--steps",
                       str(last + 10), "--set", "run.output_every=0", "--quiet"], d)
    rc2, _, e2 = run(["run", "small.ini", "--out", out + "u", "--steps", str(last + 10), "--set", "run.output_every=0",
                      "--quiet"], d)
    f = "fields_%06d.vti" % (last + 10)
    same = rc1 == rc2 == 0 and open(os.path.join(d, out + "r", f), "rb").read() == open(os.path.join(d, out + "u", f), "rb").read()
    check(same and ("steps %d..%d" % (last, last + 10)) in o1,
          "%s: the checkpoint restarts at step %d and step %d equals the uninterrupted run bitwise %s" %
          (name, last, last + 10, (e1 + e2).strip()))

# A clean SIGINT of the big case gives the size of a whole restart file of that case.
p = start("big.ini", "B0")
time.sleep(0.3)
p.send_signal(signal.SIGINT)
p.communicate(timeout=300)
whole = os.path.getsize(os.path.join(d, "B0", "restart.tsr")) if p.returncode == 130 else -1
check(p.returncode == 130 and whole > NB ** 3 * 19 * 8, "%d^3: SIGINT writes a %d-byte checkpoint" % (NB, whole))

# --- second signal: ends at once, no temporary file, no partial checkpoint ---------------------------------
for i, delay in enumerate([0.0, 0.05, 0.15, 0.3, 0.6]):
    out = "D%d" % i
    p = start("big.ini", out)
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    time.sleep(delay)
    p.send_signal(signal.SIGTERM)
    o, e = p.communicate(timeout=300)
    second = "second signal" in e
    tmp = temporaries(out)
    ck = os.path.join(d, out, "restart.tsr")
    size = os.path.getsize(ck) if os.path.exists(ck) else None
    check(p.returncode in (130, 143) and not tmp and size in (None, whole) and (second or delay > 0),
          "SIGINT then SIGTERM %.2f s later: status %d, %s, no temporary (%s), checkpoint %s" %
          (delay, p.returncode, "stopped by the second signal" if second else "finished before the second signal",
           tmp, "absent" if size is None else "whole" if size == whole else "PARTIAL (%d bytes)" % size))

# --- divergence ------------------------------------------------------------------------------------------
# A fully periodic box under a uniform body force F accelerates uniformly and stays at density 1, so only the
# speed bound can stop it. The stored state after t steps carries t impulses F; the output velocity removes half
# of one (Guo), so |u| = F (t - 1/2) exactly. F = 1.1e-3: |u| = 0.54945 > 0.5 first at the check of step 500
# (check_every 100); Mach 0.3 (|u| 0.173) first passed at the check of step 200 (|u| 0.21945).
FAST = """[case]
name = fast
[domain]
nx = 8
ny = 8
nz = 8
periodic = x y z
[physics]
tau = 0.8
force = 1.1e-3 0 0
[run]
steps = 2000
output_every = 0
monitor_every = 0
threads = 1
backend = cpu
"""
write(os.path.join(d, "fast.ini"), FAST)
rc, out, err = run(["run", "fast.ini", "--out", "V", "--quiet"], d)
u = float(err.split(", |u| ")[1].split(" ")[0]) if "diverged at step 500:" in err else -1
check(rc == 6 and "diverged at step 500:" in err and "at node (0,0,0)" in err and "run.speed_max" in err,
      "uniform acceleration: status 6 at step 500, node (0,0,0) (%s)" % err.strip().splitlines()[-1])
check(abs(u - 0.54945) < 1e-5, "reported |u| = F (t - 1/2) = 0.54945 (%g; %%g prints 6 digits)" % u)
check("warning: step 200: largest |u| 0.219 is lattice Mach number 0.38" in err,
      "one Mach warning, at step 200 (|u| 0.219, Ma 0.38)")
check(err.count("warning") == 1, "the warning is given once")
# The interval is a key: every 300 steps the first failing check is at step 600 (|u| 0.66).
rc, out, err = run(["run", "fast.ini", "--out", "V2", "--quiet", "--set", "run.check_every=300"], d)
check(rc == 6 and "diverged at step 600:" in err, "check_every = 300: stops at step 600")
# A higher bound lets it run on: speed_max 5 is not reached in 2000 steps (|u| 2.2).
rc, out, err = run(["run", "fast.ini", "--out", "V3", "--quiet", "--set", "run.speed_max=5"], d)
check(rc == 0, "speed_max = 5: the run completes (%d: %s)" % (rc, err.strip()))

# An unstable cavity (tau near 1/2, fast lid) goes to NaN; without monitor rows or outputs the divergence test
# still stops it at the first multiple of check_every after the first bad step, which check_every = 1 finds.
UNSTABLE = ["--set", "physics.tau=0.5005", "--set", "wall.lid.velocity=0.4 0 0", "--set", "run.monitor_every=0",
            "--set", "run.output_every=0", "--steps", "20000", "--quiet"]
rc1, _, e1 = run(["run", "small.ini", "--out", "N1", "--set", "run.check_every=1"] + UNSTABLE, d)
rc2, _, e2 = run(["run", "small.ini", "--out", "N2"] + UNSTABLE, d)
s1 = int(e1.split("diverged at step ")[1].split(":")[0]) if rc1 == 6 else -1
s2 = int(e2.split("diverged at step ")[1].split(":")[0]) if rc2 == 6 else -1
check(rc1 == 6 and rc2 == 6 and 0 < s1 < 20000 and s2 == (s1 + 99) // 100 * 100,
      "unstable cavity: first bad step %d (checked every step), caught at step %d with check_every 100" % (s1, s2))

# --- [init] files with bad values: status 2 with the file and the node, nothing created ---------------------
def init_vti(path, bad):
    n = 16
    rho = ["1"] * n ** 3
    vel = ["0 0 0"] * n ** 3
    for (x, y, z), r, v in bad:
        i = x + n * (y + n * z)
        if r is not None:
            rho[i] = r
        if v is not None:
            vel[i] = v
    write(path, '<?xml version="1.0"?>\n<VTKFile type="ImageData" version="1.0" byte_order="LittleEndian">\n'
          '<ImageData WholeExtent="0 15 0 15 0 15" Origin="0 0 0" Spacing="1 1 1"><Piece Extent="0 15 0 15 0 15">\n'
          '<PointData><DataArray type="Float64" Name="density" NumberOfComponents="1" format="ascii">\n%s\n'
          '</DataArray><DataArray type="Float64" Name="velocity" NumberOfComponents="3" format="ascii">\n%s\n'
          '</DataArray></PointData></Piece></ImageData></VTKFile>\n' % (" ".join(rho), " ".join(vel)))


for label, bad, node in [("NaN density", [((3, 4, 5), "nan", None), ((9, 9, 9), "-1", None)], "(3,4,5)"),
                         ("negative density", [((6, 1, 2), "-0.1", None)], "(6,1,2)"),
                         ("faster than sound", [((2, 2, 2), None, "0.7 0 0")], "(2,2,2)"),
                         ("infinite velocity", [((0, 0, 7), None, "0 inf 0")], "(0,0,7)")]:
    init_vti(os.path.join(d, "init.vti"), bad)
    rc, out, err = run(["run", "small.ini", "--out", "I/sub", "--set", "init.file=init.vti"], d)
    check(rc == 2 and "init.vti" in err and ("node %s" % node) in err and err.count("\n") == 1
          and not os.path.exists(os.path.join(d, "I")),
          "[init] file with a %s: status 2 naming the file and node %s, nothing created (%s)" % (label, node, err.strip()))
init_vti(os.path.join(d, "init.vti"), [((5, 5, 5), "1.01", "0.05 0 0")])
rc, out, err = run(["run", "small.ini", "--out", "I2", "--set", "init.file=init.vti", "--steps", "10", "--quiet"], d)
check(rc == 0, "a good [init] file runs (%s)" % err.strip())

# --- output folders --------------------------------------------------------------------------------------
rc, _, e = run(["run", "small.ini", "--out", "O", "--quiet"], d)
before = {f: os.path.getmtime(os.path.join(d, "O", f)) for f in os.listdir(os.path.join(d, "O"))}
rc2, _, e2 = run(["run", "small.ini", "--out", "O", "--quiet"], d)
after = {f: os.path.getmtime(os.path.join(d, "O", f)) for f in os.listdir(os.path.join(d, "O"))}
check(rc == 0 and rc2 == 2 and "holds the fields of another run" in e2 and "--overwrite" in e2 and before == after,
      "a second run into the same folder: status 2, the folder untouched (%s)" % e2.strip())
write(os.path.join(d, "O", "fields.vti.series"), "{}")
write(os.path.join(d, "O", "notes.txt"), "mine")
write(os.path.join(d, "O", "wss_000040.vti"), "an analysis output of the old run")
write(os.path.join(d, "O", "probe_a.csv"), "step\n")
rc, _, e = run(["run", "small.ini", "--out", "O", "--overwrite", "--steps", "30", "--set", "run.output_every=10",
                "--quiet"], d)
left = sorted(os.listdir(os.path.join(d, "O")))
check(rc == 0 and left == ["fields.pvd", "fields_000000.vti", "fields_000010.vti", "fields_000020.vti",
                           "fields_000030.vti", "monitor.csv", "notes.txt", "summary.json"],
      "--overwrite: the old fields (step 40), series, wss and probe files and outputs go, other files stay: %s" % left)
# --restart from the folder itself: fields after the restart step (an abandoned continuation) are removed.
rc, _, e = run(["run", "small.ini", "--out", "R", "--steps", "20", "--checkpoint-every", "20", "--quiet"], d)
write(os.path.join(d, "R", "fields_000030.vti"), "from a continuation that was cut off")
write(os.path.join(d, "R", "average_000030.vti"), "from a continuation that was cut off")
rc2, o2, e2 = run(["run", "small.ini", "--out", "R", "--restart", "R/restart.tsr", "--quiet"], d)
left = sorted(os.listdir(os.path.join(d, "R")))
check(rc == 0 and rc2 == 0 and left == ["fields.pvd", "fields_000000.vti", "fields_000020.vti", "fields_000040.vti",
                                        "monitor.csv", "restart.tsr", "summary.json"],
      "--restart from the folder: continues there, the stale step-30 fields and averages removed: %s %s" %
      (left, e2.strip()))
# A case error creates nothing; a run that fails at step 0 removes the folders it made.
rc, _, e = run(["run", "small.ini", "--out", "E1/sub", "--set", "run.nonsense=1"], d)
check(rc == 2 and not os.path.exists(os.path.join(d, "E1")), "bad case: status 2, no folder created")
rc, _, e = run(["run", "small.ini", "--out", "E2/sub", "--set", "run.density_max=0.9"], d)
check(rc == 6 and "diverged at step 0" in e and not os.path.exists(os.path.join(d, "E2")),
      "density 1 above density_max 0.9: status 6 at step 0, and no empty folder left (%s)" % e.strip())
cleanup(d)
finish()
