"""Physical units in the time series and back in: a case with [units] writes its probe, line and monitor CSVs in the
case's units (time in s, speeds in m/s, pressure in Pa, density in kg/m^3, forces in N, the unit in each column's
name; `[units] output = lattice` keeps the lattice columns), and a fields_*.vti it wrote reads back as the [init]
file of the same case (converted to lattice units) or is refused by a lattice case with one line. The duct is run
in lattice units and in SI (the same problem, as in test_units.py) and the SI values are compared with the lattice
values times the conversion factors."""
import csv
import os
import sys
from tess_cli_test import check, cleanup, finish, run, scratch, write

try:
    import vtk
except ImportError:
    print("SKIPPED: python3-vtk9 is not available to this interpreter (%s)" % sys.executable)
    sys.exit(77)
from tess_vtk_test import read_vti, rel_diff, values  # noqa: E402 (after the SKIPPED test)

DX, NU, RHO, TAU = 2e-4, 3.3e-6, 1060.0, 0.8
DT = (TAU - 0.5) / 3 * DX * DX / NU
CU = DX / DT                     # m/s per lattice speed
CP = RHO * CU * CU               # Pa per lattice pressure
CF = RHO * DX ** 4 / DT ** 2     # N per lattice force (3D)
ORIGIN = (0.01, -0.002, 0.003)

# The probe and line: node coordinates and steps in the lattice case, metres and seconds in the SI case (the same
# points and intervals, so the rows must match value for value).
PROBES = """[probe.p]
point = %s
%s
[line.l]
start = %s
end = %s
points = 8
%s"""


def si_point(*n):
    return " ".join(repr(ORIGIN[k] + n[k] * DX) for k in range(3))


# A duct along x: inlet on -x, outlet on +x, a ball that is a body (forces in the monitor), a probe and a line.
# No body force: an [init] file holds the velocity as written, which is the state's velocity only without the
# Guo force's half-step shift.
COMMON = """[solid.ball]
shape = sphere
center = %s
radius = %r
body = yes
%s
[run]
monitor_every = 10
threads = 1
backend = cpu
"""
LATTICE = """[case]
name = duct
[domain]
nx = 16
ny = 8
nz = 8
[physics]
tau = 0.8
[inlet.in]
face = -x
velocity = 0.02 0 0
[outlet.out]
face = +x
density = 1.0006
[run]
steps = 40
output_every = 40
""" + COMMON % ("8 3.5 3.5", 2.3, PROBES % ("5.5 3.25 3.5", "every = 10", "12 0 3.5", "12 7 3.5", "every = 20"))
SI = """[case]
name = duct_si
[units]
dx = %r
viscosity = %r
density = %r
tau = 0.8
%%s
[domain]
size = %r %r %r
origin = %s
[inlet.in]
face = -x
velocity = %r 0 0
[outlet.out]
face = +x
pressure = %r
[run]
end_time = %r
output_interval = %r
""" % (DX, NU, RHO, 16 * DX, 8 * DX, 8 * DX, " ".join(repr(o) for o in ORIGIN), 0.02 * CU, 0.0006 / 3 * CP,
       40 * DT, 40 * DT) + COMMON % (" ".join(repr(ORIGIN[k] + (8, 3.5, 3.5)[k] * DX) for k in range(3)), 2.3 * DX,
                                     PROBES % (si_point(5.5, 3.25, 3.5), "interval = %r" % (10 * DT),
                                               si_point(12, 0, 3.5), si_point(12, 7, 3.5), "interval = %r" % (20 * DT)))


def rows(path):
    with open(path) as f:
        r = list(csv.reader(f))
    return r[0], [[float(v) for v in row] for row in r[1:]]


d = scratch()
write(os.path.join(d, "lat.ini"), LATTICE)
write(os.path.join(d, "si.ini"), SI % "")
write(os.path.join(d, "si_lat.ini"), SI % "output = lattice")
for name, out in (("lat.ini", "L"), ("si.ini", "S"), ("si_lat.ini", "SL")):
    rc, _, err = run(["run", name, "--out", out, "--quiet"], d)
    check(rc == 0, "%s runs (%s)" % (name, err.strip()))

# As in test_units.py: the SI inputs are the lattice values times factors printed with 17 digits, so the two runs
# agree to about 1e-13 of each quantity's scale after 40 steps; 1e-11 leaves a margin while a wrong or missing
# factor (dx/dt, rho0, the pressure's 1/3, the origin) is an error of order 1.
TOL = 1e-11

# --- monitor.csv ------------------------------------------------------------------------------------------------
hl, ml = rows(os.path.join(d, "L", "monitor.csv"))
hs, ms = rows(os.path.join(d, "S", "monitor.csv"))
hsl, msl = rows(os.path.join(d, "SL", "monitor.csv"))
check(hs[:7] == ["step", "time_s", "wall_s", "mlups", "max_u_m_s", "mean_rho_kg_m3", "du_rel"]
      and hs[7:] == ["Fx_ball_N", "Fy_ball_N", "Fz_ball_N"], "SI monitor header names the units: %s" % hs)
check(hl[:6] == ["step", "wall_s", "mlups", "max_u", "mean_rho", "du_rel"]
      and hl[6:] == ["Fx_ball", "Fy_ball", "Fz_ball"]
      and hsl == hl, "lattice monitor header, also for output = lattice: %s / %s" % (hl, hsl))
check([r[0] for r in ms] == [r[0] for r in ml] == [0, 10, 20, 30, 40], "monitor rows at steps 0, 10, .. 40")
fmax = max(abs(r[k]) for r in ml for k in (6, 7, 8))
bad = []
for a, b, c in zip(ml, ms, msl):
    if abs(b[1] - a[0] * DT) > 1e-15 * max(a[0] * DT, 1e-300):
        bad.append("time %r at step %d" % (b[1], a[0]))
    if abs(b[4] - a[3] * CU) > 1e-10 * a[3] * CU:  # max_u is written with 11 digits (%.10e): 5e-11 each
        bad.append("max_u %r vs %r" % (b[4], a[3] * CU))
    if abs(b[5] - a[4] * RHO) > TOL * RHO:
        bad.append("mean_rho %r vs %r" % (b[5], a[4] * RHO))
    if any(abs(b[7 + k] - a[6 + k] * CF) > TOL * fmax * CF for k in range(3)):
        bad.append("forces %r vs %r" % (b[7:], [v * CF for v in a[6:]]))
    if any(abs(c[k] - a[k]) > TOL * max(abs(a[k]), 1e-3) for k in (0, 3, 4, 6, 7, 8)):
        bad.append("output = lattice row %r vs %r" % (c, a))
check(not bad, "monitor.csv in SI: time = step dt, max_u x dx/dt, mean_rho x rho0, forces x rho0 dx^4/dt^2 "
      "(force scale %.3g lattice); output = lattice the lattice values: %s" % (fmax, bad[:3]))

# --- probe and line files -----------------------------------------------------------------------------------------
for f, n in (("probe_p.csv", 5), ("line_l.csv", 3 * 8)):
    hl, pl = rows(os.path.join(d, "L", f))
    hs, ps = rows(os.path.join(d, "S", f))
    hsl, psl = rows(os.path.join(d, "SL", f))
    check(hs == ["step", "time_s", "index", "x_m", "y_m", "z_m", "ux_m_s", "uy_m_s", "uz_m_s", "pressure_Pa",
                 "density_kg_m3"], "%s: SI header names the units: %s" % (f, hs))
    check(hl == hsl == ["step", "time", "index", "x", "y", "z", "ux", "uy", "uz", "density"],
          "%s: lattice header, also for output = lattice" % f)
    check(len(pl) == len(ps) == len(psl) == n, "%s: %d rows in each (%d %d %d)" % (f, n, len(pl), len(ps), len(psl)))
    bad = []
    for a, b, c in zip(pl, ps, psl):
        want = [a[0], a[0] * DT, a[2]] + [ORIGIN[k] + DX * a[3 + k] for k in range(3)] + \
               [v * CU for v in a[6:9]] + [(a[9] - 1) / 3 * CP, a[9] * RHO]
        scale = [1, DT, 1, DX, DX, DX, 0.02 * CU, 0.02 * CU, 0.02 * CU, 1e-4 * CP, RHO]
        if any(abs(x - y) > TOL * s for x, y, s in zip(b, want, scale)):
            bad.append("%r vs %r" % (b, want))
        if any(abs(x - y) > TOL * max(abs(x), 1e-3) for x, y in zip(a, c)):
            bad.append("output = lattice %r vs %r" % (c, a))
    check(not bad, "%s: SI samples = lattice samples converted (time, origin + dx x, u dx/dt, (rho - 1)/3 rho0 "
          "(dx/dt)^2, rho rho0): %s" % (f, bad[:2]))

# --- an SI fields file as [init] ------------------------------------------------------------------------------------
# The SI case started from its own fields_000040.vti: at step 0 it writes the state it read, which must be the file
# it read (to round-off: the conversion back multiplies by dt/dx and 3 / (rho0 (dx/dt)^2), a few ulp).
src = os.path.join(d, "S", "fields_000040.vti")
write(os.path.join(d, "si_init.ini"), (SI % "").replace("[run]\n", "[init]\nfile = %s\n[run]\n" % src, 1))
rc, _, err = run(["run", "si_init.ini", "--out", "I", "--steps", "0", "--quiet"], d)
check(rc == 0, "an SI case reads an SI fields file as [init] (%s)" % err.strip())
if rc == 0:
    a, b = read_vti(src), read_vti(os.path.join(d, "I", "fields_000000.vti"))
    dv = rel_diff(values(a, "velocity"), values(b, "velocity"), [0.02 * CU])
    dp = rel_diff(values(a, "pressure"), values(b, "pressure"), [1e-4 * CP])
    dr = rel_diff(values(a, "density"), values(b, "density"), [RHO])
    # The pressure comes back through the lattice density 1 + d, d ~ 1e-4, which holds d to 1e-16 absolute: about
    # 1e-12 of the pressure's scale after a few roundings; velocity and density keep their 16 digits to a few ulp.
    check(max(dv, dr) < 1e-13 and dp < 1e-11,
          "round trip through [init]: velocity %.2e, density %.2e (< 1e-13), pressure %.2e (< 1e-11) of their scales"
          % (dv, dr, dp))
# The same file read in lattice units would start from density 1060 and speeds in m/s: a lattice case refuses it.
write(os.path.join(d, "lat_init.ini"), LATTICE.replace("[run]\n", "[init]\nfile = %s\n[run]\n" % src, 1))
rc, _, err = run(["run", "lat_init.ini", "--out", "J"], d)
lines = err.strip().splitlines()
check(rc == 2 and len(lines) == 1 and src in err and "holds physical units" in err
      and not os.path.exists(os.path.join(d, "J")),
      "a lattice case refuses an SI [init] file: exit 2, one line naming the file, no output (%d: %s)"
      % (rc, err.strip()))
# A file in lattice units (output = lattice) is read as lattice values by the SI case: the same state again.
write(os.path.join(d, "si_init2.ini"), (SI % "").replace(
    "[run]\n", "[init]\nfile = %s\n[run]\n" % os.path.join(d, "SL", "fields_000040.vti"), 1))
rc, _, err = run(["run", "si_init2.ini", "--out", "I2", "--steps", "0", "--quiet"], d)
if rc == 0:
    b = read_vti(os.path.join(d, "I2", "fields_000000.vti"))
    dv = rel_diff(values(read_vti(src), "velocity"), values(b, "velocity"), [0.02 * CU])
check(rc == 0 and dv < 1e-11, "an SI case reads a lattice-unit fields file as lattice values (%s)" % err.strip())

cleanup(d)
finish()
