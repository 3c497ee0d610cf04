#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Regenerate the nvcc-produced PTX corpus from cuda/*.cu.
#
# Usage: regenerate.sh [OUTPUT_DIR]
#   OUTPUT_DIR defaults to the directory containing this script; PTX files are
#   written to OUTPUT_DIR/sm_XX/NAME.ptx. Set NVCC to override the compiler
#   (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$here}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

if [[ -z "${NVCC:-}" ]]; then
    if command -v nvcc >/dev/null 2>&1; then NVCC=nvcc; else NVCC=/usr/local/cuda/bin/nvcc; fi
fi

archs=(sm_75 sm_80 sm_90)
common_flags=(-ptx -lineinfo -std=c++17)

# Per-file extra flags (by basename without .cu).
declare -A extra_flags=(
    [32_extern_rdc]="-rdc=true"
    [33_dynamic_parallelism]="-rdc=true"
    [35_debug_G]="-G"
)

# Per-file architecture exclusions (space-separated list).
declare -A skip_archs=(
)

"$NVCC" --version | tail -n 2 >&2

# -G output records the working directory (DW_AT_comp_dir); run from a fixed
# place so the result does not depend on the caller's cwd.
cd "$here"

for src in "$here"/cuda/*.cu; do
    name="$(basename "$src" .cu)"
    read -r -a extra <<<"${extra_flags[$name]:-}"
    flags=("${common_flags[@]}")
    # -G (full debug info) supersedes -lineinfo; nvcc warns if both are given.
    if [[ " ${extra[*]} " == *" -G "* ]]; then
        flags=(-ptx -std=c++17)
    fi
    for arch in "${archs[@]}"; do
        if [[ " ${skip_archs[$name]:-} " == *" $arch "* ]]; then
            continue
        fi
        mkdir -p "$out/$arch"
        echo "$NVCC ${flags[*]} -arch=$arch ${extra[*]} -o $arch/$name.ptx cuda/$name.cu" >&2
        "$NVCC" "${flags[@]}" -arch="$arch" "${extra[@]}" \
            -o "$out/$arch/$name.ptx" "$src"
    done
done
