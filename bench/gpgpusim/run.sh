#!/bin/bash
# Reproduces RESULTS.md: GPGPU-Sim 4.2.0 (dev 6b244a5d, functional mode) vs
# KernelScope's simulator on a 1M-float vector add and a 256x256 tiled matmul.
# Runs in this folder (it writes its builds and logs here; they are not
# committed).  Needs: GPGPU-Sim built in /work/gpgpusim (see RESULTS.md, "Build"),
# Debian's nvidia-cuda-toolkit 11.8 behind /opt/cuda-11.8, clang-14, and
# KernelScope's CLI built with
#   cd /work/main && meson setup /tmp/build-rel --buildtype=release && meson compile -C /tmp/build-rel kernelscope-cli
# Usage: ./run.sh [RUNS] | tee summary.txt; python3 summarize.py summary.txt
# (RUNS default 3).  Raw logs go to logs/ (emptied first), one line a run to stdout.
set -euo pipefail
RUNS=${1:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"
KS=${KS:-/tmp/build-rel/src/app/kernelscope-cli}
CFG=${CFG:-SM86_RTX3070}
rm -rf logs; mkdir -p logs
# the samples' kernels and PTX, unchanged (the host programs #include the .cu)
for f in 01-vector-add/vector_add.cu 01-vector-add/vector_add.ptx \
         22-matmul-tiled/matmul_tiled.cu 22-matmul-tiled/matmul_tiled.ptx; do
  cp "$HERE/../../data/samples/$f" .
done

# --- GPGPU-Sim environment (CUDA_INSTALL_PATH, LD_LIBRARY_PATH to its libcudart)
set +eu; source "$HERE/env.sh"; set -eu
export PATH=/opt/cuda-11.8/bin:$PATH

# --- host programs (nvcc 11.8, shared cudart so GPGPU-Sim's libcudart.so is used)
for p in vadd matmul; do
  [ ${p}_host -nt ${p}_host.cu ] || nvcc -ccbin clang-14 -cudart shared -arch=sm_86 -O3 -o ${p}_host ${p}_host.cu
done
# the PTX nvcc 11.8 embeds, for KernelScope runs on the very same PTX
[ -f vector_add_cuda118.ptx ] || nvcc -ccbin clang-14 -arch=sm_86 -ptx -o vector_add_cuda118.ptx vector_add.cu
[ -f matmul_tiled_cuda118.ptx ] || nvcc -ccbin clang-14 -arch=sm_86 -ptx -o matmul_tiled_cuda118.ptx matmul_tiled.cu
sed 's/"vector_add.ptx"/"vector_add_cuda118.ptx"/' ks_vadd.json > ks_vadd_cuda118.json
sed 's/"matmul_tiled.ptx"/"matmul_tiled_cuda118.ptx"/' ks_matmul.json > ks_matmul_cuda118.json

# --- GPGPU-Sim run directory: the tested config, functional mode only
rm -rf gpgpusim-run && mkdir gpgpusim-run
cp /work/gpgpusim/configs/tested-cfgs/$CFG/* gpgpusim-run/
sed -i 's/^-gpgpu_ptx_sim_mode 0/-gpgpu_ptx_sim_mode 1/' gpgpusim-run/gpgpusim.config
grep -q '^-gpgpu_ptx_sim_mode 1' gpgpusim-run/gpgpusim.config

gsim() {  # gsim NAME: one GPGPU-Sim run, prints "kernel_s process_s insts"
  local name=$1 i=$2 log=logs/gpgpusim_${1}_$2.log
  (cd gpgpusim-run && /usr/bin/time -f 'process_wall_s = %e user_s = %U sys_s = %S maxrss_kb = %M' \
     ../${name}_host) > $log 2>&1
  grep -q PASSED $log || { echo "GPGPU-Sim $name run $i did not pass, see $log" >&2; exit 1; }
  grep -q 'functional simulation' $log
  echo "$(sed -n 's/^kernel_wall_s = //p' $log) $(sed -n 's/^process_wall_s = \([0-9.]*\).*/\1/p' $log)" \
       "$(sed -n 's/.*Done functional simulation (\([0-9]*\) instructions.*/\1/p' $log)" \
       "$(sed -n 's/^gpgpu_simulation_time = .*(\([0-9]*\) sec)/\1/p' $log)"
}
ks() {  # ks SPEC OPTS...: one KernelScope run, prints "kernel_s process_s"
  local spec=$1; shift
  local log=logs/ks_$(basename $spec .json)_$(echo "$*" | tr -d ' -')_$RANDOM.log
  /usr/bin/time -f 'process_wall_s = %e user_s = %U sys_s = %S maxrss_kb = %M' \
     "$KS" run "$spec" "$@" > $log 2>&1
  echo "$(sed -n 's/.*: done in \([0-9.]*\) s$/\1/p' $log) $(sed -n 's/^process_wall_s = \([0-9.]*\).*/\1/p' $log)"
}

echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# columns: kernel-simulation s, whole-process s [, GPGPU-Sim: instructions, gpgpu_simulation_time s]"
for i in $(seq 1 $RUNS); do   # interleaved, so that load changes hit both sides alike
  for k in vadd matmul; do
    echo "gpgpusim $k run$i: $(gsim $k $i)"
    for spec in ks_$k.json ks_${k}_cuda118.json; do
      echo "ks $spec --no-trace --threads 1 run$i: $(ks $spec --no-trace --threads 1)"
      echo "ks $spec --no-trace run$i: $(ks $spec --no-trace)"
      echo "ks $spec --threads 1 run$i: $(ks $spec --threads 1)"
      echo "ks $spec run$i: $(ks $spec)"
    done
  done
done
echo "# end $(date -u '+%H:%M:%S UTC'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
