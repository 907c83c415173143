#!/bin/sh
# Record the ground-truth trace of the anomaly learning curve
# (docs/anomaly-detection.md, "Measured learning"): faults.c runs with
# injected faults, logged to an episode file, while perf records it with
# the same events as the other real traces in tests/data, on
# CLOCK_MONOTONIC (-k), the clock the episode log is written on.  Only the
# workload's own threads are recorded (-p): its waits, and who woke them, all
# happen there, and the trace stays small.
#
# usage (root): tests/data/anomaly/record.sh OUTDIR [SECONDS] [NAME]
#   writes OUTDIR/NAME.perf.txt.gz and OUTDIR/NAME.episodes.txt (NAME:
#   faults).  FAULTS_RATE, FAULTS_MIN and FAULTS_MAX in the environment set
#   the share of faulty work items and how many times slower a fault makes
#   them (default 0.05, 5 to 12).  The traces here:
#     record.sh OUT 6                                   # faults
#     FAULTS_RATE=0.03 FAULTS_MIN=3 FAULTS_MAX=6 record.sh OUT 6 faults-mild
# The workload runs in the real-time round-robin class (chrt -r 10) so
# that a busy machine does not add its own contention to the waits.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$1
WINDOW=${2:-6}
NAME=${3:-faults}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cc -O1 -g -fno-omit-frame-pointer -pthread "$HERE/faults.c" -o "$OUT/faults" -lm
EVENTS="-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_waking -e sched:sched_process_exit -e sched:sched_process_fork -e cpu-clock/freq=499,name=cpu-clock/"
FIELDS=comm,tid,pid,cpu,time,event,trace,ip,sym,dso,period

chrt -r 10 "$OUT/faults" 100000 "$OUT/$NAME.all-episodes.txt" &
p=$!
sleep 1
(cd "$OUT" && timeout -s INT "$WINDOW" perf record -q -p "$p" --sample-cpu -k CLOCK_MONOTONIC $EVENTS -g -o "$NAME.data") || true
kill "$p"
wait "$p" || true
rm -f "$OUT/faults"
perf script -i "$OUT/$NAME.data" -F $FIELDS --show-task-events 2>/dev/null | gzip -9 >"$OUT/$NAME.perf.txt.gz"
rm -f "$OUT/$NAME.data"
# Keep the episodes that overlap the recording (its first and last sample times).
first=$(zcat "$OUT/$NAME.perf.txt.gz" | awk '$0 ~ /^[^ \t]/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", $i); print $i; exit } }')
last=$(zcat "$OUT/$NAME.perf.txt.gz" | awk '$0 ~ /^[^ \t]/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) t = $i } END { sub(":", "", t); print t }')
awk -v a="$first" -v b="$last" '$3 >= a * 1e9 && $2 <= b * 1e9' "$OUT/$NAME.all-episodes.txt" >"$OUT/$NAME.episodes.txt"
rm -f "$OUT/$NAME.all-episodes.txt"
ls -l "$OUT/$NAME.perf.txt.gz" "$OUT/$NAME.episodes.txt"
