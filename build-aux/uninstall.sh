#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# uninstall.sh [BUILD_DIR]: takes KernelScope out of the desktop's menu
# again: removes what `meson install` from BUILD_DIR (default _build, as
# build-aux/quickstart.sh installed it) put under its prefix, then remakes
# the settings schemas, the icon cache and the desktop database without it.
# The settings themselves stay (dconf reset -f /io/github/kernelscope/ to
# forget them).
set -euo pipefail

top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$top/_build}"
if [[ ! -f "$build/meson-logs/install-log.txt" ]]; then
  echo "error: $build has installed nothing (no meson-logs/install-log.txt)" >&2
  exit 1
fi
datadir="$(meson introspect "$build" --buildoptions | python3 -c '
import json, os, sys
o = {x["name"]: x["value"] for x in json.load(sys.stdin)}
print(os.path.join(o["prefix"], o["datadir"]))')"

ninja -C "$build" uninstall

# The folders of the data that are now empty
if [[ -d "$datadir/kernelscope" ]]; then
  find "$datadir/kernelscope" -depth -type d -empty -delete
fi
# The compiled schemas without ours (none left: no compiled file)
schemas="$datadir/glib-2.0/schemas"
if [[ -d "$schemas" ]]; then
  if compgen -G "$schemas/*.gschema.xml" >/dev/null; then
    glib-compile-schemas "$schemas"
  else
    rm -f "$schemas/gschemas.compiled"
  fi
fi
"$top/build-aux/post-install.sh" "$datadir"
echo "KernelScope is uninstalled from $(dirname "$datadir")."
