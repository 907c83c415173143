#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Mining many traces as they load against mining them held, through waitscope-cli.

`mine` and `cluster` over traces reduce each trace to its digest as it is
loaded and free it, when the settings fit a digest; WAITSCOPE_MINE_HOLD_TRACES=1
loads every trace first and mines them held, as before.  The held run is
the oracle:

1. Byte for byte the same stdout, stderr and exit status, text and --json,
   on every real perf trace of tests/data (all together; `mine --json` on
   each alone too) and
   option variants (--waiting, --running, --scope all, --by-cause, --must,
   --must-not, --top 0, cluster, --rank discriminative with --classes and
   --slow/--fast, a scope that needs the traces), and a bad trace among
   good ones.
2. With a history store: the same output and the same store (functions,
   bigrams, traces recorded, totals), recorded from empty and again.
3. The law over random subsets and orders of the traces (seed printed,
   WS_TEST_SEED repeats it).
4. Memory: over copies of one real trace the streamed run's peak RSS does
   not grow with the number of copies as the held run's does (a trace's
   distinct stacks are met again, not held again).
"""
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile

cli = os.path.abspath(os.environ["WS_CLI"])
data = os.path.abspath(os.environ["WS_TEST_DATA"])
failures = 0


def check(ok, what):
    global failures
    print(("ok " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures += 1


def run(args, held, cwd=None, threads=None):
    """(exit status, stdout, stderr, peak RSS in KiB) of one waitscope-cli run."""
    env = dict(os.environ)
    env.pop("WAITSCOPE_MINE_HOLD_TRACES", None)
    if held:
        env["WAITSCOPE_MINE_HOLD_TRACES"] = "1"
    if threads is not None:
        env["WAITSCOPE_LOAD_THREADS"] = str(threads)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen([cli, *args], stdout=out, stderr=err, env=env, cwd=cwd)
        # wait4, not wait: the child's own peak RSS.
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return p.returncode, out.read(), err.read(), usage


def same(args, what, cwd_held=None, cwd_streamed=None):
    a = run(args, True, cwd=cwd_held)[:3]
    b = run(args, False, cwd=cwd_streamed)[:3]
    if a != b:
        print(f"# held:     exit {a[0]}, {len(a[1])} bytes out, stderr {a[2][:300]!r}")
        print(f"# streamed: exit {b[0]}, {len(b[1])} bytes out, stderr {b[2][:300]!r}")
    check(a == b and (a[0] != 0 or len(a[1]) > 0), f"{what}: held and streamed print the same (exit {a[0]})")
    return a


def find_traces(root):
    found = []
    for d, _, files in os.walk(root):
        found += [os.path.join(d, f) for f in files if f.endswith(".perf.txt.gz")]
    return sorted(found)


traces = find_traces(data)
tmp = tempfile.mkdtemp(prefix="ws-mining-stream-")
print(f"# {len(traces)} perf traces under {data}")

# 1. Every variant, every trace alone (the cheap ones) and all together.
VARIANTS = [["mine"], ["mine", "--json"], ["mine", "--waiting", "--json"], ["mine", "--running"],
            ["mine", "--running", "--json"], ["mine", "--scope", "all", "--json"], ["mine", "--by-cause"],
            ["mine", "--must", "futex|sleep", "--top", "0", "--json"], ["mine", "--must-not", "kernel"],
            ["cluster"], ["cluster", "--json"], ["cluster", "--running", "--json"], ["cluster", "--by-cause"]]
for opts in VARIANTS:
    n_same = 0
    groups = [[t] for t in traces] if opts == ["mine", "--json"] else []
    for group in groups + [traces]:
        a = run([*opts, "--no-history", *group], True)[:3]
        b = run([*opts, "--no-history", *group], False)[:3]
        n_same += a == b and a[0] == 0 and len(a[1]) > 0
        if a != b:
            print(f"# differs: {' '.join(opts)} {' '.join(group)}")
    check(n_same == len(groups) + 1, f"{' '.join(opts)}: held and streamed print the same ({n_same}/{len(groups) + 1})")

fleet = os.path.join(data, "fleet")
classes = os.path.join(fleet, "classes.csv")
fleet_traces = sorted(os.path.join(fleet, f) for f in os.listdir(fleet) if f.endswith(".perf.txt.gz"))
same(["mine", "--no-history", "--json", "--classes", classes, "--rank", "discriminative"], "mine --classes --rank discriminative",
     cwd_held=fleet, cwd_streamed=fleet)
same(["cluster", "--no-history", "--classes", classes, "--rank", "discriminative"], "cluster --classes --rank discriminative",
     cwd_held=fleet, cwd_streamed=fleet)
same(["mine", "--no-history", "--rank", "discriminative", "--slow", fleet_traces[2], "--fast", fleet_traces[0],
      *fleet_traces[3:6]], "mine --slow/--fast --rank discriminative")
same(["mine", "--no-history", "--json", "--scope", "scenario:transaction", *traces[:4]],
     "a scope a digest does not hold (held either way)")
bad = os.path.join(tmp, "bad.perf.txt")
with open(bad, "w") as f:
    f.write("this is not perf script output\n")
a = same(["mine", "--no-history", traces[0], bad, traces[1]], "a bad trace among good ones")
check(a[0] == 1 and bad.encode() in a[2], "the bad trace is named and the exit status is 1")
same(["mine", "--no-history", traces[0], os.path.join(tmp, "missing.perf.txt"), bad], "a missing trace before a bad one")

# 2. A history store: the same output, the same store, from empty and again.
STORE = ["SELECT name, module, n_stacks, n_with_callee, n_with_caller FROM functions ORDER BY 1, 2",
         "SELECT a.name, a.module, b.name, b.module, count FROM bigrams JOIN functions a ON a.id = caller "
         "JOIN functions b ON b.id = callee ORDER BY 1, 2, 3, 4",
         "SELECT digest, path, n_callstacks FROM traces ORDER BY 1", "SELECT * FROM totals ORDER BY 1"]


def store(path):
    with sqlite3.connect(path) as db:
        return [db.execute(q).fetchall() for q in STORE]


for cmd in (["cluster", "--json"], ["mine"]):
    dirs = [os.path.join(tmp, "h-held"), os.path.join(tmp, "h-streamed")]
    for d in dirs:
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    for again in ("recorded", "recorded again"):
        same([*cmd, "--history", "h.sqlite", *traces], f"{' '.join(cmd)} --history, {again}",
             cwd_held=dirs[0], cwd_streamed=dirs[1])
    check(store(os.path.join(dirs[0], "h.sqlite")) == store(os.path.join(dirs[1], "h.sqlite")),
          f"{' '.join(cmd)}: the history store holds the same after held and streamed runs")

# 3. Random subsets and orders (the merge keeps the order given).
seed = int(os.environ.get("WS_TEST_SEED", random.randrange(1 << 30)))
print(f"# seed {seed} (WS_TEST_SEED={seed} repeats it)")
rng = random.Random(seed)
n_same = 0
ROUNDS = 6
for r in range(ROUNDS):
    group = rng.sample(traces, rng.randint(2, min(8, len(traces))))
    opts = rng.choice([["mine", "--json"], ["cluster", "--json"], ["mine", "--running", "--json"],
                       ["mine", "--scope", "all"], ["cluster", "--by-cause", "--json"]])
    a = run([*opts, "--no-history", *group], True)[:3]
    b = run([*opts, "--no-history", *group], False, threads=rng.choice([1, 2, 3]))[:3]
    n_same += a == b and a[0] == 0
    if a != b:
        print(f"# differs: {' '.join(opts)} {' '.join(group)}")
check(n_same == ROUNDS, f"random subsets and orders: held and streamed print the same ({n_same}/{ROUNDS})")

# 4. Memory: copies of one real trace (links: the same stacks, other paths).
# AddressSanitizer keeps freed memory in its quarantine (256 MB), so peak
# memory says nothing of what the program holds: the law is for the real
# allocator, and the sanitizer job skips it, saying so.
def built_with_asan(path):
    ldd = subprocess.run(["ldd", path], capture_output=True, text=True)
    return "libasan" in ldd.stdout


if built_with_asan(cli):
    print("# memory law skipped: the CLI is built with AddressSanitizer, whose quarantine holds freed memory")
else:
    source = os.path.join(data, "pg-tpcb.perf.txt.gz")
    copies = []
    for i in range(12):
        copies.append(os.path.join(tmp, f"copy-{i:02d}.perf.txt.gz"))
        os.symlink(source, copies[-1])
    rss = {}
    for held in (True, False):
        for n in (1, len(copies)):
            code, out, err, usage = run(["mine", "--no-history", *copies[:n]], held, threads=1)
            check(code == 0, f"mine over {n} copies ({'held' if held else 'streamed'}) runs")
            rss[held, n] = usage.ru_maxrss
    print(f"# peak RSS (KiB): held 1: {rss[True, 1]}, held {len(copies)}: {rss[True, len(copies)]}, "
          f"streamed 1: {rss[False, 1]}, streamed {len(copies)}: {rss[False, len(copies)]}")
    held_growth = rss[True, len(copies)] - rss[True, 1]
    streamed_growth = rss[False, len(copies)] - rss[False, 1]
    check(held_growth > 0 and streamed_growth < held_growth / 4,
          f"streamed memory does not grow with the traces: +{streamed_growth} KiB against +{held_growth} KiB held")

shutil.rmtree(tmp)
print(f"# {failures} failure(s)")
sys.exit(1 if failures else 0)
