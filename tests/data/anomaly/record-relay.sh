#!/bin/sh
# Record the third ground-truth trace of the anomaly learning curve
# (docs/anomaly-detection.md, "Measured learning"): relay.c, a program
# other than faults.c (semaphore, rwlock, socket + poll), with injected
# faults logged to an episode file, recorded as record.sh records faults.c.
#
# usage (root): tests/data/anomaly/record-relay.sh OUTDIR [SECONDS] [NAME]
#   writes OUTDIR/NAME.perf.txt.gz and OUTDIR/NAME.episodes.txt (NAME:
#   relay); FAULTS_RATE, FAULTS_MIN, FAULTS_MAX as for record.sh (default
#   0.05, 4 to 10).  The trace here: record-relay.sh OUT 3
# The workload runs in the real-time round-robin class (chrt -r 10) so
# that a busy machine does not add its own contention to the waits.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$1
WINDOW=${2:-6}
NAME=${3:-relay}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cc -O1 -g -fno-omit-frame-pointer -pthread "$HERE/relay.c" -o "$OUT/relay" -lm
EVENTS="-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_waking -e sched:sched_process_exit -e sched:sched_process_fork -e cpu-clock/freq=499,name=cpu-clock/"
FIELDS=comm,tid,pid,cpu,time,event,trace,ip,sym,dso,period

chrt -r 10 "$OUT/relay" 100000 "$OUT/$NAME.all-episodes.txt" &
p=$!
sleep 1
(cd "$OUT" && timeout -s INT "$WINDOW" perf record -q -p "$p" --sample-cpu -k CLOCK_MONOTONIC $EVENTS -g -o "$NAME.data") || true
kill "$p"
wait "$p" || true
rm -f "$OUT/relay"
perf script -i "$OUT/$NAME.data" -F $FIELDS --show-task-events 2>/dev/null | gzip -9 >"$OUT/$NAME.perf.txt.gz"
rm -f "$OUT/$NAME.data"
# Keep the episodes that overlap the recording (its first and last sample times).
first=$(zcat "$OUT/$NAME.perf.txt.gz" | awk '$0 ~ /^[^ \t]/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", $i); print $i; exit } }')
last=$(zcat "$OUT/$NAME.perf.txt.gz" | awk '$0 ~ /^[^ \t]/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) t = $i } END { sub(":", "", t); print t }')
awk -v a="$first" -v b="$last" '$3 >= a * 1e9 && $2 <= b * 1e9' "$OUT/$NAME.all-episodes.txt" >"$OUT/$NAME.episodes.txt"
rm -f "$OUT/$NAME.all-episodes.txt"
ls -l "$OUT/$NAME.perf.txt.gz" "$OUT/$NAME.episodes.txt"
