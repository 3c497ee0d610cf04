// SPDX-License-Identifier: GPL-3.0-or-later
// printf with every conversion, size, flag, width and precision form nvcc passes to vprintf
#include <cstdio>

__global__ void formats(const int *iv, const long long *lv, const float *fv, const char *str,
                        const char *null_str, const void *ptr)
{
  int t = threadIdx.x;
  int i = iv[t];
  long long l = lv[t];
  float f = fv[t];

  printf("%d %i %u %x %X %o %c|%s|\n", i, -i, (unsigned) i, i, i, i, 'A' + t, str);
  printf("%f %e %E %g %G %a %A\n", f, f, f * 1e10f, f, f * 1e-7f, f, f);
  printf("%ld %lld %lu %llx %hd %hhd %hu %hhx\n", (long) l, l, (unsigned long) l,
         (unsigned long long) l, (short) i, (signed char) i, (unsigned short) i, (unsigned char) i);
  printf("[%5d] [%-5d] [%05d] [%+d] [% d] [%.3f] [%10.4f] [%-10.2e] [%#x] [%#o] [%#g]\n",
         i, i, i, i, i, f, f, f, i, i, f);
  printf("[%*d] [%-*d] [%.*f] [%*.*e] [%*s]\n", 7, i, -6, i, 2, f, 12, 3, f, 4 + t, str);
  printf("[%10s] [%-10s] [%.2s] [%.0s] [%s] [%p] [%%] [%5c]\n", str, str, str, str, null_str, ptr,
         'a' + t);
}
