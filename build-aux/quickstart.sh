#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's first command: install what is missing, build, and open the
# first sample.  Until the desktop window lands (issue 5) "open" means the
# command-line tool's analysis of the bundled sample PTX.
set -euo pipefail

top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"

"$top/build-aux/deps.sh"
if [[ ! -f _build/build.ninja ]]; then
  meson setup _build
fi
meson compile -C _build

sample=data/samples/01-vector-add/vector_add
echo
echo "== kernelscope-cli parse $sample.ptx"
_build/src/app/kernelscope-cli parse "$sample.ptx"
echo
echo "== kernelscope-cli run $sample.json"
_build/src/app/kernelscope-cli run "$sample.json"
echo
echo "(with --json, the module and the results as JSON; see README.md)"
