// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: dense switch statements (candidate for brx.idx jump tables) in a small bytecode interpreter.
__device__ __noinline__ int interpret(const unsigned char *code, int len, int x)
{
    int acc = x, reg = 0;
    for (int pc = 0; pc < len; ++pc) {
        switch (code[pc]) {
        case 0: acc += 1; break;
        case 1: acc -= 1; break;
        case 2: acc *= 3; break;
        case 3: acc ^= 0x55; break;
        case 4: acc >>= 1; break;
        case 5: acc <<= 2; break;
        case 6: reg = acc; break;
        case 7: acc = reg; break;
        case 8: acc += reg; break;
        case 9: acc = ~acc; break;
        case 10: acc |= 0x100; break;
        case 11: acc &= 0xfff; break;
        case 12: if (acc < 0) pc++; break;
        case 13: return acc;
        default: acc = -acc; break;
        }
    }
    return acc;
}

__global__ void run_vm(const unsigned char *code, int len, const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = interpret(code, len, in[i]);
}

__global__ void classify(const int *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float r;
    switch (in[i] & 15) {
    case 0: r = 1.0f; break;
    case 1: r = out[i] * 2.0f; break;
    case 2: r = sqrtf(out[i]); break;
    case 3: r = -out[i]; break;
    case 4: r = out[i] + 7.0f; break;
    case 5: r = __sinf(out[i]); break;
    case 6: r = 0.25f; break;
    case 7: r = out[i] * out[i]; break;
    case 8: r = fabsf(out[i]); break;
    case 9: r = floorf(out[i]); break;
    case 10: r = ceilf(out[i]); break;
    case 11: r = out[i] - 1.0f; break;
    default: r = 0.0f; break;
    }
    out[i] = r;
}
