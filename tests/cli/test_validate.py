"""`tessera validate`. Argument "args": bad arguments exit with status 2, one line on stderr, nothing written.
Argument "quick": `tessera validate --quick --backend cpu --out DIR` exits 0 and writes DIR/report.md with a
header (backend, precision, date, commit), the expected rows, every row passed, reported or not run (never
failed), and the plots or the note that they were skipped. The physics tolerances are the suite's own
(docs/validation.md); this test checks that the rows are there and consistent with the exit status."""
import os
import re
import sys
from tess_cli_test import check, cleanup, files_under, finish, run, scratch

mode = sys.argv[3] if len(sys.argv) > 3 else "quick"

if mode == "args":
    bad = [
        (["--precision", "quad"], "--precision: expected double or single, got 'quad'"),
        (["--bogus"], "unknown option '--bogus'"),
        (["--only", "cavity3d"], "--only: unknown validation"),
        (["--only", "sphere:D3Q27"], "--only: unknown part in 'sphere:D3Q27'"),
        (["--only", "porous:D3Q19"], "--only: unknown part in 'porous:D3Q19'"),
        (["--only", "sphere:D3Q19+wet"], "--only: unknown part in 'sphere:D3Q19+wet'"),
        (["--only", "sphere:D3Q19+Re5"], "--only: unknown part in 'sphere:D3Q19+Re5'"),
        (["--threads", "-1"], "--threads: expected an integer"),
        (["--out"], "option --out needs a value"),
        (["--backend", "quantum"], "--backend:"),
        (["extra"], "unexpected argument 'extra'"),
    ]
    for args, msg in bad:
        d = scratch()
        code, out, err = run(["validate", "--quick", "--out", os.path.join(d, "v")] + args, d)
        lines = err.strip().splitlines()
        check(code == 2, "validate %s: exit status %d (expected 2)" % (" ".join(args), code))
        check(len(lines) == 1 and msg in lines[0], "validate %s: one line naming the problem: %r" % (" ".join(args), err))
        check(files_under(d) == [], "validate %s: nothing written (%s)" % (" ".join(args), files_under(d)))
        cleanup(d)
    code, out, err = run(["validate", "--help"], ".")
    check(code == 0 and "usage: tessera validate" in out, "validate --help: usage, exit 0")
    finish()

d = scratch()
outdir = os.path.join(d, "report")
code, out, err = run(["validate", "--quick", "--backend", "cpu", "--out", outdir, "--quiet"], d)
check(code == 0, "validate --quick exits 0 (got %d; stderr tail: %s)" % (code, err[-400:]))
path = os.path.join(outdir, "report.md")
check(os.path.isfile(path), "report.md written")
text = open(path).read() if os.path.isfile(path) else ""
for head in ["- backend: cpu", "precision: double", "- date: ", "git commit: ", "- mode: quick"]:
    check(head in text, "report header has %r" % head)
rows = [l for l in text.splitlines() if l.startswith("| ") and not l.startswith("| validation")]
results = [r.rstrip(" |").rsplit("|", 1)[-1].strip() for r in rows]
check(len(rows) >= 15, "report has at least 15 rows (got %d)" % len(rows))
check(all(r in ("pass", "reported", "not run") for r in results),
      "every row passed, was reported or not run (results: %s)" % sorted(set(results)))
# The validations that run with D3Q19 alone must be there and pass (not "not run").
expected = [r"Poiseuille 3D .*body force .*H=32: relative L2 error .*\| pass \|",
            r"Poiseuille 3D .*pressure-driven .*convergence order H=16->32 .*\| pass \|",
            r"Porous media .*target 0\.80: permeability .*\| pass \|",
            r"Porous media .*permeability increases with porosity .*\| pass \|",
            r"Porous media .*target 0\.40: tile utilisation eta_t .*\| reported \|"]
for pat in expected:
    check(any(re.search(pat, r) for r in rows), "row matching %r" % pat)
npass = sum(r == "pass" for r in results)
check("%d checks passed, 0 failed" % npass in out, "summary line counts the passed rows (%s)" % out.strip())
pngs = [f for f in files_under(outdir) if f.endswith(".png")]
if "Plots skipped" in text:
    check(pngs == [], "plots skipped: no PNG written")
else:
    check("poiseuille3d.png" in pngs and "porous.png" in pngs, "plots written (%s)" % pngs)
    for p in pngs:
        check(open(os.path.join(outdir, p), "rb").read(8) == b"\x89PNG\r\n\x1a\n", "%s is a PNG" % p)
check(not [f for f in files_under(outdir) if f.endswith(".vti") or ".tmp" in f],
      "no temporary files left (%s)" % files_under(outdir))
cleanup(d)
finish()
