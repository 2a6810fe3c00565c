"""summary.json and monitor.csv of a small run have the documented fields with the right values, the
restart is bitwise identical (AB in both precisions, AA; MR to 1e-12 relative), the cross-check of cpu against cpu reports 0
(its velocity measured against c_s, its default tolerance growing with the steps), and divergence stops the run
with status 6 while keeping the last good output."""
import csv
import json
import math
import os
import re
from tess_cli_test import SMALL_CASE, check, cleanup, finish, run, scratch, write

d = scratch()
write(os.path.join(d, "small.ini"), SMALL_CASE)

# --- summary.json and monitor.csv ---------------------------------------------------------------------
rc, out, err = run(["run", "small.ini", "--out", "A", "--checkpoint-every", "20", "--quiet"], d)
check(rc == 0, "small run exits 0 (%d: %s)" % (rc, err.strip()))
s = json.load(open(os.path.join(d, "A", "summary.json")))
keys = ["tessera_version", "case", "case_file", "backend", "device", "precision", "pattern", "threads", "dims", "nodes",
        "fluid_nodes", "tiles", "eta_t", "first_step", "last_step", "steps", "mlups", "wall_seconds",
        "bytes_allocated", "bytes_per_fluid_node"]
check(all(k in s for k in keys), "summary.json has the documented keys (missing %s)" % [k for k in keys if k not in s])
# Exact counts: 16^3 nodes, the lid layer (16x16) is a wall, so 16*16*15 = 3840 wet nodes; 4^3 = 64 tiles,
# eta_t = 3840 / (64 * 64) = 0.9375 (eq. 14 of the tile paper).
check(s["nodes"] == 4096 and s["fluid_nodes"] == 3840 and s["tiles"] == 64, "summary counts 4096 / 3840 / 64")
check(abs(s["eta_t"] - 0.9375) < 1e-6, "summary eta_t = 0.9375 (printed with 6 decimals)")
check(s["steps"] == 40 and s["case"] == "small" and s["backend"] == "cpu" and s["precision"] == "double",
      "summary steps 40, case small, backend cpu, double")
check(s["mlups"] > 0 and s["wall_seconds"] > 0, "summary mlups and wall_seconds positive")
# Bytes per fluid node: the AB pattern holds two copies of 19 doubles per tile node, so at least
# 2 * 19 * 8 * 4096 / 3840 = 324.3 B; the summary must agree with its own bytes_allocated to 1e-3 (3 decimals).
check(s["bytes_per_fluid_node"] >= 324.2, "bytes per fluid node >= two population copies (%.1f)" % s["bytes_per_fluid_node"])
check(abs(s["bytes_per_fluid_node"] - s["bytes_allocated"] / 3840) < 1e-3, "bytes_per_fluid_node = bytes_allocated / fluid")

rows = list(csv.DictReader(open(os.path.join(d, "A", "monitor.csv"))))
cols = ["step", "wall_s", "mlups", "max_u", "mean_rho", "du_rel"]
check(list(rows[0].keys()) == cols, "monitor.csv columns %s" % cols)
check([int(r["step"]) for r in rows] == [0, 10, 20, 30, 40], "monitor rows at steps 0, 10, 20, 30, 40")
# Step 0 is the uniform equilibrium at rest: density 1 (a sum of 19 weights, rounding below 1e-15) and u = 0.
check(abs(float(rows[0]["mean_rho"]) - 1) < 1e-14 and float(rows[0]["max_u"]) == 0.0, "row 0: mean_rho 1, max_u 0")
check(math.isnan(float(rows[0]["du_rel"])), "row 0: du_rel is nan (no previous row)")
# The lid drives the fluid: after 10 steps the largest speed is below the lid speed 0.05 and above 0.
mu = [float(r["max_u"]) for r in rows[1:]]
check(all(0 < u < 0.05 for u in mu), "max_u in (0, 0.05) after the lid starts: %s" % mu)
check(all(0 < float(r["du_rel"]) for r in rows[1:]), "du_rel > 0 while the flow develops")
check(sorted(os.listdir(os.path.join(d, "A"))) == ["fields.pvd", "fields_000000.vti", "fields_000020.vti",
                                                   "fields_000040.vti", "monitor.csv", "restart.tsr", "summary.json"],
      "output folder holds exactly the documented files (no temporaries)")

# --- restart: 40 steps straight vs 20 + restart + 20, byte for byte -----------------------------------
rc, _, e = run(["run", "small.ini", "--out", "As", "--precision", "single", "--checkpoint-every", "20", "--quiet"], d)
rc1, _, e1 = run(["run", "small.ini", "--out", "Bs", "--precision", "single", "--steps", "20", "--checkpoint-every", "20",
                  "--quiet"], d)
rc2, _, e2 = run(["run", "small.ini", "--out", "Cs", "--precision", "single", "--restart", "Bs/restart.tsr",
                  "--checkpoint-every", "20", "--quiet"], d)
a = open(os.path.join(d, "As", "restart.tsr"), "rb").read()
check(rc == rc1 == rc2 == 0 and len(a) == 64 + 64 * 19 * 64 * 4 and a == open(os.path.join(d, "Cs", "restart.tsr"), "rb").read(),
      "single precision: restarted run bitwise identical, file 64 + ntiles*19*64*4 bytes")
rc1, _, e1 = run(["run", "small.ini", "--out", "B", "--steps", "20", "--checkpoint-every", "20", "--quiet"], d)
rc2, o2, e2 = run(["run", "small.ini", "--out", "C", "--restart", "B/restart.tsr", "--checkpoint-every", "20"], d)
check(rc1 == 0 and rc2 == 0 and "steps 20..40" in o2, "restart run continues from step 20 (%s)" % (e1 + e2).strip())
a = open(os.path.join(d, "A", "restart.tsr"), "rb").read()
c = open(os.path.join(d, "C", "restart.tsr"), "rb").read()
# 56-byte header + 64 tiles * 19 * 64 doubles.
check(len(a) == 64 + 64 * 19 * 64 * 8, "restart file size 64 + ntiles*19*64*8 = %d" % len(a))
check(a == c, "restart at step 40: uninterrupted and restarted runs are bitwise identical")
check(open(os.path.join(d, "A", "fields_000040.vti"), "rb").read() == open(os.path.join(d, "C", "fields_000040.vti"), "rb").read(),
      "fields_000040.vti bitwise identical after restart")
# AA: the restart holds the canonical populations after an even step, which AA reproduces bitwise.
aa = ["--pattern", "aa", "--checkpoint-every", "20", "--quiet"]
rc, _, e = run(["run", "small.ini", "--out", "Aaa"] + aa, d)
rc1, _, e1 = run(["run", "small.ini", "--out", "Baa", "--steps", "20"] + aa, d)
rc2, _, e2 = run(["run", "small.ini", "--out", "Caa", "--restart", "Baa/restart.tsr"] + aa, d)
check(rc == rc1 == rc2 == 0 and open(os.path.join(d, "Aaa", "restart.tsr"), "rb").read() ==
      open(os.path.join(d, "Caa", "restart.tsr"), "rb").read(),
      "AA: restarted run bitwise identical to the uninterrupted one (%s)" % (e + e1 + e2).strip())
# MR: the restart stores populations and MR rebuilds its ten moments from them, so the restarted run continues
# from the regularized populations: equal to round-off, not bitwise. 1e-12 relative to the largest population
# (about 1/3) leaves room for the ~1e-16-per-step differences of 20 steps, and catches any real state loss.
import struct
mr = ["--pattern", "mr", "--set", "physics.collision=regularized", "--set", "run.mr_layer=32", "--checkpoint-every",
      "20", "--quiet"]
rc, _, e = run(["run", "small.ini", "--out", "Amr"] + mr, d)
rc1, _, e1 = run(["run", "small.ini", "--out", "Bmr", "--steps", "20"] + mr, d)
rc2, _, e2 = run(["run", "small.ini", "--out", "Cmr", "--restart", "Bmr/restart.tsr"] + mr, d)
fa = open(os.path.join(d, "Amr", "restart.tsr"), "rb").read() if rc == 0 else b""
fc = open(os.path.join(d, "Cmr", "restart.tsr"), "rb").read() if rc2 == 0 else b""
n = 64 * 19 * 64
check(len(fa) == len(fc) == 64 + 8 * n, "MR restart files of 64 + ntiles*19*64*8 bytes (%s)" % (e + e1 + e2).strip())
if len(fa) == len(fc) == 64 + 8 * n:
    va, vc = struct.unpack("<%dd" % n, fa[64:]), struct.unpack("<%dd" % n, fc[64:])
    rel = max(abs(x - y) for x, y in zip(va, vc)) / max(abs(x) for x in va)
    check(rel <= 1e-12, "MR: restarted run within 1e-12 relative of the uninterrupted one (%.1e)" % rel)
    # The restart was really taken at step 20 and the state moved on: step 40 differs from step 20 by far more.
    vb = struct.unpack("<%dd" % n, open(os.path.join(d, "Bmr", "restart.tsr"), "rb").read()[64:])
    check(max(abs(x - y) for x, y in zip(va, vb)) > 1e-6, "MR: step 40 differs from step 20 (the run moved on)")
rc, _, err = run(["run", "small.ini", "--out", "D", "--restart", "A/restart.tsr", "--set", "physics.tau=0.9"], d)
check(rc == 2 and "does not match the case (hash" in err and not os.path.exists(os.path.join(d, "D")),
      "restart with different physics refused with status 2 (%s)" % err.strip())

# --- cross-check cpu against cpu ------------------------------------------------------------------------
for prec in ["double", "single"]:
    rc, out, err = run(["run", "small.ini", "--out", "E" + prec, "--check", "cpu", "--precision", prec], d)
    check(rc == 0 and "cross-check cpu:ab vs cpu:ab: max abs diff 0.000e+00" in out and "max rel diff 0.000e+00" in out,
          "cross-check cpu vs cpu (%s) reports 0 difference and exit 0" % prec)
    check(out.count("check step") == 3, "cross-check compares at every output step (0, 20, 40)")

# The AA pattern computes the same arithmetic as AB in another order of memory accesses: bitwise equal.
rc, out, err = run(["run", "small.ini", "--out", "Eaa", "--pattern", "aa", "--check", "cpu:ab"], d)
check(rc == 0 and "cross-check cpu:aa vs cpu:ab: max abs diff 0.000e+00" in out, "cross-check aa against cpu:ab reports 0")
# A tolerance of 0 with identical results still passes (<=), and the status for a failed check is tested by
# the MR pattern (moment storage, differences ~1e-13) against AB with a tolerance below them.
rc, out, err = run(["run", "small.ini", "--out", "Emr", "--pattern", "mr", "--set", "physics.collision=regularized",
                    "--check", "cpu:ab", "--check-tol", "1e-17"], d)
m = [l for l in out.splitlines() if l.startswith("cross-check")]
rel = float(m[0].split("max rel diff ")[1].split()[0]) if m else -1
check(rc == 8 and 0 < rel < 1e-10 and "cross-check tolerance exceeded" in err,
      "mr vs ab with tolerance 1e-17: status 8, reported relative difference %.1e in (0, 1e-10)" % rel)

# The velocity's scale is the lattice's speed of sound, not the flow's largest speed: on a slow pressure-driven bed
# (speeds about 1e-3) FP32's rounding alone (MR against AB) leaves about 6e-6 in the velocity after 100 steps,
# 1e-5 of c_s but 1e-2 of the flow's speed, which the default tolerance (1e-4) must pass. The worst difference is
# then a velocity's, and its relative figure is the absolute one over c_s (to the 4 printed digits).
BED = """[case]
name = bed
[domain]
nx = 24
ny = 24
nz = 24
periodic = y z
[physics]
collision = regularized
fluid = incompressible
tau = 0.8
[spheres.bed]
diameter = 8
porosity = 0.5
seed = 1
[outlet.high]
face = -x
density = 1.001
[outlet.low]
face = +x
density = 1.0
[run]
steps = 100
output_every = 50
threads = 1
backend = cpu
"""
write(os.path.join(d, "bed.ini"), BED)
rc, out, err = run(["run", "bed.ini", "--out", "Ebed", "--pattern", "mr", "--precision", "single", "--check", "cpu:ab"], d)
m = [l for l in out.splitlines() if l.startswith("cross-check")]
ab = float(m[0].split("max abs diff ")[1].split()[0]) if m else -1
rel = float(m[0].split("max rel diff ")[1].split()[0]) if m else -1
fields = re.findall(r"\(([a-z ]+) at \((\d+,\d+,\d+)\)\)", m[0]) if m else []
check(rc == 0 and ab > 0 and len(fields) == 2 and fields[0][0].startswith("velocity") and fields[0] == fields[1] and
      abs(rel - ab / 0.57735026918962573) <= 1e-3 * rel and "tolerance 1.0e-04" in m[0],
      "slow bed, FP32 mr vs ab: passes the default 1e-4, worst in a velocity, relative = absolute / c_s (%s)" %
      (m[0] if m else err.strip()))
# The default tolerance grows in proportion to the steps beyond 100: 300 steps, three times 1e-10.
rc, out, err = run(["run", "small.ini", "--out", "Elong", "--steps", "300", "--check", "cpu"], d)
check(rc == 0 and "tolerance 3.0e-10 relative" in out, "300 steps: the default FP64 tolerance is 3e-10")

# --- divergence: a density bound the cavity must cross stops the run with status 6 ----------------------
# The lid compresses the fluid against the x = 15 wall: density there exceeds 1.0001 within 20 steps
# (it reaches about 1.03 in the 64^3 cavity), so the monitor at step 20 at the latest must trip.
rc, out, err = run(["run", "small.ini", "--out", "F", "--set", "run.density_max=1.0001"], d)
check(rc == 6 and "diverged at step" in err and "at node (" in err, "density above density_max: status 6 with the node")
step = int(err.split("diverged at step ")[1].split(":")[0])
check(step in (10, 20), "divergence caught at a monitor step (10 or 20): %d" % step)
left = sorted(os.listdir(os.path.join(d, "F")))
check("fields_000000.vti" in left and "fields_%06d.vti" % step not in left and not [f for f in left if "tmp" in f],
      "last good output kept, nothing written for the bad step, no temporaries: %s" % left)
rows = list(csv.DictReader(open(os.path.join(d, "F", "monitor.csv"))))
check(int(rows[-1]["step"]) == step - 10, "monitor.csv ends at the last good monitor step")
cleanup(d)
finish()
