// Host program for the GPGPU-Sim timing: the kernel is data/samples/01-vector-add's
// (included unchanged), 1M floats, grid 4096 x block 256.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <time.h>
#include <cuda_runtime.h>
#include "vector_add.cu"

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
  const int n = 1048576;
  size_t bytes = n * sizeof(float);
  float *a = (float *) malloc(bytes), *b = (float *) malloc(bytes), *c = (float *) malloc(bytes);
  srand(1);
  for (int i = 0; i < n; i++)
    {
      a[i] = 2.0f * rand() / (float) RAND_MAX - 1.0f;
      b[i] = 0.5f * i;
    }
  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, bytes));
  CHECK(cudaMalloc(&db, bytes));
  CHECK(cudaMalloc(&dc, bytes));
  CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
  /* kernel_wall_s: the launch and the wait for it, i.e. the kernel's simulation */
  double t0 = now_s ();
  vector_add<<<4096, 256>>>(da, db, dc, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  double t1 = now_s ();
  printf("kernel_wall_s = %.6f\n", t1 - t0);
  CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i += 4099)   /* a few hundred spread over the array */
    if (c[i] != a[i] + b[i])
      bad++;
  if (c[n - 1] != a[n - 1] + b[n - 1])
    bad++;
  printf("vadd n=%d: %s (c[0]=%g c[%d]=%g)\n", n, bad ? "FAILED" : "PASSED", c[0], n - 1, c[n - 1]);
  return bad != 0;
}
