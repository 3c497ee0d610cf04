#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# fuzz.sh: builds the PTX parser fuzzer and runs it for N seconds.
#
# Usage: build-aux/fuzz.sh [SECONDS]   (default 60; run from anywhere)
#
# The build lives in _build-fuzz at the top of the source tree, apart from
# any normal build, because it is made with clang and sanitizers.  A crash
# is copied into tests/fuzz/regressions/ so that `meson test --suite fuzz`
# replays it from then on; minimize it first with
#   _build-fuzz/tests/fuzz/fuzz-ptx-parser -minimize_crash=1 -runs=10000 CRASH
#
# Set UBSAN_OPTIONS yourself to add suppressions for known findings while
# hunting for new ones; halt_on_error=1 is what makes UBSan findings count.

set -eu

seconds=${1:-60}
case $seconds in
  ''|*[!0-9]*) echo "fuzz.sh: SECONDS must be a number, not '$seconds'" >&2; exit 2 ;;
esac

srcdir=$(cd "$(dirname "$0")/.." && pwd)
builddir=$srcdir/_build-fuzz
fuzzer=$builddir/tests/fuzz/fuzz-ptx-parser
regressions=$srcdir/tests/fuzz/regressions

if [ ! -f "$builddir/build.ninja" ]; then
  (cd "$srcdir" && CC=clang meson setup _build-fuzz -Dfuzzing=true \
     -Db_sanitize=address,undefined -Db_lundef=false -Db_lto=false)
fi
meson compile -C "$builddir" fuzz-ptx-parser

# The fuzzer adds what it learns to its first corpus directory; a scratch
# copy keeps the checked-in seed corpus as it is.
work=$(mktemp -d "${TMPDIR:-/tmp}/ks-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus" "$work/artifacts"
for dir in sm_75 sm_80 sm_90 hand; do
  for f in "$srcdir/tests/ptx/corpus/$dir"/*.ptx; do
    cp "$f" "$work/corpus/${dir}-$(basename "$f")"
  done
done
cp "$regressions"/* "$work/corpus/" 2>/dev/null || true
rm -f "$work/corpus/README.md"

: "${ASAN_OPTIONS:=detect_leaks=1:allocator_may_return_null=1}"
: "${UBSAN_OPTIONS:=halt_on_error=1:print_stacktrace=1}"
export ASAN_OPTIONS UBSAN_OPTIONS

status=0
"$fuzzer" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=1048576 \
  -dict="$srcdir/tests/fuzz/ptx.dict" \
  -artifact_prefix="$work/artifacts/" \
  -print_final_stats=1 \
  "$work/corpus" > "$work/fuzz.log" 2>&1 || status=$?

# The fuzzer's progress is thousands of lines: keep its summary, and its
# whole report when something went wrong.
grep -E '^stat::|^Done ' "$work/fuzz.log" || true
if [ "$status" -ne 0 ]; then
  tail -n 80 "$work/fuzz.log" >&2
fi

found=
for crash in "$work/artifacts"/*; do
  [ -f "$crash" ] || continue
  name=$(basename "$crash")
  cp "$crash" "$regressions/$name"
  found="$found $regressions/$name"
done

if [ -n "$found" ]; then
  echo "fuzz.sh: the fuzzer found a failing input, saved as:" >&2
  for f in $found; do echo "  $f" >&2; done
  echo "fuzz.sh: replay it with $fuzzer FILE, minimize it with -minimize_crash=1" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "fuzz.sh: the fuzzer exited with status $status without saving an input" >&2
  exit "$status"
fi
echo "fuzz.sh: no failure in $seconds seconds"
