#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's first command: install what is missing, build, and open the
# first sample in the desktop window.  Without a display (no $DISPLAY or
# $WAYLAND_DISPLAY: a server, a container, CI) it says so and shows the
# command-line tool's analysis of the same sample instead.
set -euo pipefail

top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"

"$top/build-aux/deps.sh"
if [[ ! -f _build/build.ninja ]]; then
  meson setup _build
fi
meson compile -C _build

sample=data/samples/01-vector-add/vector_add
if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
  echo
  echo "== kernelscope $sample.json"
  exec _build/src/app/kernelscope "$sample.json"
fi

echo
echo "No display (neither DISPLAY nor WAYLAND_DISPLAY is set): the window cannot open here,"
echo "so this is the command-line tool's analysis of the first sample."
echo "(For a picture of the window: xvfb-run -a _build/src/app/kernelscope --screenshot window.png)"
echo
echo "== kernelscope-cli analyze $sample.json"
_build/src/app/kernelscope-cli analyze "$sample.json"
echo
echo "== kernelscope-cli run $sample.json"
_build/src/app/kernelscope-cli run "$sample.json"
echo
echo "(with --json, the results as JSON; see README.md)"
