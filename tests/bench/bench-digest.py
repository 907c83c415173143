#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The reduce over a synthetic fleet: N digests made from the real digests
of the 24 runs of tests/data/fleet (each a real run's digest with its costs
scaled by a random factor in [0.5, 2], its own path and content hash).
3 % of them are copies of the six slow runs (the cache rebuilt under the
mutex) and carry a planted slow path besides, one waiting stack costing
100 s; the others are copies of the 18 fast runs.  Timed (wall, user and
peak RSS of each): `digest-merge` of all N; `mine` and `cluster` over the
merged digest; `mine` over the N digests; and the fleet contrast
`contrast --classes` (slow = the traces with the planted path) over the
merged digest and over the N digests.  Checked, or the script exits 1:
the planted path is mining's first pattern and costs exactly its
plantings' sum; the contrast's first pattern is the slow runs' own (the
one `contrast --classes tests/data/fleet/classes.csv` ranks first over the
24 real runs).

    WS_CLI=build/src/cli/waitscope-cli WS_TEST_DATA=tests/data tests/bench/bench-digest.py [N]
"""
import gzip
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

cli = os.path.abspath(os.environ["WS_CLI"])
data = os.path.abspath(os.environ["WS_TEST_DATA"])
n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
rng = random.Random(7)
PLANTED = 100_000_000_000
tmp = tempfile.mkdtemp(prefix="ws-bench-digest-")
try:
    fleet_data = os.path.join(data, "fleet")
    real_classes = os.path.join(fleet_data, "classes.csv")
    is_slow = {}
    with open(real_classes) as f:
        for line in f.read().splitlines()[1:]:
            name, _, cls = line.split(",")
            is_slow[name] = cls == "slow"
    traces = [os.path.join(fleet_data, name) for name in sorted(is_slow)]
    real_dir = os.path.join(tmp, "real")
    subprocess.run([cli, "digest", "-o", real_dir, *traces], check=True, stdout=subprocess.DEVNULL)
    slow_docs, fast_docs = [], []
    for name in sorted(is_slow):
        doc = json.loads(gzip.decompress(open(os.path.join(real_dir, name + ".wsdigest"), "rb").read()))
        (slow_docs if is_slow[name] else fast_docs).append(doc)

    # The contrast the real runs give: its first pattern is the slow runs' path.
    p = subprocess.run([cli, "contrast", "--json", "--classes", real_classes,
                        *(os.path.join(real_dir, f) for f in sorted(os.listdir(real_dir)))],
                       check=True, stdout=subprocess.PIPE)
    expected = json.loads(p.stdout)["patterns"][0]
    key = lambda q: (q["wait"], q["unwait"], q["running"])

    fleet = os.path.join(tmp, "fleet")
    os.makedirs(fleet)
    paths, classes, planted = [], [], 0
    for i in range(n):
        slow = rng.random() < 0.03
        doc = json.loads(json.dumps(rng.choice(slow_docs if slow else fast_docs)))
        t = doc["traces"][0]
        t["path"] = f"/fleet/host{i % 97:02d}/trace{i:05d}.perf.txt"
        t["name"] = f"trace{i:05d}"
        t["content_hash"] = hashlib.sha256(t["path"].encode()).hexdigest()
        scale = rng.uniform(0.5, 2.0)
        for area in ("waiting", "waiting_all", "running", "causes"):
            a = t[area]
            for k in range(0, len(a), 4):
                a[k + 2] = int(a[k + 2] * scale)
                a[k + 3] = min(int(a[k + 3] * scale), a[k + 2])
        if slow:
            planted += 1
            doc["frames"].append(["planted_slow_path", "libfleet.so"])
            doc["stacks"].append([len(doc["frames"]) - 1])
            t["waiting"] += [len(doc["stacks"]), 1, PLANTED, PLANTED]
        classes.append(f"{t['path']},{'slow' if slow else 'fast'}")
        path = os.path.join(fleet, f"{i:05d}.wsdigest")
        with open(path, "wb") as f:
            f.write(gzip.compress(json.dumps(doc).encode(), 6))
        paths.append(path)
    classes_file = os.path.join(tmp, "classes.csv")
    with open(classes_file, "w") as f:
        f.write("trace,class\n" + "\n".join(classes) + "\n")
    size = sum(os.path.getsize(p) for p in paths)
    print(f"{n} digests ({planted} slow, with the planted path), {size / 1e6:.1f} MB")
    failures = []

    def run(what, args, out_name=None):
        out = open(os.path.join(tmp, out_name), "wb") if out_name else subprocess.DEVNULL
        err = tempfile.TemporaryFile()
        start = time.monotonic()
        # Each step in its own process, waited for with wait4: its own user
        # time and peak RSS, not the largest child's so far.
        p = subprocess.Popen([cli, *args], stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.monotonic() - start
        err.seek(0)
        err = err.read()
        if out_name:
            out.close()
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"{what} failed: {err.decode(errors='replace')}")
        print(f"{what}: {wall:.2f} s wall, {usage.ru_utime:.2f} s user, peak RSS {usage.ru_maxrss / 1024:.0f} MB")

    def check_mined(what, name):
        patterns = json.load(open(os.path.join(tmp, name)))["patterns"]
        found = [(i, q["cost"]) for i, q in enumerate(patterns) if q["frames"] == ["planted_slow_path (libfleet.so)"]]
        print(f"{what}: planted path {found} (rank, cost) of {len(patterns)} patterns")
        if planted and found[:1] != [(0, planted * PLANTED)]:
            failures.append(f"{what}: the planted path is not first or its cost is not {planted} x 100 s")

    def check_contrast(what, name):
        patterns = json.load(open(os.path.join(tmp, name)))["patterns"]
        first = key(patterns[0]) if patterns else None
        print(f"{what}: first pattern {first}, {len(patterns)} shown")
        if planted and first != key(expected):
            failures.append(f"{what}: the first pattern is not the slow runs' {key(expected)}")

    merged = os.path.join(tmp, "fleet.wsdigest")
    run("digest-merge of the N digests", ["digest-merge", "-o", merged, *paths])
    print(f"merged digest: {os.path.getsize(merged) / 1e6:.1f} MB")
    run("mine --json --top 0 over the merged digest", ["mine", "--json", "--no-history", "--top", "0", merged],
        "mine.json")
    check_mined("mine over the merged digest", "mine.json")
    run("cluster --json over the merged digest", ["cluster", "--json", "--no-history", merged])
    run("mine --json --top 0 over the N digests", ["mine", "--json", "--no-history", "--top", "0", *paths],
        "mine-n.json")
    check_mined("mine over the N digests", "mine-n.json")
    run("contrast --classes over the merged digest",
        ["contrast", "--json", "--classes", classes_file, merged], "contrast.json")
    check_contrast("contrast over the merged digest", "contrast.json")
    run("contrast --classes over the N digests", ["contrast", "--json", "--classes", classes_file, *paths],
        "contrast-n.json")
    check_contrast("contrast over the N digests", "contrast-n.json")
    if open(os.path.join(tmp, "contrast.json"), "rb").read() != open(os.path.join(tmp, "contrast-n.json"), "rb").read():
        failures.append("contrast over the merged digest and over the N digests differ")
    if failures:
        sys.exit("\n".join(failures))
finally:
    shutil.rmtree(tmp)
