#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""How rare anomalies are: for each trace, anomalies per 1,000 finished
waits (docs/anomaly-detection.md, "Which waits are anomalous").

Each trace is scored against a throw-away history: empty (--against
self, the default: the trace is its own data), holding the trace itself
(--against own-history: `history add TRACE` first, the issue's "a
healthy trace scored against its own history"), or holding other traces
(--history-trace, e.g. a healthy run of the same program).  Prints, per
trace, its waits and the anomalous and shown (default list) waits per
1,000; extra options after -- go to `waitscope-cli anomalies` (e.g.
-- --rule tail).

usage: tools/anomaly-rate.py [--against self|own-history]
           [--history-trace T]… TRACE… [-- ANOMALIES-OPTIONS…]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("traces", nargs="+")
    ap.add_argument("--cli", default=os.path.join(here, "..", "build", "src", "cli", "waitscope-cli"))
    ap.add_argument("--against", choices=("self", "own-history"), default="self")
    ap.add_argument("--history-trace", action="append", default=[])
    a = ap.parse_args(argv)
    total = [0, 0, 0]
    print(f"{'trace':<24} {'waits':>7} {'anomalous/1000':>15} {'shown/1000':>11}")
    for trace in a.traces:
        scratch = tempfile.mkdtemp(prefix="ws-rate-")
        history = os.path.join(scratch, "history.sqlite")
        for t in a.history_trace + ([trace] if a.against == "own-history" else []):
            subprocess.run([a.cli, "history", "add", t, "--history", history], check=True, capture_output=True)
        out = subprocess.run([a.cli, "anomalies", trace, "--json", "--history", history, *extra],
                             check=True, capture_output=True, text=True).stdout
        shutil.rmtree(scratch, ignore_errors=True)
        t = json.loads(out)["traces"][0]
        n, anomalous, shown = t["n_waits"], t["n_anomalous"], t["n_shown"]
        for i, v in enumerate((n, anomalous, shown)):
            total[i] += v
        name = os.path.basename(trace).replace(".perf.txt.gz", "")
        print(f"{name:<24} {n:>7} {1000 * anomalous / max(n, 1):>15.1f} {1000 * shown / max(n, 1):>11.1f}")
    print(f"{'all':<24} {total[0]:>7} {1000 * total[1] / max(total[0], 1):>15.1f} "
          f"{1000 * total[2] / max(total[0], 1):>11.1f}")


if __name__ == "__main__":
    main()
