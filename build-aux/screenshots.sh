#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# screenshots.sh [BUILD_DIR]: remakes the README's pictures of the window
# (docs/screenshots/window*.png) with `kernelscope --screenshot` under a
# virtual X server, from the samples, and makes them small with pngquant
# and optipng when those are installed (apt install pngquant optipng; they
# are not needed to build or test).  ptx-tooltip.png, a tooltip, is not
# made here.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/_build}
exe=$build/src/app/kernelscope
out=$root/docs/screenshots
[ -x "$exe" ] || { echo "no $exe: build first (meson setup _build && meson compile -C _build)" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "xvfb-run is needed (apt install xvfb xauth)" >&2; exit 1; }
# the samples as a student without a CUDA toolkit sees them
export KS_DATA_DIR="$root/data" GSETTINGS_BACKEND=memory KS_NO_TOOLKIT=1
s=$root/data/samples

shot () {
  name=$1
  shift
  xvfb-run -a -s "-screen 0 2560x1600x24" "$exe" --screenshot "$out/$name.png" "$@" >/dev/null 2>&1
  if command -v pngquant >/dev/null; then
    pngquant --quality=85-98 --speed 1 --strip --force --output "$out/$name.png" "$out/$name.png"
  fi
  if command -v optipng >/dev/null; then
    optipng -quiet -o2 "$out/$name.png"
  fi
  echo "$out/$name.png: $(wc -c < "$out/$name.png") bytes"
}

shot window "$s/11-transpose-tiled/transpose_tiled.json"
shot window-timeline --view timeline "$s/11-transpose-tiled/transpose_tiled.json"
shot window-memory --view memory "$s/11-transpose-tiled/transpose_tiled.json"
shot window-stepping --step 30 --view lanes "$s/05-divergence/divergence.json"
shot window-launch --launch-editor "$s/01-vector-add/vector_add.json"
shot window-presentation --presentation "$s/05-divergence/divergence.json"
# a classroom's screens: a 1024x768 projector, half a 1366x768 laptop
shot window-projector-1024 --presentation --size 1024x768 "$s/05-divergence/divergence.json"
# the Launch Anatomy (docs/ANATOMY.md): the control codes, and the launch
# record's words on a 1280x720 projector
shot anatomy-compile --size 1366x768 --gpu rtx-4090 --anatomy 1 "$s/01-vector-add/vector_add.json"
shot anatomy-issue --size 1366x768 --gpu rtx-4090 --anatomy 5 "$s/01-vector-add/vector_add.json"
shot anatomy-memory --size 1366x768 --gpu rtx-4090 --anatomy 6 "$s/01-vector-add/vector_add.json"
shot anatomy-record --presentation --size 1280x720 --gpu rtx-4090 --anatomy 3 "$s/01-vector-add/vector_add.json"
shot window-half-laptop --size 683x740 "$s/12-transpose-padded/transpose_padded.json"
shot window-texture --view memory "$s/26-texture-upscale/texture_upscale.json"
# SASS without a toolkit: a sample's shipped listing on a Hopper GPU, and a
# kernel of one's own, whose SASS pane folds to a bar
shot window-shipped-sass --gpu h100-sxm --size 1366x768 "$s/16-reduce-shuffle/reduce_shuffle.json"
shot window-sass-folded --size 1366x768 "$root/tests/fixtures/sass/03_gpumode_kernel_1.sm_86.ptx"
LANGUAGE=ko LANG=C.UTF-8 shot window-korean --size 1280x720 "$s/11-transpose-tiled/transpose_tiled.json"
