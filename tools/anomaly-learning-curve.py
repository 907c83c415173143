#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Measured learning: does flagging waits make detection better on waits
nobody flagged, and nobody tuned on?  (docs/anomaly-detection.md,
"Measured learning".)

Labels, from ground truth (the default trace,
tests/data/anomaly/faults.perf.txt.gz, and the fault log beside it,
faults.episodes.txt): a wait is *anomalous* when the thread that woke it
was inside one of its injected fault episodes at the wake-up and the
wait spent longer inside the episode than the work would have lasted
without the fault; *normal* otherwise.  Only the waits of the signatures
that such waits have are labelled.

For a trace with scenarios and no fault log, the older, weaker labels:
a wait is anomalous when it is a wait node of the wait graph of one of
the slowest 5 % of the instances (--slowest) and longer than the
--rest-quantile of its signature's waits off those graphs.

Split, fixed once (seed 0, whatever the analysts): the labelled waits are
shuffled into three parts — the *flag pool* (40 %), the only waits a
simulated analyst may flag; the *tuning* set (30 %), on which the
learning rule's model weight (--flag-model-weight) is chosen; and the
*test* set (30 %), scored only, never flagged and never looked at while
tuning.

An analyst flags 0, 5, 10, 20, 50 waits of the flag pool in all (each step
adds to the last):
  check      (default) by a fair coin, a wait the detector shows as
             anomalous (confirmed or rejected by its label) or a missed
             anomalous wait, at random among those;
  coin       only the detector's errors: a missed anomalous wait or a
             false alarm, by a fair coin;
  alternate  errors, in turn, starting with a missed one;
  review     only waits shown as anomalous, then misses.
One analyst's picks are noisy, so every figure is over many analysts
(flag orders), each its own seed: tuning analysts are seeds 101…,
reported ones 1….  After each step `waitscope-cli anomalies --json --all`
scores every wait again, and precision, recall and F1 of the `anomalous`
verdict are measured.

  --tune        run the tuning analysts for each --flag-model-weight in
                --grid and report each curve on the tuning set
  (default)     run the reported analysts at the core's defaults (or the
                --flag-* options given) and report mean ± standard
                deviation and min–max on the test set

Everything goes through waitscope-cli with a throw-away history store.

usage: tools/anomaly-learning-curve.py [--cli build/src/cli/waitscope-cli]
           [--analyst check|coin|alternate|review] [--seeds 20] [--tune] [TRACE]
"""
import argparse
import bisect
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


def label_episodes(cli, trace, episodes):
    """Ground truth from the fault-injection log (tests/data/anomaly/faults.c):
    a wait is anomalous when the thread that woke it was inside one of its
    injected fault episodes at the wake-up, and the wait spent longer inside
    that episode than the work would have lasted without the fault (the
    fault, not the work, kept it waiting).  The log has one
    "TID START_NS END_NS KIND NORMAL_NS" per line, on the trace's clock."""
    spans = {}
    for line in open(episodes):
        tid, start, end, _, normal = line.split()
        spans.setdefault(int(tid), []).append((int(start), int(end), int(normal)))
    for v in spans.values():
        v.sort()
    scratch = tempfile.mkdtemp(prefix="ws-learning-")
    converted = os.path.join(scratch, "trace.json")
    run(cli, "convert", trace, "-o", converted)
    events = json.load(open(converted))["events"]
    shutil.rmtree(scratch, ignore_errors=True)

    def faults_part(readier, begin, end):
        """How long the wait [begin, end] was inside the episode of @readier
        that holds @end, beyond the fault-free work; <= 0 when none."""
        v = spans.get(readier, [])
        i = bisect.bisect_right(v, (end, float("inf"), 0)) - 1
        if i < 0 or not v[i][0] <= end <= v[i][1]:
            return 0
        return end - max(begin, v[i][0]) - v[i][2]

    positive = set()
    for e in events:
        peer = e.get("peer")
        if e["kind"] == "wait" and peer is not None and events[peer]["kind"] == "unwait" \
                and faults_part(events[peer]["tid"], e["t"], events[peer]["t"]) > 0:
            positive.add((e["tid"], e["t"]))
    return sum(len(v) for v in spans.values()), positive


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


def ceiling(waits, truth, keys):
    """The best F1 any one cut per signature reaches on @keys, the labels
    known: what a detector that only sees durations can at most do.
    Overall F1 does not split by signature, so each signature's cut is
    chosen in turn with the others held, until none moves."""
    by_kind = {}
    for k in keys:
        by_kind.setdefault(waits[k]["signature"], []).append((waits[k]["duration_ns"], truth[k]))
    counts = {}   # kind -> [(tp, fp, fn)] for each cut, longest waits first
    for kind, v in by_kind.items():
        v.sort(reverse=True)
        total = sum(a for _, a in v)
        tp = fp = 0
        counts[kind] = [(0, 0, total)]
        for i, (d, a) in enumerate(v):
            tp += a
            fp += not a
            if i + 1 == len(v) or v[i + 1][0] != d:
                counts[kind].append((tp, fp, total - tp))
    choice = {kind: 0 for kind in counts}

    def f1():
        tp, fp, fn = (sum(counts[k][choice[k]][i] for k in counts) for i in range(3))
        return 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    best, moved = f1(), True
    while moved:
        moved = False
        for kind in counts:
            for c in range(len(counts[kind])):
                old, choice[kind] = choice[kind], c
                if f1() > best + 1e-12:
                    best, moved = f1(), True
                else:
                    choice[kind] = old
    return best


def rest_quantiles(waits, on_slow, q):
    """Per signature, the duration that @q of its waits off the slow wait
    graphs do not exceed: how long a wait of that kind ordinarily lasts."""
    rest = {}
    for k, slow in on_slow.items():
        if not slow:
            rest.setdefault(waits[k]["signature"], []).append(waits[k]["duration_ns"])
    bars = {}
    for k in on_slow:
        values = sorted(rest.get(waits[k]["signature"], []))
        bars[waits[k]["signature"]] = values[min(len(values) - 1, int(q * len(values)))] if values else 0
    return bars


class Experiment:
    """The labels and the fixed three-way split of one trace."""

    def __init__(self, a, positive):
        self.a = a
        self.model_weight = None   # set while tuning
        scratch = tempfile.mkdtemp(prefix="ws-learning-")
        waits = self.score(self.new_history(scratch), a.flag_prior or None)
        shutil.rmtree(scratch, ignore_errors=True)
        self.kinds = {waits[k]["signature"] for k in positive if k in waits}
        self.truth = {k: k in positive for k, w in waits.items() if w["signature"] in self.kinds}
        if a.rest_quantile > 0:
            bars = rest_quantiles(waits, self.truth, a.rest_quantile)
            self.truth = {k: on_slow and waits[k]["duration_ns"] > bars[waits[k]["signature"]]
                          for k, on_slow in self.truth.items()}
        keys = sorted(self.truth)
        random.Random(0).shuffle(keys)
        n_pool, n_tune = len(keys) * 4 // 10, len(keys) * 3 // 10
        self.pool = keys[:n_pool]
        self.tune = keys[n_pool:n_pool + n_tune]
        self.test = keys[n_pool + n_tune:]
        self.unflagged = waits

    def new_history(self, scratch):
        """A throw-away history, holding the --history-trace traces (a
        healthy run of the same program, say) when given."""
        history = os.path.join(scratch, "history.sqlite")
        for t in self.a.history_trace or []:
            run(self.a.cli, "history", "add", t, "--history", history)
        return history

    def score(self, history, prior):
        extra = ["--flag-prior", str(prior)] if prior else []
        extra += ["--rule", self.a.rule] if self.a.rule else []
        extra += ["--threshold", str(self.a.threshold)] if self.a.threshold else []
        extra += ["--flag-weights", self.a.flag_weights] if self.a.flag_weights else []
        extra += ["--flag-max-shift", str(self.a.flag_max_shift)] if self.a.flag_max_shift is not None else []
        weight = self.model_weight if self.model_weight is not None else self.a.flag_model_weight
        extra += ["--flag-model-weight", str(weight)] if weight is not None else []
        result = run(self.a.cli, "anomalies", self.a.trace, "--json", "--all", "--history", history, *extra)
        return {(w["tid"], w["time_ns"]): w for w in result["traces"][0]["waits"]}

    def choices(self, pick, pool, flagged, shown, missed, alarms):
        """The waits this analyst's next flag is picked from (the list
        itself, so that the pick can be popped from it)."""
        if self.a.analyst == "check":
            # A wait the detector shows as anomalous, to confirm or reject,
            # or by a fair coin a missed one.
            turn = shown if (pick.random() < 0.5 and shown) or not missed else missed
        elif self.a.analyst == "review":
            # The waits shown as anomalous first, then the misses.
            turn = shown or missed
        else:
            # Errors only: a miss or a false alarm, in turn or by a coin.
            anomalous_turn = len(flagged) % 2 == 0 if self.a.analyst == "alternate" else pick.random() < 0.5
            turn = missed if (anomalous_turn and missed) or not alarms else alarms
        return turn or [k for k in pool if k not in flagged]

    def analyst(self, seed, steps, prior, measured):
        """One simulated analyst (flag order from @seed); the curve on @measured."""
        scratch = tempfile.mkdtemp(prefix="ws-learning-")
        history = self.new_history(scratch)
        truth, pool = self.truth, self.pool
        pick = random.Random(seed)
        waits = self.unflagged   # no flag yet: the same whatever the prior
        flagged = set()
        curve = []
        for target in steps:
            missed = [k for k in pool if k not in flagged and truth[k] and not waits[k]["anomalous"]]
            alarms = [k for k in pool if k not in flagged and not truth[k] and waits[k]["anomalous"]]
            batch = []   # runs of flags of one verdict, in the order picked
            shown = [k for k in pool if k not in flagged and waits[k]["anomalous"]]
            while len(flagged) < target:
                choices = self.choices(pick, pool, flagged, shown, missed, alarms)
                k = choices.pop(pick.randrange(len(choices)))
                for other in (shown, missed, alarms):
                    if k in other:
                        other.remove(k)
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
    """The tuning analysts for each --flag-model-weight of --grid, scored on
    the tuning set; the chosen value has the best mean F1 over 5…50 flags."""
    grid = a.grid.split(",")   # numbers, or "waits" (one flag a wait, the default)
    table = []
    for weight in grid:
        ex.model_weight = weight
        curves = analysts(ex, a, range(101, 101 + a.tuning_seeds), steps, a.flag_prior or None, ex.tune,
                          f"flag-model-weight {weight}, tuning")
        rows, rising = summarise(curves, steps)
        table.append({"flag_model_weight": weight, "curve": rows, "rising": rising,
                      "objective": statistics.fmean(r["f1"] for r in rows[1:])})
    ex.model_weight = None
    # The best mean over 5…50 flags among the weights whose mean curve
    # rises at every step: learning that gets worse as the analyst goes
    # on flagging is what this measurement is for.
    for t in table:
        f1 = [r["f1"] for r in t["curve"]]
        t["mean_rises"] = all(b > a for a, b in zip(f1, f1[1:]))
    best = max(table, key=lambda t: (t["mean_rises"], t["objective"]))
    return {"set": "tuning", "analysts": a.tuning_seeds, "grid": table, "chosen": best["flag_model_weight"]}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace", nargs="?", default=os.path.join(here, "..", "tests", "data", "anomaly", "faults.perf.txt.gz"))
    ap.add_argument("--episodes", help="the fault-injection log of TRACE (default: TRACE's .episodes.txt beside "
                                       "it, if there is one; without one the labels come from scenarios)")
    ap.add_argument("--cli", default=os.path.join(here, "..", "build", "src", "cli", "waitscope-cli"))
    ap.add_argument("--slowest", type=float, default=0.05)
    ap.add_argument("--rest-quantile", type=float, default=0.95,
                    help="anomalous: on a slow wait graph AND longer than this quantile of its signature's "
                         "waits off the slow graphs (0: every wait on a slow graph, the weaker rule)")
    ap.add_argument("--steps", default="0,5,10,20,50")
    ap.add_argument("--seeds", type=int, default=20, help="reported analysts (flag orders)")
    ap.add_argument("--tune", action="store_true", help="choose --flag-model-weight on the tuning set")
    ap.add_argument("--tuning-seeds", type=int, default=8)
    ap.add_argument("--grid", default="0,5,20,80", help="the --flag-model-weight values tried by --tune")
    ap.add_argument("--flag-prior", type=float, default=0, help="the rule's prior strength (default: the core's)")
    ap.add_argument("--flag-max-shift", type=float, help="the rule's largest move (default: the core's)")
    ap.add_argument("--flag-model-weight", help="the rule's model weight: waits or a number (default: the core's)")
    ap.add_argument("--rule", choices=("fdr", "tail"), help="where a kind's cut starts (default: the core's, fdr)")
    ap.add_argument("--threshold", type=float, help="the rule's rate or per-wait bar (default: the core's)")
    ap.add_argument("--flag-weights", choices=("count", "posterior"), help="what a flag weighs (default: the core's)")
    ap.add_argument("--history-trace", action="append",
                    help="record this trace (a healthy run of the same program) in each throw-away history first")
    ap.add_argument("--analyst", choices=("check", "coin", "alternate", "review"), default="check",
                    help="which kind of error each flag corrects: a fair coin each time, or in turn starting "
                         "with a missed anomaly (which gives 3 anomalous flags of 5)")
    ap.add_argument("--jobs", type=int, default=2, help="analysts simulated at once")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--labels", help="cache the labels in this JSON file (they take minutes to compute)")
    a = ap.parse_args()

    episodes = a.episodes
    if episodes is None and a.trace.endswith(".perf.txt.gz"):
        candidate = a.trace[:-len(".perf.txt.gz")] + ".episodes.txt"
        episodes = candidate if os.path.exists(candidate) else None
    if episodes:
        a.rest_quantile = 0   # the episodes are the truth, whatever the durations
        n_instances, positive = label_episodes(a.cli, a.trace, episodes)
        n_slow = None
    elif a.labels and os.path.exists(a.labels):
        cached = json.load(open(a.labels))
        n_instances, n_slow, positive = cached["instances"], cached["slowest"], {tuple(k) for k in cached["positive"]}
    else:
        n_instances, n_slow, positive = label(a.cli, a.trace, a.slowest)
        if a.labels:
            json.dump({"instances": n_instances, "slowest": n_slow, "positive": sorted(positive)}, open(a.labels, "w"))
    steps = [int(x) for x in a.steps.split(",")]
    ex = Experiment(a, positive)
    source = (f"{n_instances} injected fault episodes" if episodes
              else f"{n_instances} instances, slowest {n_slow}")
    measured = ex.tune if a.tune else ex.test
    every = evaluate({k: {"anomalous": True} for k in measured}, ex.truth, measured)
    best_cut = ceiling(ex.unflagged, ex.truth, measured)
    summary = {
        "trace": os.path.basename(a.trace), "labels": "episodes" if episodes else "scenarios",
        "instances": n_instances, "slowest": n_slow, "every_wait_anomalous": every, "best_cuts_f1": best_cut,
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
    print(f"{summary['trace']}: {source}; {len(ex.truth)} waits of "
          f"{len(ex.kinds)} signatures labelled, {summary['anomalous']} anomalous; "
          f"flag pool {len(ex.pool)}, tuning {len(ex.tune)}, test {len(ex.test)}; "
          f"calling every wait anomalous scores F1 {every['f1']:.3f}, the best cut per signature "
          f"(knowing the labels) {best_cut:.3f}")
    if a.tune:
        for t in summary["grid"]:
            print(f"\n--flag-model-weight {t['flag_model_weight']}: mean F1 over 5..50 flags {t['objective']:.3f}, "
                  f"mean curve {'rises' if t['mean_rises'] else 'does not rise'} at every step, "
                  f"{t['rising']} of {a.tuning_seeds} tuning analysts rising at every step (tuning set)")
            print_rows(t["curve"])
        print(f"\nchosen on the tuning set: --flag-model-weight {summary['chosen']}")
    else:
        print(f"test set, {a.seeds} analysts, flag prior {summary['flag_prior']}: mean ± sd [min-max]; "
              f"{summary['rising']} of {a.seeds} analysts rising at every step")
        print_rows(summary["curve"])


if __name__ == "__main__":
    main()
