// Host program for the GPGPU-Sim timing: the kernel is data/samples/22-matmul-tiled's
// (included unchanged), n = 256, grid 16 x 16, block 16 x 16.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <time.h>
#include <cuda_runtime.h>
#include "matmul_tiled.cu"

static double now_s (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main(void)
{
  const int n = 256;
  size_t bytes = (size_t) n * n * sizeof(float);
  float *A = (float *) malloc(bytes), *B = (float *) malloc(bytes), *C = (float *) malloc(bytes);
  srand(1);
  for (int i = 0; i < n * n; i++)
    {
      A[i] = 2.0f * rand() / (float) RAND_MAX - 1.0f;
      B[i] = 2.0f * rand() / (float) RAND_MAX - 1.0f;
    }
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, bytes));
  CHECK(cudaMalloc(&dB, bytes));
  CHECK(cudaMalloc(&dC, bytes));
  CHECK(cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B, bytes, cudaMemcpyHostToDevice));
  dim3 grid(n / TILE, n / TILE), block(TILE, TILE);
  /* kernel_wall_s: the launch and the wait for it, i.e. the kernel's simulation */
  double t0 = now_s ();
  matmul_tiled<<<grid, block>>>(dA, dB, dC, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  double t1 = now_s ();
  printf("kernel_wall_s = %.6f\n", t1 - t0);
  CHECK(cudaMemcpy(C, dC, bytes, cudaMemcpyDeviceToHost));
  int bad = 0, checked = 0;
  for (int r = 0; r < n; r += 37)
    for (int col = 0; col < n; col += 41)
      {
        double s = 0;
        for (int k = 0; k < n; k++)
          s += (double) A[r * n + k] * B[k * n + col];
        if (fabs(C[r * n + col] - s) > 1e-3 * (1 + fabs(s)))
          bad++;
        checked++;
      }
  printf("matmul n=%d: %s (%d elements checked, C[0]=%g)\n", n, bad ? "FAILED" : "PASSED", checked, C[0]);
  return bad != 0;
}
