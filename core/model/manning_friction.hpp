// Bottom friction by Manning's n, the form GeoClaw and ANUGA state on the momentum:
//
//   d(d u)/dt = -g n^2 |u| (d u) / d^{4/3}
//
// GeoClaw (geoclaw/2d/lib/src2_geo.f, clawpack.org/manning.html): gamma = |hu| g n^2 / h^{7/3},
// hu <- hu / (1 + dt gamma), momentum zeroed below a depth tolerance; ANUGA
// (shallow_water _manning_friction_flat): S = -g n^2 |uh| / h^{7/3}, the semi-implicit momentum
// update by S uh. |hu| / h^{7/3} = |u| / h^{4/3}: the same law.
//
// Here the depth d is held over the step, so du/dt = -g n^2 |u| u / d^{4/3}, applied as one
// split implicit step with the speed before it:
//
//   u <- u / (1 + dt g n^2 |u| / d^{4/3})
//
// The factor lies in (0, 1] for any dt, speed and depth: the step only slows the water and
// never reverses it, however thin (stiff) the water. For a uniform current with no force it
// is the exact solution sampled at the steps: 1/u^{n+1} = 1/u^n + dt g n^2 / d^{4/3}, the
// discrete form of u(t) = u0 / (1 + g n^2 u0 t / d^{4/3}) (docs/verification.md, "Manning
// friction"). Water at or below the model's dry depth (its film or dry threshold) stops,
// as GeoClaw zeroes the momentum of its dry cells: nothing divides by a vanishing depth.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace wb {

struct ManningFriction {
  double gn2 = 0.0;    // g n^2 (m^{1/3}: m/s^2 times s^2 m^{-2/3})
  double floor = 0.0;  // m: water this thin or thinner stops

  ManningFriction() = default;
  ManningFriction(double g, double manning, double dryDepth)
      : gn2(g * manning * manning), floor(dryDepth) {}
  bool active() const { return gn2 > 0.0; }
  // The factor that multiplies the velocity (and the discharge) over dt.
  double keep(double speed, double depth, double dt) const {
    if (!(depth > floor)) return 0.0;
    return 1.0 / (1.0 + dt * gn2 * speed / (depth * std::cbrt(depth)));
  }
  // keep() in float arithmetic with no library call, no division but the last and no branch,
  // the form a loop over faces vectorises (swe-adi's frictionRow), gn2Dt = g n^2 dt: 0 at or
  // below the floor, the depth there replaced by 1 so that nothing divides by 0.
  [[gnu::always_inline]] static float keepFloat(float gn2Dt, float speed, float depth,
                                                float floor) {
    const float moving = float(__builtin_isgreater(depth, floor));
    const float d = depth + (1.0f - moving) * (1.0f - depth);
    const float r = inverseCubeRoot(d), r2 = r * r;  // d^{-4/3} = r^4
    return moving / (1.0f + gn2Dt * speed * (r2 * r2));
  }
  // x^{-1/3} for x > 0 to float round-off: Newton's iteration for y^{-3} = x,
  // y <- y (4 - x y^3) / 3, which has no division and doubles the correct digits each time,
  // three times from the bit-level first guess (the exponent divided by -3, within a few
  // percent, as in the well-known inverse square root).
  [[gnu::always_inline]] static float inverseCubeRoot(float x) {
    float y = std::bit_cast<float>(0x54a2fa8c - std::bit_cast<std::int32_t>(x) / 3);
    for (int k = 0; k < 3; ++k)
      y = y * ((4.0f / 3.0f) - (1.0f / 3.0f) * x * (y * y * y));
    return y;
  }
};

}  // namespace wb
