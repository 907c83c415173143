#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Records the PostgreSQL fast/slow pair in tests/data (run as root):
#   pg-contrast-fast: pgbench tpcb-like, 4 clients, on a quiet machine;
#   pg-contrast-slow: the same, while two `dd oflag=dsync` loops outside
#     PostgreSQL flush the same disk, so the backend holding the branch-row
#     lock waits longer in its commit's WAL flush (fdatasync) and the
#     backends queued behind it wait longer for the lock.
# The VM's virtio disk flushes in a constant ~7 ms whatever else writes, so
# to make it a disk that neighbours can saturate, both recordings put the
# PostgreSQL processes (and, in the slow one, the dd loops) in one blkio
# cgroup limited to $IOPS writes per second: the same small disk for both
# runs, shared with an fsync-heavy neighbour in the slow one.
# Needs perf, the PostgreSQL 15 cluster "15 main" up, and the SDT probes
# (perf probe -x …/postgres -a sdt_postgresql:transaction__start …).
set -eu
OUT=${1:-.}
SECS=${SECS:-1.0}
DB=contrast
PGBIN=/usr/lib/postgresql/15/bin/postgres
DDDIR=${DDDIR:-/var/tmp/ws-contrast-dd}
IOPS=${IOPS:-300}
CG=/sys/fs/cgroup/blkio/ws-contrast
DEV=$(stat -c '%d' /var/lib/postgresql | awk '{ printf "%d:%d", int($1/256), $1%256 }')

if ! perf probe -l 2>/dev/null | grep -q 'sdt_postgresql:transaction__start'; then
    perf buildid-cache --add "$PGBIN"
    perf probe -x "$PGBIN" -a sdt_postgresql:transaction__start -a sdt_postgresql:transaction__commit
fi
runuser -u postgres -- psql -qc "select 1" "$DB" >/dev/null 2>&1 || {
    runuser -u postgres -- createdb "$DB"
    runuser -u postgres -- pgbench -q -i -s 1 "$DB"
}

EVENTS="-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_waking -e sched:sched_process_exit
 -e sched:sched_process_fork -e cpu-clock/freq=499,name=cpu-clock/
 -e sdt_postgresql:transaction__start -e sdt_postgresql:transaction__commit"
FIELDS=comm,tid,pid,cpu,time,event,trace,ip,sym,dso,period

record() {   # record NAME
    runuser -u postgres -- pgbench -n -c 4 -j 2 -T 4 -b tpcb-like "$DB" >"$OUT/$1.workload.txt" 2>&1 &
    p=$!
    sleep 1.5
    perf record -q -a -m 16M $EVENTS -g -o "$OUT/$1.data" -- sleep "$SECS"
    wait $p
    perf script -i "$OUT/$1.data" -F "$FIELDS" --show-task-events 2>/dev/null | gzip -9 >"$OUT/$1.perf.txt.gz"
    rm -f "$OUT/$1.data"
    ls -l "$OUT/$1.perf.txt.gz"
}

mkdir -p "$CG"
echo "$DEV $IOPS" >"$CG/blkio.throttle.write_iops_device"
for p in $(pgrep -u postgres postgres); do echo "$p" >"$CG/cgroup.procs"; done
trap 'for p in $(cat "$CG/cgroup.procs"); do echo "$p" >/sys/fs/cgroup/blkio/cgroup.procs; done' EXIT

record pg-contrast-fast

mkdir -p "$DDDIR"
for i in 1 2; do
    sh -c 'echo $$ >"$1/cgroup.procs"; while :; do dd if=/dev/zero of="$2" bs=64k count=200 oflag=dsync 2>/dev/null; done' \
        sh "$CG" "$DDDIR/f$i" &
    eval "dd$i=\$!"
done
sleep 1
record pg-contrast-slow
kill "$dd1" "$dd2" 2>/dev/null || true
wait 2>/dev/null || true
rm -rf "$DDDIR"
