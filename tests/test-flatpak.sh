#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Flatpak manifest: flatpak-builder reads it (runtime, finish-args
# that reach the host's perf), and, where the GNOME SDK it names is
# installed, builds it.  Skips (77) without flatpak-builder.
set -u
src=${WS_SOURCE_ROOT:?}
manifest="$src/flatpak/io.github.waitscope.Waitscope.Devel.json"
command -v flatpak-builder >/dev/null || { echo "flatpak-builder not installed"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1    # flatpak-builder leaves .flatpak-builder/ where it runs
shown=$(flatpak-builder --show-manifest "$manifest") || { echo "flatpak-builder cannot read the manifest"; exit 1; }
python3 - "$shown" <<'PY' || exit 1
import json, sys
m = json.loads(sys.argv[1])
assert m["runtime"] == "org.gnome.Platform" and int(m["runtime-version"]) >= 49, m["runtime-version"]
assert "--talk-name=org.freedesktop.Flatpak" in m["finish-args"], "flatpak-spawn --host needs it"
print("manifest:", m["id"], m["runtime"], m["runtime-version"])
PY
sdk="org.gnome.Sdk//$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runtime-version"])' "$manifest")"
if ! flatpak info "$sdk" >/dev/null 2>&1 && ! flatpak info --user "$sdk" >/dev/null 2>&1; then
  echo "$sdk is not installed here: the manifest reads, the build was not tried"
  exit 0
fi
flatpak-builder --disable-rofiles-fuse --state-dir="$dir/state" "$dir/app" "$manifest"
