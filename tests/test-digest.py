#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Digests against traces through waitscope-cli.

1. Equality: `mine` and `cluster` print byte-identical --json over the
   traces and over their digests (`digest -o DIR`), on every real trace of
   tests/data and of the causes corpus, with each option a digest holds
   (waiting, --running, --by-cause, --scope all, --must/--must-not, with
   and without a history store), for every trace alone and for the corpus
   together; `history add` of a merged digest prints what adding the
   traces prints and leaves the store holding the same stack counts and
   wait samples.
2. The merge's laws over random subsets and orders (seed printed):
   merge(a, merge(b, c)) == merge(merge(a, b), c) == merge of any
   permutation, byte for byte; mining a merged digest == mining its parts
   in the merged order (by path).
3. Bad digests (truncated, not gzip, not JSON, another format, another
   version, a stack out of range) exit 1 naming the file and the place.
4. Contrast: `contrast --json` prints the same bytes over traces, over
   their digests and over a merged digest (the classes naming its traces):
   every trace's scenario alone, the PostgreSQL pair and the paper's case,
   the fleet by its classes file, and random fast/slow classes over the
   shared traces and the causes corpus (seeded as above); a digest without
   contrast instances (as written before) is refused naming the trace;
   classes may name a merged digest's traces by any spelling, and one it
   does not hold is refused naming it; `digest-merge --level 9` writes the
   same document as the default level 1.
"""
import gzip
import json
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


def run(*args, expect=0, cwd=None):
    p = subprocess.run([cli, *args], capture_output=True, cwd=cwd)
    if p.returncode != expect:
        check(False, f"{' '.join(args)}: exit {p.returncode}, expected {expect}\n{p.stderr.decode(errors='replace')}")
    return p


traces = sorted(os.path.join(data, f) for f in os.listdir(data) if f.endswith(".perf.txt.gz"))
traces += sorted(os.path.join(data, "causes", f) for f in os.listdir(os.path.join(data, "causes"))
                 if f.endswith(".perf.txt.gz"))
tmp = tempfile.mkdtemp(prefix="ws-digest-")
ddir = os.path.join(tmp, "d")
out = run("digest", "-o", ddir, *traces).stdout.decode().split()
check(len(out) == len(traces) and all(os.path.isfile(p) for p in out), f"digest wrote {len(out)} files")
digest_of = dict(zip(traces, out))

text_size = sum(len(gzip.open(t).read()) for t in traces)
digest_size = sum(os.path.getsize(p) for p in out)
share = 100.0 * digest_size / text_size
print(f"# digests: {digest_size} bytes for {text_size} bytes of perf text ({share:.3f} %)")
check(share <= 2.0, f"digests are {share:.3f} % of the perf text (<= 2 %)")

# 1. Equality, one trace at a time and all together.
OPTIONS = [["mine"], ["mine", "--running"], ["mine", "--by-cause"], ["mine", "--scope", "all"],
           ["mine", "--must", "futex|sleep", "--top", "0"], ["mine", "--must-not", "kernel"],
           ["cluster"], ["cluster", "--by-cause"]]
for opts in OPTIONS:
    groups = [[t] for t in traces] + [traces]
    same = 0
    for group in groups:
        a = run(*opts, "--json", "--no-history", *group).stdout
        b = run(*opts, "--json", "--no-history", *[digest_of[t] for t in group]).stdout
        same += a == b and len(a) > 0
        if a != b:
            print(f"# differs: {' '.join(opts)} {' '.join(group)}")
    check(same == len(groups), f"{' '.join(opts)}: traces and digests print the same JSON ({same}/{len(groups)})")

# With a history store: the same JSON (the store named alike), the same store.
for name, inputs in (("ht", traces), ("hd", [digest_of[t] for t in traces])):
    os.makedirs(os.path.join(tmp, name))
    run("cluster", "--json", "--history", "h.sqlite", *inputs, cwd=os.path.join(tmp, name))
ta = run("cluster", "--json", "--history", "h.sqlite", *traces, cwd=os.path.join(tmp, "ht")).stdout
da = run("cluster", "--json", "--history", "h.sqlite", *[digest_of[t] for t in traces],
         cwd=os.path.join(tmp, "hd")).stdout
check(ta == da and b'"newly_recorded" : 0' in ta, "cluster with a history store: the same JSON, traces known once")
STORE = ["SELECT name, module, n_stacks, n_with_callee, n_with_caller FROM functions ORDER BY 1, 2",
         "SELECT a.name, a.module, b.name, b.module, count FROM bigrams JOIN functions a ON a.id = caller "
         "JOIN functions b ON b.id = callee ORDER BY 1, 2, 3, 4",
         "SELECT digest, path, n_callstacks FROM traces ORDER BY 1", "SELECT * FROM totals ORDER BY 1"]


def store(path):
    with sqlite3.connect(path) as db:
        return [db.execute(q).fetchall() for q in STORE]


check(store(os.path.join(tmp, "ht", "h.sqlite")) == store(os.path.join(tmp, "hd", "h.sqlite")),
      "the history store holds the same counts recorded from traces or digests")

# history add: the same JSON, the same stacks and wait samples in the store.
WAITS = ["SELECT signature, trace_digest, duration, slot FROM wait_samples ORDER BY 1, 2, 4",
         "SELECT * FROM wait_reservoirs ORDER BY 1", "SELECT digest, depth, n_waits FROM wait_traces ORDER BY 1, 2"]
merged_all = os.path.join(tmp, "all.wsdigest")
run("digest-merge", "-o", merged_all, *out)
adds = {}
for name, inputs in (("at", sorted(traces)), ("ad", [merged_all])):
    os.makedirs(os.path.join(tmp, name))
    adds[name] = run("history", "add", "--json", "--history", "h.sqlite", *inputs, cwd=os.path.join(tmp, name)).stdout
    with sqlite3.connect(os.path.join(tmp, name, "h.sqlite")) as db:
        adds[name] = (adds[name], [db.execute(q).fetchall() for q in STORE + WAITS])
check(adds["at"][0] == adds["ad"][0] and b'"new" : %d' % len(traces) in adds["at"][0],
      "history add: a merged digest prints what adding its traces prints")
check(adds["at"][1] == adds["ad"][1] and len(adds["at"][1][-3]) > 0,
      "history add: the store holds the same stack counts and wait samples")

# 2. The merge's laws.
seed = int(os.environ.get("WS_TEST_SEED", random.randrange(1 << 30)))
print(f"# seed {seed} (WS_TEST_SEED to repeat)")
rng = random.Random(seed)
mdir = os.path.join(tmp, "m")
os.makedirs(mdir)
n_merge = 0


def merge(*inputs):
    global n_merge
    n_merge += 1
    path = os.path.join(mdir, f"{n_merge}.wsdigest")
    run("digest-merge", "-o", path, *inputs)
    return path


def content(path):
    with open(path, "rb") as f:
        return f.read()


laws = 0
for round_ in range(12):
    a, b, c = (rng.sample(out, rng.randint(1, 3)) for _ in range(3))
    left = merge(merge(*a), merge(merge(*b), merge(*c)))
    right = merge(merge(merge(*a), merge(*b)), merge(*c))
    parts = a + b + c
    rng.shuffle(parts)
    flat = merge(*parts)
    ok = content(left) == content(right) == content(flat)
    # Mining the merged digest is mining its traces in path order.
    in_order = sorted(parts, key=lambda p: traces[out.index(p)])
    m1 = run("mine", "--json", "--no-history", flat).stdout
    m2 = run("mine", "--json", "--no-history", *in_order).stdout
    m3 = run("mine", "--json", "--no-history", *[traces[out.index(p)] for p in in_order]).stdout
    ok = ok and m1 == m2 == m3
    laws += ok
    if not ok:
        print(f"# round {round_}: a={a} b={b} c={c}")
check(laws == 12, f"merge is associative and order-independent; mining it mines its parts ({laws}/12)")

# 4. Contrast over digests.
def same_contrast(what, args_traces, args_digests, expect_ok=True):
    a = subprocess.run([cli, "contrast", "--json", *args_traces], capture_output=True)
    b = subprocess.run([cli, "contrast", "--json", *args_digests], capture_output=True)
    ok = a.returncode == b.returncode and a.stdout == b.stdout
    ok = ok and (expect_ok is None or (a.returncode == 0) == expect_ok)
    print(f"# {what}: exit {a.returncode}, {len(a.stdout)} bytes")
    if not ok:
        print(f"# {what}: exit {a.returncode} / {b.returncode}\n# {a.stderr.decode(errors='replace')}"
              f"# {b.stderr.decode(errors='replace')}")
    return ok


same = sum(same_contrast(t, [t], [digest_of[t]], expect_ok=None) for t in traces)
check(same == len(traces), f"contrast of each trace's scenario: traces and digests alike ({same}/{len(traces)})")

extra = [os.path.join(data, f) for f in ("pg-contrast-fast.perf.txt.gz", "pg-contrast-slow.perf.txt.gz",
                                         "paper-case.json")]
fleet = sorted(os.path.join(data, "fleet", f) for f in os.listdir(os.path.join(data, "fleet"))
               if f.endswith(".perf.txt.gz"))
edir = os.path.join(tmp, "e")
eout = run("digest", "-o", edir, *extra, *fleet).stdout.decode().split()
digest_of.update(zip(extra + fleet, eout))
pgf, pgs, paper = extra
D = digest_of
cases = [("PostgreSQL pair", ["--fast", pgf, "--slow", pgs], ["--fast", D[pgf], "--slow", D[pgs]]),
         ("PostgreSQL pair, widened, by C/N", ["--widen", "--rank", "average", "--fast", pgf, "--slow", pgs],
          ["--widen", "--rank", "average", "--fast", D[pgf], "--slow", D[pgs]]),
         ("paper's case", ["--component", r"\.sys\)", "--fast-below", "300ms", "--slow-above", "500ms", paper],
          ["--component", r"\.sys\)", "--fast-below", "300ms", "--slow-above", "500ms", D[paper]])]
fleet_merged = os.path.join(tmp, "fleet.wsdigest")
run("digest-merge", "-o", fleet_merged, *[D[t] for t in fleet])
classes = os.path.join(data, "fleet", "classes.csv")
dclasses = os.path.join(tmp, "classes-digests.csv")
with open(classes) as f, open(dclasses, "w") as g:
    for line in f:
        name = line.split(",")[0]
        g.write(line.replace(name, D[os.path.join(data, "fleet", name)], 1) if name.endswith(".gz") else line)
cases += [("fleet by classes, a digest each", ["--classes", classes], ["--classes", dclasses]),
          ("fleet by classes, a merged digest", ["--classes", classes], ["--classes", classes, fleet_merged])]
for what, at, ad in cases:
    check(same_contrast(what, at, ad), f"contrast, {what}: traces and digests print the same JSON")

# The classes name traces of a merged digest by any spelling of their
# paths, a trace named twice is one; one that no digest given holds is
# refused, naming it.
respelled = os.path.join(tmp, "classes-respelled.csv")
with open(classes) as f, open(respelled, "w") as g:
    header, *lines = f.read().splitlines()
    g.write(header + "\n")
    for line in lines + lines[:1]:
        name, rest = line.split(",", 1)
        g.write(f"{os.path.join(data, 'fleet', '..', 'fleet', '.', name)},{rest}\n")
check(same_contrast("fleet by classes respelled, a merged digest", ["--classes", classes],
                    ["--classes", respelled, fleet_merged]),
      "contrast, fleet by classes naming the traces by other spellings, one twice: the same JSON")
with open(respelled, "a") as g:
    g.write("/nowhere/missing.perf.txt.gz,slow\n")
p = run("contrast", "--json", "--classes", respelled, fleet_merged, expect=2)
check(b"/nowhere/missing.perf.txt.gz: no digest given holds this trace" in p.stderr and p.stdout == b"",
      "contrast: a trace the classes name that no digest holds is refused, naming it")

# digest-merge writes at gzip level 1 unless told: the same document at
# any level, read alike.
level9 = os.path.join(tmp, "fleet-9.wsdigest")
run("digest-merge", "--level", "9", "-o", level9, *[D[t] for t in fleet])
size1, size9 = os.path.getsize(fleet_merged), os.path.getsize(level9)
print(f"# merged fleet digest: {size1} bytes at level 1, {size9} at level 9")
check(gzip.decompress(content(fleet_merged)) == gzip.decompress(content(level9)) and size9 < size1,
      "digest-merge --level 9: the same document as the default level 1, smaller")
check(same_contrast("fleet by classes, merged at level 9", ["--classes", classes], ["--classes", classes, level9]),
      "contrast over a merge written at level 9: the same JSON")
p = run("digest-merge", "--level", "0", "-o", os.path.join(tmp, "x.wsdigest"), D[fleet[0]], expect=2)
check(b"--level" in p.stderr and not os.path.exists(os.path.join(tmp, "x.wsdigest")),
      "digest-merge --level 0 is a usage error")

# Random classes of whole traces over the corpus: a digest each, and merged.
corpus_merged = os.path.join(tmp, "corpus.wsdigest")
run("digest-merge", "-o", corpus_merged, *out)
# A digest keeps the threads of the programs its trace ranked first and
# second (docs/digest.md); when random classes make the fleet about a
# program one of their digests did not keep, contrast refuses it, naming
# the trace, instead of printing another answer.  Such a draw is counted
# and another is drawn: the law is "the same answer, or that refusal".
answered = refused = 0
for round_ in range(8):
    if answered == 3:
        break
    pick = rng.sample(traces, rng.randint(4, 8))
    fast, slow = pick[: len(pick) // 2], pick[len(pick) // 2:]
    at = [a for t in fast for a in ("--fast", t)] + [a for t in slow for a in ("--slow", t)]
    ad = [a for t in fast for a in ("--fast", D[t])] + [a for t in slow for a in ("--slow", D[t])]
    b = subprocess.run([cli, "contrast", "--json", *ad], capture_output=True)
    why = b.stderr.decode(errors="replace")
    if b.returncode == 2 and "does not keep the threads of" in why:
        refused += 1
        print(f"# random classes {round_}: refused by the digests: {why.splitlines()[0]}")
        continue
    ok = same_contrast(f"random classes {round_}", at, ad, expect_ok=None)
    ok = ok and same_contrast(f"random classes {round_}, merged", at, at + [corpus_merged], expect_ok=None)
    check(ok, f"contrast of random classes ({len(fast)} fast, {len(slow)} slow): traces, digests, merged alike")
    answered += 1
check(answered == 3, f"random classes: 3 draws answered alike ({refused} refused, naming the trace)")

# A digest written before contrast read digests: refused, naming the trace.
old = json.loads(gzip.decompress(content(D[pgf])))
for t in old["traces"]:
    for k in ("program", "span_programs", "programs", "instances"):
        t.pop(k, None)
old_path = os.path.join(tmp, "old.wsdigest")
with open(old_path, "wb") as f:
    f.write(gzip.compress(json.dumps(old).encode()))
p = run("contrast", "--json", "--fast", old_path, "--slow", D[pgs], expect=2)
check(b"digest the trace again" in p.stderr and pgf.encode() in p.stderr and p.stdout == b"",
      "a digest without contrast instances: contrast refuses it, naming the trace")
check(run("mine", "--json", "--no-history", old_path).stdout == run("mine", "--json", "--no-history", pgf).stdout,
      "a digest without contrast instances still mines")
p = run("contrast", "--scenario", "x=a:b,a:c", D[paper], expect=2)
check(b"made with the built-in scenario rules" in p.stderr and paper.encode() in p.stderr,
      "scenario rules with digests made without them are a usage error naming the trace")

# 3. Bad digests.
good = content(out[0])
doc = json.loads(gzip.decompress(good))
bad = {
    "truncated": good[: len(good) // 2],
    "not-gzip": b"\x1f\x8bthis is not gzip",
    "not-json": gzip.compress(b"{\"format\": \"waitscope-digest\", "),
    "format": gzip.compress(json.dumps({**doc, "format": "something-else"}).encode()),
    "version": gzip.compress(json.dumps({**doc, "version": 99}).encode()),
}
broken = json.loads(json.dumps(doc))
broken["traces"][0]["waiting"][0] = len(broken["stacks"]) + 5
bad["stack"] = gzip.compress(json.dumps(broken).encode())
PLACE = {"truncated": "gzip", "not-gzip": "gzip", "not-json": "JSON", "format": ".format",
         "version": ".version", "stack": "traces[0].waiting[0]"}
for name, raw in bad.items():
    path = os.path.join(tmp, f"bad-{name}.wsdigest")
    with open(path, "wb") as f:
        f.write(raw)
    p = run("mine", "--json", "--no-history", path, expect=1)
    err = p.stderr.decode(errors="replace")
    check(path in err and PLACE[name] in err and p.stdout == b"", f"bad digest ({name}): exit 1, “{err.strip()}”")
p = run("mine", "--no-history", "--scope", "tid:1", out[0], expect=2)
check(b"needs the traces" in p.stderr, "a scope a digest does not hold is a usage error")

shutil.rmtree(tmp)
sys.exit(1 if failures else 0)
