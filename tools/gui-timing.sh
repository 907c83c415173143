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
# size, CLI load, the window's parse and its level of detail (from
# trace-parsed to timeline-detail-built), trace read, first frame (and its
# ratio to the load), answer shown.
#
# WS_TIMING_SCREEN=WxH sets the screen (default 1920x1080);
# WS_TIMING_SHOTS=DIR saves a screenshot of the screen WS_TIMING_SHOT_DELAY
# seconds (default 0.3: the frame drawn must still reach the X server and
# the page's cross-fade end) after the first timeline frame
# (TRACE-first.png) and after the answer is shown (TRACE-answer.png), to
# look at what the first frame showed.
set -euo pipefail

builddir=build
if [ $# -gt 0 ] && [ -d "$1" ]; then builddir=$1; shift; fi
[ $# -gt 0 ] || { echo "usage: tools/gui-timing.sh [BUILDDIR] TRACE..." >&2; exit 2; }
cli=$builddir/src/cli/waitscope-cli
gui=$builddir/src/gui/waitscope
limit=${WS_TIMING_LIMIT:-600}
screen=${WS_TIMING_SCREEN:-1920x1080}
shots=${WS_TIMING_SHOTS:-}
shot_delay=${WS_TIMING_SHOT_DELAY:-0.3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

milestone () { awk -v m="$2" '$4 == m { print $2; exit }' "$1"; }

# The screen of the window's Xvfb (its DISPLAY and XAUTHORITY, written by
# the window's shell) into PNG $2.
shoot () {
  [ -s "$work/display" ] || return 0
  ( . "$work/display"; import -window root "$1" 2>/dev/null ) || echo "no screenshot: $1" >&2
}

[ -z "$shots" ] || mkdir -p "$shots"
echo "| trace | size | CLI load | parse (window) | level of detail | trace read | first timeline frame | answer shown |"
echo "|---|---|---|---|---|---|---|---|"
for trace in "$@"; do
  size=$(du -h --apparent-size "$trace" | cut -f1)
  /usr/bin/time -f "%e" -o "$work/load" "$cli" info "$trace" > /dev/null
  load=$(cat "$work/load")
  log=$work/log
  : > "$log"
  : > "$work/display"
  WAITSCOPE_TIMING=1 WAITSCOPE_HISTORY=$work/history.sqlite GSK_RENDERER=cairo \
    xvfb-run -a -s "-screen 0 ${screen}x24" sh -c \
      'printf "export DISPLAY=%s XAUTHORITY=%s\n" "$DISPLAY" "$XAUTHORITY" > "$0"; exec dbus-run-session -- "$@"' \
      "$work/display" "$gui" "$trace" 2> "$log" > /dev/null &
  runner=$!
  shot_first=
  name=$(basename "$trace")
  for ((i = 0; i < limit * 20; i++)); do
    if [ -n "$shots" ] && [ -z "$shot_first" ] && grep -q "first-timeline-frame" "$log" 2>/dev/null; then
      sleep "$shot_delay"
      shoot "$shots/$name-first.png"
      shot_first=1
    fi
    grep -q "answer-shown" "$log" 2>/dev/null && break
    kill -0 "$runner" 2>/dev/null || break
    sleep 0.05
  done
  if [ -n "$shots" ]; then
    sleep "$shot_delay"
    shoot "$shots/$name-answer.png"
  fi
  # The window's process is a child of xvfb-run's shell: stop the group.
  pkill -TERM -P "$runner" 2>/dev/null || true
  kill "$runner" 2>/dev/null || true
  wait "$runner" 2>/dev/null || true
  parsed=$(milestone "$log" trace-parsed)
  started=$(milestone "$log" load-started)
  detail=$(milestone "$log" timeline-detail-built)
  parse=$(awk -v a="${started:-0}" -v b="${parsed:-0}" 'BEGIN { if (b > 0) printf "%.3f s", b - a; else print "?" }')
  lod=$(awk -v a="${parsed:-0}" -v b="${detail:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%.3f s", b - a; else print "?" }')
  read_at=$(milestone "$log" trace-read)
  frame=$(milestone "$log" first-timeline-frame)
  answer=$(milestone "$log" answer-shown)
  ratio=$(awk -v f="${frame:-0}" -v l="$load" 'BEGIN { if (f > 0 && l > 0) printf "%.1f×", f / l; else print "?" }')
  echo "| $(basename "$trace") | $size | ${load} s | $parse | $lod | ${read_at:-none} s | ${frame:-none} s ($ratio) | ${answer:-none} s |"
done
