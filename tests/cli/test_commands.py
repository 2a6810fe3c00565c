"""tessera info, case lookup ($TESSERA_CASES, the source cases folder), --set on any key, tau from Re and
Mach, --backend auto, and that every shipped case file loads (0 steps)."""
import math
import os
import re
import sys
from tess_cli_test import SMALL_CASE, check, cleanup, finish, run, scratch, write

cases_dir = sys.argv[2] if len(sys.argv) > 2 else None
d = scratch()

rc, out, err = run(["info"], d)
check(rc == 0 and re.search(r"^tessera \d+\.\d+\.\d+", out, re.M) is not None, "info prints the version")
check("backends: cpu" in out and "precisions: double, single" in out, "info lists the backends and precisions")
check(("CPU topology (hwloc" in out and re.search(r"cores: [1-9]", out) and "L1d:" in out and "L2:" in out)
      or "hwloc was not used" in out, "info reports cores and caches through hwloc, or says hwloc was not used")

# tau printed on the start line: 6 significant digits, so compare to 1e-5.
def tau_of(out):
    return float(re.search(r"tau ([0-9.e+-]+);", out).group(1))


write(os.path.join(d, "small.ini"), SMALL_CASE)
rc, out, err = run(["run", "small.ini", "--steps", "0", "--out", "o1", "--set", "physics.tau=0.7",
                    "--set", "wall.lid.velocity=0.02 0 0"], d)
check(rc == 0 and abs(tau_of(out) - 0.7) < 1e-5, "--set physics.tau=0.7 overrides the file's 0.8")
rc, out, err = run(["run", "small.ini", "--steps", "0", "--out", "o1a", "--backend", "auto"], d)
check(rc == 0 and re.search(r"backend \w+ \(auto\)", out) is not None, "--backend auto says which backend it chose")

# Re = U L / nu, tau = 3 nu + 1/2: U = 0.05, L = 15, Re = 10 -> nu = 0.075, tau = 0.725.
re_case = SMALL_CASE.replace("tau = 0.8", "re = 10\nvelocity = 0.05\nlength = 15")
write(os.path.join(d, "re.ini"), re_case)
rc, out, err = run(["run", "re.ini", "--steps", "0", "--out", "o2"], d)
check(rc == 0 and abs(tau_of(out) - 0.725) < 1e-5, "tau from Re = 10, U = 0.05, L = 15 is 0.725")
# With Mach: U = Ma / sqrt(3); Ma = 0.1, L = 15, Re = 10 -> tau = 3 * 0.1/sqrt(3) * 15 / 10 + 0.5.
write(os.path.join(d, "ma.ini"), re_case.replace("velocity = 0.05\nlength", "mach = 0.1\nlength"))
rc, out, err = run(["run", "ma.ini", "--steps", "0", "--out", "o3"], d)
want = 3 * 0.1 / math.sqrt(3) * 15 / 10 + 0.5
check(rc == 0 and abs(tau_of(out) - want) < 1e-5, "tau from Re = 10, Ma = 0.1, L = 15 is %.6f" % want)

# Case lookup: a bare name found in $TESSERA_CASES.
os.makedirs(os.path.join(d, "lib"))
write(os.path.join(d, "lib", "mycase.ini"), SMALL_CASE)
rc, out, err = run(["run", "mycase", "--steps", "0", "--out", "o4"], d, env={"TESSERA_CASES": os.path.join(d, "lib")})
check(rc == 0 and "lib/mycase.ini" in out, "bare case name found in $TESSERA_CASES")

# Every shipped case loads and tiles (0 steps), found by name in the source cases folder.
if cases_dir:
    for f in sorted(os.listdir(cases_dir)):
        if not f.endswith(".ini"):
            continue
        name = f[:-4]
        # The 192^3 sphere pack is shrunk (same keys, 32^3 and diameter 8) to keep this test fast.
        small = ["--set", "domain.nx=32", "--set", "domain.ny=32", "--set", "domain.nz=32",
                 "--set", "spheres.bed.diameter=8"] if name == "spheres" else []
        rc, out, err = run(["run", name, "--steps", "0", "--out", "c_" + name, "--quiet"] + small, d,
                           env={"TESSERA_CASES": ""})
        check(rc == 0 and "warning" not in err, "shipped case %s loads by name (%s)" % (name, err.strip()))
cleanup(d)
finish()
