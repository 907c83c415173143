#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A real perf.data recorded here, read through the loader (which runs
# `perf script`), must give a trace with waits and wake-ups.  Skips (77)
# where perf cannot record scheduler tracepoints (no root, no tracefs).
set -u
cli=${WS_CLI:?}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

command -v perf >/dev/null || { echo "perf not installed"; exit 77; }
if ! timeout 60 perf record -q -a -g -e sched:sched_switch -e sched:sched_waking \
     -e sched:sched_wakeup -o "$dir/rec.data" -- sh -c 'sleep 0.05; sleep 0.05' \
     >"$dir/perf.log" 2>&1; then
  echo "perf record not permitted here:"; cat "$dir/perf.log"; exit 77
fi

"$cli" info --json "$dir/rec.data" >"$dir/info.json" || { echo "info failed"; exit 1; }
python3 - "$dir/info.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
t = doc["traces"][0] if "traces" in doc else doc
counts = t["events"] if "events" in t else t["counts"]
print(counts)
assert counts["wait"] > 0, "no waits in a real recording"
assert counts["unwait"] + counts["hw-service"] > 0, "no wake-ups in a real recording"
names = {th["name"] for th in t["threads"]}
assert "sleep" in names or "sh" in names, names
PY
