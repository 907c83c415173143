#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Every waitscope-cli output that reads events, saved for two builds so that
# a change of the event record (its layout, its accessors) can be shown to
# change nothing a user sees:
#
#   tools/event-oracle.sh run  CLI OUTDIR [TRACE_OR_DIR…]   save the outputs of CLI
#   tools/event-oracle.sh diff OUTDIR_A OUTDIR_B            compare two runs (exit 1 if any differs)
#
# Without traces, every trace under tests/data/ is taken.  Per trace: info,
# scenarios, why (the program, and the thread with the most wait time), inspect,
# waitgraph, readytree and critical-path of that thread, convert (the JSON trace
# format), export-chrome, collapse (samples, waits with wakers, spans), flamegraph
# trees, pivot, query over the events and waits tables, anomalies (every wait,
# an empty history), mine and cluster; then contrast and awg over the trace sets
# that have classes.  Each output is kept with its stderr and exit status.
# Caches are off (WAITSCOPE_HASH_CACHE= WAITSCOPE_FIT_CACHE=) and the history
# store is a new empty one for every command that reads it.
set -u

here=$(cd "$(dirname "$0")/.." && pwd)

traces_under () {
  find "$@" -type f \( -name '*.perf.txt.gz' -o -name '*.perf.txt' -o -name '*.json' \
       -o -name '*.pftrace' -o -name '*.pftrace.gz' -o -name '*.dat' -o -name '*.folded' \
       -o -path '*/layouts/*.txt' -o -path '*/ctf/*.tar.gz' \) \
       ! -path '*/expected/*' | sort
}

# One command: OUT/NAME.out, .err, .rc.  Commands that read the history
# store (mine, cluster) see a new empty one each time, never the user's.
run1 () {
  local out=$1 name=$2; shift 2
  rm -f "$WAITSCOPE_HISTORY"
  nice "$@" >"$out/$name.out" 2>"$out/$name.err"
  echo $? >"$out/$name.rc"
  rm -f "$WAITSCOPE_HISTORY"
}

run_trace () {
  local cli=$1 out=$2 trace=$3 tid
  mkdir -p "$out"
  run1 "$out" info "$cli" info --json "$trace"
  if [ "$(cat "$out/info.rc")" != 0 ]; then
    return   # not a trace this build opens; the .err says why
  fi
  # The thread that waited longest: the symptom of the per-thread analyses.
  tid=$(python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["traces"][0]["threads"]
t = [x for x in t if x.get("waits", 0) > 0]
print(max(t, key=lambda x: (x["wait_total"], -x["tid"]))["tid"] if t else "")' "$out/info.out")
  run1 "$out" scenarios "$cli" scenarios --json "$trace"
  run1 "$out" why "$cli" why --json "$trace"
  run1 "$out" inspect "$cli" inspect --format json "$trace"
  if [ -n "$tid" ]; then
    run1 "$out" why-tid "$cli" why --json --tid "$tid" "$trace"
    run1 "$out" waitgraph "$cli" waitgraph --format json --tid "$tid" "$trace"
    run1 "$out" readytree "$cli" readytree --format json --tid "$tid" "$trace"
    run1 "$out" critical-path "$cli" critical-path --format json --tid "$tid" "$trace"
    run1 "$out" inspect-tid "$cli" inspect --format json --tid "$tid" "$trace"
  fi
  run1 "$out" convert "$cli" convert "$trace" -o "$out/convert.json"
  run1 "$out" export-chrome "$cli" export-chrome "$trace" -o "$out/chrome.json"
  run1 "$out" collapse "$cli" collapse "$trace"
  run1 "$out" collapse-waker "$cli" collapse --waits --waker --ns "$trace"
  run1 "$out" collapse-spans "$cli" collapse --spans --ns "$trace"
  run1 "$out" flame-cpu "$cli" flamegraph --json "$trace"
  run1 "$out" flame-waker "$cli" flamegraph --json --waker "$trace"
  run1 "$out" pivot "$cli" pivot --json --by process,state,readier-thread "$trace"
  run1 "$out" query-events "$cli" query "$trace" "SELECT * FROM events ORDER BY id" --csv
  run1 "$out" query-waits "$cli" query "$trace" "SELECT * FROM waits ORDER BY event_id" --csv
  rm -f "$out/history.sqlite"
  run1 "$out" anomalies "$cli" anomalies --json --all --history "$out/history.sqlite" "$trace"
  run1 "$out" mine "$cli" mine --json "$trace"
  run1 "$out" cluster "$cli" cluster --json "$trace"
}

run_all () {
  local cli=$1 out=$2; shift 2
  local traces
  mkdir -p "$out"
  [ $# -eq 0 ] && set -- "$here/tests/data"
  traces=$(traces_under "$@")
  for t in $traces; do
    name=$(echo "${t#"$here"/}" | tr '/' '_')
    run_trace "$cli" "$out/$name" "$t"
  done
  if [ -d "$here/tests/data/lock-contrast" ]; then
    local d=$here/tests/data
    run1 "$out" contrast-lock "$cli" contrast --json --fast "$d/lock-contrast/lock-slowop-fast.perf.txt.gz" \
         --slow "$d/lock-contrast/lock-slowop-slow.perf.txt.gz"
    run1 "$out" contrast-pg "$cli" contrast --json "$d/pg-contrast-fast.perf.txt.gz" "$d/pg-contrast-slow.perf.txt.gz"
    run1 "$out" awg-pg "$cli" awg --component postgres --format json "$d/pg-contrast-slow.perf.txt.gz"
    (cd "$d/fleet" && run1 "$out" contrast-fleet "$cli" contrast --json --classes classes.csv)
    run1 "$out" mine-fleet "$cli" mine --json "$d"/fleet/run-*.perf.txt.gz
    run1 "$out" cluster-fleet "$cli" cluster --json "$d"/fleet/run-*.perf.txt.gz
  fi
}

export WAITSCOPE_HASH_CACHE= WAITSCOPE_FIT_CACHE= LC_ALL=C.UTF-8
case "${1:-}" in
  run)
    [ $# -ge 3 ] || { echo "usage: $0 run CLI OUTDIR [TRACE_OR_DIR…]" >&2; exit 2; }
    cli=$(realpath "$2"); out=$(realpath -m "$3"); shift 3
    # Inside OUTDIR, which diff reads as OUT: outputs that name it match.
    export WAITSCOPE_HISTORY=$out/history-store.sqlite
    run_all "$cli" "$out" "$@"
    ;;
  diff)
    [ $# -eq 3 ] || { echo "usage: $0 diff OUTDIR_A OUTDIR_B" >&2; exit 2; }
    # Paths in outputs name the output directory: compare with it replaced.
    set -- "$1" "$(realpath "$2")" "$(realpath "$3")"
    status=0
    while IFS= read -r f; do
      a=$2/$f b=$3/$f
      if [ ! -e "$b" ]; then echo "only in $2: $f"; status=1; continue; fi
      if ! cmp -s <(sed "s#$2#OUT#g" "$a") <(sed "s#$3#OUT#g" "$b"); then
        echo "differs: $f"; status=1
      fi
    done < <(cd "$2" && find . -type f | sort)
    while IFS= read -r f; do
      [ -e "$2/$f" ] || { echo "only in $3: $f"; status=1; }
    done < <(cd "$3" && find . -type f | sort)
    [ $status = 0 ] && echo "all $(cd "$2" && find . -type f | wc -l) files identical"
    exit $status
    ;;
  *)
    echo "usage: $0 run CLI OUTDIR [TRACE_OR_DIR…] | diff OUTDIR_A OUTDIR_B" >&2
    exit 2
    ;;
esac
