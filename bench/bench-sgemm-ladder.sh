#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The timing model against published measurements: the first six kernels of
# Simon Boehm's SGEMM ladder (tests/fixtures/lower: CUDA 11.8's PTX of
# siboehm/SGEMM_CUDA) at 4096 x 4096 x 4096 on an RTX A6000, as its README
# gives them (GFLOP/s at 4096, A6000): 309.0, 1986.5, 2980.3, 8474.7,
# 15971.7, 18237.3.  Each kernel runs `kernelscope-cli analyze --sample-blocks`
# (the busiest SM's first blocks; the whole grid would take hours) and the
# model's GFLOP/s = 2 N^3 / estimated duration.  Prints the model, the
# published figure, their ratio, the share of the warp-instructions
# issued that were the SASS's, and whether each step goes the way the
# measurements do.  A benchmark, not a test; the figures go into
# docs/TIMING.md.  KS_LADDER_SASS=1 lets analyze use the toolkit: ptxas
# makes each kernel's SASS and its loops are timed from it (docs/TIMING.md,
# "Loops timed from the SASS"); the default times the PTX (--no-toolkit).
#   bench/bench-sgemm-ladder.sh [BUILD_DIR] [-- ANALYZE OPTIONS...]
#   bench/bench-sgemm-ladder.sh _build -- --ptx-as-written
set -eu

. "$(dirname "$0")/bench-cli-common.sh"
N=4096
toolkit=--no-toolkit
[ "${KS_LADDER_SASS:-0}" = 1 ] && toolkit=

cp "$root/tests/fixtures/lower/sgemm_ladder.sm_86.ptx" "$tmp/ladder.ptx"

# name kernel grid-x grid-y block published
cat > "$tmp/ladder.txt" <<'LADDER'
1-naive _Z11sgemm_naiveiiifPKfS0_fPf 32 32 32,32 309.0
2-coalesced _Z25sgemm_global_mem_coalesceILj32EEviiifPKfS1_fPf 32 32 1024 1986.5
3-shared-memory _Z22sgemm_shared_mem_blockILi32EEviiifPKfS1_fPf 32 32 1024 2980.3
4-1d-blocktiling _Z18sgemm1DBlocktilingILi64ELi64ELi8ELi8EEviiifPKfS1_fPf 64 64 512 8474.7
5-2d-blocktiling _Z18sgemm2DBlocktilingILi128ELi128ELi8ELi8ELi8EEviiifPKfS1_fPf 128 128 256 15971.7
6-vectorized _Z14sgemmVectorizeILi128ELi128ELi8ELi8ELi8EEviiifPfS0_fS0_ 128 128 256 18237.3
LADDER

printf '%-18s %12s %12s %7s %6s %s\n' kernel model_GFLOPs published ratio sass step
prev_model=
prev_pub=
while read -r name kernel tx ty block published; do
  gx=$((N / tx))
  gy=$((N / ty))
  cat > "$tmp/$name.json" <<SPEC
{
  "ptx": "ladder.ptx", "kernel": "$kernel",
  "grid": [$gx, $gy, 1], "block": [$block],
  "buffers": {
    "A": {"type": "f32", "count": $((N * N)), "init": {"random": {"seed": 1, "min": -1, "max": 1}}},
    "B": {"type": "f32", "count": $((N * N)), "init": {"random": {"seed": 2, "min": -1, "max": 1}}},
    "C": {"type": "f32", "count": $((N * N))}
  },
  "params": [{"type": "s32", "value": $N}, {"type": "s32", "value": $N}, {"type": "s32", "value": $N},
             {"type": "f32", "value": 1}, {"buffer": "A"}, {"buffer": "B"},
             {"type": "f32", "value": 0}, {"buffer": "C"}]
}
SPEC
  "$cli" analyze --json $toolkit --gpu rtx-a6000 --sample-blocks 8 "$@" "$tmp/$name.json" \
    > "$tmp/$name.out" 2> "$tmp/$name.err" || true
  model=$(python3 -c "
import json, sys
d = json.load(open('$tmp/$name.out'))
t = d.get('timing') or {}
us = t.get('estimated_duration_us') or 0
print('%.1f' % (2 * $N ** 3 / us / 1e3) if us > 0 else 'n/a')
")
  # the share of the warp-instructions issued that were the SASS's
  sass=$(python3 -c "
import json
t = json.load(open('$tmp/$name.out')).get('timing') or {}
print('%.0f%%' % (100 * t['sass_issued'] / t['issued']) if t.get('issued') else 'n/a')
")
  ratio=$(python3 -c "print('%.2f' % ($model / $published) if '$model' != 'n/a' else 'n/a')")
  step=
  if [ -n "$prev_model" ] && [ "$model" != n/a ]; then
    step=$(python3 -c "
m = $model > $prev_model
p = $published > $prev_pub
print('faster, as measured' if m and p else 'slower, as measured' if not m and not p else 'WRONG WAY')")
  fi
  printf '%-18s %12s %12s %7s %6s %s\n' "$name" "$model" "$published" "$ratio" "$sass" "$step"
  prev_model=$model
  prev_pub=$published
done < "$tmp/ladder.txt"
