#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Remake what nvcc makes for the sample library (data/samples/*/NAME.cu):
#   NAME.ptx        nvcc -ptx -lineinfo -arch=sm_80 (committed so the app
#                   works without a toolkit); nvcc 13 writes the source's
#                   absolute path in `.file`, which is cut back to the bare
#                   file name, so the PTX does not depend on where the tree is
#   NAME.ptxas.txt  the `ptxas -v` report of nvcc -cubin -Xptxas -v for sm_80
#                   (registers, shared memory, spills), without its "Compile
#                   time" line, which changes from run to run
#
# Usage: regenerate-samples.sh [OUTPUT_DIR]
#   OUTPUT_DIR defaults to data/samples itself; otherwise the files are
#   written to OUTPUT_DIR/NN-name/ (tests/test-samples.c compares them with
#   the committed ones).  Set NVCC to choose the compiler (default: nvcc on
#   PATH, else /usr/local/cuda/bin/nvcc).
set -euo pipefail

top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
samples="$top/data/samples"
out="${1:-$samples}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

if [[ -z "${NVCC:-}" ]]; then
  if command -v nvcc >/dev/null 2>&1; then NVCC=nvcc; else NVCC=/usr/local/cuda/bin/nvcc; fi
fi
"$NVCC" --version | tail -n 2 >&2

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

for dir in "$samples"/*/; do
  dir="${dir%/}"
  sample="$(basename "$dir")"
  for src in "$dir"/*.cu; do
    [[ -e "$src" ]] || continue
    name="$(basename "$src" .cu)"
    mkdir -p "$out/$sample"
    echo "$sample/$name" >&2
    # From the sample's folder, so that .file names the source without a path
    (cd "$dir" && "$NVCC" -ptx -lineinfo -arch=sm_80 -o "$out/$sample/$name.ptx" "$name.cu")
    quoted="$(printf '%s' "$dir/" | sed 's/[][\\.*^$|]/\\&/g')"
    sed -i "s|^\(\t\.file\t[0-9]* \"\)$quoted|\1|" "$out/$sample/$name.ptx"
    (cd "$dir" && "$NVCC" -cubin -Xptxas -v -arch=sm_80 -o "$tmp/$name.cubin" "$name.cu") \
      2> "$out/$sample/$name.ptxas.txt"
    sed -i '/Compile time = /d' "$out/$sample/$name.ptxas.txt"
  done
done
