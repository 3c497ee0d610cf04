// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: recursive device functions (factorial, fibonacci, Ackermann-like) which cannot be inlined.
__device__ unsigned long long factorial(unsigned n)
{
    return n <= 1 ? 1ull : n * factorial(n - 1);
}

__device__ int fib(int n)
{
    if (n < 2) return n;
    return fib(n - 1) + fib(n - 2);
}

__device__ int depth_sum(const int *tree, int node, int n, int depth)
{
    if (node >= n) return 0;
    return tree[node] * depth + depth_sum(tree, 2 * node + 1, n, depth + 1) + depth_sum(tree, 2 * node + 2, n, depth + 1);
}

__global__ void recursion_kernel(unsigned long long *fact, int *fibs, const int *tree, int ntree, int *sum)
{
    unsigned t = threadIdx.x;
    fact[t] = factorial(t % 21);
    fibs[t] = fib(t % 20);
    if (t == 0) *sum = depth_sum(tree, 0, ntree, 1);
}
