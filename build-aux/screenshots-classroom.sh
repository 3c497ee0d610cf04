#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# screenshots-classroom.sh OUT_DIR [BUILD_DIR] [VIEWS...]: the pictures a
# teacher would check before a lesson: the samples of issue 13 (05, 11, 12,
# 14, 21, 24 and 26) without a CUDA toolkit, at 1024x768, 1280x720 and
# 1920x1080, in normal and presentation mode, on each view named (by
# default the one each sample opens on, then every view with "all").  The
# pictures go to OUT_DIR (not committed: there are up to 294 of them); a
# window that cannot be made that small is reported and the run goes on.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: screenshots-classroom.sh OUT_DIR [BUILD_DIR] [VIEWS...]}
build=${2:-$root/_build}
shift; [ $# -gt 0 ] && shift
views=${*:-lesson}
[ "$views" = all ] && views="lesson timeline memory occupancy lanes cfg hints output"
exe=$build/src/app/kernelscope
[ -x "$exe" ] || { echo "no $exe: build first" >&2; exit 1; }
mkdir -p "$out"
export KS_DATA_DIR="$root/data" GSETTINGS_BACKEND=memory KS_NO_TOOLKIT=1
failed=0
for sample in 05-divergence 11-transpose-tiled 12-transpose-padded 14-reduce-interleaved \
              21-matmul-naive 24-register-spill 26-texture-upscale; do
  spec=$(ls "$root/data/samples/$sample"/*.json | grep -v sample.json | head -1)
  for size in 1024x768 1280x720 1920x1080; do
    for mode in normal presentation; do
      for view in $views; do
        name="$out/${sample%%-*}-$size-$mode-$view.png"
        set -- --screenshot "$name" --size "$size"
        [ "$mode" = presentation ] && set -- "$@" --presentation
        [ "$view" != lesson ] && set -- "$@" --view "$view"
        if ! xvfb-run -a -s "-screen 0 2560x1600x24" "$exe" "$@" "$spec" >/dev/null 2>"$out/err.txt"; then
          echo "FAILED $name: $(grep -v dbus "$out/err.txt" | tail -1)"
          failed=$((failed + 1))
        fi
      done
    done
  done
done
rm -f "$out/err.txt"
echo "$(ls "$out"/*.png 2>/dev/null | wc -l) pictures in $out, $failed failed"
[ "$failed" -eq 0 ]
