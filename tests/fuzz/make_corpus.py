#!/usr/bin/env python3
"""Builds the fuzz targets' seed corpora (tests/fuzz/corpus/<target>/) from cases/: small, valid inputs the
fuzzer mutates. Usage: make_corpus.py TESSERA_BINARY [OUT_DIR]. The committed corpus was made with it; run it
again when a reader's format changes."""
import base64
import os
import shutil
import struct
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
cases = os.path.join(root, "cases")
tessera = sys.argv[1]
out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "corpus")


def put(target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


# Case files: every .ini of cases/ and cases/validation/ (the fuzz target overrides the domain size).
for sub in ("", "validation"):
    for n in sorted(os.listdir(os.path.join(cases, sub))):
        if n.endswith(".ini"):
            put("case", (sub + "_" if sub else "") + n, open(os.path.join(cases, sub, n), "rb").read())

# STL: the first 48 facets of the bent tube (its first straight segment: a short tube with two openings), and
# the first 80 triangles of the binary sphere (an open cap), ASCII and binary.
text = open(os.path.join(cases, "stl", "bent_tube.stl")).read()
facets = text.split("facet normal")[1:49]
put("stl_ascii", "tube48.stl", "solid tube\n" + "".join("  facet normal" + f.split("endsolid")[0] for f in facets)
    + "endsolid tube\n")
for name, n in (("bent_tube_binary.stl", 48), ("sphere_binary.stl", 80)):
    b = open(os.path.join(cases, "stl", name), "rb").read()
    put("stl_binary", name.replace(".stl", "_%d.stl" % n), b[:80] + struct.pack("<I", n) + b[84:84 + 50 * n])

# .vti and restart files written by tessera itself on an 8^3 (fields) and 4^3 (restart) cavity.
case8 = ("[domain]\nnx = 8\nny = 8\nnz = 8\n[physics]\ntau = 0.8\n[wall.lid]\nshape = box\nmin = 0 0 7\nmax = 7 7 7\n"
         "velocity = 0.05 0 0\n[run]\nsteps = 2\noutput_every = 2\nmonitor_every = 2\nthreads = 1\nbackend = cpu\n")
tmp = tempfile.mkdtemp()
try:
    open(os.path.join(tmp, "c8.ini"), "w").write(case8)
    open(os.path.join(tmp, "c4.ini"), "w").write(case8.replace("= 8\n", "= 4\n").replace(" 7", " 3"))
    subprocess.run([tessera, "run", "c8.ini", "--steps", "0", "--out", "o8", "--quiet"], stdout=subprocess.DEVNULL, cwd=tmp, check=True)
    vti = open(os.path.join(tmp, "o8", "fields_000000.vti"), "rb").read()
    put("vti_voxels", "fields8.vti", vti)
    put("vti_init", "fields8.vti", vti)
    # The other encodings the reader takes: ascii and inline base64 (UInt32 headers), written here.
    for p in ("", "single"):
        subprocess.run([tessera, "run", "c4.ini", "--steps", "2", "--checkpoint-every", "2", "--out", "o4" + p,
                        "--quiet"] + (["--precision", "single"] if p else []), cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL)
        put("restart", "cavity4_%s.tsr" % (p or "double"), open(os.path.join(tmp, "o4" + p, "restart.tsr"), "rb").read())
finally:
    shutil.rmtree(tmp)


def vti_doc(arrays):
    body = "".join('<DataArray type="%s" Name="%s" NumberOfComponents="%d" format="%s">%s</DataArray>\n'
                   % a for a in arrays)
    return ('<?xml version="1.0"?>\n<VTKFile type="ImageData" version="1.0" byte_order="LittleEndian">\n'
            '<ImageData WholeExtent="0 7 0 7 0 7" Origin="0 0 0" Spacing="1 1 1">\n<Piece Extent="0 7 0 7 0 7">\n'
            '<PointData>\n%s</PointData>\n</Piece>\n</ImageData>\n</VTKFile>\n' % body)


types = [2 if z == 7 else 1 for z in range(8) for y in range(8) for x in range(8)]
put("vti_voxels", "ascii8.vti", vti_doc([("UInt8", "type", 1, "ascii", " ".join(map(str, types)))]))
raw = bytes(types)
put("vti_voxels", "base64_8.vti", vti_doc([("UInt8", "type", 1, "binary",
                                            base64.b64encode(struct.pack("<I", len(raw)) + raw).decode())]))
rho = struct.pack("<512f", *([1.0] * 512))
u = struct.pack("<1536f", *([0.0] * 1536))
put("vti_init", "base64_8.vti", vti_doc([("Float32", "density", 1, "binary",
                                          base64.b64encode(struct.pack("<I", len(rho)) + rho).decode()),
                                         ("Float32", "velocity", 3, "binary",
                                          base64.b64encode(struct.pack("<I", len(u)) + u).decode())]))
put("raw_voxels", "cavity8.raw", raw)
