#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Remake the SASS that ships with the sample library, so that the SASS pane
# shows real, linked SASS on a machine without any CUDA toolkit.  For each
# data/samples/NN-name/NAME.cu and each architecture of data/gpus.json that
# the toolkit can compile for, it writes into data/samples/NN-name/sass/:
#
#   NAME.sm_XX.sass        nvdisasm -c -gi -hex of the cubin that
#                          nvcc -cubin -lineinfo -arch=sm_XX makes of NAME.cu
#                          (-gi: -g's line records with the stack of lines
#                          a header's code was inlined at, so that a
#                          __shfl_down_sync's SHFL links to the kernel's
#                          line; they name the bare file, not the temporary
#                          folder it was compiled in), after a header of
#                          `//` lines that says how it was made
#   NAME.sm_XX.ptxas.txt   the ptxas -v report of the same compilation,
#                          without its "Compile time" line
#   NAME.index.json        the toolkit's versions, the commands, and the
#                          SHA-256 of NAME.cu and NAME.ptx: the app uses a
#                          listing only while both files are the ones it
#                          was made from
#
# A toolkit's tools work only as a set (CUDA 11.8's nvdisasm refuses a cubin
# from CUDA 13's ptxas), so nvcc, ptxas and nvdisasm all come from the one
# folder TOOLKIT_BIN, which is also put first on PATH: nvcc finds ptxas
# through PATH.  Debian 12's nvidia-cuda-toolkit (11.8; in the non-free
# component) is the default: its tools are in /usr/bin, its nvcc a script
# that runs /usr/lib/nvidia-cuda-toolkit/bin/nvcc.  CCBIN names the host
# compiler; without it, nvcc's own is tried, then clang-14 (Debian's
# package accepts clang-14 in place of g++-11, but its nvcc does not look
# for it by itself).
#
# Usage: make-sample-sass.sh [OUTPUT_DIR]
#   OUTPUT_DIR defaults to data/samples itself; otherwise the files are
#   written to OUTPUT_DIR/NN-name/sass/ (tests/test-samples.c compares them
#   with the committed ones).  SAMPLES=01-vector-add,11-transpose-tiled
#   limits it to some samples; ARCHS="sm_75 sm_86" to some architectures.
set -euo pipefail

top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
samples="$top/data/samples"
out="${1:-$samples}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

bin="${TOOLKIT_BIN:-/usr/bin}"
for tool in nvcc ptxas nvdisasm; do
  if [[ ! -x "$bin/$tool" ]]; then
    echo "make-sample-sass: no $tool in $bin (TOOLKIT_BIN); on Debian 12, enable the non-free" \
         "component and install nvidia-cuda-toolkit" >&2
    exit 1
  fi
done
export PATH="$bin:$PATH"

release () { "$1" --version | sed -n 's/.*release \([0-9.]*\), V\([0-9.]*\).*/\2/p' | tail -n 1; }
nvcc_version="$(release "$bin/nvcc")"
ptxas_version="$(release "$bin/ptxas")"
nvdisasm_version="$(release "$bin/nvdisasm")"
if [[ "${nvcc_version%.*}" != "${ptxas_version%.*}" || "${ptxas_version%.*}" != "${nvdisasm_version%.*}" ]]; then
  echo "make-sample-sass: nvcc $nvcc_version, ptxas $ptxas_version and nvdisasm" \
       "$nvdisasm_version are not one toolkit" >&2
  exit 1
fi
echo "nvcc $nvcc_version, ptxas $ptxas_version, nvdisasm $nvdisasm_version ($bin)" >&2

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# The host compiler: nvcc's own, else clang-14
ccbin=()
if [[ -n "${CCBIN:-}" ]]; then
  ccbin=(-ccbin "$CCBIN")
else
  printf '__global__ void k (void) {}\n' > "$tmp/probe.cu"
  if ! "$bin/nvcc" -cubin -arch=sm_75 -o "$tmp/probe.cubin" "$tmp/probe.cu" 2> "$tmp/probe.log"; then
    if command -v clang-14 >/dev/null 2>&1; then
      ccbin=(-ccbin clang-14)
    else
      cat "$tmp/probe.log" >&2
      exit 1
    fi
  fi
fi

# The architectures of data/gpus.json that this nvcc compiles for
supported="$("$bin/nvcc" --list-gpu-code | tr '\n' ' ')"
if [[ -z "${ARCHS:-}" ]]; then
  ARCHS="$(python3 -c 'import json, sys; print(" ".join(json.load(open(sys.argv[1]))["archs"]))' \
           "$top/data/gpus.json")"
fi
archs=()
for arch in $ARCHS; do
  if [[ " $supported " == *" $arch "* ]]; then archs+=("$arch"); else echo "skipping $arch: not in nvcc $nvcc_version" >&2; fi
done

for dir in "$samples"/*/; do
  dir="${dir%/}"
  sample="$(basename "$dir")"
  if [[ -n "${SAMPLES:-}" && ",$SAMPLES," != *",$sample,"* ]]; then continue; fi
  for src in "$dir"/*.cu; do
    [[ -e "$src" ]] || continue
    name="$(basename "$src" .cu)"
    dest="$out/$sample/sass"
    mkdir -p "$dest"
    echo "$sample/$name: ${archs[*]}" >&2
    work="$tmp/$sample"
    mkdir -p "$work"
    cp "$src" "$work/"
    listed=()
    for arch in "${archs[@]}"; do
      compile="nvcc -cubin -lineinfo -arch=$arch $name.cu"
      (cd "$work" && "$bin/nvcc" "${ccbin[@]}" -cubin -lineinfo -Xptxas -v -arch="$arch" \
                       -o "$name.$arch.cubin" "$name.cu") 2> "$work/ptxas.txt"
      {
        echo "# $compile -Xptxas -v (CUDA $nvcc_version, ptxas $ptxas_version): build-aux/make-sample-sass.sh"
        sed '/Compile time = /d' "$work/ptxas.txt"
      } > "$dest/$name.$arch.ptxas.txt"
      {
        echo "// $name.cu for $arch, made by build-aux/make-sample-sass.sh:"
        echo "//   $compile (CUDA $nvcc_version, ptxas $ptxas_version)"
        echo "//   nvdisasm -c -gi -hex $name.$arch.cubin (nvdisasm $nvdisasm_version)"
        echo "// Line records name $name.cu without the folder it was compiled in."
        echo
        # nvcc writes the absolute path of the source in the line records
        "$bin/nvdisasm" -c -gi -hex "$work/$name.$arch.cubin" \
          | sed "/^\t\/\/## File /s|\"$work/|\"|g"
      } > "$dest/$name.$arch.sass"
      listed+=("\"$arch\"")
    done
    ptx_sha=null
    if [[ -e "$dir/$name.ptx" ]]; then
      ptx_sha="\"$(sha256sum < "$dir/$name.ptx" | cut -d' ' -f1)\""
    fi
    cat > "$dest/$name.index.json" <<EOF
{
  "\$comment": "SASS of $name.cu made by build-aux/make-sample-sass.sh; used while $name.cu and $name.ptx have these SHA-256",
  "cuda": "$name.cu",
  "cuda_sha256": "$(sha256sum < "$src" | cut -d' ' -f1)",
  "ptx": "$name.ptx",
  "ptx_sha256": $ptx_sha,
  "toolkit": "CUDA $nvcc_version",
  "tools": {"nvcc": "$nvcc_version", "ptxas": "$ptxas_version", "nvdisasm": "$nvdisasm_version"},
  "compile": "nvcc -cubin -lineinfo -Xptxas -v -arch=ARCH $name.cu",
  "disassemble": "nvdisasm -c -gi -hex $name.ARCH.cubin",
  "archs": [$(IFS=,; echo "${listed[*]}" | sed 's/,/, /g')]
}
EOF
  done
done
