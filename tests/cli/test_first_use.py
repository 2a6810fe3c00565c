"""What a new user meets first: tessera --version, tessera info's lists (lattices with their collisions, patterns,
backends), tessera bench writing its CSV (with the memory per fluid node) into the output folder without a
'theoretical 0.0 GB/s' on the CPU,
--steps and --backend errors naming the option typed, finite-difference planes running with patterns ab and aa, and
the start line naming the pattern once. Mode "bench" (argv[3]) runs the bench checks, the default the others: they measure the
machine's copy bandwidth (1 GiB copies, seconds each), too slow for the sanitized fast set."""
import os
import re
import sys
from tess_cli_test import SMALL_CASE, check, cleanup, finish, run, scratch, write

mode = sys.argv[3] if len(sys.argv) > 3 else "rest"
d = scratch()

if mode == "bench":
    # bench: the CSV goes to out/bench/bench.csv under the current folder (or --out DIR), never ./bench.csv.
    bench = ["bench", "--backend", "cpu", "--size", "16", "--steps", "2", "--reps", "1", "--threads", "1"]
    rc, out, err = run(bench, d)
    csv = os.path.join(d, "out", "bench", "bench.csv")
    check(rc == 0 and os.path.isfile(csv) and not os.path.exists(os.path.join(d, "bench.csv")),
          "bench writes out/bench/bench.csv, not ./bench.csv (%s)" % err.strip())
    head = open(csv).readline() if os.path.isfile(csv) else ""
    check(head.startswith("# device: ") and "copy bandwidth" in head and "theoretical" not in head
          and "theoretical" not in out, "the CPU's CSV header and console say no 'theoretical' bandwidth: %r" % head)
    rows = open(csv).read().splitlines()[2:] if os.path.isfile(csv) else []
    check(len(rows) == 1 and rows[0].startswith("cavity3d,16,"), "the CSV holds the one measured row")
    # bytes_per_fluid_node (the backend's memory over the fluid nodes): at least AB's two copies of 19 populations
    # per wet node (2 x 19 x value size / eta_t), plus at most 64 B of the tiling's per-tile data and lists.
    if os.path.isfile(csv):
        import csv as csvmod
        r = list(csvmod.DictReader(open(csv).read().splitlines()[1:]))[0]
        floor = 2 * 19 * (8 if r["precision"] == "double" else 4) / float(r["eta_t"])
        v = float(r.get("bytes_per_fluid_node") or 0)
        check(floor <= v <= floor + 64, "bench CSV bytes_per_fluid_node %.1f within [%.1f, %.1f]" % (v, floor, floor + 64))
    rc, out, err = run(bench + ["--out", "B", "--pattern", "ab,aa"], d)
    check(rc == 0 and os.path.isfile(os.path.join(d, "B", "bench.csv")), "bench --out B writes B/bench.csv")
    # bytes_per_fluid_node (bytes_allocated / fluid nodes; 3840 of the 4096 nodes of 16^3 are fluid): AB holds two
    # copies of 19 doubles per tile node, at least 2 * 19 * 8 * 4096 / 3840 = 324.3 B, AA one; everything else is
    # the same, so they differ by exactly one copy: 19 directions of 4168 doubles (the 64 tiles and the thread's
    # scratch tile, 4160 values, padded to an odd number of 64-byte lines, core/tess_pop_layout.h), 164.99 B
    # (each printed to 0.1).
    per = {}
    if rc == 0:
        import csv as csvmod
        lines = [l for l in open(os.path.join(d, "B", "bench.csv")) if not l.startswith("#")]
        per = {r["pattern"]: float(r["bytes_per_fluid_node"]) for r in csvmod.DictReader(lines)}
    ab, aa = per.get("ab", 0.0), per.get("aa", 0.0)
    check(ab >= 324.2 and aa >= 162.1 and abs(ab - aa - 19 * 8 * 4168 / 3840) < 0.15,
          "bench CSV bytes_per_fluid_node: ab %.1f >= 324.2, aa %.1f >= 162.1, ab - aa = one copy (164.99)" % (ab, aa))

if mode == "bench":
    cleanup(d)
    finish()

rc, out, err = run(["--version"], d)
rc2, info, _ = run(["info"], d)
check(rc == 0 and re.fullmatch(r"tessera \d+\.\d+\.\d+\n", out) is not None and info.startswith(out),
      "--version prints 'tessera X.Y.Z', the version info reports (%r)" % out)

check(rc2 == 0 and "lattices: D3Q19 (lbgk, mrt, regularized), D2Q9 (lbgk, mrt, regularized), D3Q13 (mrt), "
      "D3Q27 (lbgk, regularized)" in info, "info lists the four lattices with the collisions each runs")
check(re.search(r"^patterns: cpu: ab, aa, mr", info, re.M) is not None and re.search(r"^backends: cpu", info, re.M),
      "info lists the backends and the patterns of each (cpu: ab, aa, mr)")

# Option errors name the option typed.
write(os.path.join(d, "small.ini"), SMALL_CASE)
for args, opt, want in ((["--steps", "abc"], "--steps", "an integer"), (["--steps=-3"], "--steps", "an integer"),
                        (["--backend", "foo"], "--backend", "auto or a built backend")):
    rc, out, err = run(["run", "small.ini", "--out", "x"] + args, d)
    check(rc == 2 and err.startswith("tessera: %s: expected %s" % (opt, want)) and "--set" not in err,
          "run %s: exit 2, the error names %s, not --set run.*: %s" % (" ".join(args), opt, err.strip()))
rc, out, err = run(["run", "small.ini", "--out", "x", "--set", "run.steps=abc"], d)
check(rc == 2 and err.startswith("tessera: --set run.steps: expected"), "--set run.steps=abc still names --set")

# The finite-difference inlet runs on every pattern (tests/patterns/test_fd_boundary: AB = AA bitwise).
fd = SMALL_CASE.replace("[run]", "[inlet.in]\nface = -x\nvelocity = 0.01 0 0\nmethod = fd\n"
                        "[outlet.out]\nface = +x\ndensity = 1\nmethod = fd\n[run]")
write(os.path.join(d, "fd.ini"), fd)
rc, out, err = run(["run", "fd.ini", "--out", "fd", "--pattern", "ab", "--steps", "4"], d)
rc2, out2, err2 = run(["run", "fd.ini", "--out", "fdaa", "--pattern", "aa", "--steps", "4"], d)
check(rc == 0 and rc2 == 0, "finite-difference planes run with patterns ab and aa (%d %d: %s %s)" % (rc, rc2, err.strip(), err2.strip()))

# The start line names the pattern once, whichever part of it says so.
for pat in ("ab", "aa"):
    rc, out, err = run(["run", "small.ini", "--out", "p" + pat, "--steps", "2", "--pattern", pat], d)
    first = out.splitlines()[0] if out else ""
    check(rc == 0 and first.count("pattern") == 1 and "pattern %s" % pat in first,
          "start line with --pattern %s says 'pattern %s' once: %s" % (pat, pat, first))

cleanup(d)
finish()
