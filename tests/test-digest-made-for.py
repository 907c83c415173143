#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Digests made for a scenario and for a program, against the traces.

1. Scenario rules: digests made with `digest --scenario R` (or
   `--scenario-file`) give byte-identical `contrast --scenario R --json`
   to the traces themselves: the lock-contrast pair's requests (markers
   lso:request_begin/end), the PostgreSQL pair's commit-to-commit rule from
   a key file, causes traces without such markers (then contrasted thread
   by thread), a merged digest by its classes, and random rules over the
   real markers with random classes (seed printed; WS_TEST_SEED repeats
   it).  The digest records the rules (`scenario_rules`); one made without
   rules records none.
2. Rules that differ: a digest made with other rules, or with none, is
   refused (exit 2) naming its trace, and so is a digest made with rules
   when contrast is given none.
3. Programs: where the fleet's program is one a trace ranks third or
   lower, the default digest of that trace is refused naming it, and its
   digest made with `--program P` gives the traces' fleet contrast byte for
   byte (the traces found from the digests' own `programs` and
   `span_programs`).
4. digest-merge of two digests of one trace (the same content hash) made
   with different rules or programs is refused (exit 1, nothing written)
   naming both files; made alike, they merge as before (one path once,
   another path as a trace of its own).  The law over random lists of
   digests (the lock pair and a copy of one at another path, each made
   plain, with --scenario and with --program; repeats allowed): refused
   exactly when some content appears made two ways, naming the first
   digest of that content and the first that differs from it; otherwise
   the merge holds one trace per distinct path and content, each with the
   rules it was made with.
"""
import gzip
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

cli = os.path.abspath(os.environ["WS_CLI"])
data = os.path.abspath(os.environ["WS_TEST_DATA"])
failures = 0


def check(ok, what):
    global failures
    print(("ok " if ok else "FAIL ") + what, flush=True)
    failures += not ok


def run(*args):
    return subprocess.run([cli, *args], capture_output=True)


def digest(out_dir, traces, *options):
    p = run("digest", *options, "-o", out_dir, *traces)
    paths = p.stdout.decode().split()
    if p.returncode != 0 or len(paths) != len(traces):
        check(False, f"digest {' '.join(options)}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
        return {}
    return dict(zip(traces, paths))


def members(path):
    return json.loads(gzip.decompress(open(path, "rb").read()))["traces"][0]


def same_contrast(what, args_traces, args_digests, must=b'"patterns"'):
    a = run("contrast", "--json", *args_traces)
    b = run("contrast", "--json", *args_digests)
    ok = a.returncode == 0 and b.returncode == 0 and a.stdout == b.stdout and must in a.stdout
    print(f"# {what}: exit {a.returncode} / {b.returncode}, {len(a.stdout)} / {len(b.stdout)} bytes")
    if not ok:
        print(f"# {a.stderr.decode(errors='replace')}# {b.stderr.decode(errors='replace')}")
    return ok


def refused(what, args, trace, needle):
    p = run("contrast", "--json", *args)
    err = p.stderr.decode(errors="replace")
    ok = p.returncode == 2 and p.stdout == b"" and trace in err and needle in err
    print(f"# {what}: exit {p.returncode}: {err.strip().splitlines()[0] if err else ''}")
    return ok


def classes_args(fast, slow):
    return [a for t in fast for a in ("--fast", t)] + [a for t in slow for a in ("--slow", t)]


tmp = tempfile.mkdtemp(prefix="ws-digest-for-")
lock = [os.path.join(data, "lock-contrast", f"lock-slowop-{c}.perf.txt.gz") for c in ("fast", "slow")]
pg = [os.path.join(data, f"pg-contrast-{c}.perf.txt.gz") for c in ("fast", "slow")]
causes = [os.path.join(data, "causes", f"{n}.perf.txt.gz") for n in ("chain3", "pg-advisory", "flock-hold")]
others = [os.path.join(data, "build.perf.txt.gz"), os.path.join(data, "fleet", "run-01.perf.txt.gz")]
REQUEST = "request=lso:request_begin,lso:request_end"
rules_file = os.path.join(tmp, "commits.rules")
with open(rules_file, "w") as f:
    # From one commit to the next on a backend: a transaction and the wait
    # for the client's next one.
    f.write("[scenario commits]\nbegin=sdt_postgresql:transaction__commit\nend=sdt_postgresql:transaction__commit\n")

# 1. The same rules: the same contrast.
plain = digest(os.path.join(tmp, "plain"), lock + pg + causes + others)
with_request = digest(os.path.join(tmp, "request"), lock + causes, "--scenario", REQUEST)
with_file = digest(os.path.join(tmp, "file"), pg, "--scenario-file", rules_file)
D = with_request
check(same_contrast("requests, lock pair", ["--scenario", REQUEST] + classes_args(lock[:1], lock[1:]),
                    ["--scenario", REQUEST] + classes_args([D[lock[0]]], [D[lock[1]]]), b'"scenario" : "request"'),
      "digest --scenario: contrast --scenario over the lock pair's digests prints the traces' JSON")
check(same_contrast("requests, lock pair, component and thresholds",
                    ["--scenario", REQUEST, "--component", "lock-slowop", "--fast-below", "70us", *lock],
                    ["--scenario", REQUEST, "--component", "lock-slowop", "--fast-below", "70us",
                     D[lock[0]], D[lock[1]]], b'"scenario" : "request"'),
      "digest --scenario: contrast of the instances of both digests by thresholds, the traces' JSON")
check(same_contrast("commits from a key file, PostgreSQL pair",
                    ["--scenario-file", rules_file, "--scenario-name", "commits"] + classes_args(pg[:1], pg[1:]),
                    ["--scenario-file", rules_file, "--scenario-name", "commits"]
                    + classes_args([with_file[pg[0]]], [with_file[pg[1]]]), b'"scenario" : "commits"'),
      "digest --scenario-file: contrast --scenario-file over the PostgreSQL pair's digests prints the traces' JSON")
check(same_contrast("requests, causes traces without the markers",
                    ["--scenario", REQUEST] + classes_args(causes[:1], causes[1:]),
                    ["--scenario", REQUEST] + classes_args([D[causes[0]]], [D[c] for c in causes[1:]]),
                    b'"scenario" : "threads of'),
      "digest --scenario over traces without its markers: the traces' thread-span contrast")
check(same_contrast("requests, a digest and a trace", ["--scenario", REQUEST] + classes_args(lock[:1], lock[1:]),
                    ["--scenario", REQUEST] + classes_args([D[lock[0]]], [lock[1]]), b'"scenario" : "request"'),
      "contrast --scenario over a digest made with it and a trace: the traces' JSON (the trace reduced with the rule)")
merged = os.path.join(tmp, "request.wsdigest")
subprocess.run([cli, "digest-merge", "-o", merged, *D.values()], check=True)
classes = os.path.join(tmp, "classes.csv")
with open(classes, "w") as f:
    f.write("trace,class\n" + "".join(f"{t},{c}\n" for t, c in zip(lock, ("fast", "slow"))))
check(same_contrast("requests, merged digest by classes", ["--scenario", REQUEST, "--classes", classes],
                    ["--scenario", REQUEST, "--classes", classes, merged], b'"scenario" : "request"'),
      "a merged digest keeps each trace's rules: the traces' JSON")

builtin = "transaction=sdt_postgresql:transaction__start,sdt_postgresql:transaction__commit," \
          "sdt_postgresql:transaction__abort"
check(members(D[lock[0]]).get("scenario_rules") == [builtin, REQUEST]
      and members(with_file[pg[0]]).get("scenario_rules") == [builtin, "commits=sdt_postgresql:transaction__commit,"
                                                               "sdt_postgresql:transaction__commit"]
      and "scenario_rules" not in members(plain[lock[0]]),
      "a digest records the rules it was made with (scenario_rules), none when made with the built-in ones")

# Random rules over the real markers, random classes over the traces.
seed = int(os.environ.get("WS_TEST_SEED", random.randrange(1 << 30)))
print(f"# seed {seed} (WS_TEST_SEED to repeat)")
rng = random.Random(seed)
MARKERS = ["sdt_postgresql:transaction__start", "sdt_postgresql:transaction__commit"]
pool = pg + causes
agree = answered_random = 0
for round_ in range(3):
    begin, end = rng.choice(MARKERS), rng.choice(MARKERS)
    rule = f"r{round_}={begin},{end}"
    picked = rng.sample(pool, rng.randint(2, 4))
    cut = rng.randint(1, len(picked) - 1)
    made = digest(os.path.join(tmp, f"random-{round_}"), picked, "--scenario", rule)
    at = ["--scenario", rule, "--scenario-name", f"r{round_}"] + classes_args(picked[:cut], picked[cut:])
    ad = ["--scenario", rule, "--scenario-name", f"r{round_}"] + classes_args([made[t] for t in picked[:cut]],
                                                                              [made[t] for t in picked[cut:]])
    a, b = run("contrast", "--json", *at), run("contrast", "--json", *ad)
    # The same answer, or the same refusal (no instance of the scenario).
    ok = a.returncode == b.returncode and a.stdout == b.stdout and (a.returncode == 0 or a.stderr == b.stderr)
    print(f"# random {round_}: {rule}, {cut} fast of {len(picked)}: exit {a.returncode} / {b.returncode}")
    agree += ok
    answered_random += ok and a.returncode == 0
check(agree == 3, f"random rules over the real markers, random classes: traces and digests alike ({agree}/3, "
                  f"{answered_random} answered)")

# 2. Other rules, or none: refused, naming the trace.
check(refused("digest without rules, contrast with", ["--scenario", REQUEST, plain[lock[0]], plain[lock[1]]],
              lock[0], "built-in scenario rules"),
      "a digest made without --scenario is refused by contrast --scenario, naming its trace")
check(refused("digest with rules, contrast without", classes_args([D[lock[0]]], [D[lock[1]]]), lock[0], REQUEST),
      "a digest made with --scenario is refused by contrast without it, naming its trace")
check(refused("digest with other rules", ["--scenario", "request=lso:request_begin,lso:request_begin",
                                          D[lock[0]], D[lock[1]]], lock[0], REQUEST),
      "a digest made with other rules is refused, naming its trace")
check(refused("one digest of two made without the rules", ["--scenario", REQUEST, D[lock[0]], plain[lock[1]]],
              lock[1], "built-in scenario rules"),
      "of two digests, the one made without the rules is refused, named")
p = run("digest", "--scenario", "no-equals-sign", "-o", os.path.join(tmp, "bad"), lock[0])
check(p.returncode == 2 and b"no-equals-sign" in p.stderr and not os.path.exists(os.path.join(tmp, "bad")),
      "digest --scenario with a bad rule: a usage error naming it, nothing written")
p = run("digest", "--scenario-file", os.path.join(tmp, "missing.rules"), "-o", os.path.join(tmp, "bad"), lock[0])
check(p.returncode == 1 and b"missing.rules" in p.stderr, "digest --scenario-file of a missing file: exit 1 naming it")

# 3. Programs a trace ranks below its first two.
picked_by, third = {}, {}
for t in pool + lock + others:
    m = members(plain[t])
    # A fleet of traces with scenario instances contrasts those, not spans.
    if any(i["scenario"] is not None for i in m["instances"]):
        continue
    if m["program"]:
        picked_by.setdefault(m["program"], []).append(t)
    for name in m["programs"]:
        if name not in m["span_programs"]:
            third.setdefault(name, []).append(t)
cases = [(p, picked_by[p][:2], t) for p in sorted(third) if p in picked_by for t in third[p][:1]]
print(f"# programs ranked below the first two: {[(p, len(f), os.path.basename(t)) for p, f, t in cases]}")
answered = 0
for program, fast, slow in cases[:2]:
    # The fast traces pick the program and come first: it is the fleet's
    # (the most votes, the first on a tie).
    made = digest(os.path.join(tmp, f"program-{answered}"), fast + [slow], "--program", program)
    ok = refused(f"default digests, fleet about {program}",
                 classes_args([plain[t] for t in fast], [plain[slow]]), slow, f"--program “{program}”")
    ok = ok and same_contrast(f"digests with --program {program}", classes_args(fast, [slow]),
                              classes_args([made[t] for t in fast], [made[slow]]),
                              f'"component" : "{program}"'.encode())
    ok = ok and program in members(made[slow])["span_programs"] and program not in members(plain[slow])["span_programs"]
    check(ok, f"a fleet about {program}, third or lower in {os.path.basename(slow)}: the default digest is refused "
              f"naming it, the digest made with --program {program} gives the traces' contrast")
    answered += 1
check(answered >= 1, f"fleets about a program some trace ranks third or lower ({answered})")

# 4. digest-merge: one trace digested two ways is refused.
copy_dir = os.path.join(tmp, "copy")
os.makedirs(copy_dir)
copy = os.path.join(copy_dir, os.path.basename(lock[0]))
shutil.copyfile(lock[0], copy)
with_program = digest(os.path.join(tmp, "program-foo"), lock, "--program", "foo")
copy_plain = digest(os.path.join(tmp, "copy-plain"), [copy])
copy_request = digest(os.path.join(tmp, "copy-request"), [copy], "--scenario", REQUEST)
# (file, content, path, how it was made)
made_ways = [(plain[lock[0]], "fast", lock[0], "plain"), (D[lock[0]], "fast", lock[0], "request"),
             (with_program[lock[0]], "fast", lock[0], "program"),
             (plain[lock[1]], "slow", lock[1], "plain"), (D[lock[1]], "slow", lock[1], "request"),
             (with_program[lock[1]], "slow", lock[1], "program"),
             (copy_plain[copy], "fast", copy, "plain"), (copy_request[copy], "fast", copy, "request")]


def merge(files):
    out = os.path.join(tmp, "merge-check.wsdigest")
    if os.path.exists(out):
        os.unlink(out)
    p = run("digest-merge", "-o", out, *files)
    return p, out


p, out = merge([plain[lock[0]], D[lock[0]]])
err = p.stderr.decode(errors="replace")
check(p.returncode == 1 and plain[lock[0]] in err and D[lock[0]] in err and "built-in scenario rules" in err
      and REQUEST in err and not os.path.exists(out),
      "digest-merge of one trace digested without and with --scenario: exit 1 naming both files and both rules")
p, out = merge([with_program[lock[1]], plain[lock[1]]])
err = p.stderr.decode(errors="replace")
check(p.returncode == 1 and plain[lock[1]] in err and with_program[lock[1]] in err and "“foo”" in err
      and not os.path.exists(out),
      "digest-merge of one trace digested with and without --program: exit 1 naming both files")
p, out = merge([D[lock[0]], copy_plain[copy]])
check(p.returncode == 1 and D[lock[0]].encode() in p.stderr and copy_plain[copy].encode() in p.stderr,
      "the same content at another path, digested another way: refused naming both files")
p, out = merge([D[lock[0]], D[lock[0]], copy_request[copy], D[lock[1]]])
check(p.returncode == 0 and len(json.loads(gzip.decompress(open(out, "rb").read()))["traces"]) == 3,
      "made alike: merged as before, a path given twice held once, another path as a trace of its own")

print(f"# digest-merge law, seed {seed}")
law = 0
for round_ in range(12):
    picked = [rng.choice(made_ways) for _ in range(rng.randint(2, 4))]
    first_way, first_file, clash = {}, {}, None
    for f, content, path, way in picked:
        if content not in first_way:
            first_way[content], first_file[content] = way, f
        elif first_way[content] != way and clash is None:
            clash = (first_file[content], f)
    p, out = merge([f for f, _, _, _ in picked])
    err = p.stderr.decode(errors="replace")
    if clash is not None:
        ok = p.returncode == 1 and not os.path.exists(out) and err.startswith(f"waitscope-cli: {clash[0]} and {clash[1]} ")
    else:
        traces = json.loads(gzip.decompress(open(out, "rb").read()))["traces"] if p.returncode == 0 else []
        ways = {(path, way) for _, _, path, way in picked}
        rules_of = {"plain": None, "program": None, "request": [builtin, REQUEST]}
        ok = (p.returncode == 0 and len(traces) == len({(c, path) for _, c, path, _ in picked})
              and all(t.get("scenario_rules") == rules_of[w] for t in traces for pth, w in ways if pth == t["path"]))
    print(f"# round {round_}: {[os.path.relpath(f, tmp) for f, _, _, _ in picked]}: exit {p.returncode}"
          f"{' (expected a refusal)' if clash else ''}")
    if not ok:
        print(f"# {err}")
    law += ok
check(law == 12, f"digest-merge over random lists of digests: refused exactly when one content was made two ways, "
                 f"naming the first two files that differ; else one trace per path and content ({law}/12)")

shutil.rmtree(tmp)
sys.exit(1 if failures else 0)
