#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's second command, and what CI runs (.ci/run): install what is
# missing, then build and run every test three ways:
#   1. _build:       the normal build, every suite (nvcc's skips without nvcc);
#   2. _build-asan:  AddressSanitizer + UndefinedBehaviorSanitizer, every suite
#                    but the slow nvcc one and the published-figures one
#                    (figures: the timing model on whole kernels, minutes
#                    under the sanitizers; test-timing covers its code);
#   3. the parser's fuzz target for FUZZ_SECONDS (default 60) seconds.
set -euo pipefail

top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"

"$top/build-aux/deps.sh"

echo "== build and test (_build)"
if [[ ! -f _build/build.ninja ]]; then
  meson setup _build
fi
meson compile -C _build
meson test -C _build --print-errorlogs

echo "== build and test under ASan/UBSan (_build-asan)"
if [[ ! -f _build-asan/build.ninja ]]; then
  meson setup _build-asan -Db_sanitize=address,undefined -Db_lundef=false -Db_lto=false --buildtype=debug
fi
meson compile -C _build-asan
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
LSAN_OPTIONS=suppressions="$top/build-aux/lsan.supp" \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C _build-asan --print-errorlogs --no-suite nvcc --no-suite figures --timeout-multiplier 3

echo "== fuzz the PTX parser for ${FUZZ_SECONDS:-60} s"
"$top/build-aux/fuzz.sh" "${FUZZ_SECONDS:-60}"

# One closing line over the meson runs, in the plain form CI reads
python3 - _build/meson-logs/testlog.json _build-asan/meson-logs/testlog.json <<'PY'
import json, sys
passed = failed = skipped = 0
for path in sys.argv[1:]:
    for line in open(path):
        r = json.loads(line).get("result")
        if r in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif r == "SKIP":
            skipped += 1
        else:
            failed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
