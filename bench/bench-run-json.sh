#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# `kernelscope-cli run SPEC --json --no-trace` on a vector add of 1M
# floats (the sample's PTX, 4096 blocks of 256), with "outputs": ["c"] and
# without "outputs" (all three buffers printed): wall time, peak memory
# and bytes written, with the run options given (e.g. --encoding hex).  A
# benchmark, not a test; the figures go into docs/PERFORMANCE.md.
#   bench/bench-run-json.sh [BUILD_DIR] [-- RUN OPTIONS...]
#   bench/bench-run-json.sh _build -- --encoding hex
set -eu

. "$(dirname "$0")/bench-cli-common.sh"

cp "$root/data/samples/01-vector-add/vector_add.ptx" "$tmp/"
cat > "$tmp/vadd-1m.json" <<'SPEC'
{
  "ptx": "vector_add.ptx",
  "kernel": "_Z10vector_addPKfS0_Pfi",
  "grid": [4096], "block": [256],
  "buffers": {
    "a": {"type": "f32", "count": 1048576, "init": {"random": {"seed": 1, "min": -1, "max": 1}}},
    "b": {"type": "f32", "count": 1048576, "init": {"range": {"start": 0, "step": 0.5}}},
    "c": {"type": "f32", "count": 1048576}
  },
  "params": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "c"}, {"type": "s32", "value": 1048576}],
  "outputs": ["c"]
}
SPEC
grep -v '"outputs"' "$tmp/vadd-1m.json" | sed 's/1048576}\],$/1048576}]/' > "$tmp/vadd-1m-all.json"

for spec in vadd-1m vadd-1m-all; do
  for i in 1 2 3; do
    /usr/bin/time -f "%e s wall, %M KiB peak" -o "$tmp/time" \
      "$cli" run --json --no-trace "$@" "$tmp/$spec.json" > "$tmp/out.json"
    printf '%s run %s: %s, %s bytes of JSON, sim %s s\n' "$spec" "$i" "$(cat "$tmp/time")" \
      "$(wc -c < "$tmp/out.json")" \
      "$(grep -o '"seconds" *: *[0-9.e-]*' "$tmp/out.json" | head -1 | sed 's/.*: *//')"
  done
done
