#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""One word for one wait: for waits of real recordings that no thread
woke (timer expiries, interrupts, disk completions, waits without a
wake-up record), `why --event`, the critical path over the wait and the
ready tree rooted at it name what ended it with the same glossary word.

The waits are picked from the SQL view (`waits.readier_kind`), an
independent reading of the trace, and the test insists that each of the
glossary's four words turns up at least once, so that it cannot pass by
seeing nothing."""
import json
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
cli = os.environ.get("WS_CLI")
data = os.environ.get("WS_TEST_DATA", os.path.join(here, "data"))
failures = 0


def check(ok, what):
    global failures
    print(("ok " if ok else "FAIL ") + what)
    if not ok:
        failures += 1


def run(*args):
    p = subprocess.run([cli, *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{args}: {p.stderr}")
    return p.stdout


source = open(os.path.join(root, "src/core/model/ws-wake-words.c"), encoding="utf-8").read()
body = source[source.index("ws_wake_word_phrase (WsWakeWord word)"):source.index("ws_wake_word_explain (WsWakeWord word)")]
PHRASES = re.findall(r'return _\("([^"]+)"\);', body)
assert len(PHRASES) == 4, PHRASES

if not cli:
    print("WS_CLI not set")
    sys.exit(77)

# The longest waits no thread woke, and the longest uninterruptible ones
# (disk I/O) among them.
SQL = ("select event_id from (select w.event_id from waits w where w.readier_kind in ('hardware', 'unknown') "
       "and w.cost > 100000 order by w.cost desc limit 4) union select event_id from (select w.event_id "
       "from waits w where w.readier_kind in ('hardware', 'unknown') and w.uninterruptible "
       "order by w.cost desc limit 3)")
TRACES = ["causes/sleep-cs.perf.txt.gz", "causes/fsync-writer.perf.txt.gz", "causes/cold-read.perf.txt.gz",
          "causes/epoll-idle.perf.txt.gz", "causes/tcp-server-disk.perf.txt.gz", "pg-tpcb.perf.txt.gz"]
seen = set()
compared = 0
for name in TRACES:
    path = os.path.join(data, name)
    if not os.path.exists(path):
        continue
    rows = json.loads(run("query", path, SQL, "--json"))["rows"]
    for (event,) in rows:
        event = str(event)
        why = json.loads(run("why", path, "--event", event, "--json"))
        ended_why = [c["ended"] for c in why["causes"] if c.get("ended")]
        path_json = json.loads(run("critical-path", path, "--event", event))
        labels = [s["label"] for s in path_json["segments"] if str(s.get("event")) == event
                  and s["state"].startswith("blocked")]
        tree = json.loads(run("readytree", path, "--event", event))
        root_node = [n for n in tree["nodes"] if str(n["event"]) == event]
        ended_tree = root_node[0]["ended"] if root_node else None

        words = {
            "why": ended_why[0].split(": ", 1)[1] if len(ended_why) == 1 else ended_why,
            "critical path": labels[0].split(", ", 1)[1] if labels and ", " in labels[0] else labels,
            "ready tree": ended_tree,
        }
        same = len({json.dumps(w) for w in words.values()}) == 1 and words["why"] in PHRASES
        check(same, f"{name} wait {event}: {words}")
        if same:
            seen.add(words["why"])
        compared += 1

check(compared >= 20, f"{compared} waits compared")
check(seen == set(PHRASES), f"every glossary word met: {sorted(seen)} of {PHRASES}")
sys.exit(1 if failures else 0)
