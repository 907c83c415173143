#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Hash tables keyed by two packed ids, at 10^6 keys, through the real CLI:
#
#   tests/bench/bench-packed-keys.sh [N]     (N defaults to 1000000; WS_CLI)
#
# 1. `mine --running --no-history` on a folded profile of N distinct stacks
#    of one process (N (entry, stream) shares in the stack database, all of
#    stream 0);
# 2. `history add` of a folded profile of N callers of one function (N
#    (caller, callee) bigrams with one callee).
# With a hash of the low 32 bits only both were quadratic (docs/performance.md).
# Inputs are made under /tmp (WS_BENCH_DIR), never in the source tree.
set -euo pipefail

n=${1:-1000000}
cli=${WS_CLI:?WS_CLI names waitscope-cli}
dir=${WS_BENCH_DIR:-/tmp/waitscope-bench}
stacks=$dir/distinct-stacks-$n.folded
callers=$dir/callers-$n.folded
mkdir -p "$dir"

if [ ! -s "$stacks" ]; then
  awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
    printf "app-1;main;work_%d;step_%d;leaf_%d %d\n", i % 97, i, i % 13, 1 + i % 100 }' > "$stacks.part"
  mv "$stacks.part" "$stacks"
fi
if [ ! -s "$callers" ]; then
  awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "app-1;caller_%d;lock_wait 5\n", i }' > "$callers.part"
  mv "$callers.part" "$callers"
fi

TIMEFORMAT='%R s wall, %U s user, %S s sys'
echo "mine --running: $n distinct stacks ($(( $(stat -c %s "$stacks") / 1000000 )) MB)"
time "$cli" mine --running --no-history --top=1 "$stacks" > /dev/null

history=$(mktemp -d "$dir/history.XXXXXX")
echo "history add: $n callers of one function ($(( $(stat -c %s "$callers") / 1000000 )) MB)"
time "$cli" history add --history="$history/h.sqlite" "$callers" > /dev/null
rm -rf "$history"
