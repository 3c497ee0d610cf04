// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: __noinline__ device functions with many parameters, struct arguments and struct returns.
struct Vec3 { float x, y, z; };
struct Hit { float t; int id; Vec3 normal; };

__device__ __noinline__ Vec3 vadd(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
__device__ __noinline__ float vdot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

__device__ __noinline__ Hit intersect_sphere(Vec3 orig, Vec3 dir, Vec3 centre, float radius, int id, float tmax)
{
    Hit h{tmax, -1, {0.f, 0.f, 0.f}};
    Vec3 oc{orig.x - centre.x, orig.y - centre.y, orig.z - centre.z};
    float b = vdot(oc, dir);
    float c = vdot(oc, oc) - radius * radius;
    float disc = b * b - c;
    if (disc > 0.f) {
        float t = -b - sqrtf(disc);
        if (t > 0.f && t < tmax) {
            h.t = t; h.id = id;
            Vec3 p = vadd(orig, Vec3{dir.x * t, dir.y * t, dir.z * t});
            h.normal = Vec3{(p.x - centre.x) / radius, (p.y - centre.y) / radius, (p.z - centre.z) / radius};
        }
    }
    return h;
}

__device__ __noinline__ long long mix6(int a, long long b, float c, double d, unsigned char e, short f)
{
    return a * 3 + b * 5 + (long long)(c * 7.f) + (long long)(d * 11.0) + e + f;
}

__global__ void trace(const Vec3 *dirs, const float4 *spheres, int nspheres, Hit *out, long long *aux)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Vec3 o{0.f, 0.f, 0.f};
    Hit best{1e30f, -1, {0.f, 0.f, 0.f}};
    for (int s = 0; s < nspheres; ++s) {
        float4 sp = spheres[s];
        Hit h = intersect_sphere(o, dirs[i], Vec3{sp.x, sp.y, sp.z}, sp.w, s, best.t);
        if (h.id >= 0) best = h;
    }
    out[i] = best;
    aux[i] = mix6(i, (long long)i << 33, best.t, (double)best.normal.x, (unsigned char)i, (short)-i);
}
