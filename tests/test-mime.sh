#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The shared-mime-info file data/…mime.xml, compiled into a scratch MIME
# database, must give each file Waitscope opens its own type (by glob or by
# magic) and leave ordinary JSON and text files alone.
set -eu
src=${WS_SOURCE_ROOT:?}
data=${WS_TEST_DATA:?}
command -v update-mime-database >/dev/null || { echo "update-mime-database missing"; exit 77; }
command -v gio >/dev/null || { echo "gio missing"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

mkdir -p "$dir/share/mime/packages" "$dir/files"
# The system's own types (application/json, text/plain, …) and ours.
cp /usr/share/mime/packages/freedesktop.org.xml "$dir/share/mime/packages/"
cp "$src/data/io.github.waitscope.Waitscope.mime.xml" "$dir/share/mime/packages/"
update-mime-database "$dir/share/mime" >/dev/null 2>&1

printf 'PERFILE2\x68\x00\x00\x00\x00\x00\x00\x00' > "$dir/files/record-1.bin"   # magic only
printf 'PERFILE2' > "$dir/files/perf.data"
printf '\027\010Dtracing6\000' > "$dir/files/sleep-cs.dat"   # trace-cmd magic, any name
cp "$data/session-v1.waitscope" "$dir/files/review.waitscope"
cp "$data/hand-built.json" "$dir/files/trace.json"
printf '{"name": "not a trace"}\n' > "$dir/files/other.json"
printf 'comm 1 1 1.0: 1 cycles:\n' > "$dir/files/x.perf.txt"
printf 'hello\n' > "$dir/files/notes.txt"
printf 'main;f 3\n' > "$dir/files/x.folded"
gzip -c "$dir/files/x.perf.txt" > "$dir/files/y.perf.txt.gz"

status=0
expect() {
  local got
  got=$(XDG_DATA_HOME="$dir/share" XDG_DATA_DIRS="$dir/share" \
        gio info -a standard::content-type "$dir/files/$1" | sed -n 's/^ *standard::content-type: //p')
  if [ "$got" = "$2" ]; then echo "ok   $1: $got"; else echo "FAIL $1: $got, expected $2"; status=1; fi
}
expect record-1.bin application/x-perf-data
expect perf.data application/x-perf-data
expect sleep-cs.dat application/x-trace-cmd
expect review.waitscope application/x-waitscope-session
expect trace.json application/x-waitscope-trace
expect other.json application/json
expect x.perf.txt text/x-perf-script
expect notes.txt text/plain
expect x.folded text/x-folded-stacks
expect y.perf.txt.gz application/x-perf-script-gzip
exit $status
