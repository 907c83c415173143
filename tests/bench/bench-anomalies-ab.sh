#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# `anomalies` of two builds against the load, interleaved.
#
#   tests/bench/bench-anomalies-ab.sh CLI_BEFORE CLI_AFTER TRACE...
#
# For each trace, WS_BENCH_RUNS rounds (default 5) of: `info` (the load,
# CLI_AFTER), `anomalies` of CLI_BEFORE, `anomalies` of CLI_AFTER, one
# core (taskset -c 0), no history store.  Prints the median CPU time
# (user + system) and wall time of each, with its ratio to the load's,
# and the load average before and after.
#
# WS_BENCH_CACHES=cold (default): the trace-hash and fit caches off
# (WAITSCOPE_HASH_CACHE= WAITSCOPE_FIT_CACHE=): a trace never opened.
# WS_BENCH_CACHES=warm: both caches in a temporary directory, filled by
# one run of each build first: a trace opened again.
set -euo pipefail

before=${1:?usage: bench-anomalies-ab.sh CLI_BEFORE CLI_AFTER TRACE...}
after=${2:?usage: bench-anomalies-ab.sh CLI_BEFORE CLI_AFTER TRACE...}
shift 2
[ $# -gt 0 ] || { echo "usage: bench-anomalies-ab.sh CLI_BEFORE CLI_AFTER TRACE..." >&2; exit 2; }
runs=${WS_BENCH_RUNS:-5}
caches=${WS_BENCH_CACHES:-cold}
cores=${WS_BENCH_CORES:-one}
pin=(taskset -c 0)
[ "$cores" = all ] && pin=()
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

export WAITSCOPE_HISTORY=$work/no-history.sqlite
if [ "$caches" = warm ]; then
  export WAITSCOPE_HASH_CACHE=$work/hashes.sqlite WAITSCOPE_FIT_CACHE=$work/fits.sqlite
else
  export WAITSCOPE_HASH_CACHE= WAITSCOPE_FIT_CACHE=
fi

echo "caches $caches, $runs interleaved rounds, cores: $cores ($(nproc)); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| trace | load (info) | anomalies before | anomalies after |"
echo "|---|---|---|---|"
for trace in "$@"; do
  times=$work/times
  : > "$times"
  if [ "$caches" = warm ]; then
    "$before" anomalies "$trace" > /dev/null
    "$after" anomalies "$trace" > /dev/null
  fi
  for ((r = 0; r < runs; r++)); do
    for spec in "load $after info" "before $before anomalies" "after $after anomalies"; do
      read -r name cli command <<< "$spec"
      "${pin[@]}" /usr/bin/time -f "$name %U %S %e" -a -o "$times" "$cli" "$command" "$trace" > /dev/null
    done
  done
  # median NAME FIELD: the median of a command's CPU (2) or wall (3) seconds
  median () {
    awk -v n="$1" -v f="$2" '$1 == n { print (f == 2 ? $2 + $3 : $4) }' "$times" | sort -g \
      | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
  }
  lc=$(median load 2); lw=$(median load 3)
  printf "| %s (%d MB) | %.2f s CPU, %.2f s wall |" "$(basename "$trace")" $(( $(stat -c %s "$trace") / 1000000 )) "$lc" "$lw"
  for name in before after; do
    c=$(median $name 2); w=$(median $name 3)
    awk -v c="$c" -v w="$w" -v lc="$lc" -v lw="$lw" \
      'BEGIN { printf " %.2f s (%.1f×) CPU, %.2f s (%.1f×) wall |", c, c / lc, w, w / lw }'
  done
  printf "\n"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
