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
[ $? -eq 0 ] || exit 1

# waitscope-cli record: the line it prints is the one hints print, usage
# errors exit 2, and a real short command recorded here (without -a, so
# cpu-clock samples carry no CPU) opens with its waits.
line=$("$cli" record --system --print -o perf.data)
[ "$line" = "perf record -g -a -e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup -e cpu-clock/freq=499,name=cpu-clock/ -e block:block_rq_issue -e block:block_rq_complete -o perf.data -- sleep 5" ] \
  || { echo "record --print: $line"; exit 1; }
"$cli" record >/dev/null 2>&1; [ $? -eq 2 ] || { echo "record without a target must exit 2"; exit 1; }
"$cli" record --system --pid 1 >/dev/null 2>&1; [ $? -eq 2 ] || { echo "two targets must exit 2"; exit 1; }
"$cli" record -o "$dir/cmd.data" -- sh -c 'sleep 0.1; sleep 0.1' >"$dir/record.log" 2>&1 \
  || { echo "record failed:"; cat "$dir/record.log"; exit 1; }
grep -q "Recorded $dir/cmd.data" "$dir/record.log" || { cat "$dir/record.log"; exit 1; }
"$cli" info --json "$dir/cmd.data" >"$dir/cmd.json" || { echo "info of the recording failed"; exit 1; }
python3 - "$dir/cmd.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["traces"][0]
print("recorded command:", t["events"])
assert t["events"]["wait"] > 0 and t["waits_recorded"] is True and t["record_waits_command"] is None
assert any(th["name"] == "sleep" and th["waits"] > 0 for th in t["threads"]), t["threads"]
PY
[ $? -eq 0 ] || exit 1

# The recording says what it was made for (perf's header cmdline): why
# explains the command perf started, and says so.
"$cli" why --json "$dir/cmd.data" >"$dir/why.json" || { echo "why of the recording failed"; exit 1; }
python3 - "$dir/why.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["picked"][0]
print("picked:", p["program"], p["how"])
assert p["how"] == "recorded", p
assert p["program"] in ("sh", "sleep"), p
assert "the process the recording was made for" in p["reason"], p["reason"]
PY
[ $? -eq 0 ] || exit 1

# A CPU profile without -a and without scheduler events: it opens, and
# info says what to record to see waits (text and JSON).
timeout 60 perf record -q -g -o "$dir/cpu.data" -- sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done' \
  >"$dir/perf2.log" 2>&1 || { cat "$dir/perf2.log"; exit 1; }
"$cli" info "$dir/cpu.data" >"$dir/cpu.txt" || { echo "info of a profile without -a failed"; exit 1; }
grep -q "To see waits, record the scheduler events with call stacks:" "$dir/cpu.txt" \
  && grep -q -- "-e sched:sched_switch" "$dir/cpu.txt" || { cat "$dir/cpu.txt"; exit 1; }
"$cli" info --json "$dir/cpu.data" >"$dir/cpu.json" || exit 1
python3 - "$dir/cpu.json" "$line" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["traces"][0]
print("profile:", t["events"])
assert t["events"]["running"] > 0 and t["events"]["wait"] == 0
assert t["waits_recorded"] is False and t["record_waits_command"] == sys.argv[2]
PY

# The block layer's requests a recording holds, as info counts them: one
# per block_rq_issue line of the text (counted here with grep), and none
# (null) for a recording without the tracepoints.
for t in pg-dd py-sqlite; do
  "$cli" info --json "$WS_TEST_DATA/causes/$t.perf.txt.gz" >"$dir/$t.json" || { echo "info $t failed"; exit 1; }
  issues=$(gzip -dc "$WS_TEST_DATA/causes/$t.perf.txt.gz" | grep -c " block:block_rq_issue: ")
  python3 - "$dir/$t.json" "$issues" <<'PY' || exit 1
import json, sys
b = json.load(open(sys.argv[1]))["traces"][0]["block_requests"]
issues = int(sys.argv[2])
print("block requests:", b, "issue lines:", issues)
if issues == 0:
    assert b is None, b
else:
    assert b["n"] == issues, (b, issues)
    assert 0 <= b["ended_at_issuer_wait"] <= b["without_completion"] < b["n"], b
PY
done
