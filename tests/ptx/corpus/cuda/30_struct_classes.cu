// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: C++ classes with constructors/member functions, by-value struct kernel params, lambdas and aligned types.
struct __align__(16) Particle { float3 pos; float mass; float3 vel; int id; };

class Integrator {
public:
    __device__ Integrator(float dt, float damping) : dt_(dt), damping_(damping) {}
    __device__ void step(Particle &p, float3 force) const {
        float inv = 1.0f / p.mass;
        p.vel.x = (p.vel.x + force.x * inv * dt_) * damping_;
        p.vel.y = (p.vel.y + force.y * inv * dt_) * damping_;
        p.vel.z = (p.vel.z + force.z * inv * dt_) * damping_;
        p.pos.x += p.vel.x * dt_;
        p.pos.y += p.vel.y * dt_;
        p.pos.z += p.vel.z * dt_;
    }
private:
    float dt_, damping_;
};

struct SimParams { float dt; float damping; float3 gravity; int count; float bounds[6]; };

__global__ void simulate(Particle *ps, SimParams prm)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= prm.count) return;
    Integrator integ(prm.dt, prm.damping);
    Particle p = ps[i];
    auto clampf = [](float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); };
    integ.step(p, prm.gravity);
    p.pos.x = clampf(p.pos.x, prm.bounds[0], prm.bounds[1]);
    p.pos.y = clampf(p.pos.y, prm.bounds[2], prm.bounds[3]);
    p.pos.z = clampf(p.pos.z, prm.bounds[4], prm.bounds[5]);
    ps[i] = p;
}
