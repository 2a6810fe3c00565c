"""Physical units ([units], docs/case-format.md): the same duct in lattice units and in SI gives the same fields
to round-off (the units round trip), the .vti files hold velocity, pressure, density and time in SI (read back
with VTK and compared with the lattice run's values times the conversion factors), fields.pvd lists every file
with its step and time (and a restarted run continues it), summary.json holds the conversion, and the
refusals (Mach > 0.3, tau <= 1/2, lattice keys in an SI case) exit with status 2 and one line."""
import json
import math
import os
import sys
import xml.etree.ElementTree as ET
from tess_cli_test import check, cleanup, finish, run, scratch, write

try:
    import vtk
except ImportError:
    print("SKIPPED: python3-vtk9 is not available to this interpreter (%s)" % sys.executable)
    sys.exit(77)
from tess_vtk_test import read_vti, rel_diff, values  # noqa: E402 (after the SKIPPED test)

NX, NY, NZ = 16, 8, 8
STEPS, EVERY = 40, 20

# A duct along x: Zou-He velocity inlet on -x, pressure outlet on +x, a solid ball, a moving wall strip on the
# top, a body force and an initial velocity: every kind of converted entry (coordinates, lengths, speeds, an
# acceleration, a pressure, a time) takes part.
LATTICE = """[case]
name = duct
[domain]
nx = 16
ny = 8
nz = 8
[physics]
tau = 0.8
force = 1e-6 0 0
[solid.ball]
shape = sphere
center = 8 3.5 3.5
radius = 2.3
[wall.strip]
shape = box
min = 4 0 7
max = 11 7 7
velocity = 0.01 0 0
[inlet.in]
face = -x
velocity = 0.02 0 0
[outlet.out]
face = +x
density = 1.0006
[init]
velocity = 0.01 0 0
[run]
steps = 40
output_every = 20
monitor_every = 20
threads = 1
backend = cpu
"""

# Blood-like fluid in a duct of 0.2 mm cells, the grid shifted to a non-zero origin.
DX, NU, RHO, TAU = 2e-4, 3.3e-6, 1060.0, 0.8
ORIGIN = (0.01, -0.002, 0.003)
DT = (TAU - 0.5) / 3 * DX * DX / NU
CU = DX / DT                     # m/s per lattice speed
CP = RHO * CU * CU               # Pa per lattice pressure


def si_coord(v):
    return " ".join(repr(ORIGIN[k] + v[k] * DX) for k in range(3))


SI = """[case]
name = duct_si
[units]
dx = %r
viscosity = %r
density = %r
tau = 0.8
velocity = %r
%%s
[domain]
size = %r %r %r
origin = %s
[physics]
pressure_gradient = %r 0 0
[solid.ball]
shape = sphere
center = %s
radius = %r
[wall.strip]
shape = box
min = %s
max = %s
velocity = %r 0 0
[inlet.in]
face = -x
velocity = %r 0 0
[outlet.out]
face = +x
pressure = %r
[init]
velocity = %r 0 0
[run]
end_time = %r
output_interval = %r
monitor_interval = %r
threads = 1
backend = cpu
""" % (DX, NU, RHO, 0.02 * CU, NX * DX, NY * DX, NZ * DX, " ".join(repr(o) for o in ORIGIN),
       -1e-6 * DX / DT ** 2 * RHO, si_coord((8, 3.5, 3.5)), 2.3 * DX, si_coord((4, 0, 7)), si_coord((11, 7, 7)),
       0.01 * CU, 0.02 * CU, 0.0006 / 3 * CP, 0.01 * CU, STEPS * DT, EVERY * DT, EVERY * DT)


def time_value(img):
    a = img.GetFieldData().GetArray("TimeValue")
    return a.GetValue(0) if a is not None else None


d = scratch()
write(os.path.join(d, "lat.ini"), LATTICE)
write(os.path.join(d, "si.ini"), SI % "")
write(os.path.join(d, "si_lat.ini"), SI % "output = lattice")
rc, out_l, err = run(["run", "lat.ini", "--out", "L", "--quiet"], d)
check(rc == 0, "lattice duct runs (%s)" % err.strip())
rc, out_s, err = run(["run", "si.ini", "--out", "S", "--quiet"], d)
check(rc == 0, "SI duct runs (%s)" % err.strip())
rc, _, err = run(["run", "si_lat.ini", "--out", "SL", "--quiet"], d)
check(rc == 0, "SI duct with output = lattice runs (%s)" % err.strip())
check("units: dx 0.0002, dt %.6g, tau 0.8, lattice velocity 0.02" % DT in out_s and "Mach 0.0346" in out_s,
      "the start prints the conversion: dx, dt, tau, lattice velocity, Mach (%s)" % out_s.strip().splitlines()[-2:])

# --- the conversion in summary.json ------------------------------------------------------------------------
s = json.load(open(os.path.join(d, "S", "summary.json")))["units"]
check(abs(s["dt"] - DT) <= 1e-15 * DT and s["tau"] == 0.8 and s["dx"] == DX and s["density"] == RHO,
      "summary.json units: dt = (tau - 1/2) dx^2 / (3 nu) = %.9g (got %.9g), tau 0.8, dx, density" % (DT, s["dt"]))
check(abs(s["lattice_velocity"] - 0.02) < 1e-15 and abs(s["mach"] - 0.02 * math.sqrt(3)) < 1e-15,
      "summary.json units: lattice velocity 0.02 (U = the inlet speed) and Mach 0.02 sqrt(3)")
check(s["reynolds"] == 0 and s["length"] == 0, "summary.json units: no length, Reynolds 0 (not given)")
check(json.load(open(os.path.join(d, "S", "summary.json")))["last_step"] == STEPS,
      "end_time = 40 dt gives 40 steps")
check("units" not in json.load(open(os.path.join(d, "L", "summary.json"))), "a lattice case's summary has no units")

# The other two ways to fix the time step, and the Reynolds number with a length (formulas: case-format.md).
# Each value is a handful of roundings of the inputs: 1e-14 relative.
U = 0.02 * CU
for key, value, want_dt in (("mach", 0.1, 0.1 / math.sqrt(3) * DX / U), ("dt", 1e-3, 1e-3)):
    text = (SI % "length = 1.6e-3").replace("tau = 0.8", "%s = %r" % (key, value))
    write(os.path.join(d, key + ".ini"), text)
    rc, out, err = run(["run", key + ".ini", "--out", "K" + key, "--steps", "0", "--quiet"], d)
    u = json.load(open(os.path.join(d, "K" + key, "summary.json")))["units"] if rc == 0 else {}
    want_tau = 3 * NU * want_dt / DX ** 2 + 0.5
    ok = rc == 0 and abs(u["dt"] - want_dt) <= 1e-14 * want_dt and abs(u["tau"] - want_tau) <= 1e-14 * want_tau
    ok = ok and abs(u["mach"] - U * want_dt / DX * math.sqrt(3)) <= 1e-14 and abs(u["reynolds"] - U * 1.6e-3 / NU) <= 1e-12
    check(ok, "%s = %g: dt %.9g (want %.9g), tau %.9g (want %.9g), Re %.6g (want U L / nu = %.6g) (%s)"
          % (key, value, u.get("dt", 0), want_dt, u.get("tau", 0), want_tau, u.get("reynolds", 0), U * 1.6e-3 / NU,
             err.strip()))

# --- the round trip: SI fields = lattice fields times the conversion factors -------------------------------
# Each SI input is the lattice value times factors such as dx / dt, printed with 17 digits; reading it back and
# dividing by the same factors is exact to a few ulp (about 1e-15 relative). The flow at these speeds responds
# linearly to its inputs and 40 steps do not amplify the difference by more than the number of steps, so the
# fields agree to about 1e-13 of their scale; 1e-11 leaves a margin, while any wrong factor (a missing dx,
# the pressure's 1/3) is an error of order 1.
TOL = 1e-11
for step in (0, EVERY, STEPS):
    name = "fields_%06d.vti" % step
    a, b, c = (read_vti(os.path.join(d, f, name)) for f in ("L", "S", "SL"))
    rho_l, u_l, p_l = values(a, "density"), values(a, "velocity"), values(a, "pressure")
    rho_s, u_s, p_s = values(b, "density"), values(b, "velocity"), values(b, "pressure")
    check(values(a, "type") == values(b, "type"), "%s: the SI geometry marks the same node types" % name)
    du = rel_diff([v * CU for v in u_l], u_s, u_s)
    check(du < TOL, "%s: SI velocity = lattice velocity x dx/dt (largest difference %.2e of the scale)" % (name, du))
    drho = rel_diff([v * RHO for v in rho_l], rho_s, rho_s)
    check(drho < TOL, "%s: SI density = lattice density x rho0 (%.2e)" % (name, drho))
    # p - p_ref: the lattice pressure c_s^2 (rho - 1) is 0 at step 0, so its scale is that of the other steps.
    want_p = [(r - 1) / 3 * CP for r in rho_l]
    dp = rel_diff(want_p, p_s, [CP * 1e-4] + p_s)
    check(dp < TOL, "%s: SI pressure = (rho - 1) / 3 x rho0 (dx/dt)^2 (%.2e of max(|p|, 1e-4 rho0 (dx/dt)^2))"
          % (name, dp))
    check(rel_diff([(r - 1) / 3 for r in rho_l], p_l, [1e-4] + p_l) < 1e-15,
          "%s: the lattice case's pressure is (rho - 1) / 3" % name)
    check(abs(time_value(b) - step * DT) <= 1e-15 * max(step * DT, 1e-300) and time_value(a) == step,
          "%s: TimeValue %.9g s in SI (step x dt), %s in lattice units" % (name, time_value(b), time_value(a)))
    check(b.GetSpacing() == (DX, DX, DX) and all(abs(b.GetOrigin()[k] - ORIGIN[k]) < 1e-18 for k in range(3)),
          "%s: SI grid spacing dx and the case's origin" % name)
    # output = lattice: the SI case writes the lattice case's values, grid and times.
    dl = max(rel_diff(values(a, n), values(c, n), [1e-4] + values(a, n)) for n in ("density", "velocity", "pressure"))
    check(dl < TOL and c.GetSpacing() == (1, 1, 1) and c.GetOrigin() == (0, 0, 0) and time_value(c) == step,
          "%s: output = lattice writes the lattice run's fields (%.2e), spacing 1, origin 0, time = step" % (name, dl))

# --- an STL vessel in millimetres: cases/bent_tube_si.ini against cases/bent_tube.ini -----------------------
# The file's scale (m per file unit) over dx is 8 nodes per mm, the translation in metres; blood at 5.28 mm/s.
# Same voxels, same wet nodes, and the same fields to round-off (tolerance as above).
cases = sys.argv[2] if len(sys.argv) > 2 else None
if cases:
    bdx = 2e-3 / 16
    bcu = bdx / ((0.8 - 0.5) / 3 * bdx * bdx / 3.3e-6)
    rc1, _, e1 = run(["run", os.path.join(cases, "bent_tube.ini"), "--out", "BL", "--steps", "10", "--quiet"], d)
    rc2, _, e2 = run(["run", os.path.join(cases, "bent_tube_si.ini"), "--out", "BS", "--steps", "10", "--quiet"], d)
    a, b = (read_vti(os.path.join(d, f, "fields_000010.vti")) for f in ("BL", "BS"))
    du = rel_diff([v * bcu for v in values(a, "velocity")], values(b, "velocity"), values(b, "velocity"))
    check(rc1 == 0 and rc2 == 0 and values(a, "type") == values(b, "type") and du < TOL,
          "bent tube in mm and m/s: the lattice case's node types, SI velocity = lattice x dx/dt (%.2e) (%s%s)"
          % (du, e1.strip(), e2.strip()))

# --- fields.pvd ---------------------------------------------------------------------------------------------
def pvd_entries(path):
    root = ET.parse(path).getroot()
    check(root.get("type") == "Collection", "%s is a VTK Collection" % os.path.basename(path))
    return [(int(e.get("step")), float(e.get("timestep")), e.get("file")) for e in root.iter("DataSet")]


ents = pvd_entries(os.path.join(d, "S", "fields.pvd"))
check([e[0] for e in ents] == [0, 20, 40] and [e[2] for e in ents] == ["fields_%06d.vti" % k for k in (0, 20, 40)],
      "fields.pvd lists steps 0, 20, 40 with their files: %s" % ents)
check(all(abs(t - k * DT) <= 1e-15 * k * DT for k, t, _ in ents), "fields.pvd times are step x dt in seconds")
check([(k, t) for k, t, _ in pvd_entries(os.path.join(d, "L", "fields.pvd"))] == [(0, 0.0), (20, 20.0), (40, 40.0)],
      "a lattice case's fields.pvd times are the steps")
# A restarted run continues the collection: checkpoint at 20, run on from there into the same folder.
rc, _, err = run(["run", "si.ini", "--out", "R", "--quiet", "--set", "run.checkpoint_interval=%r" % (EVERY * DT),
                  "--set", "run.end_time=%r" % (EVERY * DT)], d)
first = pvd_entries(os.path.join(d, "R", "fields.pvd"))
rc2, _, err2 = run(["run", "si.ini", "--out", "R", "--quiet", "--restart", os.path.join("R", "restart.tsr")], d)
ents = pvd_entries(os.path.join(d, "R", "fields.pvd"))
check(rc == 0 and rc2 == 0 and [e[0] for e in first] == [0, 20] and [e[0] for e in ents] == [0, 20, 40],
      "restart at step 20: fields.pvd goes on from [0, 20] to [0, 20, 40], each step once (%s %s)" % (err, err2))
check(all(abs(t - k * DT) <= 1e-15 * k * DT for k, t, _ in ents), "restarted fields.pvd times are step x dt")

# --- refusals -----------------------------------------------------------------------------------------------
def refuses(what, text, want):
    write(os.path.join(d, "bad.ini"), text)
    rc, out, err = run(["run", "bad.ini", "--out", "B"], d)
    lines = err.strip().splitlines()
    check(rc == 2 and len(lines) == 1 and all(w in err for w in want) and not os.path.exists(os.path.join(d, "B")),
          "%s: exit 2, one line naming %s, no output folder (%d: %s)" % (what, want, rc, err.strip()))


si = SI % ""
refuses("Mach 0.35", si.replace("tau = 0.8", "mach = 0.35"), ["bad.ini: [units]", "Mach number 0.35", "override = yes"])
rc, out, err = run(["run", "bad.ini", "--out", "B2", "--set", "units.override=yes", "--steps", "2", "--quiet"], d)
check(rc == 0 and "Mach 0.35" in out, "override = yes runs the Mach 0.35 case (%d: %s)" % (rc, err.strip()))
refuses("tau 0.5", si.replace("tau = 0.8", "tau = 0.5"), ["key 'tau' in [units]", "> 0.5"])
refuses("dt and tau", si.replace("tau = 0.8", "tau = 0.8\ndt = 1e-4"), ["exactly one of mach, tau and dt"])
refuses("lattice tau in an SI case", si.replace("[physics]", "[physics]\ntau = 0.7"),
        ["key 'tau' in [physics]", "not used in a case with [units]"])
refuses("size not a multiple of dx", si.replace("size = %r" % (NX * DX), "size = %r" % (NX * DX * 1.01)),
        ["key 'size' in [domain]", "whole multiples of dx"])
refuses("mach without a speed", LATTICE.replace("[physics]\ntau = 0.8", "[units]\ndx = 1\nviscosity = 0.1\n"
                                                "density = 1\nmach = 0.1\n[physics]").replace("velocity = 0.02 0 0", "")
        .replace("velocity = 0.01 0 0", "velocity = 0 0 0"), ["mach needs a speed"])
refuses("missing viscosity", si.replace("viscosity = %r\n" % NU, ""), ["missing key 'viscosity'"])
refuses("SI key without [units]", LATTICE.replace("steps = 40", "end_time = 1"), ["unknown key 'end_time' in [run]"])

cleanup(d)
finish()
