# source this: GPGPU-Sim environment with Debian's CUDA 11.8 behind /opt/cuda-11.8
export CUDA_INSTALL_PATH=/opt/cuda-11.8
cd /work/gpgpusim && source setup_environment release >/dev/null && cd - >/dev/null
