#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""One word for one thing: what ended a wait when no thread did is said
with the glossary's words (src/core/model/ws-wake-words.c,
docs/glossary.md) in every view, never with the variants the views used
to have ("Woken by hardware" in the critical path, "Timer ran out" in the
ready tree, "Readier unknown" in the timeline…).

1. The strings of the renderers, the GUI, the CLI (`why`, `info`) and the
   analyses hold none of the old variants.
2. docs/glossary.md defines each word the glossary's source defines.
3. `waitscope-cli why` and `info` on recordings with timer, interrupt and
   disk wake-ups print none of the old variants."""
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
cli = os.environ.get("WS_CLI")
data = os.environ.get("WS_TEST_DATA", os.path.join(here, "data"))
failures = 0

FORBIDDEN = [
    "woken by hardware", "timer ran out", "readier unknown", "unknown readier", "readier not recorded",
    "hardware wake-up", "hardware / interrupt", "hardware/interrupt", "hardware or timer", "timer or device",
    "interrupt wake-up", "interrupt (hardware)", "with no readier", "wake-up not recorded", "device (interrupt)",
]


def check(ok, what):
    global failures
    print(("ok " if ok else "FAIL ") + what)
    if not ok:
        failures += 1


def strings_of(path):
    """The string literals of a C file outside comments, or the text of a
    .ui file's elements."""
    text = open(path, encoding="utf-8").read()
    if path.endswith(".ui"):
        return re.findall(r">([^<>]+)<", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return [s for s in re.findall(r'"((?:[^"\\\n]|\\.)*)"', text) if not s.startswith("[")]


def sources():
    for d in ("src/render", "src/gui", "src/cli", "src/core/analysis", "src/core/contrast", "resources"):
        for name in sorted(os.listdir(os.path.join(root, d))):
            if name.endswith((".c", ".ui")):
                yield os.path.join(root, d, name)


found = []
n = 0
for path in sources():
    for s in strings_of(path):
        n += 1
        for bad in FORBIDDEN:
            if bad in s.lower():
                found.append(f"{os.path.relpath(path, root)}: “{s}”")
check(n > 1000 and not found, f"{n} strings, none an old variant {found[:5]}")

source = open(os.path.join(root, "src/core/model/ws-wake-words.c"), encoding="utf-8").read()
label_body = source[source.index("ws_wake_word_label (WsWakeWord word)"):source.index("ws_wake_word_phrase (WsWakeWord word)")]
labels = re.findall(r'return _\("([^"]+)"\);', label_body)
glossary = open(os.path.join(root, "docs/glossary.md"), encoding="utf-8").read()
check(len(labels) == 4 and all(f"**{w}**" in glossary for w in labels),
      f"docs/glossary.md defines {labels}")

if cli:
    import json

    def longest_waiter(path):
        info = json.loads(subprocess.run([cli, "info", path, "--top", "1", "--json"], capture_output=True,
                                         text=True).stdout)
        return str((info["traces"][0] if "traces" in info else info)["top_waits"][0]["tid"])

    runs = []
    for name in ("causes/sleep-cs.perf.txt.gz", "causes/fsync-writer.perf.txt.gz", "causes/cold-read.perf.txt.gz"):
        path = os.path.join(data, name)
        runs.append((name, ["why", path, "--tid", longest_waiter(path)]))
        runs.append((name, ["info", path, "--top", "20"]))
    runs.append(("pg-tpcb.perf.txt.gz", ["why", os.path.join(data, "pg-tpcb.perf.txt.gz"), "--slowest", "5"]))
    for name, args in runs:
        p = subprocess.run([cli, *args], capture_output=True, text=True)
        check(p.returncode == 0, f"{args[0]} {name}: exit 0")
        out = (p.stdout + p.stderr).lower()
        bad = [b for b in FORBIDDEN if b in out]
        check(not bad, f"{args[0]} {name}: no old variant {bad}")
sys.exit(1 if failures else 0)
