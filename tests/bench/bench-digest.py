#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The reduce over a synthetic fleet: N digests made from the real digests
of tests/data (each a real trace's digest with its costs scaled by a random
factor in [0.5, 2], its own path and content hash; 3 % of them with a
planted slow path, one stack costing 100 s), then timed: `digest-merge` of
all N, and `mine` and `cluster` over the merged digest (wall, user and peak
RSS of each).  The planted path must come out as a pattern costing exactly its
plantings' sum.

    WS_CLI=build/src/cli/waitscope-cli WS_TEST_DATA=tests/data tests/bench/bench-digest.py [N]
"""
import gzip
import hashlib
import json
import os
import random
import resource
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
    traces = sorted(os.path.join(data, "causes", f) for f in os.listdir(os.path.join(data, "causes"))
                    if f.endswith(".perf.txt.gz"))
    traces += [os.path.join(data, f) for f in ("py-locks.perf.txt.gz", "build.perf.txt.gz")]
    real_dir = os.path.join(tmp, "real")
    subprocess.run([cli, "digest", "-o", real_dir, *traces], check=True, stdout=subprocess.DEVNULL)
    real = [json.loads(gzip.decompress(open(os.path.join(real_dir, f), "rb").read()))
            for f in sorted(os.listdir(real_dir))]
    fleet = os.path.join(tmp, "fleet")
    os.makedirs(fleet)
    paths, planted = [], 0
    for i in range(n):
        doc = json.loads(json.dumps(rng.choice(real)))
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
        if rng.random() < 0.03:
            planted += 1
            doc["frames"].append(["planted_slow_path", "libfleet.so"])
            doc["stacks"].append([len(doc["frames"]) - 1])
            t["waiting"] += [len(doc["stacks"]), 1, PLANTED, PLANTED]
        path = os.path.join(fleet, f"{i:05d}.wsdigest")
        with open(path, "wb") as f:
            f.write(gzip.compress(json.dumps(doc).encode(), 6))
        paths.append(path)
    size = sum(os.path.getsize(p) for p in paths)
    print(f"{n} digests ({planted} with the planted path), {size / 1e6:.1f} MB")

    def timed(what, args, out=subprocess.DEVNULL):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        p = subprocess.run([cli, *args], stdout=out, stderr=subprocess.PIPE)
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode != 0:
            sys.exit(f"{what} failed: {p.stderr.decode()}")
        print(f"{what}: {wall:.2f} s wall, {after.ru_utime - before.ru_utime:.2f} s user, "
              f"peak RSS {after.ru_maxrss / 1024:.0f} MB (the largest child so far)")

    merged = os.path.join(tmp, "fleet.wsdigest")
    timed("digest-merge", ["digest-merge", "-o", merged, *paths])
    print(f"merged digest: {os.path.getsize(merged) / 1e6:.1f} MB")
    with open(os.path.join(tmp, "mine.json"), "wb") as f:
        timed("mine", ["mine", "--json", "--no-history", "--top", "0", merged], out=f)
    timed("cluster", ["cluster", "--json", "--no-history", merged])
    patterns = json.load(open(os.path.join(tmp, "mine.json")))["patterns"]
    found = [(i, p["cost"]) for i, p in enumerate(patterns) if p["frames"] == ["planted_slow_path (libfleet.so)"]]
    print(f"planted path: {found} (rank, cost) of {len(patterns)} patterns")
    if planted and found[:1] != [(found[0][0], planted * PLANTED)] if found else planted:
        sys.exit("the planted slow path is missing or its cost is wrong")
finally:
    shutil.rmtree(tmp)
