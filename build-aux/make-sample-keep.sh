#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Record what `nvcc --keep` leaves of each sample's compilation, so that the
# Launch Anatomy's first stage (docs/ANATOMY.md) shows the real files on a
# machine without any CUDA toolkit.  For each data/samples/NN-name/NAME.cu
# it compiles NAME.cu as the app does when a toolkit is there,
#
#   nvcc --keep --keep-dir . -v -c -lineinfo -arch=$ARCH NAME.cu -o NAME.o
#
# in a private folder, and writes data/samples/NN-name/keep/NAME.keep.json:
# the toolkit, the command, the SHA-256 of NAME.cu (the app uses the record
# only while the file is that text), the steps nvcc printed ("#$ " lines,
# without its variables), and each file it left with its size; the small
# texts (the launch stub, the module id) are kept in the record.
#
# Usage: make-sample-keep.sh [OUTPUT_DIR]
#   OUTPUT_DIR defaults to data/samples itself.  TOOLKIT_BIN names the
#   toolkit's bin folder (default: the nvcc on PATH's), ARCH the
#   architecture (default sm_89, seeds/004's RTX 4090), SAMPLES limits it
#   to some samples (SAMPLES=01-vector-add,11-transpose-tiled).
set -euo pipefail

top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
samples="$top/data/samples"
out="${1:-$samples}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
arch="${ARCH:-sm_89}"

if [[ -n "${TOOLKIT_BIN:-}" ]]; then
  bin="$TOOLKIT_BIN"
elif command -v nvcc >/dev/null 2>&1; then
  bin="$(dirname "$(command -v nvcc)")"
else
  echo "make-sample-keep: no nvcc on PATH (set TOOLKIT_BIN)" >&2
  exit 1
fi
export PATH="$bin:$PATH"
version="$("$bin/nvcc" --version | sed -n 's/.*release \([0-9.]*\), V\([0-9.]*\).*/\2/p' | tail -n 1)"
echo "nvcc $version ($bin), $arch" >&2

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

for dir in "$samples"/*/; do
  dir="${dir%/}"
  sample="$(basename "$dir")"
  if [[ -n "${SAMPLES:-}" && ",$SAMPLES," != *",$sample,"* ]]; then continue; fi
  for src in "$dir"/*.cu; do
    [[ -e "$src" ]] || continue
    name="$(basename "$src" .cu)"
    work="$tmp/$sample"
    rm -rf "$work"
    mkdir -p "$work"
    cp "$src" "$work/"
    echo "$sample/$name" >&2
    (cd "$work" && "$bin/nvcc" --keep --keep-dir . -v -c -lineinfo -arch="$arch" \
                     -o "$name.o" "$name.cu") 2> "$tmp/nvcc-v.txt"
    rm "$work/$name.cu"
    mkdir -p "$out/$sample/keep"
    python3 - "$work" "$tmp/nvcc-v.txt" "$src" "$version" "$arch" "$name" \
      > "$out/$sample/keep/$name.keep.json" <<'EOF'
import hashlib, json, os, re, sys
work, log, src, version, arch, name = sys.argv[1:]
steps = []
for line in open(log, encoding="utf-8"):
    line = line.rstrip("\n")
    if not line.startswith("#$ "):
        continue
    line = line[3:].strip()
    if re.match(r"^[A-Za-z0-9_]+=", line):
        continue
    steps.append(line.replace(work + "/", ""))
kept = (".cudafe1.stub.c", ".cudafe1.c", ".module_id")
files = []
for f in sorted(os.listdir(work)):
    path = os.path.join(work, f)
    entry = {"name": f, "size": os.path.getsize(path)}
    if f.endswith(kept) and entry["size"] <= 8192:
        entry["text"] = open(path, encoding="utf-8").read().replace(work + "/", "")
    files.append(entry)
record = {
    "$comment": f"What nvcc --keep left of {name}.cu, made by build-aux/make-sample-keep.sh; used while {name}.cu has this SHA-256",
    "cuda": f"{name}.cu",
    "cuda_sha256": hashlib.sha256(open(src, "rb").read()).hexdigest(),
    "toolkit": f"CUDA {version}",
    "arch": arch,
    "command": f"nvcc --keep -c -lineinfo -arch={arch} {name}.cu",
    "steps": steps,
    "files": files,
}
json.dump(record, sys.stdout, indent=2, ensure_ascii=False)
print()
EOF
  done
done
