// The analytic dam breaks the shallow-water verification measures against
// (models/verification/shallow_water_checks.hpp): Stoker's middle state must satisfy the
// Rankine-Hugoniot conditions at the shock and join the rarefaction fan continuously; Ritter's
// fan reaches zero depth at x0 + 2 t sqrt(g hl).
#include <cmath>

#include <gtest/gtest.h>

#include "models/verification/shallow_water_checks.hpp"

using namespace wb::shallow_water_checks;

TEST(DamBreakReference, StokerMiddleStateSatisfiesRankineHugoniot) {
  for (const double hr : {0.1, 0.2, 0.5, 0.8}) {
    SCOPED_TRACE(hr);
    const double hl = 1.0, x0 = 0.0, t = 1.0;
    const DamBreak exact(hl, hr, x0);
    const double hm = exact.middleDepth(), cl = std::sqrt(kG * hl), cm = std::sqrt(kG * hm);
    ASSERT_GT(hm, hr);
    ASSERT_LT(hm, hl);
    // The fan ends where its depth equals h_m (continuity) and the flow there is 2 (cl - cm).
    const double um = 2.0 * (cl - cm);
    EXPECT_NEAR(exact.depth(x0 + t * (2.0 * cl - 3.0 * cm) - 1e-9, t), hm, 1e-6);
    // Find the shock: the last x with depth h_m.
    double shock = 0.0;
    for (double x = 0.0; x < 10.0; x += 1e-5)
      if (std::fabs(exact.depth(x, t) - hm) < 1e-12) shock = x;
    const double s = (shock - x0) / t;
    // Mass: s (hm - hr) = hm um; momentum: s (hm um) = hm um^2 + g (hm^2 - hr^2) / 2.
    EXPECT_NEAR(s * (hm - hr), hm * um, 1e-3);
    EXPECT_NEAR(s * hm * um, hm * um * um + 0.5 * kG * (hm * hm - hr * hr), 5e-3);
    EXPECT_DOUBLE_EQ(exact.depth(shock + 1e-3, t), hr);
  }
}

TEST(DamBreakReference, RitterFanEndsAtTwiceTheCelerity) {
  const double hl = 1.0, x0 = 5.0, t = 2.0, cl = std::sqrt(kG * hl);
  const DamBreak exact(hl, 0.0, x0);
  EXPECT_DOUBLE_EQ(exact.depth(x0 - t * cl - 1e-6, t), hl);
  EXPECT_NEAR(exact.depth(x0, t), 4.0 / 9.0 * hl, 1e-12);  // the dam's depth stays 4/9 hl
  EXPECT_NEAR(exact.depth(x0 + 2.0 * t * cl - 1e-6, t), 0.0, 1e-9);
  EXPECT_EQ(exact.depth(x0 + 2.0 * t * cl + 1e-6, t), 0.0);
}
