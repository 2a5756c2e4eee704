// The exact solutions the models are measured against (core/measure/references.hpp): Stoker's
// middle state must satisfy the Rankine-Hugoniot conditions at the shock and join the
// rarefaction fan continuously; Ritter's fan reaches zero depth at x0 + 2 t sqrt(g hl); both
// keep the water's volume and the fan's Riemann invariant; a standing mode solves the linear
// shallow-water wave equation; Thacker's bowl the nonlinear ones.
#include <algorithm>
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "core/measure/references.hpp"

namespace {
constexpr double kG = 9.81;
}
using wb::DamBreak;
using wb::StandingMode;
using wb::ThackerBowl;

TEST(DamBreakReference, StokerMiddleStateSatisfiesRankineHugoniot) {
  for (const double hr : {0.1, 0.2, 0.5, 0.8}) {
    SCOPED_TRACE(hr);
    const double hl = 1.0, x0 = 0.0, t = 1.0;
    const DamBreak exact(kG, hl, hr, x0);
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
  const DamBreak exact(kG, hl, 0.0, x0);
  EXPECT_DOUBLE_EQ(exact.depth(x0 - t * cl - 1e-6, t), hl);
  EXPECT_NEAR(exact.depth(x0, t), 4.0 / 9.0 * hl, 1e-12);  // the dam's depth stays 4/9 hl
  EXPECT_NEAR(exact.depth(x0 + 2.0 * t * cl - 1e-6, t), 0.0, 1e-9);
  EXPECT_EQ(exact.depth(x0 + 2.0 * t * cl + 1e-6, t), 0.0);
}

// Volume: the water that left x < x0 is beyond it (midpoint rule over 60 m, 1e-4 m cells), and
// in the fan u + 2 sqrt(g h) = 2 sqrt(g hl); the front is where the depth ends or jumps.
TEST(DamBreakReference, KeepsVolumeAndTheFansInvariant) {
  for (const double hr : {0.0, 0.1, 0.5}) {
    SCOPED_TRACE(hr);
    const double hl = 1.0, x0 = 20.0, t = 1.5, cl = std::sqrt(kG * hl);
    const DamBreak exact(kG, hl, hr, x0);
    double volume = 0.0;
    const double dx = 1e-4;
    for (double x = 0.5 * dx; x < 60.0; x += dx)
      volume += exact.depth(x, t) * dx;
    EXPECT_NEAR(volume, hl * x0 + hr * (60.0 - x0), 1e-3);
    for (const double xi : {-0.9 * cl, 0.0, 0.5 * cl}) {
      const double x = x0 + xi * t, h = exact.depth(x, t);
      if (h < exact.middleDepth() + 1e-9) continue;  // past the fan
      EXPECT_NEAR(exact.velocity(x, t) + 2.0 * std::sqrt(kG * h), 2.0 * cl, 1e-12) << xi;
    }
    const double front = exact.front(t);
    EXPECT_GT(exact.depth(front - 1e-3, t), hr);
    EXPECT_EQ(exact.depth(front + 1e-3, t), hr);
    EXPECT_EQ(exact.velocity(front + 1e-3, t), 0.0);
  }
  EXPECT_DOUBLE_EQ(DamBreak(kG, 1.0, 0.0, 0.0).front(2.0), 4.0 * std::sqrt(kG));
}

// eta_tt = g d (eta_xx + eta_yy) by central differences at interior points and times, the
// walls' eta_x = 0 (x = 0, lx) and eta_y = 0, and the period from omega.
TEST(StandingModeReference, SolvesTheLinearShallowWaterEquation) {
  const StandingMode mode{kG, 0.8, 12.0, 7.0, 2, 1, 0.01};
  const double h = 1e-3, c2 = kG * 0.8;
  for (const double t : {0.3, 2.1, 5.0})
    for (const double x : {1.0, 4.3, 9.9})
      for (const double y : {0.7, 3.5, 6.1}) {
        const double tt =
            (mode.eta(x, y, t + h) - 2 * mode.eta(x, y, t) + mode.eta(x, y, t - h)) / (h * h);
        const double xx =
            (mode.eta(x + h, y, t) - 2 * mode.eta(x, y, t) + mode.eta(x - h, y, t)) / (h * h);
        const double yy =
            (mode.eta(x, y + h, t) - 2 * mode.eta(x, y, t) + mode.eta(x, y - h, t)) / (h * h);
        EXPECT_NEAR(tt, c2 * (xx + yy), 1e-6 * mode.amplitude * mode.omega() * mode.omega());
      }
  for (const double y : {0.5, 3.0})
    EXPECT_NEAR(mode.eta(h, y, 1.0) - mode.eta(-h, y, 1.0), 0.0, 1e-15);
  EXPECT_NEAR(mode.period(), 2.0 * std::sqrt(1.0 / (kG * 0.8 * (4.0 / 144.0 + 1.0 / 49.0))), 1e-12);
  EXPECT_DOUBLE_EQ(mode.eta(0.0, 0.0, mode.period()), 0.01);
}

// Thacker's bowl solves the nonlinear shallow-water equations in radial form, by central
// differences at wet points and times:
//   d_t + (1 / r) (r d u)_r = 0,   u_t + u u_r + g eta_r = 0,
// keeps its volume, starts at rest with the shoreline at sqrt(a r0), and its shoreline never
// passes maxShorelineRadius (and reaches it).
TEST(ThackerReference, SolvesTheRadialShallowWaterEquations) {
  const ThackerBowl bowl{kG, 1.0, 0.1, 0.8, 0.0, 0.0};
  const auto depth = [&](double r, double t) {
    return bowl.eta(r, 0.0, t) + bowl.restDepth(r, 0.0);
  };
  const auto u = [&](double r, double t) { return bowl.radialVelocity(r, 0.0, t); };
  const double h = 1e-5;
  for (const double t : {0.2, 0.9, 1.7, 3.1})
    for (const double r : {0.1, 0.4, 0.7}) {
      const double dt = (depth(r, t + h) - depth(r, t - h)) / (2 * h);
      const double flux =
          ((r + h) * depth(r + h, t) * u(r + h, t) - (r - h) * depth(r - h, t) * u(r - h, t)) /
          (2 * h * r);
      EXPECT_NEAR(dt + flux, 0.0, 1e-6) << "mass at r = " << r << ", t = " << t;
      const double ut = (u(r, t + h) - u(r, t - h)) / (2 * h);
      const double ur = (u(r + h, t) - u(r - h, t)) / (2 * h);
      const double etaR = (bowl.eta(r + h, 0.0, t) - bowl.eta(r - h, 0.0, t)) / (2 * h);
      EXPECT_NEAR(ut + u(r, t) * ur + kG * etaR, 0.0, 1e-5) << "momentum at r = " << r;
    }
  const auto volume = [&](double t) {
    double sum = 0.0;
    const double dr = 1e-4;
    for (double r = 0.5 * dr; r < 1.5; r += dr)
      sum += 2.0 * std::numbers::pi * r * dr * depth(r, t);
    return sum;
  };
  for (const double t : {0.5, 1.1, 2.0})
    EXPECT_NEAR(volume(t), volume(0.0), 1e-6 * volume(0.0));
  EXPECT_EQ(u(0.5, 0.0), 0.0);
  const double shore = std::sqrt(bowl.a * bowl.r0);
  EXPECT_GT(depth(shore - 1e-6, 0.0), 0.0);
  EXPECT_NEAR(depth(shore + 1e-6, 0.0), 0.0, 1e-12);
  double widest = 0.0;
  for (double t = 0.0; t < bowl.period(); t += bowl.period() / 200)
    for (double r = 0.0; r < 1.5; r += 1e-4)
      if (depth(r, t) > 0.0) widest = std::max(widest, r);
  EXPECT_NEAR(widest, bowl.maxShorelineRadius(), 2e-4);
  EXPECT_NEAR(bowl.eta(0.0, 0.0, bowl.period()), bowl.eta(0.0, 0.0, 0.0), 1e-15);
}
