#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# How the analyses grow with a real-shaped trace, against its load.
#
#   tests/bench/bench-analyses.sh BENCH_IMPORT WAITSCOPE_CLI [MB...]
#
# Inputs are made as bench-import.sh makes them: time-shifted copies of the
# real PostgreSQL trace tests/data/pg-tpcb.perf.txt.gz (112 MB of perf text
# each, 1368 transactions as scenario instances), so that the backends, like
# a long recording's, live through the whole trace.  MB 0 stands for the
# real trace itself.  Default sizes: 0 300 (WS_BENCH_SIZES overrides).
#
# For each size: `info` (the load), then `contrast --component postgres`,
# and, unless WS_BENCH_CONTRAST_ONLY is set, `anomalies`, `export-chrome`
# and `mine` (recording a fresh history).  Each command runs
# WS_BENCH_RUNS times (default 3), interleaved; the median CPU time
# (user + system, one core: taskset -c 0) is printed, with its ratio to the
# load's.  CPU time rather than wall time because the development machine
# is shared: wall time there measures the neighbours.
set -euo pipefail

bench=${1:?usage: bench-analyses.sh BENCH_IMPORT WAITSCOPE_CLI [MB...]}
cli=${2:?usage: bench-analyses.sh BENCH_IMPORT WAITSCOPE_CLI [MB...]}
shift 2
here=$(cd "$(dirname "$0")/../.." && pwd)
source=$here/tests/data/pg-tpcb.perf.txt.gz
dir=${WS_BENCH_DIR:-/tmp/waitscope-bench}
runs=${WS_BENCH_RUNS:-3}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || read -r -a sizes <<< "${WS_BENCH_SIZES:-0 300}"

mkdir -p "$dir"
work=$(mktemp -d "$dir/analyses.XXXXXX")
trap 'rm -rf "$work"' EXIT

input_for () {
  local mb=$1 big
  if [ "$mb" = 0 ]; then
    big=$dir/pg-tpcb.perf.txt
    [ -s "$big" ] || { gzip -dc "$source" > "$big.part"; mv "$big.part" "$big"; }
  else
    big=$dir/big-pg-tpcb-$mb.perf.txt
    if [ ! -s "$big" ]; then
      echo "making $big" >&2
      "$bench" --make-big "$big.part" "$mb" "$source" 2>/dev/null
      mv "$big.part" "$big"
    fi
  fi
  echo "$big"
}

# CPU seconds (user + system) of one run of the CLI command "$@".
cpu_seconds () {
  local out=$work/time
  WAITSCOPE_HISTORY=$work/history.sqlite taskset -c 0 /usr/bin/time -f "%U %S" -o "$out" \
    "$cli" "$@" > /dev/null 2> "$work/stderr" || { echo "failed: $* (see below)" >&2; cat "$work/stderr" >&2; exit 1; }
  awk '{ printf "%.3f\n", $1 + $2 }' "$out"
}

median () {
  sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

names=(load contrast)
[ -n "${WS_BENCH_CONTRAST_ONLY:-}" ] || names+=(anomalies export-chrome mine)

printf "| input (perf text) | instances |"
for n in "${names[@]}"; do printf " %s |" "$n"; done
printf "\n|---|---|"
for n in "${names[@]}"; do printf -- "---|"; done
printf "\n"

for mb in "${sizes[@]}"; do
  big=$(input_for "$mb")
  size_mb=$(( $(stat -c %s "$big") / 1000000 ))
  "$cli" scenarios "$big" > "$work/scenarios" 2>/dev/null
  instances=$(sed -n '1s/.*: \([0-9]*\) scenario instances.*/\1/p' "$work/scenarios")
  declare -A samples=()
  for ((r = 0; r < runs; r++)); do
    for n in "${names[@]}"; do
      rm -f "$work/history.sqlite" "$work/out.json"
      case $n in
        load)          t=$(cpu_seconds info "$big") ;;
        contrast)      t=$(cpu_seconds contrast --component postgres "$big") ;;
        anomalies)     t=$(cpu_seconds anomalies "$big") ;;
        export-chrome) t=$(cpu_seconds export-chrome "$big" -o "$work/out.json") ;;
        mine)          t=$(cpu_seconds mine "$big") ;;
      esac
      samples[$n]="${samples[$n]:-} $t"
    done
  done
  load=$(tr ' ' '\n' <<< "${samples[load]}" | grep . | median)
  printf "| %s MB | %s |" "$size_mb" "$instances"
  for n in "${names[@]}"; do
    m=$(tr ' ' '\n' <<< "${samples[$n]}" | grep . | median)
    if [ "$n" = load ]; then
      printf " %.2f s |" "$m"
    else
      awk -v m="$m" -v l="$load" 'BEGIN { printf " %.2f s (%.1f×) |", m, m / l }'
    fi
  done
  printf "\n"
  unset samples
done
