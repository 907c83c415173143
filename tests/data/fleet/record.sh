#!/bin/sh
# Record the fleet (docs/contrast.md, "A fleet of traces"): RUNS (default
# 24) short system-wide recordings of fleet_service.c, each a separate run
# of the service; SLOW_RUNS of them (default runs 3 7 11 15 19 23) take the
# rare slow path (one request in SLOW_RATE, default 20, rebuilds the cache
# index, 4 × 512 KB each flushed with fdatasync, under the cache mutex), the others never do.  The
# same perf events as every other real trace in tests/data, -g; WINDOW
# (default 0.25) seconds after a 0.3 s warm-up, the service in the
# real-time round-robin class as in workloads/record.sh.
#
# Writes OUTDIR/run-NN.perf.txt.gz and OUTDIR/classes.csv: one line per
# trace, "trace,latency_ms,class" — the service's slowest request in the
# run (it prints it when stopped), and slow/fast as the run was set up.
#
# usage (root): tests/data/fleet/record.sh OUTDIR
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$1
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
RUNS=${RUNS:-24}
SLOW_RUNS=${SLOW_RUNS:-"3 7 11 15 19 23"}
SLOW_RATE=${SLOW_RATE:-20}
WINDOW=${WINDOW:-0.25}
EVENTS="-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_waking -e sched:sched_process_exit -e sched:sched_process_fork -e cpu-clock/freq=499,name=cpu-clock/"
FIELDS=comm,tid,pid,cpu,time,event,trace,ip,sym,dso,period
BIN=$(mktemp -d /var/tmp/fleet.XXXXXX)
trap 'rm -rf "$BIN"' EXIT
cc -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -pthread "$HERE/fleet_service.c" -o "$BIN/fleet-service"

echo "trace,latency_ms,class" >"$OUT/classes.csv"
i=1
while [ $i -le "$RUNS" ]; do
    name=$(printf 'run-%02d' $i)
    rate=0 class=fast
    for s in $SLOW_RUNS; do [ "$s" -eq $i ] && rate=$SLOW_RATE class=slow; done
    chrt -r 10 "$BIN/fleet-service" 100000 $rate "$BIN/index" >"$BIN/out.txt" 2>&1 &
    p=$!
    sleep 0.3
    (cd "$BIN" && perf record -q -a -m 16M $EVENTS -g -o "$name.data" -- sleep "$WINDOW")
    kill -TERM "$p"
    wait "$p" || true
    perf script -i "$BIN/$name.data" -F $FIELDS --show-task-events 2>/dev/null | gzip -9 >"$OUT/$name.perf.txt.gz"
    rm -f "$BIN/$name.data"
    latency=$(sed -n 's/^slowest request: \([0-9.]*\) ms$/\1/p' "$BIN/out.txt")
    echo "$name.perf.txt.gz,$latency,$class" >>"$OUT/classes.csv"
    ls -l "$OUT/$name.perf.txt.gz"
    i=$((i + 1))
done
