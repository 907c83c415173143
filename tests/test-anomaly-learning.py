#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Learning from flags, against ground truth, in small: three simulated
checking analysts flag 5 and then 20 waits of the fault-injection trace
(tests/data/anomaly/), three correcting ones 10 and then 50, and the
detection of waits nobody flagged — the test split — must get better and
stay better; on faults-mild, whose faults form no component, 20 flags
must not make it worse.  The full curve, with 20 analysts and
every step, is tools/anomaly-learning-curve.py (docs/anomaly-detection.md,
"Measured learning"); this is its cheap guard against a rule that stops
generalising."""
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
script = os.path.join(here, "..", "tools", "anomaly-learning-curve.py")
trace = os.path.join(os.environ["WS_TEST_DATA"], "anomaly", "faults.perf.txt.gz")


def curve(analyst, steps, trace=trace):
    # The tail rule (P ≤ 5 % per wait): scored against itself, with no
    # healthy history, the default FDR rule finds none of the faults
    # before a flag (docs/anomaly-detection.md), and this guard is about
    # what flags teach.
    out = subprocess.run([sys.executable, script, "--cli", os.environ["WS_CLI"], trace, "--seeds", "3",
                          "--steps", steps, "--jobs", "2", "--analyst", analyst, "--json", "--rule", "tail"],
                         check=True, capture_output=True, text=True).stdout
    summary = json.loads(out)
    rows = summary["curve"]
    def joined(key):
        return " -> ".join(f"{r[key]:.3f}" for r in rows)
    print(f"# {analyst} analysts, flags {steps}: F1 {joined('f1')}; precision {joined('precision')}; "
          f"recall {joined('recall')}; best cut per signature {summary['best_cuts_f1']:.3f}")
    return summary, [r["f1"] for r in rows], [r["precision"] for r in rows], [r["recall"] for r in rows]


summary, f1, precision, recall = curve("check", "0,5,20")
print(f"# {summary['labelled']} waits labelled, {summary['anomalous']} anomalous; test set {summary['test']}")
# The labels are the fault log's, not a model's: with no flag the model
# alone finds some of the faults' waits, and well short of all of them.
assert summary["labels"] == "episodes" and summary["anomalous"] > 300, summary
assert 0.4 < f1[0] < 0.85, f1
# A few flags already carry to unflagged waits (a flagged miss marks the
# slow component it belongs to), more flags do not undo it...
assert f1[1] > f1[0] + 0.05 and f1[2] > f1[1] - 0.01, f1
# ...and bring detection near the best any cut per kind could do knowing
# the labels, by finding more of the faults' waits without drowning them
# in false alarms.
assert f1[2] > summary["best_cuts_f1"] - 0.05, (f1, summary["best_cuts_f1"])
assert recall[2] > recall[0] + 0.1 and precision[2] > 0.75, (precision, recall)
print("ok 1 flags of a checking analyst improve detection of unflagged waits")

# An analyst who flags only the detector's errors (the flags of each
# state argue against it): the first flags teach, and further ones do
# not undo it.  (With every flag weighing 1 the false alarms such an
# analyst rejects inside a marked component, each worth as much as the
# miss that marked it, unmarked it again: 0.843 at 10 flags, 0.754 at 50
# with these three analysts; a wait flagged normal now weighs the chance
# the main component explains it, docs/anomaly-detection.md.)
summary, f1, precision, recall = curve("coin", "0,10,50")
assert f1[1] > f1[0] + 0.05 and f1[2] > f1[0], f1
assert f1[2] > f1[1] - 0.02, f1
print("ok 2 flags of a correcting analyst improve it and never make it worse than no flag")

# Where faults hide in the normal spread (faults-mild: rarer, milder, no
# component of their own) flags do not help yet; they must not harm.
mild = os.path.join(os.environ["WS_TEST_DATA"], "anomaly", "faults-mild.perf.txt.gz")
summary, f1, precision, recall = curve("check", "0,20", mild)
assert 0.3 < f1[0] < summary["best_cuts_f1"] and f1[1] > f1[0] - 0.01, f1
print("ok 3 flags do not harm detection where faults form no component")
