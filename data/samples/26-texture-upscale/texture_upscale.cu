// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 26: enlarging an image with the texture unit's bilinear filtering.
// A 32 x 32 grayscale image (8-bit) becomes 96 x 96: each output pixel asks
// the texture unit for the input at its own centre, mapped back onto the
// input (x + 0.5) / 3.  The texture was made with cudaFilterModeLinear and
// cudaReadModeNormalizedFloat (see texture_upscale.json, "textures"): the
// unit reads the 2 x 2 texels around that point, blends them, and returns
// 0..255 as 0.0..1.0, all in one instruction.
//
// What to look at:
// - The tex2D line: one tex.2d a thread, and 4 texel fetches a lane,
//   counted apart from global loads (texture_fetches in run --json).
// - The image is 1 KiB: 32 sectors, read once from DRAM.  Every other fetch
//   hits in L1, because neighbouring pixels share texels.
// - The blend weights are 9-bit fixed point with 8 fractional bits (the
//   Programming Guide's "Texture Fetching" appendix): a third becomes
//   85/256, so some pixels come out one level away from a float bilinear
//   interpolation of the same image.

__global__ void upscale(cudaTextureObject_t image, unsigned char *out, int w, int h,
                        float scale)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  // the output pixel's centre, in input texels: texel i covers [i, i + 1)
  float u = (x + 0.5f) / scale;
  float v = (y + 0.5f) / scale;
  float g = tex2D<float>(image, u, v);
  out[y * w + x] = (unsigned char)(g * 255.0f + 0.5f);
}
