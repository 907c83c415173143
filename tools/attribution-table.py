#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The table of docs/attribution.md "Every known-cause trace": for each
trace, what `why --json` picks, its runner-up, the first answer and the
step behind it, as a Markdown table.

    tools/attribution-table.py [--cli build/src/cli/waitscope-cli] TRACE...
"""
import argparse
import json
import os
import subprocess


def human_bytes(n):
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return "%.1f %s" % (n / size, unit)
    return "%d B" % n


def behind_text(cause):
    entries = cause.get("behind") or []
    if not entries:
        return "—"
    words = []
    for b in entries[:3]:
        text = "%s %s (%.0f %%" % (b.get("name", "?"), b.get("tid", ""), 100 * b.get("share", 0))
        if "bytes" in b:
            text += ", " + human_bytes(b["bytes"])
        words.append(text + ")")
    more = len(entries) - 3
    kind = {"block-requests": "requests on the device", "uninterruptible-sleep": "in D state",
            "on-cpu": "on the CPUs"}.get(entries[0].get("from"), entries[0].get("what", ""))
    return "%s: %s%s" % (kind, ", ".join(words), ", %d more" % more if more > 0 else "")


def row(cli, path):
    out = subprocess.run([cli, "why", "--json", path], capture_output=True, text=True, check=True).stdout
    why = json.loads(out)
    name = os.path.basename(path).split(".")[0]
    picked = why.get("picked") or [{}]
    p = picked[0]
    chosen = "%s (%s)" % (p.get("program", "?"), p.get("how", "?")) if p else "—"
    r = p.get("runner_up")
    runner = "%s (%.0f ms)" % (r["program"], r["score"] / 1e6) if r else "—"
    causes = why.get("causes") or []
    if not causes:
        return "| `%s` | %s | %s | — | — |" % (name, chosen, runner)
    c = causes[0]
    return "| `%s` | %s | %s | %s %.1f %% | %s |" % (name, chosen, runner, c["label"], 100 * c["share"],
                                                     behind_text(c))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default="build/src/cli/waitscope-cli")
    ap.add_argument("traces", nargs="+")
    a = ap.parse_args()
    print("| trace | picked (how) | runner-up | first answer | behind it |")
    print("|---|---|---|---|---|")
    for t in a.traces:
        print(row(a.cli, t))


if __name__ == "__main__":
    main()
