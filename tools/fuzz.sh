#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# tools/fuzz.sh SECONDS [TARGET…]
#
# Builds the libFuzzer targets of tests/fuzz with clang (build-fuzz/, ASan +
# UBSan) and runs each for SECONDS, one after the other, on a scratch corpus
# seeded from tests/fuzz/corpus.  Findings land in $WS_FUZZ_DIR (default
# /tmp/waitscope-fuzz) as TARGET-crash-…; see tests/fuzz/README.md for what
# to do with them.  Exit 1 if any target found something.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
seconds=${1:?usage: tools/fuzz.sh SECONDS [TARGET…]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(perf-text folded tracecmd perfetto ctf json-trace scenario-rules classifier analyses mining session-file history-store gmm digest)
builddir=${WS_FUZZ_BUILDDIR:-build-fuzz}
out=${WS_FUZZ_DIR:-/tmp/waitscope-fuzz}

if [ ! -f "$builddir/build.ninja" ]; then
  CC=clang meson setup "$builddir" -Dfuzzing=true -Dgui=false
fi
ninja -C "$builddir" $(printf 'tests/fuzz/fuzz-%s ' "${targets[@]}")

seeds_of() {
  case "$1" in
    analyses) echo json-trace ;;
    *) echo "$1" ;;
  esac
}

# The committed regression inputs are seeds too, so each runs once in
# fuzzing mode, with libFuzzer's hooks live: test-fuzz-regressions replays
# them without those hooks, and a hook that fires where the harness is
# content (in the child process that reads a trace-cmd or CTF file first)
# is a finding CI would otherwise meet only by chance.
regressions_of() {
  [ ! -d "$here/tests/fuzz/regressions/$1" ] || echo "$here/tests/fuzz/regressions/$1"
}

# Deep stacks need long inputs in the text formats; the mining recipe
# reaches them in a few bytes.
status=0
found=()
# What this run found: artefacts newer than this stamp (older ones in $out
# are earlier runs').
stamp=$(mktemp "${TMPDIR:-/tmp}/ws-fuzz-stamp.XXXXXX")
trap 'rm -f "$stamp"' EXIT
# libFuzzer writes fuzz-N.log where it runs: not in the tree.
for t in "${targets[@]}"; do
  mkdir -p "$out/$t"
  echo "fuzz-$t: $seconds s"
  set +e
  # A fixed seed (WS_FUZZ_SEED, 0 = a random one) makes a CI finding
  # reproducible: the same mutations in the same order.
  # Library leaks Waitscope cannot fix (tools/lsan.supp) are not findings,
  # nor a malloc of an absurd size that libtracecmd reads from a damaged
  # file: it returns NULL, as glibc's does, and libtracecmd fails cleanly
  # (Waitscope's own g_malloc still aborts on NULL).  ASan's own limit on
  # one malloc (2000 MB) is under libFuzzer's (the RSS limit, 2048 MB), so
  # such a malloc gets NULL before libFuzzer's hook sees it: the hook also
  # runs in the child process that reads a CTF trace first
  # (ws-ctf-graph.c), where it killed the child — which the parent reports
  # cleanly, as it should — and wrote an "oom-" artefact for it (CI,
  # 2026-11-29: babeltrace2's ctf plugin on a damaged trace).  The user's caches of
  # trace hashes and mixture fits are off: an input's run must not depend
  # on what an earlier input left there.
  (cd "$out" && WAITSCOPE_FIT_CACHE= WAITSCOPE_HASH_CACHE= LSAN_OPTIONS=suppressions="$here/tools/lsan.supp":print_suppressions=0 \
    ASAN_OPTIONS=allocator_may_return_null=1:max_allocation_size_mb=2000 "$here/$builddir/tests/fuzz/fuzz-$t" -seed="${WS_FUZZ_SEED:-1}" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -max_len=262144 -timeout=30 -jobs=1 -workers=1 -print_final_stats=1 \
    -artifact_prefix="$out/$t-" "$out/$t" "$here/tests/fuzz/corpus/$(seeds_of "$t")" $(regressions_of "$t")) 2>&1 \
    | grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY|ws-fuzz|.*invariant)'
  rc=${PIPESTATUS[0]}
  set -e
  # Any one kind of artefact is a finding (ls of several patterns fails
  # unless all of them match, which hid every finding); so is a fuzzer
  # that did not exit 0 (it stops at its first finding).
  artefacts=$(find "$out" -maxdepth 1 -newer "$stamp" \( -name "$t-crash-*" -o -name "$t-leak-*" \
                -o -name "$t-timeout-*" -o -name "$t-oom-*" \) -print)
  if [ -n "$artefacts" ] || [ "$rc" -ne 0 ]; then
    echo "fuzz-$t: FOUND SOMETHING (exit $rc): ${artefacts:-no artefact written}"
    found+=("$t")
    status=1
  fi
done
if [ $status -ne 0 ]; then
  echo "fuzz: findings in ${found[*]}; minimise each into tests/fuzz/regressions/TARGET/ (tests/fuzz/README.md)"
fi
exit $status
