"""tessera partition (docs/mpi.md) and the MPI line of tessera info: a periodic 32x16x16 fluid box cut in two
slabs of 64 tiles has imbalance 1 and 2 x 16 x 16 x 5 = 2560 crossing D3Q19 populations per rank (two planes,
five directions with c_x = +-1 each), 8 x 5120 B = 0.041 MB a step in double; three ranks of 128 equal tiles
hold 42 or 43 tiles, imbalance 43 / (128 / 3) = 1.00781 (printed to 5 decimals). Bad rank counts are refused
with one line."""
import os
import re
import sys
from tess_cli_test import check, check_bad_input, cleanup, finish, run, scratch, write

d = scratch()
write(os.path.join(d, "box.ini"), "[case]\nname = box\n[domain]\nnx = 32\nny = 16\nnz = 16\nperiodic = x y z\n"
      "[physics]\ntau = 0.8\n[run]\nsteps = 1\n")

rc, out, err = run(["partition", "box.ini", "--ranks", "1,2,3"], d)
rows = {int(m.group(1)): m.groups()[1:] for m in
        re.finditer(r"^\s*(\d+)\s+([0-9.]+)\s+(\d+)\.\.(\d+)\s+(\d+)\s+(\d+)\s+([0-9.]+)$", out, re.M)}
check(rc == 0 and sorted(rows) == [1, 2, 3], "partition --ranks 1,2,3 prints a row per rank count (rc %d)" % rc)
if rows.get(2):
    imb, tmin, tmax, halo_tiles, pops, mb = rows[2]
    check(float(imb) == 1.0 and tmin == tmax == "64", "2 ranks: imbalance 1, 64 tiles each (got %s, %s..%s)"
          % (imb, tmin, tmax))
    check(int(pops) == 2560, "2 ranks: 2560 crossing populations per rank (got %s)" % pops)
    check(abs(float(mb) - 0.041) < 0.0005, "2 ranks: 0.041 MB a step, all ranks (got %s)" % mb)
if rows.get(3):
    imb, tmin, tmax = rows[3][:3]
    check(abs(float(imb) - 1.00781) < 6e-6 and (tmin, tmax) == ("42", "43"),
          "3 ranks: 42..43 tiles, imbalance 1.00781 (got %s..%s, %s)" % (tmin, tmax, imb))

rc, out, err = run(["partition", "box.ini", "--ranks", "4,129"], d)
check_bad_input("--ranks 129 for 128 tiles", rc, err, ["129", "128 non-empty tiles"])
check(out == "", "--ranks 129: nothing on stdout (got %r)" % out[:80])
rc, out, err = run(["partition", "box.ini", "--ranks", "2,x"], d)
check_bad_input("--ranks 2,x", rc, err, ["--ranks '2,x'", "expected"])
rc, out, err = run(["partition", "box.ini"], d)
check(rc == 2 and "needs --ranks" in err, "partition without --ranks: exit 2 naming --ranks")

rc, out, err = run(["info"], d)
check(rc == 0 and re.search(r"^MPI: (not built|.+; GPU-aware: (yes|no|unknown).*; 1 process)$", out, re.M)
      is not None, "info has the MPI line (library and GPU-awareness, or not built)")

cleanup(d)
finish()
