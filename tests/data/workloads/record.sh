#!/bin/sh
# Record the attribution check traces (docs/attribution.md, "Checked on
# real traces"): one workload per known cause, recorded system-wide with
# the same perf events as the other real traces in tests/data.
#
# usage (root): tests/data/workloads/record.sh OUTDIR [NAME ...]
#   NAME: py-lock-cpu py-gil pg-rowlock fsync-writer sleep-cs oversub
#         pipe-producer condvar-queue chain3 tcp-server-disk cold-read pg-advisory
#         mmap-fault pool-straggler flock-hold rwlock-writer epoll-idle
#         py-sqlite sh-gzip cpu-quota
#         starved-lock fsync-dd sh-client
#         pg-dd cc-chain3 timed-lock sem-fsync waitpid-child
# The workloads run in the real-time round-robin class (chrt -r 10, the
# PostgreSQL backends too) so that the other jobs of a busy machine do not
# preempt them (all but cpu-quota, whose CFS quota does not apply to
# real-time threads): the traces show the workload's own contention, as on a
# quiet machine; WINDOW (default 1.5) is the recording
# window in seconds, after a 1 s warm-up (0.5 s for tcp-server-disk and
# 0.8 s for cold-read, whose I/O makes many more events).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$1; shift
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WINDOW=${WINDOW:-1.5}
PY=${PYTHON:-/usr/bin/python3}
BIN=$OUT/bin
mkdir -p "$BIN"
for p in sleep_cs fsync_writer oversub pipe_producer condvar_queue chain3 tcp_server_disk cold_read \
         mmap_fault pool_straggler flock_hold rwlock_writer epoll_idle cpu_quota \
         starved_lock hog calc_server calc_client timed_lock sem_fsync waitpid_child; do
    cc -O1 -g -fno-omit-frame-pointer -pthread "$HERE/$p.c" -o "$BIN/$(echo $p | tr _ -)"
done
# a JVM for the busy-machine workload (starved-lock)
javac -d "$BIN" "$HERE/JvmChurn.java"
# the block layer's requests too, as Waitscope's own recordings
# (ws-record-settings.c): whose I/O was in the device's queue
EVENTS="-e block:block_rq_issue -e block:block_rq_complete -e sched:sched_switch -e sched:sched_wakeup -e sched:sched_waking -e sched:sched_process_exit -e sched:sched_process_fork -e cpu-clock/freq=499,name=cpu-clock/"
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
    ${SCHED:-chrt -r 10} "$@" >"$OUT/$name.workload.txt" 2>&1 &
    p=$!
    sleep 1
    case $name in pg-dd) false ;; pg-*) ;; *) false ;; esac && for pid in $(pgrep -u postgres); do chrt -r -a -p 10 "$pid" >/dev/null; done
    (cd "$OUT" && perf record -q -a -m 16M $EVENTS -g -o "$name.data" -- sleep "${W:-$WINDOW}")
    kill "$p" 2>/dev/null || true
    wait "$p" || true
    to_text "$name"
}

[ $# -gt 0 ] || set -- py-lock-cpu py-gil pg-rowlock fsync-writer sleep-cs oversub \
    pipe-producer condvar-queue chain3 tcp-server-disk cold-read pg-advisory \
    mmap-fault pool-straggler flock-hold rwlock-writer epoll-idle py-sqlite sh-gzip cpu-quota \
    starved-lock fsync-dd sh-client pg-dd cc-chain3 timed-lock sem-fsync waitpid-child
for w in "$@"; do
    case $w in
        py-lock-cpu) run py-lock-cpu "$PY" "$HERE/py_lock_cpu.py" 100000 ;;
        py-gil) run py-gil "$PY" "$HERE/py_gil.py" 100000 ;;
        timed-lock) run timed-lock "$BIN/timed-lock" 100000 ;;
        sleep-cs) run sleep-cs "$BIN/sleep-cs" 100000 ;;
        oversub) run oversub "$BIN/oversub" 100000 ;;
        fsync-writer)
            d=$(mktemp -d /var/tmp/fsync-writer.XXXXXX)
            run fsync-writer "$BIN/fsync-writer" 100000 "$d/log"
            rm -rf "$d" ;;
        pipe-producer) run pipe-producer "$BIN/pipe-producer" 100000 ;;
        condvar-queue) run condvar-queue "$BIN/condvar-queue" 100000 ;;
        chain3) run chain3 "$BIN/chain3" 100000 ;;
        tcp-server-disk)
            # a shorter window: loopback TCP and the disk make many events
            W=0.5
            d=$(mktemp -d /var/tmp/tcp-server-disk.XXXXXX)
            run tcp-server-disk "$BIN/tcp-server-disk" 100000 "$d/log"
            W=
            rm -rf "$d" ;;
        cold-read)
            # 1 GiB of data, then none of it in the page cache: every
            # random 4 KiB read misses it (read-ahead is off in the
            # program).  Only this file is evicted (dd iflag=nocache
            # count=0 drops its pages): dropping every cache would send
            # the other jobs' compilers to the disk too.
            d=$(mktemp -d /var/tmp/cold-read.XXXXXX)
            dd if=/dev/urandom of="$d/data" bs=1M count=1024 status=none
            sync
            dd if="$d/data" iflag=nocache count=0 status=none
            W=0.8
            run cold-read "$BIN/cold-read" 100000 "$d/data"
            W=
            rm -rf "$d" ;;
        mmap-fault)
            # as cold-read, but the file is mapped and read by page faults
            d=$(mktemp -d /var/tmp/mmap-fault.XXXXXX)
            dd if=/dev/urandom of="$d/data" bs=1M count=1024 status=none
            sync
            dd if="$d/data" iflag=nocache count=0 status=none
            W=0.8
            run mmap-fault "$BIN/mmap-fault" 100000 "$d/data"
            W=
            rm -rf "$d" ;;
        sem-fsync)
            # two processes hand records over a process-shared semaphore
            # pair (futexes in shared memory): sem-post writes 4 KiB and
            # fdatasyncs before each post; sem-wait waits for each one
            d=$(mktemp -d /var/tmp/sem-fsync.XXXXXX)
            W=0.8
            run sem-fsync "$BIN/sem-fsync" 100000 "$d/log"
            W=
            rm -rf "$d" ;;
        waitpid-child)
            # a parent forks a child per item and waits for it to end;
            # each child computes ~4 ms (child_crunch)
            run waitpid-child "$BIN/waitpid-child" 100000 ;;
        pool-straggler) run pool-straggler "$BIN/pool-straggler" 100000 ;;
        flock-hold)
            d=$(mktemp -d /var/tmp/flock-hold.XXXXXX)
            run flock-hold "$BIN/flock-hold" 100000 "$d/lock"
            rm -rf "$d" ;;
        rwlock-writer) run rwlock-writer "$BIN/rwlock-writer" 100000 ;;
        epoll-idle) run epoll-idle "$BIN/epoll-idle" 100000 ;;
        py-sqlite)
            d=$(mktemp -d /var/tmp/py-sqlite.XXXXXX)
            W=0.6
            run py-sqlite "$PY" "$HERE/py_sqlite.py" 100000 "$d/db.sqlite"
            W=
            rm -rf "$d" ;;
        sh-gzip)
            # a real shell loop waiting for its real child: sh in wait4
            # while gzip compresses 4 MiB of text from the page cache
            d=$(mktemp -d /var/tmp/sh-gzip.XXXXXX)
            seq 1 1000000 | head -c 4M >"$d/text"
            run sh-gzip sh -c 'while :; do gzip -6 -c "$0" >/dev/null; done' "$d/text"
            rm -rf "$d" ;;
        cpu-quota)
            # a fifth of a CPU for the cgroup (cgroup v1 cpu controller),
            # normal scheduling class
            cg=/sys/fs/cgroup/cpu/ws-cpu-quota
            mkdir -p "$cg"
            echo 100000 >"$cg/cpu.cfs_period_us"
            echo 20000 >"$cg/cpu.cfs_quota_us"
            SCHED=env
            run cpu-quota sh -c 'echo $$ >"$0/tasks" && exec "$1" 100000' "$cg" "$BIN/cpu-quota"
            SCHED=
            rmdir "$cg" ;;
        starved-lock)
            # a busy machine: three unrelated CPU hogs and a JVM (three
            # computing threads) beside the workload,
            # everything in the normal class, so the lock holder waits
            # for a CPU the hogs and the JVM hold
            "$BIN/hog" & h1=$!; "$BIN/hog" & h2=$!; "$BIN/hog" & h3=$!
            java -cp "$BIN" JvmChurn & j=$!
            sleep 2   # the JIT compiles the JVM's loop
            SCHED=env W=0.8
            run starved-lock "$BIN/starved-lock" 100000
            SCHED= W=
            kill $h1 $h2 $h3 $j; wait $h1 $h2 $h3 $j 2>/dev/null || true ;;
        fsync-dd)
            # fsync-writer's commit log beside a disk hog: dd writing
            # 1 MiB blocks with O_DIRECT (normal class), and the block
            # layer's request tracepoints recorded
            d=$(mktemp -d /var/tmp/fsync-dd.XXXXXX)
            dd if=/dev/zero of="$d/hog" bs=1M count=8000 oflag=direct status=none & dh=$!
            sleep 1
            W=0.8
            run fsync-dd "$BIN/fsync-writer" 100000 "$d/log"
            W=
            kill $dh; wait $dh 2>/dev/null || true
            rm -rf "$d" ;;
        sh-client)
            # a shell loop starts calc-client again and again; each run
            # sends 20 requests to calc-server (2 ms of work each) and
            # waits for every reply
            d=$(mktemp -d /var/tmp/sh-client.XXXXXX)
            chrt -r 10 "$BIN/calc-server" "$d/sock" & sv=$!
            sleep 0.2
            W=0.8
            run sh-client sh -c 'while :; do "$0" "$1"; done' "$BIN/calc-client" "$d/sock"
            W=
            kill $sv; wait $sv 2>/dev/null || true
            rm -rf "$d" ;;
        pg-dd)
            # a database beside a disk hog: 4 pgbench clients insert and
            # commit (synchronous_commit on, each commit's WAL flushed by
            # fdatasync) while dd writes 1 MiB blocks with O_DIRECT to the
            # same disk; everything in the normal class
            runuser -u postgres -- psql -q -c "DROP DATABASE IF EXISTS causes" >/dev/null
            runuser -u postgres -- psql -q -c "CREATE DATABASE causes" >/dev/null
            runuser -u postgres -- psql -q -d causes -c "CREATE TABLE commits (id bigserial PRIMARY KEY, v int)" >/dev/null
            d=$(mktemp -d /var/tmp/pg-dd.XXXXXX)
            dd if=/dev/zero of="$d/hog" bs=1M count=8000 oflag=direct status=none & dh=$!
            sleep 1
            SCHED=env W=0.8
            run pg-dd runuser -u postgres -- pgbench -n -c 4 -j 2 -T 100000 -f "$HERE/pg_commit.sql" causes
            SCHED= W=
            kill $dh; wait $dh 2>/dev/null || true
            rm -rf "$d" ;;
        cc-chain3)
            # a compiler beside the workload, as a background build: two
            # shell loops run gcc -O2 (real cc1, as, a driver waiting for
            # them) on a generated C file of 3000 functions, again and
            # again, in the normal class, while chain3 runs
            d=$(mktemp -d /var/tmp/cc-chain3.XXXXXX)
            i=0
            while [ $i -lt 3000 ]; do
                echo "int f$i (int *a, int n) { int s = $i; for (int k = 0; k < n; k++) s += a[k] * (k ^ $i); return s; }"
                i=$((i + 1))
            done >"$d/gen.c"
            sh -c 'while :; do cc -O2 -c "$0" -o "$0.1.o"; done' "$d/gen.c" & c1=$!
            sh -c 'while :; do cc -O2 -c "$0" -o "$0.2.o"; done' "$d/gen.c" & c2=$!
            sleep 1
            run cc-chain3 "$BIN/chain3" 100000
            # the shells end once the compile they run has ended (20 s of
            # CPU each)
            kill $c1 $c2; wait $c1 $c2 2>/dev/null || true
            rm -rf "$d" ;;
        pg-advisory)
            runuser -u postgres -- psql -q -c "DROP DATABASE IF EXISTS causes" >/dev/null
            runuser -u postgres -- psql -q -c "CREATE DATABASE causes" >/dev/null
            run pg-advisory runuser -u postgres -- pgbench -n -c 4 -j 2 -T 100000 -f "$HERE/pg_advisory.sql" causes
            for pid in $(pgrep -u postgres); do chrt -o -a -p 0 "$pid" >/dev/null; done ;;
        pg-rowlock)
            runuser -u postgres -- psql -q -c "DROP DATABASE IF EXISTS causes" >/dev/null
            runuser -u postgres -- psql -q -c "CREATE DATABASE causes" >/dev/null
            runuser -u postgres -- psql -q -d causes -c "CREATE TABLE hot (id int PRIMARY KEY, v bigint); INSERT INTO hot VALUES (1, 0)" >/dev/null
            run pg-rowlock runuser -u postgres -- pgbench -n -c 6 -j 2 -T 100000 -f "$HERE/pg_rowlock.sql" causes
            for pid in $(pgrep -u postgres); do chrt -o -a -p 0 "$pid" >/dev/null; done ;;
        *) echo "unknown workload $w" >&2; exit 2 ;;
    esac
done
