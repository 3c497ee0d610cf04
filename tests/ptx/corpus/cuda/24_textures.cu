// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: texture objects (tex1Dfetch, tex2D, tex2DLod, tex3D, layered) and surface writes (surf2Dwrite/surf2Dread).
__global__ void tex_fetch1d(cudaTextureObject_t tex, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(tex, i) + (float)tex1Dfetch<int>(tex, i + 1);
}

__global__ void tex_sample2d(cudaTextureObject_t tex, float4 *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float u = (x + 0.5f) / w, v = (y + 0.5f) / h;
    float4 a = tex2D<float4>(tex, u, v);
    float4 b = tex2DLod<float4>(tex, u, v, 1.5f);
    float c = tex3D<float>(tex, u, v, 0.5f);
    float d = tex2DLayered<float>(tex, u, v, 2);
    out[y * w + x] = make_float4(a.x + b.x, a.y + b.y, a.z + c, a.w + d);
}

__global__ void surf_blur(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    uchar4 s = surf2Dread<uchar4>(src, x * 4, y, cudaBoundaryModeClamp);
    uchar4 t = surf2Dread<uchar4>(src, (x + 1) * 4, y, cudaBoundaryModeClamp);
    uchar4 r = make_uchar4((s.x + t.x) / 2, (s.y + t.y) / 2, (s.z + t.z) / 2, 255);
    surf2Dwrite(r, dst, x * 4, y);
    surf1Dwrite(1.0f, dst, x * 4, cudaBoundaryModeZero);
}
