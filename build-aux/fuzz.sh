#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# fuzz.sh: builds the fuzzers and runs each for a while.
#
# Usage: build-aux/fuzz.sh [SECONDS [LAUNCH_SECONDS [SASS_SECONDS [KEEP_SECONDS]]]]
#   SECONDS for the PTX parser (default 60), LAUNCH_SECONDS for the
#   launch-spec reader (default 20), SASS_SECONDS for the SASS listing
#   reader (default 20), KEEP_SECONDS for what the anatomy reads of nvcc
#   --keep and for the fat binary reader (default 10 each); run from
#   anywhere.
#
# The build lives in _build-fuzz at the top of the source tree, apart from
# any normal build, because it is made with clang and sanitizers.  A failing
# input is copied into tests/fuzz/regressions/ (parser),
# tests/fuzz/launch-regressions/ (launch specs) or
# tests/fuzz/sass-regressions/ (SASS listings) or
# tests/fuzz/artifacts-seeds/ (nvcc's steps, launch stubs) so that `meson test --suite
# fuzz` replays it from then on; minimize it first with
#   _build-fuzz/tests/fuzz/fuzz-ptx-parser -minimize_crash=1 -runs=10000 CRASH
#
# Set UBSAN_OPTIONS yourself to add suppressions for known findings while
# hunting for new ones; halt_on_error=1 is what makes UBSan findings count.

set -eu

seconds=${1:-60}
launch_seconds=${2:-20}
sass_seconds=${3:-20}
keep_seconds=${4:-10}
for s in "$seconds" "$launch_seconds" "$sass_seconds" "$keep_seconds"; do
  case $s in
    ''|*[!0-9]*) echo "fuzz.sh: seconds must be a number, not '$s'" >&2; exit 2 ;;
  esac
done

srcdir=$(cd "$(dirname "$0")/.." && pwd)
builddir=$srcdir/_build-fuzz

if [ ! -f "$builddir/build.ninja" ]; then
  (cd "$srcdir" && CC=clang meson setup _build-fuzz -Dfuzzing=true \
     -Db_sanitize=address,undefined -Db_lundef=false -Db_lto=false)
fi
# an existing build learns of new targets first
ninja -C "$builddir" build.ninja
meson compile -C "$builddir" fuzz-ptx-parser fuzz-launch fuzz-sass fuzz-artifacts fuzz-fatbin

: "${ASAN_OPTIONS:=detect_leaks=1:allocator_may_return_null=1}"
: "${UBSAN_OPTIONS:=halt_on_error=1:print_stacktrace=1}"
export ASAN_OPTIONS UBSAN_OPTIONS

work=$(mktemp -d "${TMPDIR:-/tmp}/ks-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

# run TARGET SECONDS REGRESSIONS DICT SEED...
# The fuzzer adds what it learns to its first corpus directory; a scratch
# copy keeps the checked-in seeds as they are.
run () {
  target=$1 secs=$2 regressions=$3 dict=$4
  shift 4
  dir=$work/$target
  mkdir -p "$dir/corpus" "$dir/artifacts"
  for f in "$@"; do
    [ -f "$f" ] && cp "$f" "$dir/corpus/$(echo "$f" | tr '/' '_')"
  done
  cp "$regressions"/* "$dir/corpus/" 2>/dev/null || true
  rm -f "$dir/corpus/README.md"

  echo "== $target for $secs s"
  status=0
  "$builddir/tests/fuzz/$target" \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=1048576 \
    ${dict:+-dict="$dict"} \
    -artifact_prefix="$dir/artifacts/" \
    -print_final_stats=1 \
    "$dir/corpus" > "$dir/fuzz.log" 2>&1 || status=$?

  # The fuzzer's progress is thousands of lines: keep its summary, and its
  # whole report when something went wrong.
  grep -E '^stat::|^Done ' "$dir/fuzz.log" || true
  if [ "$status" -ne 0 ]; then
    tail -n 80 "$dir/fuzz.log" >&2
  fi

  found=
  for crash in "$dir/artifacts"/*; do
    [ -f "$crash" ] || continue
    name=$(basename "$crash")
    cp "$crash" "$regressions/$name"
    found="$found $regressions/$name"
  done
  if [ -n "$found" ]; then
    echo "fuzz.sh: $target found a failing input, saved as:" >&2
    for f in $found; do echo "  $f" >&2; done
    echo "fuzz.sh: replay it with $builddir/tests/fuzz/$target FILE" >&2
    exit 1
  fi
  if [ "$status" -ne 0 ]; then
    echo "fuzz.sh: $target exited with status $status without saving an input" >&2
    exit "$status"
  fi
  echo "fuzz.sh: $target: no failure in $secs seconds"
}

run fuzz-ptx-parser "$seconds" "$srcdir/tests/fuzz/regressions" "$srcdir/tests/fuzz/ptx.dict" \
  "$srcdir"/tests/ptx/corpus/sm_75/*.ptx "$srcdir"/tests/ptx/corpus/sm_80/*.ptx \
  "$srcdir"/tests/ptx/corpus/sm_90/*.ptx "$srcdir"/tests/ptx/corpus/hand/*.ptx
run fuzz-launch "$launch_seconds" "$srcdir/tests/fuzz/launch-regressions" "" \
  "$srcdir"/data/samples/*/*.json
run fuzz-sass "$sass_seconds" "$srcdir/tests/fuzz/sass-regressions" "" \
  "$srcdir"/tests/fixtures/sass/*.sass "$srcdir"/tests/fixtures/sass/*.s \
  "$srcdir"/tests/fixtures/sass/*.asm
run fuzz-artifacts "$keep_seconds" "$srcdir/tests/fuzz/artifacts-seeds" "" \
  "$srcdir"/tests/fixtures/keep/* "$srcdir"/data/samples/*/keep/*.json
run fuzz-fatbin "$keep_seconds" "$srcdir/tests/fuzz/fatbin-regressions" "" \
  "$srcdir"/tests/fixtures/fatbin/*.fatbin
