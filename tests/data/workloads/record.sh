#!/bin/sh
# Record the attribution check traces (docs/attribution.md, "Checked on
# real traces"): one workload per known cause, recorded system-wide with
# the same perf events as the other real traces in tests/data.
#
# usage (root): tests/data/workloads/record.sh OUTDIR [NAME ...]
#   NAME: py-lock-cpu py-gil pg-rowlock fsync-writer sleep-cs oversub
# The workloads run in the real-time round-robin class (chrt -r 10, the
# PostgreSQL backends too) so that the other jobs of a busy machine do not
# preempt them: the traces show the workload's own contention, as on a
# quiet machine; WINDOW (default 1.5) is the recording
# window in seconds, after a 1 s warm-up.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$1; shift
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WINDOW=${WINDOW:-1.5}
PY=${PYTHON:-/usr/bin/python3}
BIN=$OUT/bin
mkdir -p "$BIN"
for p in sleep_cs fsync_writer oversub; do
    cc -O1 -g -fno-omit-frame-pointer -pthread "$HERE/$p.c" -o "$BIN/$(echo $p | tr _ -)"
done
EVENTS="-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_waking -e sched:sched_process_exit -e sched:sched_process_fork -e cpu-clock/freq=499,name=cpu-clock/"
FIELDS=comm,tid,pid,cpu,time,event,trace,ip,sym,dso,period

to_text() {   # convert NAME: perf.data -> gzip'd perf script text
    perf script -i "$OUT/$1.data" -F $FIELDS --show-task-events 2>/dev/null | gzip -9 >"$OUT/$1.perf.txt.gz"
    rm -f "$OUT/$1.data"
    ls -l "$OUT/$1.perf.txt.gz"
}

# run NAME COMMAND...: start the workload, let it warm up for a second,
# record WINDOW seconds system-wide, stop it.  The programs are told to run
# for a very long time and stopped here: on the VM these were made on, a
# system-wide perf session made the workloads' CLOCK_MONOTONIC jump forward,
# which ended deadline-driven runs before the recording started.
run() {
    name=$1; shift
    chrt -r 10 "$@" >"$OUT/$name.workload.txt" 2>&1 &
    p=$!
    sleep 1
    [ "$name" != pg-rowlock ] || for pid in $(pgrep -u postgres); do chrt -r -a -p 10 "$pid" >/dev/null; done
    (cd "$OUT" && perf record -q -a -m 16M $EVENTS -g -o "$name.data" -- sleep "$WINDOW")
    kill "$p" 2>/dev/null || true
    wait "$p" || true
    to_text "$name"
}

[ $# -gt 0 ] || set -- py-lock-cpu py-gil pg-rowlock fsync-writer sleep-cs oversub
for w in "$@"; do
    case $w in
        py-lock-cpu) run py-lock-cpu "$PY" "$HERE/py_lock_cpu.py" 100000 ;;
        py-gil) run py-gil "$PY" "$HERE/py_gil.py" 100000 ;;
        sleep-cs) run sleep-cs "$BIN/sleep-cs" 100000 ;;
        oversub) run oversub "$BIN/oversub" 100000 ;;
        fsync-writer)
            d=$(mktemp -d /var/tmp/fsync-writer.XXXXXX)
            run fsync-writer "$BIN/fsync-writer" 100000 "$d/log"
            rm -rf "$d" ;;
        pg-rowlock)
            runuser -u postgres -- psql -q -c "DROP DATABASE IF EXISTS causes" >/dev/null
            runuser -u postgres -- psql -q -c "CREATE DATABASE causes" >/dev/null
            runuser -u postgres -- psql -q -d causes -c "CREATE TABLE hot (id int PRIMARY KEY, v bigint); INSERT INTO hot VALUES (1, 0)" >/dev/null
            run pg-rowlock runuser -u postgres -- pgbench -n -c 6 -j 2 -T 100000 -f "$HERE/pg_rowlock.sql" causes
            for pid in $(pgrep -u postgres); do chrt -o -a -p 0 "$pid" >/dev/null; done ;;
        *) echo "unknown workload $w" >&2; exit 2 ;;
    esac
done
