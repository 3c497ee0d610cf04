#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A launch spec that gives its buffers as values: the sample's vector add
# with a and b each 2,500,000 f32 values written out (about 46 MB of JSON,
# values like -12.3456; c zeros), read and run by `kernelscope-cli run`
# and `analyze`: wall time and peak memory against the spec's size.  With
# WINDOW=1, the window too (`kernelscope --screenshot` under xvfb-run,
# without the toolkit, then with the launch editor open).  A benchmark,
# not a test; the figures go into docs/PERFORMANCE.md.
#   bench/bench-spec-values.sh [BUILD_DIR] [-- RUN OPTIONS...]
set -eu

. "$(dirname "$0")/bench-cli-common.sh"
N=2500000

cp "$root/data/samples/01-vector-add/vector_add.ptx" "$tmp/"
awk -v n=$N 'BEGIN {
  srand(1);
  printf "{\"ptx\": \"vector_add.ptx\", \"kernel\": \"_Z10vector_addPKfS0_Pfi\",\n";
  printf " \"grid\": [%d], \"block\": [256],\n \"buffers\": {\n", int((n + 255) / 256);
  for (b = 0; b < 2; b++) {
    printf "  \"%s\": {\"type\": \"f32\", \"data\": [", b ? "b" : "a";
    for (i = 0; i < n; i++)
      printf "%s%.4f", i ? ", " : "", rand() * 200 - 100;
    printf "]},\n";
  }
  printf "  \"c\": {\"type\": \"f32\", \"count\": %d}},\n", n;
  printf " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"}, ";
  printf "{\"type\": \"s32\", \"value\": %d}],\n \"outputs\": [\"c\"]}\n", n;
}' > "$tmp/values.json"
echo "spec: $(wc -c < "$tmp/values.json") bytes"

for cmd in run analyze; do
  /usr/bin/time -f "%e s wall, %M KiB peak" -o "$tmp/time" \
    "$cli" $cmd "$@" "$tmp/values.json" > "$tmp/out.txt"
  printf '%s: %s\n' "$cmd" "$(cat "$tmp/time")"
done

if [ "${WINDOW:-0}" = 1 ]; then
  for editor in "" --launch-editor; do
    KS_DATA_DIR="$root/data" GSETTINGS_BACKEND=memory KS_NO_TOOLKIT=1 \
      /usr/bin/time -f "%e s wall, %M KiB peak" -o "$tmp/time" \
      xvfb-run -a -s "-screen 0 1600x1000x24" "$build/src/app/kernelscope" $editor \
      --screenshot "$tmp/shot.png" --size 1366x768 "$tmp/values.json" > /dev/null 2>&1
    printf 'window%s: %s\n' "${editor:+ $editor}" "$(cat "$tmp/time")"
  done
fi
