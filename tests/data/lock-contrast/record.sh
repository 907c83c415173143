#!/bin/sh
# Record the lock-slowop contrast pair (docs/contrast.md, "A pair of our
# own"): the same 4-worker request service, fast (no refresh under the
# lock) and slow (every 10th cache update of a worker refreshes from the
# loader thread while holding the cache lock), each recorded system-wide
# with the same perf events as the other real traces in tests/data, plus
# two uprobes on request_begin / request_end as the scenario markers.
#
# usage (root): tests/data/lock-contrast/record.sh OUTDIR  (the files here: WINDOW=1.0)
# Contrast: waitscope-cli contrast --scenario request=lso:request_begin,lso:request_end
#   --component lock-slowop --fast OUTDIR/lock-slowop-fast.perf.txt.gz
#   --slow OUTDIR/lock-slowop-slow.perf.txt.gz
# The workload runs in the real-time round-robin class (chrt -r 10), as the
# attribution workloads do (tests/data/workloads/record.sh), so that the
# other jobs of a busy machine do not preempt it; WINDOW (default 1.5) is
# the recording window in seconds, after a 1 s warm-up.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$1
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WINDOW=${WINDOW:-1.5}
BIN=$OUT/bin
mkdir -p "$BIN"
cc -O1 -g -fno-omit-frame-pointer -pthread "$HERE/lock_slowop.c" -o "$BIN/lock-slowop"
perf probe -q -d 'lso:*' 2>/dev/null || true
perf probe -q -x "$BIN/lock-slowop" -a lso:request_begin=request_begin -a lso:request_end=request_end
EVENTS="-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_waking -e sched:sched_process_exit -e sched:sched_process_fork -e cpu-clock/freq=499,name=cpu-clock/ -e lso:request_begin -e lso:request_end"
FIELDS=comm,tid,pid,cpu,time,event,trace,ip,sym,dso,period

# run NAME SLOW_EVERY: start the service, warm up 1 s, record WINDOW
# seconds system-wide, stop it, convert to gzip'd perf script text.
run() {
    chrt -r 10 "$BIN/lock-slowop" 100000 "$2" >"$OUT/$1.workload.txt" 2>&1 &
    p=$!
    sleep 1
    (cd "$OUT" && perf record -q -a -m 16M $EVENTS -g -o "$1.data" -- sleep "$WINDOW")
    kill "$p" 2>/dev/null || true
    wait "$p" || true
    perf script -i "$OUT/$1.data" -F $FIELDS --show-task-events 2>/dev/null | gzip -9 >"$OUT/$1.perf.txt.gz"
    rm -f "$OUT/$1.data"
    ls -l "$OUT/$1.perf.txt.gz"
}

run lock-slowop-fast 0
run lock-slowop-slow 10
perf probe -q -d 'lso:*'
