#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""waitscope-cli pivot against an independent tally.

The oracle is the trace's SQLite database (`waitscope-cli export-sqlite`):
its view thread_state_spans is the timeline's states written in SQL, not
the C code the pivot runs (test-sql holds the view to the Threads table's
totals).  Python clips and sums it here.

The law, over every window [A, B] and set of threads S:

  total  = sum over t in S of |spans(t) ∩ [A, B]|           (the oracle)
  total + unrecorded = sum over t in S of |life(t) ∩ [A, B]|
  0 <= unrecorded,  total <= (B - A) * |S|

where life(t) runs from the thread's first event (or span) to its last,
and every row's time and count are the sums of its children's.  Checked on
the shared traces for the whole trace and for random windows, thread sets
and column orders; the per-key totals of process, thread, state,
readier process and readier thread are checked against the oracle too.
CSV and JSON must give the same rows; JSON must be valid UTF-8 even when
the trace's names are not."""
import csv
import gzip
import io
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
cli = os.environ["WS_CLI"]
data = os.environ.get("WS_TEST_DATA", os.path.join(here, "data"))
TRACES = ["py-locks.perf.txt.gz", "pg-tpcb.perf.txt.gz", "build.perf.txt.gz"]
COLUMNS = ["process", "thread", "state", "readier-process", "readier-thread", "waiting-function",
           "readier-function"]
failures = 0


def check(ok, what):
    global failures
    print(("ok " if ok else "FAIL ") + what)
    if not ok:
        failures += 1
    return ok


def run(*args, binary=False):
    p = subprocess.run([cli, *args], capture_output=True)
    if p.returncode != 0:
        raise RuntimeError(f"{args}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
    return p.stdout if binary else p.stdout.decode("utf-8")


class Oracle:
    """The trace's spans, threads and waits, from its SQLite export."""

    def __init__(self, path, tmp):
        db_path = os.path.join(tmp, os.path.basename(path) + ".db")
        run("export-sqlite", path, "-o", db_path)
        db = sqlite3.connect(db_path)
        db.text_factory = lambda b: b.decode("utf-8", "replace")
        self.threads = {}
        for tid_id, tid, first, last, pid in db.execute(
                "SELECT t.id, t.tid, t.first_seen, t.last_seen, p.pid FROM threads t "
                "LEFT JOIN processes p ON p.id = t.process_id"):
            self.threads[tid_id] = {"tid": tid, "first": first, "last": last,
                                    "pid": "?" if pid is None or pid < 0 else str(pid)}
        self.readier = {}
        for event_id, kind, readier_id in db.execute(
                "SELECT event_id, readier_kind, readier_thread_id FROM waits"):
            self.readier[event_id] = (kind, readier_id)
        self.spans = {}
        for tid_id, state, start, end, event_id in db.execute(
                "SELECT thread_id, state, start, end, event_id FROM thread_state_spans WHERE end > start"):
            self.spans.setdefault(tid_id, []).append((start, end, state, event_id))
        info = dict(db.execute("SELECT key, value FROM trace_info"))
        self.start, self.end = int(info["start"]), int(info["end"])
        db.close()

    def key(self, column, thread, state, event):
        """The pivot's key of a span under @column (None: nothing named;
        the special rows are told apart by their label in the pivot)."""
        if column == "process":
            return self.threads[thread]["pid"]
        if column == "thread":
            return str(self.threads[thread]["tid"])
        if column == "state":
            return state
        if state == "running" or event not in self.readier:
            return ("not waiting",)
        kind, readier = self.readier[event]
        if kind != "thread":
            return (kind,)
        if column == "readier-process":
            return self.threads[readier]["pid"]
        return str(self.threads[readier]["tid"])

    def tally(self, a, b, threads, column=None):
        """{key: [ns, spans]} of the spans clipped to [a, b]; the total
        under None."""
        out = {}
        for t in threads:
            for start, end, state, event in self.spans.get(t, []):
                lo, hi = max(start, a), min(end, b)
                if hi <= lo:
                    continue
                k = self.key(column, t, state, event) if column else None
                cell = out.setdefault(k, [0, 0])
                cell[0] += hi - lo
                cell[1] += 1
        return out

    def lifetime(self, a, b, threads):
        total = 0
        for t in threads:
            th = self.threads[t]
            spans = self.spans.get(t, [])
            lo = min([th["first"]] + [s[0] for s in spans])
            hi = max([th["last"]] + [s[1] for s in spans])
            total += max(0, min(hi, b) - max(lo, a))
        return total


def special(row):
    """A pivot row's key as the oracle writes it."""
    if row["key"] is not None:
        return row["key"]
    # The preemption's ready span has no readier; a ready latency has its wait's.
    words = {"Not waiting": "not waiting", "Interrupt": "hardware", "Disk I/O done": "hardware",
             "No wake-up recorded": "unknown", "Still waiting when the recording ended": "unfinished"}
    return (words.get(row["label"], row["label"]),)


def walk(row, depth=0):
    yield depth, row
    for child in row.get("children", []):
        yield from walk(child, depth + 1)


def tree_law(pivot, what):
    ok = True
    for _, row in walk(pivot["total"]):
        kids = row.get("children")
        if kids:
            ok &= sum(k["time_ns"] for k in kids) == row["time_ns"]
            ok &= sum(k["count"] for k in kids) == row["count"]
            ok &= abs(sum(k["share"] for k in kids) - row["share"]) < 1e-6 * max(1, len(kids))
    return check(ok, f"{what}: every row is the sum of its children (time, count, share)")


def marginal(pivot, column):
    """{key: [ns, spans]} of the rows of @column, summed over the others."""
    depth = pivot["columns"].index(column) + 1
    out = {}
    for d, row in walk(pivot["total"]):
        if d == depth:
            k = special(row)
            cell = out.setdefault(k, [0, 0])
            cell[0] += row["time_ns"]
            cell[1] += row["count"]
    return out


def check_against_oracle(oracle, pivot, a, b, threads, what):
    total = pivot["total"]["time_ns"]
    expected = oracle.tally(a, b, threads).get(None, [0, 0])
    check(total == expected[0] and pivot["total"]["count"] == expected[1],
          f"{what}: total {total} ns in {pivot['total']['count']} spans == oracle {expected}")
    life = oracle.lifetime(a, b, threads)
    check(pivot["lifetime_ns"] == life and total + pivot["unrecorded_ns"] == life
          and pivot["unrecorded_ns"] >= 0 and total <= (b - a) * len(threads),
          f"{what}: total + unrecorded == lives in the window ({life}) <= window x {len(threads)} threads")
    tree_law(pivot, what)
    for column in pivot["columns"]:
        if column.endswith("function"):
            continue
        got = marginal(pivot, column)
        want = oracle.tally(a, b, threads, column)
        # The hardware keys: Interrupt and Disk I/O done are both "hardware".
        merged = {}
        for k, v in got.items():
            cell = merged.setdefault(k, [0, 0])
            cell[0] += v[0]
            cell[1] += v[1]
        check(merged == want, f"{what}: by {column}, {len(want)} keys as the oracle"
              + ("" if merged == want else f" got {sorted(merged.items())[:4]} want {sorted(want.items())[:4]}"))


def csv_round_trip(path, args, pivot, what):
    text = run("pivot", path, *args, "--csv")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header, body = rows[0], rows[1:]
    n = len(pivot["columns"])
    ok = header == ["depth"] + pivot["columns"] + ["time_ns", "share", "count"]
    expected = []
    stack = []
    for d, row in walk(pivot["total"]):
        stack = stack[:max(d - 1, 0)]
        if d > 0:
            stack.append(row["label"])
        expected.append([str(d)] + stack + [""] * (n - len(stack)) + [str(row["time_ns"]), str(row["count"])])
    got = [r[:n + 2] + [r[n + 3]] for r in body]
    ok &= got == expected
    check(ok, f"{what}: CSV holds the JSON's {len(expected)} rows, paths and times")


def doc_sql():
    """The statement of docs/sql.md's "The pivot table in SQL"."""
    text = open(os.path.join(here, "..", "docs", "sql.md"), encoding="utf-8").read()
    section = text[text.index("## The pivot table in SQL"):]
    section = section[:section.index("\n## ", 1)]
    return "\n".join(line[4:] for line in section.split("\n") if line.startswith("    "))


def check_doc_sql(path, a, b, what):
    """The doc's SQL gives the pivot's leaves: (pid, state) → ns, spans."""
    rows = json.loads(run("query", path, doc_sql(), "--param", f"from={a}", "--param", f"to={b}", "--json"))["rows"]
    want = sorted(("?" if pid is None or pid < 0 else str(pid), state, ns, n) for pid, _, state, ns, n in rows)
    pivot = json.loads(run("pivot", path, "--by", "process,state", "--window", f"{a}ns:{b}ns", "--json"))
    got = sorted((p["key"], s["key"], s["time_ns"], s["count"])
                 for p in pivot["total"].get("children", []) for s in p["children"])
    check(got == want and len(got) > 0, f"{what}: docs/sql.md's pivot SQL gives the {len(got)} leaves of "
          "pivot --by process,state")


# Random traces in the JSON trace format, with overlapping spans, every
# kind of readier and stacks whose waiting function is known by
# construction; the oracle reads the events it wrote, not the model.
FRAMES = [("main", "/usr/bin/app"), ("f_alpha", "/usr/bin/app"), ("f_beta", "/usr/bin/app"),
          ("pthread_mutex_lock", "/lib/libc.so.6"), ("futex_wait", "[kernel.kallsyms]"),
          ("schedule", "[kernel.kallsyms]"), ("g_wake", "/usr/bin/app")]
# stack id → its function: the first user frame out from the kernel that is
# not a generic wrapper (pthread_mutex_lock is one)
STACKS = [([], None), ([0, 1], "f_alpha"), ([0, 2, 3], "f_beta"), ([0, 1, 3, 4, 5], "f_alpha"),
          ([2, 6], "g_wake"), ([0, 2, 4, 5], "f_beta")]


def random_trace(rng, path):
    pids = [100, 200, 300]
    threads = [{"tid": 1000 + i, "pid": pids[i % 3], "name": f"t{i}"} for i in range(6)]
    events = []
    for th in threads:
        t = rng.randint(0, 40)
        for _ in range(rng.randint(0, 14)):
            kind = rng.choice(["span", "span", "wait", "wait", "wait", "preempt"])
            dur = rng.randint(0, 40)
            ev = {"tid": th["tid"], "t": t, "dur": dur, "stack": rng.randrange(len(STACKS))}
            if kind == "span":
                ev.update(kind="running", flags=["span"])
            elif kind == "preempt":
                ev.update(kind="preempt", state="R")
            else:
                ev.update(kind="wait", state=rng.choice("SSDI"))
                if ev["state"] == "D":
                    ev["flags"] = ["uninterruptible"]
                if rng.random() < 0.7:
                    ev["latency"] = rng.randint(0, 15)
                how = rng.random()
                if how < 0.5:
                    waker = rng.choice(threads)
                    events.append({"kind": "unwait", "t": t + dur, "tid": waker["tid"], "target": th["tid"],
                                   "stack": rng.randrange(len(STACKS)), "peer": len(events) + 1})
                    ev["peer"] = len(events) - 1
                elif how < 0.65:
                    events.append({"kind": "hw-service", "t": t + dur, "tid": rng.choice(threads)["tid"],
                                   "target": th["tid"], "stack": rng.randrange(len(STACKS)),
                                   "peer": len(events) + 1})
                    ev["peer"] = len(events) - 1
                elif how < 0.8:
                    ev.setdefault("flags", []).append("unfinished")
                else:
                    ev.setdefault("flags", []).append("readier-unknown")
            events.append(ev)
            # mostly one after another, sometimes overlapping the last span
            t += rng.randint(-10, dur + 20)
            t = max(t, 0)
    trace = {"format": "waitscope-trace", "version": 1, "name": "random",
             "frames": [{"function": f, "module": m} for f, m in FRAMES],
             "stacks": [s for s, _ in STACKS],
             "processes": [{"pid": p, "name": f"proc{p}"} for p in pids],
             "threads": threads, "events": events}
    with open(path, "w") as f:
        json.dump(trace, f)
    return trace


def random_oracle(trace, a, b, tids, columns):
    """{path of keys: [ns, spans]} for the spans clipped to [a, b]: each
    event's spans (a wait, then its ready latency), sorted by start
    stably, each cut at the start of the next (a later span wins)."""
    pid_of = {th["tid"]: str(th["pid"]) for th in trace["threads"]}
    events = sorted(enumerate(trace["events"]), key=lambda ie: ie[1]["t"])
    out = {}
    for tid in tids:
        spans = []
        for _, e in events:
            if e["tid"] != tid:
                continue
            end = e["t"] + max(e.get("dur", 0), 0)
            if e["kind"] == "running" and "span" in e.get("flags", []):
                spans.append((e["t"], end, "running", None))
            elif e["kind"] == "preempt":
                spans.append((e["t"], end, "ready", None))
            elif e["kind"] == "wait":
                flags = e.get("flags", [])
                state = "disk" if e["state"] == "D" or "uninterruptible" in flags else \
                    "sleeping" if e["state"] == "S" else "other"
                spans.append((e["t"], end, state, e))
                if e.get("latency", 0) > 0:
                    spans.append((end, end + e["latency"], "ready", e))
        spans = [s for s in spans if s[1] > s[0]]
        spans.sort(key=lambda s: s[0])
        for i, (t0, t1, state, wait) in enumerate(spans):
            if i + 1 < len(spans):
                t1 = min(t1, spans[i + 1][0])
            lo, hi = max(t0, a), min(t1, b)
            if hi <= lo:
                continue
            path = tuple(random_key(trace, pid_of, c, tid, state, wait) for c in columns)
            cell = out.setdefault(path, [0, 0])
            cell[0] += hi - lo
            cell[1] += 1
    return out


def random_key(trace, pid_of, column, tid, state, wait):
    if column == "process":
        return pid_of[tid]
    if column == "thread":
        return str(tid)
    if column == "state":
        return state
    if wait is None:
        return ("Not waiting",)
    if column == "waiting-function":
        return STACKS[wait["stack"]][1] or ("No stack recorded",)
    flags = wait.get("flags", [])
    if "peer" not in wait:
        return ("Still waiting when the recording ended",) if "unfinished" in flags else ("No wake-up recorded",)
    wake = trace["events"][wait["peer"]]
    if column == "readier-function":
        return STACKS[wake["stack"]][1] or ("No stack recorded",)
    if wake["kind"] == "hw-service":
        # the glossary's word follows the wait's scheduler letter, for its ready latency too
        return ("Disk I/O done",) if wait["state"] == "D" else ("Interrupt",)
    return pid_of[wake["tid"]] if column == "readier-process" else str(wake["tid"])


def pivot_leaves(pivot):
    out = {}

    def go(row, path):
        kids = row.get("children")
        if kids is None:
            out[tuple(path)] = [row["time_ns"], row["count"]]
            return
        for k in kids:
            go(k, path + [k["key"] if k["key"] is not None else (k["label"],)])
    if pivot["total"]["count"] > 0:
        go(pivot["total"], [])
    return out


def random_traces(tmp, rng):
    bad = 0
    n = 40
    for i in range(n):
        path = os.path.join(tmp, f"random-{i}.json")
        trace = random_trace(rng, path)
        cols = rng.sample(COLUMNS, rng.randint(1, 4))
        a = rng.randint(0, 150)
        b = rng.randint(a + 1, 400)
        tids = [th["tid"] for th in trace["threads"]]
        if rng.random() < 0.5:
            tids = sorted(rng.sample(tids, rng.randint(1, len(tids))))
        args = ["pivot", path, "--by", ",".join(cols), "--window", f"{a}ns:{b}ns", "--json"]
        for tid in tids:
            args += ["--tid", str(tid)]
        pivot = json.loads(run(*args))
        got, want = pivot_leaves(pivot), random_oracle(trace, a, b, tids, cols)
        got = {k: tuple(v) for k, v in got.items()}
        want = {k: tuple(v) for k, v in want.items()}
        total = pivot["total"]["time_ns"]
        law = total == sum(v[0] for v in want.values()) and total <= (b - a) * len(tids) \
            and pivot["unrecorded_ns"] >= 0
        if got != want or not law:
            bad += 1
            print(f"# random trace {i} by {cols} [{a}, {b}] tids {tids}: only got {sorted(map(str, set(got.items()) - set(want.items())))[:6]} "
                  f"only want {sorted(map(str, set(want.items()) - set(got.items())))[:6]}")
    check(bad == 0, f"{n} random traces with overlapping spans: every leaf (ns, count) as the oracle, "
          "total <= window x threads")


def hostile_names(tmp):
    """py-locks with bytes that are not UTF-8 in a comm, a function and
    the file name."""
    text = gzip.open(os.path.join(data, "py-locks.perf.txt.gz"), "rb").read()
    text = text.replace(b"perf 11591/11591", b"pe\xffrf 11591/11591")
    text = text.replace(b"comm=migration/0", b"comm=migra\xfe\xfftion/0")
    text = text.replace(b"__futex_abstimed_wait_common", b"__futex_\xe9wait_common")
    # CSV must quote these: a comma, quotes and a line break in a name
    text = text.replace(b"smpboot_thread_fn", b'smpboot,"thread"_fn')
    path = os.path.join(tmp.encode(), b"bad-\xff-name.perf.txt")
    with open(path, "wb") as f:
        f.write(text)
    return path


def main():
    rng = random.Random(20261128)
    with tempfile.TemporaryDirectory() as tmp:
        for name in TRACES:
            path = os.path.join(data, name)
            oracle = Oracle(path, tmp)
            everyone = sorted(oracle.threads)
            pivot = json.loads(run("pivot", path, "--by", "process,state", "--json"))
            check_against_oracle(oracle, pivot, oracle.start, oracle.end, everyone, f"{name} whole trace")
            csv_round_trip(path, ["--by", "process,state"], pivot, name)
            third = (oracle.end - oracle.start) // 3
            check_doc_sql(path, oracle.start + third, oracle.end - third, name)

            for i in range(6):
                cols = rng.sample(COLUMNS, rng.randint(1, 4))
                a = rng.randint(oracle.start, oracle.end - 1)
                b = rng.randint(a + 1, oracle.end)
                args = ["--by", ",".join(cols), "--window", f"{a}ns:{b}ns"]
                threads = everyone
                if i % 2 == 1:
                    tids = sorted({oracle.threads[t]["tid"] for t in rng.sample(everyone, min(5, len(everyone)))})
                    threads = [t for t in everyone if oracle.threads[t]["tid"] in tids]
                    for tid in tids:
                        args += ["--tid", str(tid)]
                pivot = json.loads(run("pivot", path, *args, "--json"))
                what = f"{name} by {','.join(cols)} over [{a}, {b}] {len(threads)} threads"
                check_against_oracle(oracle, pivot, a, b, threads, what)
                if i == 0:
                    csv_round_trip(path, args, pivot, what)

        random_traces(tmp, rng)

        bad = hostile_names(tmp)
        out = subprocess.run([cli.encode(), b"pivot", bad, b"--by",
                              b"process,thread,waiting-function,readier-function", b"--json"],
                             capture_output=True).stdout
        try:
            pivot = json.loads(out.decode("utf-8"))
            labels = [row["label"] for _, row in walk(pivot["total"])]
            check(any("\ufffd" in label for label in labels),
                  "invalid UTF-8 names: valid JSON, the bad bytes written as U+FFFD")
            check('smpboot,"thread"_fn' in labels, "a name with a comma and quotes is a row")
            os.symlink(bad, os.path.join(tmp, "quoted.perf.txt"))
            csv_round_trip(os.path.join(tmp, "quoted.perf.txt"),
                           ["--by", "process,thread,waiting-function,readier-function"], pivot,
                           "names with bytes that are not UTF-8, commas and quotes")
        except (UnicodeDecodeError, ValueError) as e:
            check(False, f"invalid UTF-8 names: {e}")

        for args, why in [(["--by", "process,nonsense"], "an unknown column"),
                          (["--by", "state,state"], "a column twice"),
                          (["--window", "5:1"], "a window that ends before it starts"),
                          (["--window", "5"], "a window without a colon"),
                          (["--tid", "x"], "a tid that is not a number")]:
            p = subprocess.run([cli, "pivot", os.path.join(data, "py-locks.perf.txt.gz"), *args],
                               capture_output=True, text=True)
            check(p.returncode == 2 and "pivot" in p.stderr, f"usage error (exit 2) for {why}")
        p = subprocess.run([cli, "pivot", os.path.join(data, "py-locks.perf.txt.gz"), "--tid", "1"],
                           capture_output=True, text=True)
        check(p.returncode == 1 and "tid 1" in p.stderr, "a tid not in the trace: exit 1, naming it")

    print(f"{failures} failed")
    sys.exit(1 if failures else 0)


main()
