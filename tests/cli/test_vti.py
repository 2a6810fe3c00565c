"""Field files and geometry inputs through VTK's own reader and writer (python3-vtk9): the .vti output
holds the initial state exactly, [init] file and voxel .vti inputs written by VTK in ascii, inline base64
and appended base64 form come back unchanged, and the primitives mark exactly the nodes they contain."""
import math
import os
import sys
from tess_cli_test import SMALL_CASE, check, cleanup, finish, run, scratch, write

try:
    import vtk
except ImportError:
    print("SKIPPED: python3-vtk9 is not available to this interpreter (%s)" % sys.executable)
    sys.exit(77)

N = 16


def read_vti(path):
    r = vtk.vtkXMLImageDataReader()
    r.SetFileName(path)
    r.Update()
    return r.GetOutput()


def idx(x, y, z):
    return x + N * (y + N * z)


def write_vti(path, arrays, mode):
    """arrays: list of (name, vtk array class, ncomp, function (x, y, z) -> tuple)."""
    img = vtk.vtkImageData()
    img.SetDimensions(N, N, N)
    for name, cls, nc, fn in arrays:
        a = cls()
        a.SetName(name)
        a.SetNumberOfComponents(nc)
        a.SetNumberOfTuples(N ** 3)
        for z in range(N):
            for y in range(N):
                for x in range(N):
                    v = fn(x, y, z)
                    for k in range(nc):
                        a.SetComponent(idx(x, y, z), k, v[k])
        img.GetPointData().AddArray(a)
    w = vtk.vtkXMLImageDataWriter()
    w.SetFileName(path)
    w.SetInputData(img)
    w.SetCompressorTypeToNone()
    if mode == "ascii":
        w.SetDataModeToAscii()
    elif mode == "binary":
        w.SetDataModeToBinary()
    else:
        w.SetDataModeToAppended()
        w.SetEncodeAppendedData(1)
    w.Write()


d = scratch()
cavity = SMALL_CASE.replace("steps = 40", "steps = 0")

# --- a uniform initial state reads back as rho0 and u0 ----------------------------------------------------
rho0, u0 = 1.02, (0.01, -0.02, 0.005)
for prec in ["double", "single"]:
    write(os.path.join(d, "uni.ini"), cavity.replace("[run]", "[init]\ndensity = 1.02\nvelocity = 0.01 -0.02 0.005\n[run]"))
    rc, out, err = run(["run", "uni.ini", "--out", "U" + prec, "--precision", prec, "--quiet"], d)
    check(rc == 0, "uniform init run (%s) exits 0 (%s)" % (prec, err.strip()))
    img = read_vti(os.path.join(d, "U" + prec, "fields_000000.vti"))
    pd = img.GetPointData()
    check(img.GetDimensions() == (N, N, N) and img.GetSpacing() == (1, 1, 1) and img.GetOrigin() == (0, 0, 0),
          "%s: VTK reads dimensions 16^3, spacing 1, origin 0" % prec)
    rho, vel, typ, sol, ghost = (pd.GetArray(n) for n in ("density", "velocity", "type", "solid", "vtkGhostType"))
    check(None not in (rho, vel, typ, sol, ghost), "%s: arrays density, velocity, type, solid, vtkGhostType present" % prec)
    want = "double" if prec == "double" else "float"
    check(rho.GetDataTypeAsString() == want and vel.GetDataTypeAsString() == want and vel.GetNumberOfComponents() == 3,
          "%s: density and velocity are %s, velocity has 3 components" % (prec, want))
    check(typ.GetDataTypeAsString() == "unsigned char" and sol.GetDataTypeAsString() == "unsigned char",
          "%s: type and solid are UInt8" % prec)
    # The moments of the equilibrium are sums of up to 19 terms: rounding stays within a few ulp of the
    # partial sums (up to ~0.3 for the momentum). Double: 1e-14 relative density, 1e-15 absolute velocity;
    # single (half ulp of 0.3 is 1.5e-8, ten additions): 1e-6 relative density, 1e-7 absolute velocity.
    rtol, utol = (1e-14, 1e-15) if prec == "double" else (1e-6, 1e-7)
    worst_r = worst_u = 0.0
    bad_mask = 0
    for z in range(N):
        for y in range(N):
            for x in range(N):
                i = idx(x, y, z)
                lid = z == N - 1
                bad_mask += typ.GetValue(i) != (2 if lid else 1) or sol.GetValue(i) != (1 if lid else 0)
                if lid:
                    # Nothing is computed there: NaN (not 0) and hidden through vtkGhostType (HIDDENPOINT).
                    bad_mask += not math.isnan(rho.GetValue(i)) or not math.isnan(vel.GetComponent(i, 0))
                    bad_mask += ghost.GetValue(i) != vtk.vtkDataSetAttributes.HIDDENPOINT
                    continue
                bad_mask += ghost.GetValue(i) != 0
                worst_r = max(worst_r, abs(rho.GetValue(i) - rho0) / rho0)
                worst_u = max(worst_u, max(abs(vel.GetComponent(i, k) - u0[k]) for k in range(3)))
    check(bad_mask == 0, "%s: type 2 and solid 1 on the lid layer, type 1 and solid 0 elsewhere, density and velocity NaN and vtkGhostType HIDDENPOINT on the lid, 0 elsewhere" % prec)
    check(worst_r < rtol, "%s: density = 1.02 at every fluid node (worst rel %.2e < %.0e)" % (prec, worst_r, rtol))
    check(worst_u < utol, "%s: velocity = (0.01, -0.02, 0.005) (worst abs %.2e < %.0e)" % (prec, worst_u, utol))

# --- [init] file written by VTK in three encodings comes back unchanged -----------------------------------
fields = [("density", vtk.vtkDoubleArray, 1, lambda x, y, z: (1 + 0.01 * math.sin(0.3 * x + 0.2 * y),)),
          ("velocity", vtk.vtkDoubleArray, 3, lambda x, y, z: (0.01 * math.cos(0.4 * z), -0.003 * y / N, 0.002))]
for mode in ["ascii", "binary", "appended"]:
    src = os.path.join(d, "init_%s.vti" % mode)
    write_vti(src, fields, mode)
    write(os.path.join(d, "init.ini"), cavity.replace("[run]", "[init]\nfile = init_%s.vti\n[run]" % mode))
    rc, out, err = run(["run", "init.ini", "--out", "I" + mode, "--quiet"], d)
    check(rc == 0, "init from VTK %s file: exit 0 (%s)" % (mode, err.strip()))
    if rc:
        continue
    ref = read_vti(src).GetPointData()
    got = read_vti(os.path.join(d, "I" + mode, "fields_000000.vti")).GetPointData()
    wr = wu = 0.0
    for i in range(N ** 3):
        if i >= N * N * (N - 1):
            continue  # lid
        wr = max(wr, abs(got.GetArray("density").GetValue(i) - ref.GetArray("density").GetValue(i)))
        wu = max(wu, max(abs(got.GetArray("velocity").GetComponent(i, k) - ref.GetArray("velocity").GetComponent(i, k))
                         for k in range(3)))
    # Equilibrium then moments again: exact up to the rounding of a 19-term sum (1e-14 of values ~ 1).
    check(wr < 1e-14 and wu < 1e-15, "init from VTK %s file: fields equal VTK's reading (%.1e, %.1e)" % (mode, wr, wu))

# --- voxel geometry from VTK (appended base64) and raw --------------------------------------------------
def voxel(x, y, z):
    return (0 if (x - 8) ** 2 + (y - 8) ** 2 < 9 else 1,)  # a solid rod along z


write_vti(os.path.join(d, "geo.vti"), [("type", vtk.vtkUnsignedCharArray, 1, voxel)], "appended")
write(os.path.join(d, "geo.raw"), bytes(voxel(x, y, z)[0] for z in range(N) for y in range(N) for x in range(N)), "wb")
base = cavity.replace("[wall.lid]\nshape = box\nmin = 0 0 15\nmax = 15 15 15\nvelocity = 0.05 0 0\n", "")
for name, sec in [("vti", "[voxels.rod]\nfile = geo.vti\n"), ("raw", "[voxels.rod]\nfile = geo.raw\ndims = 16 16 16\n")]:
    write(os.path.join(d, "vox.ini"), base + sec)
    rc, out, err = run(["run", "vox.ini", "--out", "V" + name, "--quiet"], d)
    check(rc == 0, "voxel %s geometry: exit 0 (%s)" % (name, err.strip()))
    if rc:
        continue
    typ = read_vti(os.path.join(d, "V" + name, "fields_000000.vti")).GetPointData().GetArray("type")
    diff = sum(typ.GetValue(idx(x, y, z)) != voxel(x, y, z)[0] for z in range(N) for y in range(N) for x in range(N))
    check(diff == 0, "voxel %s geometry: output type array equals the file node for node" % name)

# --- primitives mark exactly the nodes inside them ------------------------------------------------------
shapes = ("[solid.box]\nshape = box\nmin = 1 2 3\nmax = 4.5 6 7\n"
          "[solid.ball]\nshape = sphere\ncenter = 10 10 10\nradius = 3.5\n"
          "[solid.rod]\nshape = cylinder\np0 = 2 12 2\np1 = 12 12 12\nradius = 1.5\n"
          "[solid.pipe]\nshape = cylinder\ncenter = 12 3 8\naxis = z\nlength = 6\nradius = 2\n")


def inside(x, y, z):
    if 1 <= x <= 4.5 and 2 <= y <= 6 and 3 <= z <= 7:
        return True
    if (x - 10) ** 2 + (y - 10) ** 2 + (z - 10) ** 2 <= 3.5 ** 2:
        return True
    a = (10, 0, 10)  # rod axis p1 - p0
    dx = (x - 2, y - 12, z - 2)
    t = sum(dx[k] * a[k] for k in range(3)) / 200.0
    if 0 <= t <= 1 and sum((dx[k] - t * a[k]) ** 2 for k in range(3)) <= 1.5 ** 2:
        return True
    return 5 <= z <= 11 and (x - 12) ** 2 + (y - 3) ** 2 <= 4


write(os.path.join(d, "shapes.ini"), base + shapes)
rc, out, err = run(["run", "shapes.ini", "--out", "S", "--quiet"], d)
check(rc == 0, "shapes case: exit 0 (%s)" % err.strip())
sol = read_vti(os.path.join(d, "S", "fields_000000.vti")).GetPointData().GetArray("solid")
want = [inside(x, y, z) for z in range(N) for y in range(N) for x in range(N)]
diff = sum(bool(sol.GetValue(i)) != want[i] for i in range(N ** 3))
check(diff == 0 and sum(want) > 300, "box, sphere, two cylinders: solid mask equals an independent point test (%d solid)" % sum(want))

# --- random spheres: porosity reached, deterministic in the seed ---------------------------------------
def porosity_of(outdir):
    s = read_vti(os.path.join(d, outdir, "fields_000000.vti")).GetPointData().GetArray("solid")
    return [s.GetValue(i) for i in range(N ** 3)]


sp = base.replace("nx = 16", "nx = 16").replace("[run]", "[spheres.bed]\ndiameter = 5\nporosity = 0.6\nseed = %d\n[run]")
masks = {}
for seed in (7, 7, 8):
    write(os.path.join(d, "sp.ini"), sp % seed)
    outdir = "P%d_%d" % (seed, len(masks))
    rc, out, err = run(["run", "sp.ini", "--out", outdir, "--quiet"], d)
    check(rc == 0, "random spheres seed %d: exit 0 (%s)" % (seed, err.strip()))
    masks[outdir] = (seed, porosity_of(outdir))
(m1, m2, m3) = [masks[k][1] for k in sorted(masks, key=lambda k: int(k.split("_")[1]))]
por = 1 - sum(m1) / N ** 3
# Spheres are added until the porosity is at or below the target; one sphere of diameter 5 covers at most
# 81 nodes (lattice points within radius 2.5), 81/4096 = 0.02, so the result lies in (0.58, 0.6].
check(0.6 - 81.0 / N ** 3 < por <= 0.6, "porosity %.4f within one sphere below the target 0.6" % por)
check(m1 == m2, "same seed, same geometry")
check(m1 != m3, "different seed, different geometry")

# --- the shipped spheres case is pressure-driven: face planes follow the domain size -------------------
# Shrunk to 16^3 (diameter 5): node types 2 (density 1.001) fill the whole x = 0 plane and 3 (density 1) the
# whole x = 15 plane, painted over the spheres; nothing else is a boundary node.
cases = sys.argv[2] if len(sys.argv) > 2 else None
if cases:
    rc, out, err = run(["run", os.path.join(cases, "spheres.ini"), "--steps", "0", "--out", "SPH", "--quiet",
                        "--backend", "cpu"] + sum([["--set", "domain.n%s=%d" % (a, N)] for a in "xyz"], []) +
                       ["--set", "spheres.bed.diameter=5"], d)
    check(rc == 0, "shipped spheres case at 16^3: exit 0 (%s)" % err.strip())
    if rc == 0:
        t = read_vti(os.path.join(d, "SPH", "fields_000000.vti")).GetPointData().GetArray("type")
        ty = [t.GetValue(i) for i in range(N ** 3)]
        x0 = [ty[idx(0, y, z)] for z in range(N) for y in range(N)]
        x1 = [ty[idx(N - 1, y, z)] for z in range(N) for y in range(N)]
        inner = [ty[idx(x, y, z)] for z in range(N) for y in range(N) for x in range(1, N - 1)]
        check(set(x0) == {2} and set(x1) == {3} and set(inner) <= {0, 1} and 0 in inner,
              "spheres: x = 0 plane all type 2, x = 15 all type 3, spheres (type 0) inside")
cleanup(d)
finish()
