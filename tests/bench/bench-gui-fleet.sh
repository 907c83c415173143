#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The window's peak RSS over N copies of one trace: opened as documents
# (every trace held) against opened as a fleet (each reduced to its digest
# as it loads, then freed), one process each, both in this run; then the
# fleet again with its thread spans read for Contrast (the wall time is
# that second reading's).
#
#   tests/bench/bench-gui-fleet.sh BENCH_GUI_FLEET [TRACE] [N...]
#
# N defaults to 10 50 (WS_BENCH_COPIES overrides); TRACE to
# tests/data/pg-tpcb.perf.txt.gz.  Runs under xvfb-run unless a display is
# set.  Prints a table: N, mode, peak RSS, wall time, and documents/fleet.
set -euo pipefail

bench=${1:?usage: bench-gui-fleet.sh BENCH_GUI_FLEET [TRACE] [N...]}
shift
trace=()
if [ $# -gt 0 ] && [ -f "$1" ]; then trace=("$1"); shift; fi
counts=("$@")
[ ${#counts[@]} -gt 0 ] || read -r -a counts <<< "${WS_BENCH_COPIES:-10 50}"
export GSK_RENDERER=${GSK_RENDERER:-cairo}

run() {
  if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    "$bench" "$@"
  else
    xvfb-run -a -s "-screen 0 1600x1000x24 -noreset" "$bench" "$@"
  fi
}

printf "| traces | opened as | peak RSS | wall | documents / fleet |\n|---|---|---|---|---|\n"
for n in "${counts[@]}"; do
  read -r _ _ doc_mb doc_s < <(run documents "$n" "${trace[@]}" | tail -n 1)
  read -r _ _ fleet_mb fleet_s < <(run fleet "$n" "${trace[@]}" | tail -n 1)
  printf "| %d | documents | %s MB | %s s | |\n" "$n" "$doc_mb" "$doc_s"
  printf "| %d | fleet | %s MB | %s s | %.1fx |\n" "$n" "$fleet_mb" "$fleet_s" "$(echo "$doc_mb / $fleet_mb" | bc -l)"
  read -r _ _ spans_mb spans_s < <(run fleet-contrast "$n" "${trace[@]}" | tail -n 1)
  printf "| %d | fleet, spans read for Contrast | %s MB | %s s | %.1fx |\n" "$n" "$spans_mb" "$spans_s" \
    "$(echo "$doc_mb / $spans_mb" | bc -l)"
done
