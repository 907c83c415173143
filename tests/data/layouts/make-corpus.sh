#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# How the perf script layout corpus was made (run as root, perf 6.1).
# The recordings are sample-only profiles and a scheduler recording of a
# busy 2-CPU VM; each file keeps the first N events of one `perf script`
# field list.  old-*.txt are written by hand in the layouts older perf
# versions and other producers print.  The *.folded files are
# stackcollapse-perf.pl's output (FlameGraph, github.com/brendangregg/
# FlameGraph) for the same files; layouts.ini lists the files, their
# sample counts (grep) and which have a .folded.
#
# No .folded, on purpose, where stackcollapse-perf.pl misreads the input:
#   cpu-nocomm, old-spaces, cpu-no-callgraph: headers that start with a
#     space (no comm, right-aligned comm, -G): it recognises no sample;
#   cpu-notime-cpu-period: without a timestamp it does not see the
#     period column and counts 1 per sample;
#   old-layouts: it reads "Web Content 2 3301/3305" as comm "Web Content",
#     pid 2;
#   sched-*: it folds the tracepoints' stacks along with the samples.
set -eu
trim () { python3 -c '
import sys
n=int(sys.argv[1]); events=0; prev=""
for line in sys.stdin:
    sys.stdout.write(line)
    if line.strip()=="" and prev.strip()!="":
        events+=1
        if events>=n: break
    prev=line' "$1"; }
perf record -q -F 499 -g -o cpu.data -- python3 py_locks.py 1
perf record -q -a -F 499 -g -o cpua.data -- sleep 1
perf record -q -a -e page-faults -c 1 -g -o pfa.data -- sleep 0.5
perf record -q -a -e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup \
    -e sched:sched_process_exit -e sched:sched_process_fork \
    -e cpu-clock/freq=499,name=cpu-clock/ -g -o sched.data -- sleep 0.3
perf script -i cpua.data | trim 40 > cpu-default.txt
perf script -i cpua.data -F comm,pid,tid,cpu,time,period,event,ip,sym,dso | trim 40 > cpu-pidtid-cpu-period.txt
perf script -i cpua.data -F comm,tid,time,event,ip,sym,dso | trim 40 > cpu-tid.txt
perf script -i cpua.data -F comm,pid,time,event,ip,sym,dso | trim 40 > cpu-pid.txt
perf script -i cpua.data -F comm,pid,tid,time,period,event,ip,sym,symoff,dso | trim 40 > cpu-symoff.txt
perf script -i cpu.data -F comm,tid,time,event,ip,sym,dso,srcline | trim 20 > cpu-srcline.txt
perf script -i cpua.data -F comm,tid,event,ip,sym,dso | trim 40 > cpu-notime.txt
perf script -i cpua.data -F comm,tid,cpu,event,ip,sym,dso,period | trim 40 > cpu-notime-cpu-period.txt
perf script -i cpua.data -F tid,time,event,ip,sym,dso | trim 40 > cpu-nocomm.txt
perf script -i cpua.data -G -F comm,tid,cpu,time,event,ip,sym,dso | head -40 > cpu-no-callgraph.txt
perf script -i cpu.data --show-task-events --show-mmap-events -F comm,tid,time,event,ip,sym,dso | trim 30 > cpu-task-mmap-events.txt
perf script -i pfa.data | trim 40 > page-faults.txt
perf script -i sched.data -F comm,tid,pid,cpu,time,event,trace,ip,sym,dso,period --show-task-events | trim 150 > sched-full.txt
perf script -i sched.data -F comm,tid,time,event,trace,ip,sym,dso | trim 150 > sched-tid-nocpu.txt
for f in cpu-default cpu-pidtid-cpu-period cpu-tid cpu-pid cpu-symoff cpu-srcline cpu-notime \
         cpu-task-mmap-events page-faults old-period-nocpu old-unindented-notime old-empty-symbol; do
  perl stackcollapse-perf.pl "$f.txt" > "$f.folded"
done
