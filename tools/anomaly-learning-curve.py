#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Measured learning: does flagging waits make detection better on waits
nobody flagged?

Labels (the rule): in a trace with scenario instances (pg-tpcb: 1,360
PostgreSQL transactions), a wait is *anomalous* when it is a wait node of
the wait graph (`waitscope-cli waitgraph --scenario-instance N`) of one of
the slowest 5 % of the instances, and *normal* otherwise.  Only waits of
the signatures that occur on those wait graphs are labelled (the same kinds
of wait, slow and not), so the question is the patent's: which waits of a
kind were abnormally long in the slow runs.

Split: the labelled waits are shuffled into a training half, the only
waits the simulated analyst may flag, and a held-out half, scored only.  The analyst flags 0, 5, 10, 20, 50 training waits in all (each step
adds to the last), each time taking, in turn, a wait the current detector
gets wrong in either direction — a missed anomalous wait is flagged
anomalous, a false alarm normal — chosen at random among the errors; with
no error left, any unflagged training wait.  One analyst's picks are
noisy, so the curve is the mean over --seeds analysts (5 by default), each
with its own split and picks (seed n), min and max shown.  After each step
`waitscope-cli anomalies --json --all` re-scores every wait, and precision
and recall of the `anomalous` verdict are measured on the held-out half.

Everything goes through waitscope-cli with a throw-away history store.

usage: tools/anomaly-learning-curve.py [--cli build/src/cli/waitscope-cli] [TRACE]
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile


def run(cli, *args):
    out = subprocess.run([cli, *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out) if out.lstrip().startswith(("{", "[")) else out


def label(cli, trace, slowest):
    instances = run(cli, "scenarios", trace, "--json")["traces"][0]["instances"]
    order = sorted(range(len(instances)), key=lambda i: -instances[i]["duration"])
    slow = order[:max(1, int(len(instances) * slowest))]
    positive = set()
    for n, i in enumerate(slow):
        graph = run(cli, "waitgraph", "--trace", trace, "--scenario-instance", str(i))
        for node in graph["nodes"]:
            if node.get("kind") == "wait":
                positive.add((node["tid"], node["time"]))
        print(f"\r  wait graphs of the slowest instances: {n + 1}/{len(slow)}", end="", file=sys.stderr)
    print(file=sys.stderr)
    return len(instances), len(slow), positive


def evaluate(waits, truth, held_out):
    tp = fp = fn = 0
    for key in held_out:
        predicted, actual = waits[key]["anomalous"], truth[key]
        tp += predicted and actual
        fp += predicted and not actual
        fn += actual and not predicted
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def simulate(a, seed, steps, positive):
    """One simulated analyst: split and flag order drawn from @seed."""
    history = os.path.join(tempfile.mkdtemp(prefix="ws-learning-"), "history.sqlite")
    common = ["--history", history]

    def score():
        result = run(a.cli, "anomalies", a.trace, "--json", "--all", *common)
        return {(w["tid"], w["time_ns"]): w for w in result["traces"][0]["waits"]}

    waits = score()
    kinds = {waits[k]["signature"] for k in positive if k in waits}
    truth = {k: k in positive for k, w in waits.items() if w["signature"] in kinds}
    keys = sorted(truth)
    random.Random(seed).shuffle(keys)
    train, held_out = keys[: len(keys) // 2], keys[len(keys) // 2:]
    pick = random.Random(1000 + seed)
    flagged = set()
    curve = []
    for target in steps:
        missed = [k for k in train if k not in flagged and truth[k] and not waits[k]["anomalous"]]
        alarms = [k for k in train if k not in flagged and not truth[k] and waits[k]["anomalous"]]
        batch = {"--anomalous": [], "--normal": []}
        while len(flagged) < target:
            turn = missed if (len(flagged) % 2 == 0 and missed) or not alarms else alarms
            pool = turn or [k for k in train if k not in flagged]
            k = pool.pop(pick.randrange(len(pool)))
            flagged.add(k)
            batch["--anomalous" if truth[k] else "--normal"].append(f"{k[0]}@{k[1]}ns")
        for verdict, specs in batch.items():
            if specs:
                run(a.cli, "flag", "add", a.trace, verdict, *[x for s in specs for x in ("--wait", s)], *common)
        if target:
            waits = score()
        p, r, f = evaluate(waits, truth, held_out)
        curve.append({"flags": len(flagged), "precision": p, "recall": r, "f1": f})
    return {"curve": curve, "truth": truth, "kinds": kinds, "train": train, "held_out": held_out}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace", nargs="?", default=os.path.join(here, "..", "tests", "data", "pg-tpcb.perf.txt.gz"))
    ap.add_argument("--cli", default=os.path.join(here, "..", "build", "src", "cli", "waitscope-cli"))
    ap.add_argument("--slowest", type=float, default=0.05)
    ap.add_argument("--steps", default="0,5,10,20,50")
    ap.add_argument("--seeds", type=int, default=5, help="simulated analysts (splits and flag orders) to average")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--labels", help="cache the labels in this JSON file (they take minutes to compute)")
    a = ap.parse_args()

    if a.labels and os.path.exists(a.labels):
        cached = json.load(open(a.labels))
        n_instances, n_slow, positive = cached["instances"], cached["slowest"], {tuple(k) for k in cached["positive"]}
    else:
        n_instances, n_slow, positive = label(a.cli, a.trace, a.slowest)
        if a.labels:
            json.dump({"instances": n_instances, "slowest": n_slow, "positive": sorted(positive)}, open(a.labels, "w"))
    steps = [int(x) for x in a.steps.split(",")]
    runs = []
    for seed in range(1, a.seeds + 1):
        runs.append(simulate(a, seed, steps, positive))
        print(f"  seed {seed}: " + "  ".join(f"{r['flags']}:{r['f1']:.3f}" for r in runs[-1]["curve"]),
              file=sys.stderr)
    rows = []
    for i, target in enumerate(steps):
        row = {"flags": target}
        for m in ("precision", "recall", "f1"):
            values = [r["curve"][i][m] for r in runs]
            row[m] = sum(values) / len(values)
            row[m + "_min"], row[m + "_max"] = min(values), max(values)
        rows.append(row)
    truth, kinds, train, held_out = runs[0]["truth"], runs[0]["kinds"], runs[0]["train"], runs[0]["held_out"]
    summary = {
        "trace": os.path.basename(a.trace), "instances": n_instances, "slowest": n_slow,
        "labelled": len(truth), "anomalous": sum(truth.values()), "signatures": len(kinds),
        "train": len(train), "held_out": len(held_out), "seeds": a.seeds, "curve": rows,
    }
    if a.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"{summary['trace']}: {n_instances} instances, slowest {n_slow}; {len(truth)} waits of "
              f"{len(kinds)} signatures labelled, {summary['anomalous']} anomalous; "
              f"{len(train)} to flag from, {len(held_out)} held out")
        print(f"mean over {a.seeds} simulated analysts (min-max in brackets)")
        print("flags  precision            recall               F1")
        for row in rows:
            print(f"{row['flags']:5d}  " + "  ".join(
                f"{row[m]:.3f} [{row[m + '_min']:.2f}-{row[m + '_max']:.2f}]" for m in ("precision", "recall", "f1")))


if __name__ == "__main__":
    main()
