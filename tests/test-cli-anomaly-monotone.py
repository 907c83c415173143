#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The law of learning through the CLI, on the project's own traces
(docs/anomaly-detection.md, "Flags and the learning rule"): a wait
flagged normal never makes its kind's anomalous count rise, one flagged
anomalous never makes it fall.  The cases are the ones that broke the
old rule: the longest wait of a kind flagged normal (the rule took it as
evidence for marking a slow component and lowered the cut), a mid-range
wait flagged normal, and the longest wait the kind calls normal flagged
anomalous.
Before each flag, `flag add --dry-run` must announce exactly what the
flag then changes.  Then: the verdicts are a function of the flags, so removing the flags
restores every verdict exactly; and recording an unrelated trace into
the history leaves the verdicts of the kinds it has no waits of bit for
bit as they were."""
import json
import os
import subprocess
import sys
import tempfile

cli = os.environ["WS_CLI"]
data = os.environ["WS_TEST_DATA"]
tmp = tempfile.mkdtemp(prefix="ws-monotone-")
n_ok = 0


def run(*args):
    return subprocess.run([cli, *args], check=True, capture_output=True, text=True).stdout


def score(history, trace):
    """Every wait of @trace: (tid, time) → (signature, anomalous, flag, duration)."""
    out = json.loads(run("anomalies", trace, "--all", "--json", "--history", history))
    waits = out["traces"][0]["waits"]
    return out, {(w["tid"], w["time_ns"]): w for w in waits}


def kind_count(waits, signature, leave_out=()):
    return sum(1 for k, w in waits.items()
               if w["signature"] == signature and w["anomalous"] and k not in leave_out)


def flag(history, trace, wait, verdict):
    tid, time = wait
    run("flag", "add", trace, "--wait", f"{tid}@{time + 1}ns", verdict, "--history", history)


def check(trace_name, kinds, recorded=()):
    global n_ok
    trace = os.path.join(data, trace_name)
    history = os.path.join(tmp, trace_name.replace("/", "-") + ".sqlite")
    for name in recorded:
        run("history", "add", os.path.join(data, name), "--history", history)
    _, waits = score(history, trace)
    flagged = set()
    for signature, how in kinds:
        mine = sorted((w["duration_ns"], k) for k, w in waits.items()
                      if w["signature"] == signature and w["flag"] == "none")
        assert mine, (signature, "not in", trace_name)
        if how == "longest-normal":
            wait, verdict = mine[-1][1], "--normal"
        elif how == "middle-normal":
            wait, verdict = mine[len(mine) // 2][1], "--normal"
        else:  # "longest-missed": the longest wait the kind calls normal, flagged anomalous
            normal = [k for d, k in mine if not waits[k]["anomalous"]]
            wait, verdict = normal[-1], "--anomalous"
        tid, time = wait
        dry_run = json.loads(run("flag", "add", trace, "--wait", f"{tid}@{time + 1}ns", verdict, "--dry-run", "--json",
                                 "--history", history))
        assert dry_run["schema_version"] == 1, dry_run
        dry = dry_run["waits"]
        assert len(dry) == 1 and dry[0]["signature"] == signature, dry
        flagged_before = set(flagged)
        flagged.add(wait)
        before = kind_count(waits, signature, flagged)
        old = waits
        flag(history, trace, wait, verdict)
        _, waits = score(history, trace)
        after = kind_count(waits, signature, flagged)
        # The dry run announced exactly what the flag then changed.
        others = [k for k, w in waits.items() if w["signature"] == signature and k not in flagged and k in old
                  and old[k]["flag"] == "none"]
        to_anomalous = sum(1 for k in others if waits[k]["anomalous"] and not old[k]["anomalous"])
        to_normal = sum(1 for k in others if not waits[k]["anomalous"] and old[k]["anomalous"])
        assert (dry[0]["to_anomalous"], dry[0]["to_normal"]) == (to_anomalous, to_normal), (dry, to_anomalous, to_normal)
        print(f"# {trace_name}: {signature}: {how} ({waits[wait]['duration_ns'] / 1e6:.2f} ms) "
              f"{verdict[2:]}: {before} -> {after} other anomalous waits of the kind")
        if verdict == "--normal":
            assert after <= before, (signature, before, after)
        else:
            assert after >= before, (signature, before, after)
    n_ok += 1
    print(f"ok {n_ok} {trace_name}: no flag moved its kind's verdicts against it")
    return history, trace, flagged


# The cases: the longest lock wait (ProcSleep's WaitLatch) and a
# mid-range one flagged normal; the busiest kinds of the other programs.
history, trace, flagged = check("pg-tpcb.perf.txt.gz", [
    ("ProcSleep;…;WaitLatch;epoll_wait|do_epoll_wait", "longest-normal"),
    ("ProcSleep;…;WaitLatch;epoll_wait|do_epoll_wait", "middle-normal"),
    ("secure_read;epoll_wait|do_epoll_wait", "longest-missed"),
    ("secure_read;epoll_wait|do_epoll_wait", "longest-normal"),
])
check("anomaly/faults.perf.txt.gz", [
    ("take_lock;__GI___lll_lock_wait|futex_do_wait", "longest-normal"),
    ("take_lock;__GI___lll_lock_wait|futex_do_wait", "longest-missed"),
    ("take_lock;__GI___lll_lock_wait|futex_do_wait", "middle-normal"),
])
# Against a history of itself and a healthy run of the same benchmark
# (the setting): the longest wait the old rule called normal,
# flagged anomalous, left the data, the refit mixture moved the cut up,
# and the kind's count fell 11 -> 10.
check("pg-contrast-slow.perf.txt.gz", [
    ("XLogFlush;…;[unknown]@postgres;fdatasync|io_schedule", "longest-missed"),
    ("XLogFlush;…;[unknown]@postgres;fdatasync|io_schedule", "longest-normal"),
], recorded=("pg-contrast-fast.perf.txt.gz", "pg-contrast-slow.perf.txt.gz"))

# Undo: with every flag removed, every verdict is the one before any flag.
fresh = os.path.join(tmp, "fresh.sqlite")
_, unflagged = score(fresh, trace)
for tid, time in flagged:
    run("flag", "remove", trace, "--wait", f"{tid}@{time + 1}ns", "--history", history)
_, restored = score(history, trace)
assert restored == unflagged, "removing the flags did not restore the verdicts"
n_ok += 1
print(f"ok {n_ok} removing every flag restores every verdict")

# Determinism: record an unrelated trace (another program) into the
# history; the kinds it has no waits of keep their verdicts and scores
# bit for bit.
run("history", "add", trace, "--history", history)
before_json, before = score(history, trace)
run("history", "add", os.path.join(data, "anomaly", "faults.perf.txt.gz"), "--history", history)
after_json, after = score(history, trace)
other = json.loads(run("anomalies", os.path.join(data, "anomaly", "faults.perf.txt.gz"), "--all", "--json",
                       "--history", history))
theirs = {w["signature"] for w in other["traces"][0]["waits"]}
own = {m["signature"] for m in before_json["models"] if m["level"] == "signature"} - theirs
same = [k for k, w in before.items() if w["signature"] in own]
assert same and all(before[k] == after[k] for k in same), "an unrelated trace changed verdicts"
models_before = [m for m in before_json["models"] if m["signature"] in own]
models_after = [m for m in after_json["models"] if m["signature"] in own]
assert models_before == models_after
n_ok += 1
print(f"ok {n_ok} recording an unrelated trace leaves {len(same)} waits of {len(own)} kinds bit for bit as they were")
print(f"1..{n_ok}")
