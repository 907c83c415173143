#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# How long the window takes to show a trace, against the CLI's load.
#
#   tools/gui-timing.sh [BUILDDIR] TRACE...
#
# For each trace: `waitscope-cli info` (the load, wall seconds), then the
# window under Xvfb (1920×1080, GSK_RENDERER=cairo, a fresh history
# store) with WAITSCOPE_TIMING=1, whose own log (src/gui/ws-timing.c)
# says when the trace was read, when the first timeline frame was drawn
# and when the Overview's first answer was shown, counted from the start
# of main().  The window is closed once the answer is shown, or after
# WS_TIMING_LIMIT seconds (default 600).  Prints one table row per trace:
# size, CLI load, trace read, first frame (and its ratio to the load),
# answer shown.
set -euo pipefail

builddir=build
if [ $# -gt 0 ] && [ -d "$1" ]; then builddir=$1; shift; fi
[ $# -gt 0 ] || { echo "usage: tools/gui-timing.sh [BUILDDIR] TRACE..." >&2; exit 2; }
cli=$builddir/src/cli/waitscope-cli
gui=$builddir/src/gui/waitscope
limit=${WS_TIMING_LIMIT:-600}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

milestone () { awk -v m="$2" '$4 == m { print $2; exit }' "$1"; }

echo "| trace | size | CLI load | trace read | first timeline frame | answer shown |"
echo "|---|---|---|---|---|---|"
for trace in "$@"; do
  size=$(du -h --apparent-size "$trace" | cut -f1)
  /usr/bin/time -f "%e" -o "$work/load" "$cli" info "$trace" > /dev/null
  load=$(cat "$work/load")
  log=$work/log
  : > "$log"
  WAITSCOPE_TIMING=1 WAITSCOPE_HISTORY=$work/history.sqlite GSK_RENDERER=cairo \
    xvfb-run -a -s "-screen 0 1920x1080x24" dbus-run-session -- "$gui" "$trace" 2> "$log" > /dev/null &
  runner=$!
  for ((i = 0; i < limit * 10; i++)); do
    grep -q "answer-shown" "$log" 2>/dev/null && break
    kill -0 "$runner" 2>/dev/null || break
    sleep 0.1
  done
  # The window's process is a child of xvfb-run's shell: stop the group.
  pkill -TERM -P "$runner" 2>/dev/null || true
  kill "$runner" 2>/dev/null || true
  wait "$runner" 2>/dev/null || true
  read_at=$(milestone "$log" trace-read)
  frame=$(milestone "$log" first-timeline-frame)
  answer=$(milestone "$log" answer-shown)
  ratio=$(awk -v f="${frame:-0}" -v l="$load" 'BEGIN { if (f > 0 && l > 0) printf "%.1f×", f / l; else print "?" }')
  echo "| $(basename "$trace") | $size | ${load} s | ${read_at:-none} s | ${frame:-none} s ($ratio) | ${answer:-none} s |"
done
