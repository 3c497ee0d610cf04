#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's first command: install what is missing, build, install
# KernelScope into the desktop's application menu (~/.local for a user,
# /usr/local for root), and open the first sample in the desktop window.
# Without a display (no $DISPLAY or $WAYLAND_DISPLAY: a server, a container,
# CI) it says so and shows the command-line tool's analysis of the same
# sample instead.  build-aux/uninstall.sh takes it out of the menu again.
set -euo pipefail

top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"

"$top/build-aux/deps.sh"

# The user's own prefix needs no root; root installs for every user.  The
# build folder's prefix is the one the app looks for its data, schema and
# translations under once installed.
if [[ "$(id -u)" -eq 0 ]]; then
  prefix=/usr/local
else
  prefix="$HOME/.local"
fi
if [[ ! -f _build/build.ninja ]]; then
  meson setup _build --prefix="$prefix"
else
  current="$(meson introspect _build --buildoptions \
             | python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')"
  if [[ "$current" != "$prefix" ]]; then
    meson configure _build -Dprefix="$prefix"
  fi
fi
meson compile -C _build

# Into the menu: the binaries, the desktop file, the icon, the compiled
# settings schema, the samples and the translations
echo
echo "== meson install -C _build (into $prefix)"
meson install -C _build --no-rebuild --quiet
echo "KernelScope is in the desktop's application menu now; build-aux/uninstall.sh removes it."

sample=data/samples/01-vector-add/vector_add
if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
  echo
  echo "== $prefix/bin/kernelscope $sample.json"
  exec "$prefix/bin/kernelscope" "$sample.json"
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
