#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# `mine` over many traces: held (every trace loaded, then mined) against
# streamed (each trace reduced to its digest as it loads, then freed).
#
#   tests/bench/bench-mine-stream.sh WAITSCOPE_CLI [SOURCE.perf.txt.gz] [N...]
#
# The traces are N copies of one real trace (default
# tests/data/io-fsync.perf.txt.gz; N default 50 200, WS_BENCH_COPIES
# overrides), made as links under $WS_BENCH_DIR (default
# /tmp/waitscope-bench): the same stacks in every copy, so a run whose
# memory is bounded by distinct stacks stays flat while one that holds the
# traces grows with N.  Each run records into a fresh history store, as a
# user's `mine` does.  Printed per N and mode: peak RSS (the process's
# own, GNU time's %M), CPU (user + system) and wall time, one run each,
# both loading threads (one per core).
set -euo pipefail

cli=${1:?usage: bench-mine-stream.sh WAITSCOPE_CLI [SOURCE.perf.txt.gz] [N...]}
shift
here=$(cd "$(dirname "$0")/../.." && pwd)
source=$here/tests/data/io-fsync.perf.txt.gz
if [ $# -gt 0 ] && [ -f "$1" ]; then source=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); shift; fi
counts=("$@")
[ ${#counts[@]} -gt 0 ] || read -r -a counts <<< "${WS_BENCH_COPIES:-50 200}"
dir=${WS_BENCH_DIR:-/tmp/waitscope-bench}

mkdir -p "$dir"
work=$(mktemp -d "$dir/mine-stream.XXXXXX")
trap 'rm -rf "$work"' EXIT

max=0
for n in "${counts[@]}"; do [ "$n" -gt "$max" ] && max=$n; done
for ((i = 0; i < max; i++)); do
  ln -s "$source" "$work/copy-$(printf %04d "$i").perf.txt.gz"
done
text_mb=$(gzip -dc "$source" | wc -c | awk '{ printf "%.1f", $1 / 1e6 }')
echo "source: $source ($text_mb MB of perf text), $(nproc) cores"
echo
printf "| traces | mode | peak RSS | CPU (user + system) | wall |\n|---|---|---|---|---|\n"

for n in "${counts[@]}"; do
  mapfile -t paths < <(ls "$work"/copy-*.perf.txt.gz | head -n "$n")
  for mode in held streamed; do
    rm -f "$work/history.sqlite"
    hold=; [ "$mode" = held ] && hold=1
    WAITSCOPE_MINE_HOLD_TRACES=$hold WAITSCOPE_HISTORY=$work/history.sqlite \
      /usr/bin/time -f "%M %U %S %e" -o "$work/time" "$cli" mine "${paths[@]}" > "$work/out-$mode" 2> "$work/err" \
      || { echo "failed: mine ($mode, $n traces)" >&2; cat "$work/err" >&2; exit 1; }
    awk -v n="$n" -v m="$mode" \
      '{ printf "| %d | %s | %.0f MB | %.2f s | %.2f s |\n", n, m, $1 / 1024, $2 + $3, $4 }' "$work/time"
  done
  cmp -s "$work/out-held" "$work/out-streamed" || { echo "held and streamed printed different results" >&2; exit 1; }
done
