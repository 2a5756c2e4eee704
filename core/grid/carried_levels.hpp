// The levels of a three-level wave scheme, h^{n+1} = h^n + R (h^n - h^{n-1}) + mu L(h^n)
// (damped-wave's eq. 2, advected-wave's eq. 10), stored in float with each level's rounding
// kept beside it: h^n exactly = h[k] + carry[k] (compensated summation).
//
// Why: storing h^{n+1} in float rounds it by up to ulp(h) / 2, and the next step reads that
// rounding as a velocity (h^n - h^{n-1}), which the scheme keeps. The roundings sum to a random
// walk of the velocity whose smooth part the surface integrates, growing as n^{3/2}: about
// 1e-4 of a standing mode's amplitude after 480 steps, a floor that hid the schemes' second
// order beyond 128 cells (builtin:standing-wave-convergence). With the carry the velocity holds
// only the rounding of the small increment. L still reads the rounded h^n; its error
// mu L(carry) is noise of an ulp, which L keeps out of the smooth modes.
#pragma once

#include <cstddef>

namespace wb {

struct CarriedLevels {
  const float* __restrict h;
  const float* __restrict hOld;
  float* __restrict hNew;
  const float* __restrict carry;
  const float* __restrict carryOld;
  float* __restrict carryNew;

  // h^n - h^{n-1} with both levels' carries.
  float rate(std::size_t k) const { return (h[k] - hOld[k]) + (carry[k] - carryOld[k]); }

  // h^{n+1} = h^n + increment, its float rounding kept in carryNew (Fast2Sum: exact when
  // |h^n| >= |carry + increment|, else within an ulp of that sum).
  void advance(std::size_t k, float increment) const {
    const float exact = carry[k] + increment;
    const float sum = h[k] + exact;
    carryNew[k] = exact - (sum - h[k]);
    hNew[k] = sum;
  }
};

}  // namespace wb
