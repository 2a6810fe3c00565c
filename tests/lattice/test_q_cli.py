"""tessera run on the other lattices: the shipped D2Q9 cavity (cases/cavity2d.ini) and bad input that only
they have. Checks: the run succeeds and its start line names the lattice; the cavity keeps
its mass (closed box, bounce-back walls conserve mass exactly: mean density 1 to round-off, 1e-10 leaves room
for the sums over 4096 nodes); the lid drives a flow (max speed between 0.05 and 0.1, the lid speed, after 400
steps: the corner below the moving lid reaches most of the lid speed at once); and each bad case fails with
exit status 2 and one line naming the file and what was expected."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from tess_cli_test import check, cleanup, finish, run, scratch, write  # noqa: E402

cases = sys.argv[2]
d = scratch()
rc, out, err = run(["run", os.path.join(cases, "cavity2d.ini"), "--steps", "400", "--out", "o", "--quiet",
                    "--threads", "2", "--set", "run.monitor_every=200", "--set", "run.output_every=0"], d)
check(rc == 0, "cavity2d: exit status 0 (rc %d, %r)" % (rc, err.strip()[-300:]))
check("cpu, D2Q9" in out + err, "cavity2d: the start line names the lattice (cpu, D2Q9)")
rows = []
if rc == 0:
    with open(os.path.join(d, "o", "monitor.csv")) as f:
        head = f.readline().strip().split(",")
        rows = [dict(zip(head, line.strip().split(","))) for line in f if line.strip()]
last = rows[-1] if rows else {}
rho = float(last.get("mean_rho", "nan"))
umax = float(last.get("max_u", "nan"))
check(abs(rho - 1.0) <= 1e-10, "cavity2d: mean density after 400 steps %.15f, reference 1, tolerance 1e-10" % rho)
check(0.05 <= umax <= 0.1, "cavity2d: max speed %.4f in [0.05, 0.1] (lid speed 0.1)" % umax)

# The moment representation (--pattern mr, regularized collision) against AB on the same cavity: MR stores the
# moments whose Hermite rebuild AB stores, so the runs agree to round-off (the matrix suite, tests/matrix: 1e-15 of
# the populations); the monitor's max speed (printed with 11 significant digits) must agree to 1e-8 relative.
speeds = {}
for pat in ("ab", "mr"):
    rc, out, err = run(["run", os.path.join(cases, "cavity2d.ini"), "--steps", "400", "--out", pat, "--quiet",
                        "--pattern", pat, "--set", "physics.collision=regularized", "--set", "run.monitor_every=200",
                        "--set", "run.output_every=0"], d)
    check(rc == 0, "cavity2d regularized, pattern %s: exit status 0 (rc %d, %r)" % (pat, rc, err.strip()[-300:]))
    if rc == 0:
        with open(os.path.join(d, pat, "monitor.csv")) as f:
            head = f.readline().strip().split(",")
            last = [dict(zip(head, line.strip().split(","))) for line in f if line.strip()][-1]
        speeds[pat] = float(last["max_u"])
        if pat == "mr":
            check(abs(float(last["mean_rho"]) - 1.0) <= 1e-10,
                  "cavity2d MR: mean density %s, reference 1, tolerance 1e-10" % last["mean_rho"])
if len(speeds) == 2:
    rel = abs(speeds["mr"] - speeds["ab"]) / speeds["ab"]
    check(rel <= 1e-8, "cavity2d: MR max speed %.10g vs AB %.10g (relative %.2g, tolerance 1e-8)"
          % (speeds["mr"], speeds["ab"], rel))
rc, out, err = run(["run", os.path.join(cases, "cavity2d.ini"), "--steps", "10", "--out", "mrl", "--pattern", "mr"], d)
check(rc == 2 and "regularized" in err and len(err.strip().splitlines()) == 1,
      "cavity2d with lbgk and pattern mr: exit status 2 and one line naming the regularized collision (rc %d, %r)"
      % (rc, err.strip()))
check(not os.path.exists(os.path.join(d, "mrl")), "cavity2d with lbgk and pattern mr: nothing written")

BASE = """[lattice]
model = D2Q9
[domain]
nx = 16
ny = 16
nz = %d
[physics]
tau = 0.8
%s
[run]
steps = 10
backend = cpu
"""
bad = [
    ("2D lattice on a 3D box", BASE % (2, ""), "needs nz = 1"),
    ("zou-he on D2Q9", BASE % (1, "[inlet.in]\nface = -x\nvelocity = 0.01 0 0\nmethod = zou-he"),
     "key 'method' in [inlet.in]"),
    ("fd on D3Q13", BASE.replace("D2Q9", "D3Q13").replace("tau = 0.8", "tau = 0.8\ncollision = mrt") % (4, "[inlet.in]\nface = -x\nvelocity = 0.01 0 0\nmethod = fd"),
     "key 'method' in [inlet.in]: expected nee (on D3Q13)"),
    ("vector normal without nee", BASE.replace("D2Q9", "D3Q19") % (4, "[outlet.o]\nface = +x\ndensity = 1\nnormal = 1 1 0"),
     "any vector needs method = nee"),
    ("unknown wall model", BASE % (1, "wall = bouzidi"), "key 'wall' in [physics]"),
]
for name, text, want in bad:
    write(os.path.join(d, "bad.ini"), text)
    rc, out, err = run(["run", "bad.ini", "--out", "b"], d)
    lines = [l for l in err.strip().splitlines() if l]
    check(rc == 2, "%s: exit status 2 (got %d)" % (name, rc))
    check(len(lines) == 1 and want in lines[0] and "bad.ini" in lines[0],
          "%s: one line naming bad.ini and containing %r (got %r)" % (name, want, err.strip()))
    check(not os.path.exists(os.path.join(d, "b")), "%s: nothing written" % name)
cleanup(d)
finish()
