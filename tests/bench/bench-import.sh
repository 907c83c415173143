#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Perf import benchmark on >= 500 MB of perf script text.
#
#   tests/bench/bench-import.sh BENCH_IMPORT [SOURCE.perf.txt.gz] [MB]
#
# Builds (once, under /tmp, never in the source tree) a big perf text made of
# time-shifted copies of SOURCE (default tests/data/pg-tpcb.perf.txt.gz,
# 112 MB of text each) and its gzip, imports both in separate processes
# (for a clean peak RSS), and times reference readers on the same input:
# `cat`, `wc -l` and `zcat` to /dev/null.
set -euo pipefail

bench=${1:?usage: bench-import.sh BENCH_IMPORT [SOURCE.perf.txt.gz] [MB]}
here=$(cd "$(dirname "$0")/../.." && pwd)
source=${2:-$here/tests/data/pg-tpcb.perf.txt.gz}
megabytes=${3:-500}
dir=${WS_BENCH_DIR:-/tmp/waitscope-bench}
big=$dir/big-$(basename "$source" .perf.txt.gz)-$megabytes.perf.txt

mkdir -p "$dir"
if [ ! -s "$big" ]; then
  echo "making $big"
  "$bench" --make-big "$big.part" "$megabytes" "$source"
  mv "$big.part" "$big"
fi
if [ ! -s "$big.gz" ] || [ "$big.gz" -ot "$big" ]; then
  echo "compressing (gzip -6) $big"
  gzip -6 -c "$big" > "$big.gz.part"
  mv "$big.gz.part" "$big.gz"
fi

size_mb=$(( $(stat -c %s "$big") / 1000000 ))
gz_mb=$(( $(stat -c %s "$big.gz") / 1000000 ))
echo "input: $big ($size_mb MB), $big.gz ($gz_mb MB)"
echo

# Reference readers, CPU and wall time (the page cache is warm after making).
reference () {
  local label=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > /dev/null
  t1=$(date +%s.%N)
  awk -v l="$label" -v t0="$t0" -v t1="$t1" -v mb="$size_mb" \
    'BEGIN { printf "  %-26s %6.3f s  %6.0f MB/s of text\n", l, t1 - t0, mb / (t1 - t0) }'
}
echo "reference readers on the same text:"
reference "cat > /dev/null" cat "$big"
reference "wc -l" wc -l "$big"
reference "zcat > /dev/null (gzip)" zcat "$big.gz"
echo

echo "waitscope perf importer:"
"$bench" "$big"
"$bench" "$big.gz"
echo
echo "worst case, every stack interned frame by frame (stack-block cache off):"
WS_PERF_IMPORTER_NO_STACK_CACHE=1 "$bench" "$big"
