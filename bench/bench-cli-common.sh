# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the benchmarks that drive kernelscope-cli: reads
# [BUILD_DIR] [-- OPTIONS...] from the script's arguments, and sets root
# (the source tree), cli (the build's kernelscope-cli) and tmp (a folder
# removed on exit).  What is left in "$@" are the options for the CLI.
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/_build}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
cli=$build/src/app/kernelscope-cli
if [ ! -x "$cli" ]; then
  echo "$0: no kernelscope-cli in $build (build first: meson compile -C $build)" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
