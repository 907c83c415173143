#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Measured learning: does flagging waits make detection better on waits
nobody flagged, and nobody tuned on?

Labels (the rule): in a trace with scenario instances (pg-tpcb: 1,360
PostgreSQL transactions), a wait is *anomalous* when it is a wait node of
the wait graph (`waitscope-cli waitgraph --scenario-instance N`) of one of
the slowest 5 % of the instances, and *normal* otherwise.  Only waits of
the signatures that occur on those wait graphs are labelled (the same kinds
of wait, slow and not), so the question is the patent's: which waits of a
kind were abnormally long in the slow runs.

Split, fixed once (seed 0, whatever the analysts): the labelled waits are
shuffled into three parts — the *flag pool* (40 %), the only waits a
simulated analyst may flag; the *tuning* set (30 %), on which the learning
rule's one free parameter (--flag-prior) is chosen; and the *test* set
(30 %), scored only, never flagged and never looked at while tuning.

An analyst flags 0, 5, 10, 20, 50 waits of the flag pool in all (each step
adds to the last), each time taking a wait the current detector gets wrong
— a missed anomalous wait, flagged anomalous, or a false alarm, flagged
normal, which of the two decided by a fair coin (--analyst coin; or in
turn, starting with a missed one: --analyst alternate, which gives every
odd step one anomalous flag more) — chosen at random among those errors;
with no error of that kind left, one of the other; with none at all, any
unflagged wait of the pool.  One analyst's picks are
noisy, so every figure is over many analysts (flag orders), each its own
seed: tuning analysts are seeds 101…, reported ones 1….  After each step
`waitscope-cli anomalies --json --all` scores every wait again, and
precision, recall and F1 of the `anomalous` verdict are measured.

  --tune        run the tuning analysts for each --flag-prior in --grid and
                say which value has the best mean F1 over the steps 5…50 on
                the tuning set (the test set is not scored)
  (default)     run the reported analysts at --flag-prior (the core's
                default unless given) and report mean ± standard deviation
                and min–max on the test set

Everything goes through waitscope-cli with a throw-away history store.

usage: tools/anomaly-learning-curve.py [--cli build/src/cli/waitscope-cli]
           [--labels labels.json] [--seeds 20] [--tune] [TRACE]
"""
import argparse
import concurrent.futures
import json
import os
import random
import shutil
import statistics
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


def evaluate(waits, truth, keys):
    tp = fp = fn = 0
    for key in keys:
        predicted, actual = waits[key]["anomalous"], truth[key]
        tp += predicted and actual
        fp += predicted and not actual
        fn += actual and not predicted
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}


class Experiment:
    """The labels and the fixed three-way split of one trace."""

    def __init__(self, a, positive):
        self.a = a
        scratch = tempfile.mkdtemp(prefix="ws-learning-")
        waits = self.score(os.path.join(scratch, "history.sqlite"), a.flag_prior or None)
        shutil.rmtree(scratch, ignore_errors=True)
        self.kinds = {waits[k]["signature"] for k in positive if k in waits}
        self.truth = {k: k in positive for k, w in waits.items() if w["signature"] in self.kinds}
        keys = sorted(self.truth)
        random.Random(0).shuffle(keys)
        n_pool, n_tune = len(keys) * 4 // 10, len(keys) * 3 // 10
        self.pool = keys[:n_pool]
        self.tune = keys[n_pool:n_pool + n_tune]
        self.test = keys[n_pool + n_tune:]
        self.unflagged = waits

    def score(self, history, prior):
        extra = ["--flag-prior", str(prior)] if prior else []
        result = run(self.a.cli, "anomalies", self.a.trace, "--json", "--all", "--history", history, *extra)
        return {(w["tid"], w["time_ns"]): w for w in result["traces"][0]["waits"]}

    def analyst(self, seed, steps, prior, measured):
        """One simulated analyst (flag order from @seed); the curve on @measured."""
        scratch = tempfile.mkdtemp(prefix="ws-learning-")
        history = os.path.join(scratch, "history.sqlite")
        truth, pool = self.truth, self.pool
        pick = random.Random(seed)
        waits = self.unflagged   # no flag yet: the same whatever the prior
        flagged = set()
        curve = []
        for target in steps:
            missed = [k for k in pool if k not in flagged and truth[k] and not waits[k]["anomalous"]]
            alarms = [k for k in pool if k not in flagged and not truth[k] and waits[k]["anomalous"]]
            batch = []   # runs of flags of one verdict, in the order picked
            while len(flagged) < target:
                if self.a.analyst == "alternate":
                    anomalous_turn = len(flagged) % 2 == 0
                else:
                    anomalous_turn = pick.random() < 0.5
                turn = missed if (anomalous_turn and missed) or not alarms else alarms
                choices = turn or [k for k in pool if k not in flagged]
                k = choices.pop(pick.randrange(len(choices)))
                flagged.add(k)
                verdict = "--anomalous" if truth[k] else "--normal"
                if not batch or batch[-1][0] != verdict:
                    batch.append((verdict, []))
                batch[-1][1].append(f"{k[0]}@{k[1]}ns")
            # Flagged in the order picked: the rule lets the latest of two
            # contradicting flags win.
            for verdict, specs in batch:
                run(self.a.cli, "flag", "add", self.a.trace, verdict,
                    *[x for s in specs for x in ("--wait", s)], "--history", history)
            if target:
                waits = self.score(history, prior)
            curve.append(dict(flags=len(flagged), **evaluate(waits, truth, measured)))
        shutil.rmtree(scratch, ignore_errors=True)
        return curve


def summarise(curves, steps):
    rows = []
    for i, target in enumerate(steps):
        row = {"flags": target}
        for m in ("precision", "recall", "f1"):
            values = [c[i][m] for c in curves]
            row[m] = statistics.fmean(values)
            row[m + "_sd"] = statistics.stdev(values) if len(values) > 1 else 0.0
            row[m + "_min"], row[m + "_max"] = min(values), max(values)
        rows.append(row)
    rising = sum(all(c[i + 1]["f1"] > c[i]["f1"] for i in range(len(steps) - 1)) for c in curves)
    return rows, rising


def print_rows(rows):
    print("flags  precision                 recall                    F1")
    for row in rows:
        print(f"{row['flags']:5d}  " + "  ".join(
            f"{row[m]:.3f} ± {row[m + '_sd']:.3f} [{row[m + '_min']:.2f}-{row[m + '_max']:.2f}]"
            for m in ("precision", "recall", "f1")))


def analysts(ex, a, seeds, steps, prior, measured, what):
    """The curves of the analysts @seeds, --jobs at a time (each its own history)."""
    def one(seed):
        curve = ex.analyst(seed, steps, prior, measured)
        print(f"  {what} analyst {seed}: F1 " + " ".join(f"{r['f1']:.3f}" for r in curve), file=sys.stderr)
        return curve
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        return list(pool.map(one, seeds))


def tune(ex, a, steps):
    grid = [float(x) for x in a.grid.split(",")]
    table = []
    for prior in grid:
        curves = analysts(ex, a, range(101, 101 + a.tuning_seeds), steps, prior, ex.tune, f"flag-prior {prior:g}, tuning")
        rows, rising = summarise(curves, steps)
        table.append({"flag_prior": prior, "curve": rows, "rising": rising,
                      "objective": statistics.fmean(r["f1"] for r in rows[1:])})
    best = max(table, key=lambda t: t["objective"])
    return {"set": "tuning", "analysts": a.tuning_seeds, "grid": table, "chosen": best["flag_prior"]}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace", nargs="?", default=os.path.join(here, "..", "tests", "data", "pg-tpcb.perf.txt.gz"))
    ap.add_argument("--cli", default=os.path.join(here, "..", "build", "src", "cli", "waitscope-cli"))
    ap.add_argument("--slowest", type=float, default=0.05)
    ap.add_argument("--steps", default="0,5,10,20,50")
    ap.add_argument("--seeds", type=int, default=20, help="reported analysts (flag orders)")
    ap.add_argument("--tune", action="store_true", help="choose --flag-prior on the tuning set")
    ap.add_argument("--tuning-seeds", type=int, default=8)
    ap.add_argument("--grid", default="1,2,4,8,16")
    ap.add_argument("--flag-prior", type=float, default=0, help="the rule's prior strength (default: the core's)")
    ap.add_argument("--analyst", choices=("coin", "alternate"), default="coin",
                    help="which kind of error each flag corrects: a fair coin each time, or in turn starting "
                         "with a missed anomaly (which gives 3 anomalous flags of 5)")
    ap.add_argument("--jobs", type=int, default=2, help="analysts simulated at once")
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
    ex = Experiment(a, positive)
    summary = {
        "trace": os.path.basename(a.trace), "instances": n_instances, "slowest": n_slow,
        "labelled": len(ex.truth), "anomalous": sum(ex.truth.values()), "signatures": len(ex.kinds),
        "flag_pool": len(ex.pool), "tuning": len(ex.tune), "test": len(ex.test), "analyst": a.analyst,
    }
    if a.tune:
        summary.update(tune(ex, a, steps))
    else:
        curves = analysts(ex, a, range(1, a.seeds + 1), steps, a.flag_prior or None, ex.test, "reported")
        rows, rising = summarise(curves, steps)
        summary.update({"set": "test", "analysts": a.seeds, "flag_prior": a.flag_prior or "default",
                        "curve": rows, "rising": rising})
    if a.json:
        print(json.dumps(summary, indent=2))
        return
    print(f"{summary['trace']}: {n_instances} instances, slowest {n_slow}; {len(ex.truth)} waits of "
          f"{len(ex.kinds)} signatures labelled, {summary['anomalous']} anomalous; "
          f"flag pool {len(ex.pool)}, tuning {len(ex.tune)}, test {len(ex.test)}")
    if a.tune:
        for t in summary["grid"]:
            print(f"\n--flag-prior {t['flag_prior']:g}: mean F1 over 5..50 flags {t['objective']:.3f}, "
                  f"{t['rising']} of {a.tuning_seeds} tuning analysts rising at every step (tuning set)")
            print_rows(t["curve"])
        print(f"\nchosen on the tuning set: --flag-prior {summary['chosen']:g}")
    else:
        print(f"test set, {a.seeds} analysts, flag prior {summary['flag_prior']}: mean ± sd [min-max]; "
              f"{summary['rising']} of {a.seeds} analysts rising at every step")
        print_rows(summary["curve"])


if __name__ == "__main__":
    main()
