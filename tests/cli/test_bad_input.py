"""Every bad-input path of `tessera run`: exit status 2, one line on stderr naming the file and line (or the
--set option) and what was expected, and nothing written (no output folder, no temporary file)."""
import os
import sys
from tess_cli_test import SMALL_CASE, check, check_bad_input, cleanup, files_under, finish, run, scratch, write


def replace(old, new):
    assert old in SMALL_CASE
    return SMALL_CASE.replace(old, new)


def line_of(text, needle):
    return [i + 1 for i, l in enumerate(text.splitlines()) if needle in l][0]


# (description, case text or None for SMALL_CASE, extra args, expected substrings of the message)
T = []
bad_tau = replace("tau = 0.8", "tau = 0.4")
T.append(("tau <= 0.5", bad_tau, [], ["case.ini:%d:" % line_of(bad_tau, "tau ="), "key 'tau' in [physics]",
                                      "expected a number > 0.5, got '0.4'"]))
T.append(("tau not a number", replace("tau = 0.8", "tau = fast"), [], ["key 'tau' in [physics]", "got 'fast'"]))
T.append(("negative size", replace("nx = 16", "nx = -16"), [], ["case.ini:4:", "key 'nx' in [domain]",
                                                                 "expected an integer in [1, 4096]"]))
T.append(("missing size", replace("nz = 16\n", ""), [], ["[domain]: missing key 'nz'"]))
uk = replace("tau = 0.8", "tau = 0.8\ntua = 0.9")
T.append(("unknown key", uk, [], ["case.ini:%d:" % line_of(uk, "tua"), "unknown key 'tua' in [physics]"]))
T.append(("unknown section", SMALL_CASE + "[phyiscs]\ntau = 0.7\n", [], ["unknown section [phyiscs]"]))
T.append(("duplicate key", replace("tau = 0.8", "tau = 0.8\ntau = 0.9"), [], ["key 'tau' in [physics] given twice"]))
T.append(("syntax error", replace("[physics]", "[physics"), [], ["case.ini:", "expected '[section]'"]))
T.append(("wrong vector", replace("velocity = 0.05 0 0", "velocity = 0.05 0"), [],
          ["key 'velocity' in [wall.lid]", "expected three numbers"]))
T.append(("unknown shape", replace("shape = box", "shape = cube"), [],
          ["key 'shape' in [wall.lid]", "expected box, sphere or cylinder, got 'cube'"]))
T.append(("box outside", replace("min = 0 0 15", "min = 20 20 20").replace("max = 15 15 15", "max = 30 30 30"), [],
          ["[wall.lid]: the shape covers no node"]))
T.append(("bad collision", replace("tau = 0.8", "tau = 0.8\ncollision = bgk"), [], ["key 'collision' in [physics]"]))
T.append(("re without length", replace("tau = 0.8", "re = 100\nvelocity = 0.05"), [], ["re needs length"]))
T.append(("tau and re", replace("tau = 0.8", "tau = 0.8\nre = 100\nvelocity = 0.05\nlength = 10"), [],
          ["either tau or re"]))
T.append(("density bounds", replace("threads = 1", "threads = 1\ndensity_min = 2\ndensity_max = 1"), [],
          ["density_max (1) must exceed density_min (2)"]))
T.append(("unknown backend in case", replace("backend = cpu", "backend = quantum"), [],
          ["key 'backend' in [run]", "expected auto or a built backend", "got 'quantum'"]))
T.append(("unknown pattern", replace("threads = 1", "threads = 1\npattern = zz"), [], ["key 'pattern' in [run]", "got 'zz'"]))
T.append(("periodic not multiple of 4", replace("nx = 16", "nx = 15\nperiodic = x y"), [],
          ["case.ini: periodic axis x has 15 nodes"]))
T.append(("inlet without normal", SMALL_CASE + "[inlet.in]\nshape = sphere\ncenter = 8 8 8\nradius = 2\n"
          "velocity = 0.01 0 0\n", [], ["[inlet.in]: cannot infer the outward normal"]))
T.append(("outlet density missing", SMALL_CASE + "[outlet.out]\nshape = box\nmin = 15 0 0\nmax = 15 15 14\n", [],
          ["[outlet.out]: missing key 'density'"]))
T.append(("voxel raw wrong size", SMALL_CASE + "[voxels.v]\nfile = geo.raw\ndims = 16 16 16\n", [],
          ["voxel file", "geo.raw has 4000 bytes, expected 4096 (16x16x16 uint8)"]))
T.append(("voxel dims mismatch", SMALL_CASE + "[voxels.v]\nfile = geo.raw\ndims = 10 10 40\n", [],
          ["key 'dims' in [voxels.v]", "expected the domain size 16 16 16"]))
vm = SMALL_CASE + "[voxels.v]\nfile = nothere.vti\n"
T.append(("voxel file missing", vm, [], ["case.ini:%d: voxel file nothere.vti: cannot open" % line_of(vm, "nothere")]))
T.append(("voxel value beyond materials", SMALL_CASE + "[voxels.v]\nfile = geo7.raw\ndims = 16 16 16\n", [],
          ["node type 7", "materials 0..2"]))
T.append(("init file not vti", replace("[run]", "[init]\nfile = geo.raw\n[run]"), [],
          ["geo.raw", "expected a VTK XML ImageData file"]))
T.append(("--set bad value", None, ["--set", "physics.tau=0.5"], ["--set physics.tau: expected a number > 0.5, got '0.5'"]))
T.append(("--set unknown key", None, ["--set", "physics.viscosity=0.1"], ["--set physics.viscosity", "unknown key"]))
T.append(("--set malformed", None, ["--set", "tau"], ["--set tau: expected section.key=value"]))
T.append(("--backend unknown", None, ["--backend", "quantum"], ["tessera: --backend: expected auto or a built backend", "got 'quantum'"]))
T.append(("--steps negative", None, ["--steps", "-5"], ["tessera: --steps: expected an integer", "got '-5'"]))
T.append(("--precision wrong", None, ["--precision", "quad"], ["expected double or single, got 'quad'"]))
T.append(("unknown option", None, ["--fast"], ["unknown option '--fast'"]))
T.append(("--check unknown backend", None, ["--check", "quantum"], ["--check: unknown backend 'quantum'"]))
T.append(("--check unknown pattern", None, ["--check", "cpu:zz"], ["--check: unknown pattern 'zz'"]))
T.append(("restart precision mismatch", None, ["--restart", "single.tsr"], ["single.tsr: restart file does not match the case (precision"]))
T.append(("inlet method unknown", SMALL_CASE + "[inlet.in]\nshape = box\nmin = 0 0 0\nmax = 0 15 14\nvelocity = 0.01 0 0\n"
          "method = magic\n", [], ["key 'method' in [inlet.in]", "expected zou-he, fd or nee, got 'magic'"]))
T.append(("init file of the wrong size", replace("[run]", "[init]\nfile = f8.vti\n[run]"), [],
          ["[init] file", "f8.vti has 8x8x8 nodes, expected the domain's 16x16x16"]))
T.append(("missing case file", None, ["__nofile__"], ["no such case file"]))
T.append(("restart not a restart file", None, ["--restart", "geo.raw"], ["geo.raw: not a tessera restart file"]))
T.append(("face and min", SMALL_CASE + "[outlet.o]\nface = +x\nmin = 0 0 0\ndensity = 1\n", [],
          ["[outlet.o]: give either face or shape (with min, max), not both"]))
T.append(("face unknown", SMALL_CASE + "[outlet.o]\nface = x\ndensity = 1\n", [],
          ["key 'face' in [outlet.o]", "got 'x'"]))
T.append(("mr_layer negative", replace("threads = 1", "threads = 1\nmr_layer = -16"), [],
          ["key 'mr_layer' in [run]", "got '-16'"]))
T.append(("mr_copies out of range", replace("threads = 1", "threads = 1\nmr_copies = 3"), [],
          ["key 'mr_copies' in [run]", "got '3'"]))
# Velocity profiles of inlets (docs/case-format.md, "Inlet velocity profiles").
T.append(("profile on an outlet", SMALL_CASE + "[outlet.o]\nface = +x\ndensity = 1\nprofile = parabolic\n", [],
          ["key 'profile' in [outlet.o]: an outlet prescribes a density, not a velocity profile"]))
T.append(("parabolic profile with zou-he", SMALL_CASE + "[inlet.in]\nface = -x\nvelocity = 0.01 0 0\n"
          "profile = parabolic\n", [], ["key 'profile' in [inlet.in]: parabolic needs method = nee (the zou-he inlet"]))
T.append(("profile unknown", SMALL_CASE + "[inlet.in]\nface = -x\nvelocity = 0.01 0 0\nmethod = nee\nprofile = cubic\n",
          [], ["key 'profile' in [inlet.in]", "expected uniform, parabolic or womersley, got 'cubic'"]))
T.append(("parabolic profile on a tilted normal", SMALL_CASE + "[inlet.in]\nface = -x\nvelocity = 0.01 0 0\n"
          "method = nee\nnormal = -1 0.2 0\nprofile = parabolic\n", [], ["parabolic needs an axis-aligned normal"]))
T.append(("womersley profile on a face", SMALL_CASE + "[inlet.in]\nface = -x\nvelocity = 0.01 0 0\nmethod = nee\n"
          "profile = womersley\n", [], ["key 'profile' in [inlet.in]: womersley needs a circular opening", "got a face"]))
T.append(("womersley cylinder across the normal", SMALL_CASE + "[inlet.in]\nshape = cylinder\np0 = 0 2 8\n"
          "p1 = 0 14 8\nradius = 3\nnormal = -x\nvelocity = 0.01 0 0\nmethod = nee\nprofile = womersley\n", [],
          ["womersley needs the cylinder's axis (p0 to p1) along the inlet's normal"]))
# [forces] and body keys (docs/case-format.md, "Forces on bodies").
BODY = replace("velocity = 0.05 0 0", "velocity = 0.05 0 0\nbody = yes")
T.append(("forces without a body", SMALL_CASE + "[forces]\nref_velocity = 0.05\nref_area = 10\n", [],
          ["[forces]: no body to report: set body = yes"]))
T.append(("forces velocity without area", BODY + "[forces]\nref_velocity = 0.05\n", [],
          ["[forces]: ref_velocity and ref_area go together"]))
T.append(("forces negative area", BODY + "[forces]\nref_velocity = 0.05\nref_area = -1\n", [],
          ["key 'ref_area' in [forces]", "got '-1'"]))
T.append(("forces bad axis", BODY + "[forces]\ndrag_axis = w\n", [],
          ["key 'drag_axis' in [forces]", "expected x, y or z, got 'w'"]))
T.append(("forces same axes", BODY + "[forces]\ndrag_axis = y\n", [], ["drag_axis and lift_axis are both y"]))
T.append(("forces unknown key", BODY + "[forces]\nref_lenght = 3\n", [], ["unknown key 'ref_lenght' in [forces]"]))
T.append(("body not yes or no", BODY.replace("body = yes", "body = maybe"), [],
          ["key 'body' in [wall.lid]", "expected no or yes, got 'maybe'"]))
T.append(("body on a fluid section", SMALL_CASE + "[fluid.f]\nshape = box\nmin = 2 2 2\nmax = 3 3 3\nbody = yes\n", [],
          ["unknown key 'body' in [fluid.f]"]))
T.append(("body name twice", BODY + "[solid.lid]\nshape = sphere\ncenter = 8 8 8\nradius = 2\nbody = yes\n", [],
          ["[solid.lid]: a body named 'lid' exists already"]))
# The AA pattern holds canonical populations after even steps only: odd ends, intervals and restart steps are
# refused before any step is taken, naming the key.
T.append(("AA odd steps", None, ["--pattern", "aa", "--steps", "41"],
          ["[run] steps: the AA pattern needs an even number of steps, got 41"]))
T.append(("AA odd monitor interval", None, ["--pattern", "aa", "--set", "run.monitor_every=5"],
          ["[run] monitor_every: the AA pattern needs an even monitor interval, got 5"]))
T.append(("AA odd output interval", None, ["--pattern", "aa", "--set", "run.output_every=7"],
          ["[run] output_every: the AA pattern needs an even output interval, got 7"]))
T.append(("AA odd checkpoint interval", None, ["--pattern", "aa", "--checkpoint-every", "3"],
          ["[run] checkpoint_every: the AA pattern needs an even checkpoint interval, got 3"]))
T.append(("AA reference with odd output interval", None, ["--check", "cpu:aa", "--set", "run.output_every=7"],
          ["[run] output_every: the AA pattern needs an even output interval, got 7"]))
T.append(("AA restart at an odd step", None, ["--pattern", "aa", "--restart", "odd.tsr"],
          ["odd.tsr: restart file is at step 1: the AA pattern needs an even step"]))

# STL surfaces ([stl.NAME], docs/case-format.md): unreadable, truncated or malformed files and holes that are not
# openings give one line naming the case line, the STL file and the place.
STL = "[stl.v]\nfile = %s\nscale = 2\ntranslate = 8 8 8\n"
sm = SMALL_CASE + STL % "nothere.stl"
T.append(("STL file missing", sm, [], ["case.ini:%d: [stl.v]: " % line_of(sm, "nothere.stl"), "nothere.stl: cannot open STL file"]))
T.append(("STL binary truncated", SMALL_CASE + STL % "trunc.stl", [],
          ["[stl.v]", "trunc.stl: binary STL header says 8 triangles (84 + 50 x 8 = 484 bytes), the file has 400 bytes"]))
T.append(("STL ASCII malformed", SMALL_CASE + STL % "typo.stl", [], ["typo.stl:3: ASCII STL: expected 'outer', got 'outr'"]))
T.append(("STL hole not a loop", SMALL_CASE + STL % "bowtie.stl", [],
          ["bowtie.stl: the surface has a hole that is not a simple closed loop: 4 boundary edges meet at the corner (0, 0, 1)"]))
T.append(("STL opening out of range", SMALL_CASE + STL % "octa.stl" + "[outlet.o]\nopening = v.opening0\ndensity = 1\n", [],
          ["key 'opening' in [outlet.o]", "expected an opening of [stl.v], which has none"]))
T.append(("STL inside unknown", SMALL_CASE + STL % "octa.stl" + "inside = air\n", [], ["key 'inside' in [stl.v]", "got 'air'"]))

# Readers validate sizes before they allocate (docs/reliability.md): crafted .vti files whose WholeExtent wraps
# the byte count to 0 (2^21 nodes a side: 2^63 x 8 bytes; a heap overflow, exit 134/139, before) or spans
# INT_MIN..INT_MAX (a signed overflow under UBSan, before), as voxel file and as [init] file; files with a
# NUL byte, a line longer than the limit (a 100,000-character key on line 11 was reported at line 513, before),
# a hexadecimal float; a folder as STL file; corrupt restart files.
vx = SMALL_CASE + "[voxels.v]\nfile = wraps.vti\n"
T.append(("voxel vti WholeExtent wraps", vx, [],
          ["case.ini:%d: voxel file wraps.vti: WholeExtent \"0 2097151 0 2097151 0 2097151\" gives "
           "2097152x2097152x2097152 nodes, more than the domain's 4096" % line_of(vx, "wraps.vti")]))
T.append(("voxel vti WholeExtent INT_MIN..INT_MAX", SMALL_CASE + "[voxels.v]\nfile = limits.vti\n", [],
          ["voxel file limits.vti: WholeExtent \"-2147483648 2147483647 0 0 0 0\" gives 4294967296x1x1 nodes"]))
T.append(("init vti WholeExtent wraps", replace("[run]", "[init]\nfile = wraps.vti\n[run]"), [],
          ["wraps.vti: WholeExtent \"0 2097151 0 2097151 0 2097151\" gives 2097152x2097152x2097152 nodes, more "
           "than the domain's 4096"]))
T.append(("init vti WholeExtent INT_MIN..INT_MAX", replace("[run]", "[init]\nfile = limits.vti\n[run]"), [],
          ["limits.vti: WholeExtent \"-2147483648 2147483647 0 0 0 0\" gives 4294967296x1x1 nodes"]))
long_key = replace("[physics]\n", "[physics]\n" + "k" * 100000 + " = 1\n")
T.append(("100,000-character line", long_key, [],
          ["case.ini:%d: line of 100004 characters: expected at most 198 characters a line" % line_of(long_key, "kkk")]))
at_limit = replace("[physics]\n", "[physics]\n" + "kk = " + "v" * 193 + "\n")
T.append(("198-character line read whole (unknown key named at its line)", at_limit, [],
          ["case.ini:%d: unknown key 'kk' in [physics]" % line_of(at_limit, "vvv")]))
long_name = replace("[physics]\n", "[physics]\n" + "k" * 70 + " = 1\n")
T.append(("key name too long", long_name, [],
          ["case.ini:%d: key '%s' in [physics]: key name of 70 characters, expected at most 63" %
           (line_of(long_name, "kkk"), "k" * 70)]))
over = replace("[physics]\n", "[physics]\n" + "k" * 195 + " = 1\n")
T.append(("199-character line", over, [],
          ["case.ini:%d: line of 199 characters: expected at most 198" % line_of(over, "kkk")]))
nul = replace("tau = 0.8", "tau = 0\0.8")
T.append(("NUL byte", nul, [], ["case.ini:%d: a NUL byte (column 8): expected a text file" % line_of(nul, "tau")]))
hexf = replace("tau = 0.8", "tau = 0x1p0")
T.append(("hexadecimal float", hexf, [], ["case.ini:%d: key 'tau' in [physics]: expected a number > 0.5, got '0x1p0'"
                                          % line_of(hexf, "tau")]))
T.append(("hexadecimal float in a vector", replace("velocity = 0.05 0 0", "velocity = 0x1p-4 0 0"), [],
          ["key 'velocity' in [wall.lid]: expected three numbers separated by spaces, got '0x1p-4 0 0'"]))
T.append(("sphere diameter below 1 (hung, before)", SMALL_CASE + "[spheres.s]\ndiameter = 1e-300\nporosity = 0.5\n", [],
          ["key 'diameter' in [spheres.s]: expected a number >= 1, got '1e-300'"]))
T.append(("sphere region far outside (an out-of-range conversion to int, undefined behaviour, before)", SMALL_CASE +
          "[spheres.s]\ndiameter = 2\nporosity = 0.5\nmin = 1e300 0 0\nmax = 2e300 -1e300 3\n", [],
          ["[spheres.s]: the region min..max holds no node of the domain"]))
T.append(("folder as STL file", SMALL_CASE + STL % "/tmp", [],
          ["[stl.v]: /tmp: cannot read STL file: it is a folder, not a regular file"]))
T.append(("restart: flipped byte", None, ["--restart", "flip.tsr"], ["flip.tsr: corrupt restart file: CRC-32 "]))
T.append(("restart: trailing garbage", None, ["--restart", "trail.tsr"],
          ["trail.tsr: corrupt restart file: 622664 bytes, the header's 77824 values of 8 bytes need 622656 "
           "(trailing bytes)"]))
T.append(("restart: truncated", None, ["--restart", "short.tsr"], ["short.tsr: corrupt restart file:", "(truncated)"]))
T.append(("restart: negative step", None, ["--restart", "neg.tsr"],
          ["neg.tsr: corrupt restart file: step -5 (expected >= 0)"]))
T.append(("restart: another lattice", None, ["--restart", "odd.tsr", "--set", "lattice.model=D3Q27", "--set",
                                             "physics.collision=regularized"],
          ["odd.tsr: restart file does not match the case (values: 77824 population values, the case needs 110592 (another lattice?))"]))
T.append(("restart: a folder", None, ["--restart", "sgl_dir"], ["sgl_dir: cannot read the restart file: it is a folder"]))

d = scratch()
write(os.path.join(d, "geo.raw"), b"\x01" * 4000, "wb")
write(os.path.join(d, "geo7.raw"), b"\x07" * 4096, "wb")
# An octahedron |x| + |y| + |z| = 1 as STL: ASCII (closed), binary whose header promises 8 triangles cut to 400
# bytes, ASCII with a typo on line 3, and ASCII without two faces that touch only at the corner (0, 0, 1).
import struct
octa = [((sx, 0, 0), (0, sy, 0), (0, 0, sz)) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
def ascii_stl(tris):
    return "solid o\n" + "".join("facet normal 0 0 0\nouter loop\n" + "".join("vertex %g %g %g\n" % v for v in t) +
                                  "endloop\nendfacet\n" for t in tris) + "endsolid o\n"
write(os.path.join(d, "octa.stl"), ascii_stl(octa))
write(os.path.join(d, "typo.stl"), ascii_stl(octa).replace("outer", "outr", 1))
write(os.path.join(d, "bowtie.stl"), ascii_stl([t for t in octa if t[2][2] < 0 or t[0][0] != t[1][1]]))
binary = b"solid but binary".ljust(80, b"\0") + struct.pack("<I", 8) + b"".join(
    struct.pack("<12fH", 0, 0, 0, *[c for v in t for c in v], 0) for t in octa)
write(os.path.join(d, "trunc.stl"), binary[:400], "wb")
write(os.path.join(d, "s.ini"), SMALL_CASE)
rc, _, _ = run(["run", "s.ini", "--precision", "single", "--steps", "1", "--checkpoint-every", "1", "--out", "sgl", "--quiet"], d)
os.rename(os.path.join(d, "sgl", "restart.tsr"), os.path.join(d, "single.tsr"))
import shutil
shutil.rmtree(os.path.join(d, "sgl"))
# A double-precision restart at step 1 (AB) for the AA odd-restart test.
rc, _, _ = run(["run", "s.ini", "--steps", "1", "--checkpoint-every", "1", "--out", "odd", "--quiet"], d)
os.rename(os.path.join(d, "odd", "restart.tsr"), os.path.join(d, "odd.tsr"))
shutil.rmtree(os.path.join(d, "odd"))
# Corrupt copies of the double restart: a flipped data byte, 8 bytes of trailing garbage, cut short, and a step
# of -5 with the checksum recomputed (so that only the step check can refuse it).
import zlib
good = open(os.path.join(d, "odd.tsr"), "rb").read()
flip = bytearray(good)
flip[5000] ^= 0x10
write(os.path.join(d, "flip.tsr"), bytes(flip), "wb")
write(os.path.join(d, "trail.tsr"), good + b"garbage\n", "wb")
write(os.path.join(d, "short.tsr"), good[:-8], "wb")
neg = bytearray(good)
neg[16:24] = struct.pack("<q", -5)
neg[60:64] = b"\0\0\0\0"
neg[60:64] = struct.pack("<I", zlib.crc32(bytes(neg)))
write(os.path.join(d, "neg.tsr"), bytes(neg), "wb")
os.mkdir(os.path.join(d, "sgl_dir"))
# .vti files whose WholeExtent wraps the byte count or spans INT_MIN..INT_MAX.
def crafted_vti(extent, names):
    return ('<?xml version="1.0"?>\n<VTKFile type="ImageData" version="1.0" byte_order="LittleEndian" '
            'header_type="UInt64">\n<ImageData WholeExtent="%s" Origin="0 0 0" Spacing="1 1 1">\n<Piece Extent="%s">\n'
            '<PointData>\n%s</PointData>\n</Piece>\n</ImageData>\n<AppendedData encoding="raw">\n_' % (extent, extent, "".join(
                '<DataArray type="Float64" Name="%s" NumberOfComponents="%d" format="appended" offset="0"/>\n' % n
                for n in names))).encode() + struct.pack("<Q", 0) + b"\n</AppendedData>\n</VTKFile>\n"
fields = [("type", 1), ("density", 1), ("velocity", 3)]
write(os.path.join(d, "wraps.vti"), crafted_vti("0 2097151 0 2097151 0 2097151", fields), "wb")
write(os.path.join(d, "limits.vti"), crafted_vti("-2147483648 2147483647 0 0 0 0", fields), "wb")
# An 8^3 field file for the wrong-size [init] file test.
write(os.path.join(d, "s8.ini"), SMALL_CASE.replace("16", "8").replace(" 15", " 7"))
rc, _, _ = run(["run", "s8.ini", "--steps", "0", "--out", "s8", "--quiet"], d)
os.rename(os.path.join(d, "s8", "fields_000000.vti"), os.path.join(d, "f8.vti"))
shutil.rmtree(os.path.join(d, "s8"))
before = files_under(d)
for what, text, args, expect in T:
    case = os.path.join(d, "case.ini")
    write(case, text if text is not None else SMALL_CASE)
    argv = ["run"] + (["case.ini"] if "__nofile__" not in args else ["nosuch.ini"]) + \
        [a for a in args if a != "__nofile__"] + ["--out", "out"]
    rc, out, err = run(argv, d)
    check_bad_input(what, rc, err, expect)
    left = [f for f in files_under(d) if f not in before and f != "case.ini"]
    check(not left and not os.path.exists(os.path.join(d, "out")), "%s: nothing written (found %s)" % (what, left))

# Oversized domains fail before allocating with exit status 4 and one line giving the bytes needed and
# available. An address-space limit (which tessera honours as the memory available) makes this independent of
# the machine: 1 GB cannot hold the 1.728e9-byte node-type grid of 1200^3; 4 GB holds the 64 MB grid of 400^3
# and its 3.6 GB output fields (57 bytes a node) but not the CPU backend's AB populations (31 GB).
import resource
import subprocess
import time


def limited(gb):
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (int(gb * 1e9), int(gb * 1e9)))


# AddressSanitizer reserves terabytes of shadow address space at start, so an address-space limit cannot be
# applied to a sanitized binary: those builds skip the two checks (the optimised build runs them).
oversized = [("node-type grid", 1.0, 1200, "[domain]: the 1200x1200x1200 node-type grid: "
                             "1728000000 bytes (1.7 GB) of host memory needed, 1000000000 bytes (1.0 GB) available"),
                            ("populations", 4.0, 400, "a run on 1000000 tiles (cpu backend, double, pattern ab): "
                             "31232000000 bytes (31.2 GB) of host memory needed, 4000000000 bytes (4.0 GB) available")]
if os.environ.get("TESSERA_SANITIZED") == "1":
    print("skip  oversized node-type grid and populations: sanitized build (address-space limits do not apply)")
    oversized = []
for what, gb, n, expect in oversized:
    write(os.path.join(d, "case.ini"), SMALL_CASE)
    t0 = time.time()
    p = subprocess.run([sys.argv[1], "run", "case.ini", "--out", "big"] +
                       sum([["--set", "domain.n%s=%d" % (a, n)] for a in "xyz"], []),
                       cwd=d, capture_output=True, text=True, preexec_fn=limited(gb), timeout=120,
                       env=dict(os.environ, OMP_WAIT_POLICY="passive"))
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    check(p.returncode == 4, "oversized %s: exit status %d (expected 4)" % (what, p.returncode))
    check(len(lines) == 1 and expect in lines[0], "oversized %s: one line containing %r (got %r)" % (what, expect, p.stderr.strip()))
    # Fails early: well under the minutes that allocating and touching the memory would take (0.03 s and 1 s here).
    check(time.time() - t0 < 30, "oversized %s: refused in %.1f s (< 30 s)" % (what, time.time() - t0))
    check(not os.path.exists(os.path.join(d, "big")), "oversized %s: nothing written" % what)

# A lattice Mach number above 0.3 is a warning, not an error: the run goes ahead (0 steps here).
write(os.path.join(d, "case.ini"), replace("velocity = 0.05 0 0", "velocity = 0.2 0 0"))
rc, out, err = run(["run", "case.ini", "--steps", "0", "--out", "machout"], d)
check(rc == 0 and "warning" in err and "Mach number 0.346" in err,
      "lid speed 0.2 (Ma = 0.2 sqrt(3) = 0.346): warning and exit 0 (rc %d, %r)" % (rc, err.strip()))

# An octahedron without one face: the hole is capped as wall, with a one-line warning naming the STL file and the
# open edges' count (it was capped silently, before); the run goes ahead.
write(os.path.join(d, "hole.stl"), ascii_stl(octa[1:]))
write(os.path.join(d, "case.ini"), SMALL_CASE + STL % "hole.stl")
rc, out, err = run(["run", "case.ini", "--steps", "0", "--out", "holeout"], d)
warn = [l for l in err.splitlines() if "warning" in l]
check(rc == 0 and len(warn) == 1 and "hole.stl: 1 opening with 3 open edges capped as wall" in warn[0],
      "octahedron minus a face: exit 0 and one warning line naming hole.stl and 3 open edges (rc %d, %r)"
      % (rc, err.strip()))

# validate: a bad option is status 2 before anything runs (a bare `tessera validate` runs the whole suite).
rc, out, err = run(["validate", "--frobnicate"], d)
check(rc == 2 and "unknown option" in err, "tessera validate --frobnicate: 'unknown option', status 2")
rc, out, err = run(["frobnicate"], d)
check(rc == 2 and "unknown command" in err, "unknown command: status 2")
cleanup(d)
finish()
