#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`anomalies --json --all` is the same bytes whatever the number of
threads the fits run on, and the same bytes as before the scoring was
made faster (docs/anomaly-detection.md, "Fitting fast, the same bits").

1. Real traces, against JSON saved from the code before the speed-ups
   (tests/data/anomaly/expected/*.json.gz, written by this script with
   --write-expected and the older binary as WS_CLI): one trace with no
   history, and two traces against a history of two others with flags
   (the history's fit is then the FDR rule's null).  Paths are written
   @DATA@ and @HISTORY@.  Saved again when EM took its own exp and log
   (ws-gmm-math.h), which moved the last bits: against the JSON saved
   before, every model kept its K and every wait its verdict, the
   models' mean log-likelihoods moved by at most 2.2e-14 (relative),
   thresholds 1.4e-13, scores 1.3e-12.
2. Random traces (JSON trace format) and random histories with flags:
   one thread against several.  With WS_ORACLE_CLI set (a build of the
   older code), also against it.
Each case also runs with a fit cache (ws-gmm-cache.c) twice, filling it
and finding its fits there: the same bytes again.
"""
import gzip
import json
import os
import random
import subprocess
import sys
import tempfile

cli = os.environ["WS_CLI"]
oracle = os.environ.get("WS_ORACLE_CLI")
data = os.environ["WS_TEST_DATA"]
expected_dir = os.path.join(data, "anomaly", "expected")
write_expected = "--write-expected" in sys.argv
tmp = tempfile.mkdtemp(prefix="ws-same-bits-")
n_ok = 0


def run(binary, *args, threads=1, fit_cache=""):
    env = dict(os.environ, WAITSCOPE_THREADS=str(threads), WAITSCOPE_HASH_CACHE="", WAITSCOPE_FIT_CACHE=fit_cache)
    return subprocess.run([binary, *args], check=True, capture_output=True, env=env).stdout


def anomalies(binary, history, traces, threads, *options, fit_cache=""):
    out = run(binary, "anomalies", "--json", "--all", "--history", history, *options, *traces, threads=threads,
              fit_cache=fit_cache)
    json.loads(out)   # valid JSON, whatever else
    return out.replace(history.encode(), b"@HISTORY@").replace(data.encode(), b"@DATA@")


def ok(what):
    global n_ok
    n_ok += 1
    print(f"ok {n_ok} {what}")


def check_case(name, history, traces, *options):
    """The bytes on 1 and 3 threads, with the fits remembered (the first
    run fills a fresh fit cache, the second finds every fit there), and
    against the saved ones."""
    one = anomalies(cli, history, traces, 1, *options)
    many = anomalies(cli, history, traces, 3, *options)
    assert one == many, f"{name}: 1 thread and 3 threads differ"
    if not write_expected:
        fits = os.path.join(tmp, name + "-fits.sqlite")
        filled = anomalies(cli, history, traces, 3, *options, fit_cache=fits)
        assert os.path.exists(fits), f"{name}: no fit cache written"
        found = anomalies(cli, history, traces, 1, *options, fit_cache=fits)
        assert filled == one and found == one, f"{name}: the fit cache changed the output"
    path = os.path.join(expected_dir, name + ".json.gz")
    if write_expected:
        os.makedirs(expected_dir, exist_ok=True)
        with gzip.GzipFile(path, "wb", mtime=0) as f:
            f.write(one)
        print(f"# wrote {path}")
        return
    with gzip.open(path, "rb") as f:
        saved = f.read()
    if one != saved:
        a, b = one.decode().splitlines(), saved.decode().splitlines()
        first = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        raise AssertionError(f"{name}: differs from the saved output at line {first + 1}: "
                             f"{a[first] if first < len(a) else '(end)'!r} != {b[first] if first < len(b) else '(end)'!r}")
    ok(f"{name}: 1 thread, 3 threads, with the fits remembered and the saved output: the same {len(one)} bytes")


def flag(history, trace, tid, time_ns, verdict):
    run(cli, "flag", "add", trace, "--wait", f"{tid}@{time_ns + 1}ns", verdict, "--history", history)


# 1. Real traces.  The history does not exist: nothing is created.
causes = os.path.join(data, "causes")
check_case("fsync-dd-no-history", os.path.join(tmp, "none.sqlite"), [os.path.join(causes, "fsync-dd.perf.txt.gz")])
assert not os.path.exists(os.path.join(tmp, "none.sqlite"))

# A history of chain3 and cpu-quota; cc-chain3 shares chain3's kinds (its
# waits are new to the history: the history's fits are the FDR null),
# cpu-quota is in it.  Flags on cpu-quota's longest waits of two kinds.
history = os.path.join(tmp, "history.sqlite")
run(cli, "history", "add", "--history", history, os.path.join(causes, "chain3.perf.txt.gz"),
    os.path.join(causes, "cpu-quota.perf.txt.gz"))
quota = os.path.join(causes, "cpu-quota.perf.txt.gz")
waits = json.loads(run(cli, "anomalies", "--json", "--all", "--history", history, quota))["traces"][0]["waits"]
by_kind = {}
for w in waits:
    by_kind.setdefault(w["signature"], []).append(w)
kinds = sorted(by_kind, key=lambda k: (-len(by_kind[k]), k))
longest = max(by_kind[kinds[0]], key=lambda w: (w["duration_ns"], w["time_ns"]))
middle = sorted(by_kind[kinds[1]], key=lambda w: (w["duration_ns"], w["time_ns"]))[len(by_kind[kinds[1]]) // 2]
flag(history, quota, longest["tid"], longest["time_ns"], "--normal")
flag(history, quota, middle["tid"], middle["time_ns"], "--anomalous")
check_case("cc-chain3-cpu-quota-history", history, [os.path.join(causes, "cc-chain3.perf.txt.gz"), quota])
check_case("cc-chain3-cpu-quota-history-tail", history, [os.path.join(causes, "cc-chain3.perf.txt.gz"), quota],
           "--rule", "tail")
if write_expected:
    sys.exit(0)

# Without a history the text output needs no digest, and the file is not
# hashed for it (the hash cache stays empty); with an empty history the
# digest is computed, and the text is the same bytes.
import sqlite3
hash_cache = os.path.join(tmp, "hashes.sqlite")
empty = os.path.join(tmp, "empty.sqlite")
open(empty, "wb").close()
trace = os.path.join(data, "io-fsync.perf.txt.gz")   # waits shown: the text has rows
env = dict(os.environ, WAITSCOPE_HASH_CACHE=hash_cache, WAITSCOPE_FIT_CACHE="")
text = subprocess.run([cli, "anomalies", "--top", "0", "--history", os.path.join(tmp, "none.sqlite"), trace],
                      check=True, capture_output=True, env=env).stdout
assert not os.path.exists(hash_cache) or \
    sqlite3.connect(hash_cache).execute("SELECT count(*) FROM file_hashes").fetchone()[0] == 0, "hashed without a history"
with_history = subprocess.run([cli, "anomalies", "--top", "0", "--history", empty, trace],
                              check=True, capture_output=True, env=env).stdout
assert text == with_history, "the text without a history differs from the text with an empty one"
# … and the cache does show a hashing (the check above could not miss one).
assert sqlite3.connect(hash_cache).execute("SELECT count(*) FROM file_hashes").fetchone()[0] == 1
ok(f"text without a history: not hashed, the same {len(text)} bytes as with an empty history")

# 2. Random traces and histories.
KERNEL = ["futex_do_wait", "do_epoll_wait", "io_schedule", "do_nanosleep", "pipe_read"]
USER = ["take_lock", "serve", "flush_log", "poll_queue", "worker_loop", "read_block"]
WRAPPERS = ["__lll_lock_wait", "epoll_wait", "fdatasync", "clock_nanosleep", "read"]


def random_trace(rng, path, name, n_waits):
    """Threads waiting under a few signatures, each kind's durations a
    mixture of one to four log-normal modes, printed to the microsecond
    (repeats, as perf's are) or, for some kinds, to the nanosecond."""
    kinds = []
    for _ in range(rng.randint(2, 9)):
        kernel = rng.choice(KERNEL)
        stack = [f"main (/usr/bin/app)", f"{rng.choice(USER)} (/usr/bin/app)",
                 f"{rng.choice(WRAPPERS)} (/usr/lib/libc.so.6)",
                 "entry_SYSCALL_64 ([kernel.kallsyms])", f"{kernel} ([kernel.kallsyms])",
                 "schedule ([kernel.kallsyms])", "__schedule ([kernel.kallsyms])"]
        modes = [(rng.uniform(7, 17), rng.uniform(0.05, 1.2), rng.uniform(0.1, 1)) for _ in range(rng.randint(1, 4))]
        kinds.append((stack, modes, rng.choice([1000, 1000, 1])))
    threads = [{"tid": 100 + i, "pid": 100, "name": f"w{i}"} for i in range(rng.randint(1, 6))]
    events, t = [], 1_000_000_000
    for _ in range(n_waits):
        stack, modes, unit = rng.choice(kinds)
        mean, sd, _ = rng.choices(modes, weights=[m[2] for m in modes])[0]
        dur = max(1, round(min(rng.lognormvariate(mean, sd), 5e10) / unit) * unit)
        tid = rng.choice(threads)["tid"]
        events.append({"kind": "wait", "t": t, "dur": dur, "tid": tid, "stack": stack, "state": "S"})
        t += rng.randint(1, 50_000)
    with open(path, "w") as f:
        json.dump({"format": "waitscope-trace", "version": 1, "name": name, "threads": threads, "events": events}, f)
    return events


rng = random.Random(2911)
for case in range(12):
    trace = os.path.join(tmp, f"random-{case}.json")
    events = random_trace(rng, trace, f"random-{case}", rng.choice([40, 300, 2000, 12000]))
    history = os.path.join(tmp, f"random-{case}.sqlite")
    if case % 3 != 0:
        # A history: other random traces of the same program (same seed
        # of kinds is not needed: their kinds overlap by name) and flags.
        for h in range(rng.randint(1, 2)):
            other = os.path.join(tmp, f"random-{case}-h{h}.json")
            random_trace(random.Random(rng.random()), other, f"random-{case}-h{h}", rng.choice([100, 3000]))
            run(cli, "history", "add", "--history", history, other)
        if case % 2 == 0:
            run(cli, "history", "add", "--history", history, trace)
        for w in rng.sample(events, min(4, len(events))):
            flag(history, trace, w["tid"], w["t"], rng.choice(["--normal", "--anomalous"]))
    options = [[], ["--rule", "tail"], ["--depth", "1"], ["--threshold", "0.2"]][case % 4]
    one = anomalies(cli, history, [trace], 1, *options)
    many = anomalies(cli, history, [trace], 1 + rng.randint(1, 4), *options)
    assert one == many, f"random case {case}: 1 thread and more differ"
    # One fit cache across the cases: each finds the fits of the kinds
    # earlier cases share with it, and must not find another's.
    fits = os.path.join(tmp, "random-fits.sqlite")
    assert anomalies(cli, history, [trace], 2, *options, fit_cache=fits) == one, f"random case {case}: fit cache"
    assert anomalies(cli, history, [trace], 1, *options, fit_cache=fits) == one, f"random case {case}: fit cache"
    what = f"random case {case} ({len(events)} waits, {'history' if case % 3 else 'no history'}, {' '.join(options) or 'defaults'})"
    if oracle:
        older = anomalies(oracle, history, [trace], 1, *options)
        assert one == older, f"random case {case}: differs from WS_ORACLE_CLI"
        what += ", as WS_ORACLE_CLI"
    ok(what + f": the same {len(one)} bytes on 1 and more threads, and with the fits remembered")
print(f"1..{n_ok}")
