"""Helpers shared by the tests/cli drivers: run the tessera binary in a scratch folder, write case files,
check results with a message that says what was compared, and fail with a non-zero exit."""
import os
import shutil
import subprocess
import sys
import tempfile

TESSERA = sys.argv[1] if len(sys.argv) > 1 else "tessera"
failures = []

# A 16^3 lid-driven cavity: small enough that every run here takes well under a second. It runs on the
# cpu backend, so that the results do not depend on the machine having a GPU (test_check_gpu covers those).
SMALL_CASE = """[case]
name = small
[domain]
nx = 16
ny = 16
nz = 16
[physics]
tau = 0.8
[wall.lid]
shape = box
min = 0 0 15
max = 15 15 15
velocity = 0.05 0 0
[run]
steps = 40
output_every = 20
monitor_every = 10
threads = 1
backend = cpu
"""


def scratch():
    d = tempfile.mkdtemp(prefix="tess_cli_")
    return d


def write(path, text, mode="w"):
    with open(path, mode) as f:
        f.write(text)
    return path


def run(args, cwd, env=None):
    e = dict(os.environ)
    e["OMP_WAIT_POLICY"] = "passive"
    if env:
        e.update(env)
    p = subprocess.run([TESSERA] + args, cwd=cwd, capture_output=True, text=True, env=e, timeout=300)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


def check_bad_input(what, rc, err, expect):
    """Bad input: exit status 2 and one line on stderr containing every string of expect."""
    lines = [l for l in err.splitlines() if l.strip()]
    msg = lines[-1] if lines else ""
    check(rc == 2, "%s: exit status %d (expected 2)" % (what, rc))
    check(len(lines) == 1, "%s: one line on stderr (got %d: %r)" % (what, len(lines), err.strip()))
    for e in expect:
        check(e in msg, "%s: message contains %r (got %r)" % (what, e, msg))


def finish():
    if failures:
        print("%d check(s) failed" % len(failures))
        sys.exit(1)
    print("all checks passed")
    sys.exit(0)


def files_under(d):
    out = []
    for root, _, names in os.walk(d):
        out += [os.path.relpath(os.path.join(root, n), d) for n in names]
    return sorted(out)


def cleanup(d):
    shutil.rmtree(d, ignore_errors=True)
