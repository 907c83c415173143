#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Set-up for a fresh Debian 12 machine, then one job:
#   tools/bootstrap.sh run    build and open the application on the demo trace
#   tools/bootstrap.sh test   build and run the whole test suite
#   tools/bootstrap.sh bench  build and run the benchmarks
#
# It installs only what is missing (Debian packages), configures the build
# directory once and rebuilds it incrementally after that.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
job=${1:-run}
builddir=${WS_BUILDDIR:-build}

packages=(
  build-essential meson ninja-build pkg-config gettext
  libglib2.0-dev libglib2.0-dev-bin libjson-glib-dev libgsl-dev libsqlite3-dev zlib1g-dev
  libgtk-4-dev libadwaita-1-dev
  desktop-file-utils appstream
  xvfb xauth dbus dbus-x11 imagemagick graphviz poppler-utils
  linux-perf
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -f "$builddir/build.ninja" ]; then
  meson setup "$builddir" --buildtype=debugoptimized
fi
ninja -C "$builddir"

case "$job" in
  run)
    demo="$here/data/demo/py-locks.perf.txt.gz"
    if [ -x "$builddir/src/gui/waitscope" ]; then
      if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
        exec xvfb-run -a dbus-run-session "$builddir/src/gui/waitscope" "$demo"
      fi
      exec "$builddir/src/gui/waitscope" "$demo"
    fi
    exec "$builddir/src/cli/waitscope-cli" info "$demo"
    ;;
  test)
    status=0
    xvfb-run -a -s "-screen 0 1600x1000x24" dbus-run-session -- \
      meson test -C "$builddir" --print-errorlogs --no-rebuild --num-processes 2 || status=$?
    # A closing line any CI reader understands.
    python3 - "$builddir/meson-logs/testlog.json" <<'PY' || true
import json, sys
ok = fail = skip = 0
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    if r in ("OK", "EXPECTEDFAIL"): ok += 1
    elif r == "SKIP": skip += 1
    else: fail += 1
print(f"{ok} passed, {fail} failed, {skip} skipped")
PY
    exit $status
    ;;
  bench)
    exec meson test -C "$builddir" --benchmark --verbose --no-rebuild --timeout-multiplier 10
    ;;
  *)
    echo "usage: $0 run|test|bench" >&2
    exit 2
    ;;
esac
