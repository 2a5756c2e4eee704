// The state of a three-level wave scheme, h^{n+1} = h^n + R (h^n - h^{n-1}) + mu L(h^n)
// (damped-wave's eq. 2, advected-wave's eq. 10), held as the surface h^n and its increment
// v^n = h^n - h^{n-1}, both in float, and advanced as
//   v^{n+1} = R v^n + mu L(h^n),   h^{n+1} = h^n + v^{n+1}                                (1)
// which is the same recurrence.
//
// Why not the levels themselves: storing h^{n+1} in float rounds it by up to ulp(h) / 2, and a
// scheme that keeps h^n and h^{n-1} reads that rounding as a velocity (h^n - h^{n-1}) and keeps
// it. The roundings sum to a random walk of the velocity whose smooth part the surface
// integrates, growing as n^{3/2}: about 1e-4 of a standing mode's amplitude after 480 steps, a
// floor that hides the scheme's second order beyond 128 cells
// (builtin:standing-wave-convergence). In form (1) the velocity v is never formed from the
// rounded surface: the rounding of h^{n+1} stays in h, a random walk of n^{1/2} ulps, and v
// holds only the rounding of its own small terms. L still reads the rounded h^n; its error
// mu L(rounding) is noise of an ulp, which L keeps out of the smooth modes. The cost is one
// field more than the paper's three-level loop reads (16 bytes a cell: read h^n and v^n,
// write v^{n+1} in place and h^{n+1}; docs/performance.md).
#pragma once

#include <cstddef>

namespace wb {

struct WaveLevels {
  const float* __restrict h;  // h^n
  float* __restrict rate;     // v^n in, v^{n+1} out (in place)
  float* __restrict hNew;     // h^{n+1}

  // Eq. (1) at cell k with push = mu L(h^n) there: v^{n+1} = R v^n + push, h^{n+1} = h^n +
  // v^{n+1}.
  void advance(std::size_t k, float R, float push) const {
    const float next = R * rate[k] + push;
    rate[k] = next;
    hNew[k] = h[k] + next;
  }
  // The same after h^n and v^n were both raised by lift at cell k (a change of the surface the
  // step gives it, as advected-wave's eq. 7; push then includes mu L of that change):
  // v^{n+1} = R (v^n + lift) + push, h^{n+1} = h^n + lift + v^{n+1}.
  void advanceLifted(std::size_t k, float R, float push, float lift) const {
    const float next = R * (rate[k] + lift) + push;
    rate[k] = next;
    hNew[k] = (h[k] + lift) + next;
  }
};

}  // namespace wb
