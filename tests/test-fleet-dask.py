#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/fleet/fleet.py on a 2-worker Dask LocalCluster: the map over real
traces (three of tests/data, three of the causes corpus, given out of
order) and one file that is no trace; the reduce's mine.json and
cluster.json equal `waitscope-cli mine/cluster --json` over the readable
traces in one process, byte for byte; the unreadable one is listed (stderr
and failed.txt) and the exit status is 1.  With the 24 runs of
tests/data/fleet among the traces and --classes their classes file, the
fleet contrast's contrast.json equals `waitscope-cli contrast --json
--classes` over the traces in one process.  --scenario passes through to
the map and the fleet contrast: the lock pair's requests contrasted by
class equal one process's.  Skips (exit 77) only when dask.distributed
cannot be imported."""
import os
import subprocess
import sys
import tempfile

try:
    import distributed  # noqa: F401
except ImportError as e:
    print(f"SKIP: dask.distributed cannot be imported ({e}); apt-get install python3-distributed")
    sys.exit(77)

here = os.path.dirname(os.path.abspath(__file__))
fleet = os.path.join(os.path.dirname(here), "tools", "fleet", "fleet.py")
cli = os.path.abspath(os.environ["WS_CLI"])
data = os.path.abspath(os.environ["WS_TEST_DATA"])
failures = 0


def check(ok, what):
    global failures
    print(("ok " if ok else "FAIL ") + what, flush=True)
    failures += not ok


good = [os.path.join(data, "causes", n) for n in ("sleep-cs.perf.txt.gz", "chain3.perf.txt.gz", "flock-hold.perf.txt.gz")]
good += [os.path.join(data, n) for n in ("py-locks.perf.txt.gz", "build.perf.txt.gz", "pg-contrast-fast.perf.txt.gz")]
classes = os.path.join(data, "fleet", "classes.csv")
good += sorted(os.path.join(data, "fleet", f) for f in os.listdir(os.path.join(data, "fleet")) if f.endswith(".perf.txt.gz"))
with tempfile.TemporaryDirectory(prefix="ws-fleet-") as tmp:
    bad = os.path.join(tmp, "not-a-trace.perf.txt")
    with open(bad, "w") as f:
        f.write("this is not a perf trace\n")
    out = os.path.join(tmp, "out")
    p = subprocess.run([sys.executable, fleet, "--local", "2", "--cli", cli, "-o", out, "--classes", classes, *good, bad],
                       capture_output=True, text=True, timeout=600)
    print(p.stderr[-3000:])
    check(p.returncode == 1, f"fleet.py exits 1 with an unreadable trace (exit {p.returncode})")
    check(bad in p.stderr and open(os.path.join(out, "failed.txt")).read().startswith(bad + "\t"),
          "the unreadable trace is listed on stderr and in failed.txt")
    check(p.stderr.count("fleet: [") == len(good) + 1, "progress: one line per trace")
    for command in ("mine", "cluster"):
        one = subprocess.run([cli, command, "--json", "--no-history", *sorted(good)], capture_output=True, check=True)
        with open(os.path.join(out, f"{command}.json"), "rb") as f:
            fleet_json = f.read()
        check(fleet_json == one.stdout and len(fleet_json) > 100,
              f"{command}: the fleet's JSON equals one process's, byte for byte")
    one = subprocess.run([cli, "contrast", "--json", "--classes", classes], capture_output=True, check=True)
    with open(os.path.join(out, "contrast.json"), "rb") as f:
        fleet_json = f.read()
    check(fleet_json == one.stdout and b'"patterns"' in fleet_json,
          "contrast --classes: the fleet's JSON equals one process's over the traces, byte for byte")

# The options a digest is made for pass through: --scenario to the map and
# to the fleet contrast, --program to the map.  The lock pair's requests
# (markers lso:request_begin/end) contrasted by class, as one process does.
lock = [os.path.join(data, "lock-contrast", f"lock-slowop-{c}.perf.txt.gz") for c in ("fast", "slow")]
rule = "request=lso:request_begin,lso:request_end"
with tempfile.TemporaryDirectory(prefix="ws-fleet-") as tmp:
    lock_classes = os.path.join(tmp, "classes.csv")
    with open(lock_classes, "w") as f:
        f.write(f"trace,class\n{lock[0]},fast\n{lock[1]},slow\n")
    out = os.path.join(tmp, "out")
    p = subprocess.run([sys.executable, fleet, "--local", "2", "--cli", cli, "-o", out, "--classes", lock_classes,
                        "--scenario", rule, "--program", "postgres", *lock], capture_output=True, text=True, timeout=600)
    print(p.stderr[-2000:])
    one = subprocess.run([cli, "contrast", "--json", "--scenario", rule, "--classes", lock_classes],
                         capture_output=True, check=True)
    fleet_json = open(os.path.join(out, "contrast.json"), "rb").read() if p.returncode == 0 else b""
    check(fleet_json == one.stdout and b'"scenario" : "request"' in fleet_json,
          "fleet.py --scenario: the fleet contrast of the digests made with the rule equals one process's")
    made = subprocess.run([cli, "contrast", "--json", "--classes", lock_classes,
                           os.path.join(out, "fleet.wsdigest")], capture_output=True)
    check(made.returncode == 2 and b"request=lso:request_begin" in made.stderr,
          "fleet.py --scenario: the digests record the rule (contrast without it refuses them)")
sys.exit(1 if failures else 0)
