#!/bin/sh
# Record known-cause workloads (tests/data/workloads) twice at once: as an
# ftrace trace-cmd file (NAME.dat) and as a perf recording (NAME.perf.txt.gz)
# of the same run, so that `waitscope-cli why` can be checked to name the
# same cause on both (tests/test-tracecmd-importer.c, docs/importers.md).
#
# usage (root): tests/data/tracecmd/record.sh OUTDIR [NAME ...]
#   NAME: sleep-cs fsync-writer oversub fsync-dd
#
# fsync-dd also records the block layer's request tracepoints
# (block_rq_issue, block_rq_complete) on both sides: fsync-writer's
# commit log beside dd writing 1 MiB blocks with O_DIRECT to the same disk.
#
# The ftrace side is what `trace-cmd record -T -e sched:sched_switch
# -e sched:sched_waking -e sched:sched_wakeup -e sched:sched_process_fork
# -e sched:sched_process_exit -e sched:sched_process_exec
# -e task:task_newtask` records (a kernel stack after every event).  That
# command cannot run on the VM these were made on: trace-cmd record resets
# the function tracer, whose files (set_ftrace_filter, set_ftrace_pid) the
# VM's kernel refuses even to root.  So the same events are enabled by hand
# in tracefs and `trace-cmd extract` writes the file, as trace-cmd record
# would.  task_newtask is recorded for its clone flags: ftrace events carry
# thread ids only, and CLONE_THREAD is what says which process a new thread
# belongs to; the workload is started after tracing is on, so its threads'
# creation is in the file.
#
# Size: trace-cmd stores /proc/kallsyms whole (5 MB, 1.1 MB compressed),
# which alone is past the 1 MB a test file may be.  It is run with a
# /proc/kallsyms cut to the functions the recorded stacks name (bind-mounted
# in a private mount namespace); every address in the file still resolves to
# the function trace-cmd report names with the full table.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
WL=$HERE/../workloads
OUT=$1; shift
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WINDOW=${WINDOW:-1.5}
T=/sys/kernel/tracing
BIN=$OUT/bin
mkdir -p "$BIN"
for p in sleep_cs fsync_writer oversub; do
    cc -O1 -g -fno-omit-frame-pointer -pthread "$WL/$p.c" -o "$BIN/$(echo $p | tr _ -)"
done
FTRACE_EVENTS="sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_process_fork
               sched/sched_process_exit sched/sched_process_exec task/task_newtask"
PERF_EVENTS="-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_waking -e sched:sched_process_exit -e sched:sched_process_fork -e cpu-clock/freq=499,name=cpu-clock/"
FIELDS=comm,tid,pid,cpu,time,event,trace,ip,sym,dso,period

ftrace_reset() {
    echo 0 >$T/tracing_on
    echo >$T/set_event
    echo 0 >$T/options/stacktrace
    echo 1408 >$T/buffer_size_kb
    echo >$T/trace
}

# run NAME COMMAND...: perf records system-wide for as long as a shell
# that turns ftrace on, starts the workload, waits WINDOW seconds, turns
# ftrace off and stops the workload: the two recordings cover one window
# of one run.
run() {
    name=$1; shift
    ftrace_reset
    echo 16384 >$T/buffer_size_kb
    for e in $FTRACE_EVENTS ${BLOCK:+block/block_rq_issue block/block_rq_complete}; do
        echo 1 >"$T/events/$e/enable"
    done
    echo 1 >$T/options/stacktrace
    (cd "$OUT" && WINDOW=$WINDOW LOG="$OUT/$name.workload.txt" \
        perf record -q -a -m 16M $PERF_EVENTS ${BLOCK:+-e block:block_rq_issue -e block:block_rq_complete} \
            -g -o "$name.data" -- \
        sh -c 'echo 1 >"$0/tracing_on"; chrt -r 10 "$@" >"$LOG" 2>&1 & p=$!
               sleep "$WINDOW"; echo 0 >"$0/tracing_on"; kill $p; wait $p || true' "$T" "$@")
    # the functions the stacks name (the trace file, read without consuming it)
    sed -n 's/^ => \([^ ]*\).*/\1/p' $T/trace | sort -u >"$OUT/$name.functions"
    awk 'NR == FNR { want[$1] = 1; next } ($3 in want)' "$OUT/$name.functions" /proc/kallsyms >"$OUT/$name.kallsyms"
    rm -f "$OUT/$name.dat"
    unshare -m sh -c 'mount --bind "$1" /proc/kallsyms && trace-cmd extract -o "$2"' sh \
        "$OUT/$name.kallsyms" "$OUT/$name.dat" >/dev/null
    ftrace_reset
    echo 1 >$T/tracing_on   # as the kernel boots it
    rm -f "$OUT/$name.functions" "$OUT/$name.kallsyms"
    perf script -i "$OUT/$name.data" -F $FIELDS --show-task-events 2>/dev/null | gzip -9 >"$OUT/$name.perf.txt.gz"
    rm -f "$OUT/$name.data"
    ls -l "$OUT/$name.dat" "$OUT/$name.perf.txt.gz"
}

[ $# -gt 0 ] || set -- sleep-cs fsync-writer oversub
for w in "$@"; do
    case $w in
        sleep-cs) run sleep-cs "$BIN/sleep-cs" 100000 ;;
        oversub) run oversub "$BIN/oversub" 100000 ;;
        fsync-writer)
            d=$(mktemp -d /var/tmp/fsync-writer.XXXXXX)
            run fsync-writer "$BIN/fsync-writer" 100000 "$d/log"
            rm -rf "$d" ;;
        fsync-dd)
            d=$(mktemp -d /var/tmp/fsync-dd.XXXXXX)
            dd if=/dev/zero of="$d/hog" bs=1M count=8000 oflag=direct status=none & dh=$!
            sleep 1
            BLOCK=1
            run fsync-dd "$BIN/fsync-writer" 100000 "$d/log"
            BLOCK=
            kill $dh; wait $dh 2>/dev/null || true
            rm -rf "$d" ;;
        *) echo "unknown workload $w" >&2; exit 2 ;;
    esac
done
