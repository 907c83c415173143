#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Learning from flags, against ground truth, in small: three simulated
analysts flag 20 and then 50 waits of the fault-injection trace
(tests/data/anomaly/), and the detection of waits nobody flagged — the
test split — must get better.  The full curve, with 20 analysts and
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
out = subprocess.run([sys.executable, script, "--cli", os.environ["WS_CLI"], trace, "--seeds", "3",
                      "--steps", "0,20,50", "--jobs", "2", "--json"],
                     check=True, capture_output=True, text=True).stdout
summary = json.loads(out)
f1 = [row["f1"] for row in summary["curve"]]
precision = [row["precision"] for row in summary["curve"]]
recall = [row["recall"] for row in summary["curve"]]
print(f"# {summary['labelled']} waits labelled, {summary['anomalous']} anomalous; test set {summary['test']}")
print(f"# F1 {' -> '.join(f'{x:.3f}' for x in f1)}; precision {' -> '.join(f'{x:.3f}' for x in precision)}; "
      f"recall {' -> '.join(f'{x:.3f}' for x in recall)}")
# The labels are the fault log's, not a model's: with no flag the model
# alone finds some of the faults' waits, and well short of all of them.
assert summary["labels"] == "episodes" and summary["anomalous"] > 300, summary
assert 0.4 < f1[0] < 0.85, f1
# Flags make unflagged waits better judged, more with more flags...
assert f1[1] > f1[0] and f1[2] > f1[0] + 0.03, f1
# ...by finding more of the faults' waits, without drowning them in
# false alarms.
assert recall[2] > recall[0] + 0.05 and precision[2] > 0.6, (precision, recall)
print("ok 1 flags improve detection of unflagged waits")
