// Conjugate gradients on the red-black reduced system (core/solvers/red_black_cg.hpp) against plain
// CG on the full Helmholtz system (Layton eq. 25's form, tests/unit/five_point_systems.hpp), with
// the true residual of the full system recomputed from its coefficients.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "core/solvers/conjugate_gradient.hpp"
#include "core/solvers/red_black_cg.hpp"
#include "tests/unit/five_point_systems.hpp"

namespace wb {
namespace {

// swe-semi-lagrangian's cg_tolerance; above the float rounding floor of this system.
constexpr double kTolerance = 1e-4;
// Marks solid cells, which neither solver may change.
constexpr float kSolidValue = 7.0f;

Field2D solidMarked(const FivePointSystem& s) {
  Field2D x(s.shift.nx(), s.shift.ny());
  for (std::size_t k = 0; k < x.size(); ++k)
    if (!s.wet[k]) x.data()[k] = kSolidValue;
  return x;
}

// Both solvers from zero on the Pi pool (odd and even sides, both parities of the corner
// cell): the reduced solve meets the full system's tolerance, reports its true residual,
// leaves solid cells alone, agrees with plain CG, and needs at most 0.6 of its iterations
// (kappa 33 against 129 at face weight 16: sqrt 5.7 against 11.4, on half the cells).
TEST(RedBlackCg, SolvesTheFullHelmholtzSystemInFewerIterations) {
  const int sizes[][2] = {{64, 64}, {63, 65}, {128, 97}};
  for (const auto& [nx, ny] : sizes) {
    const Domain domain = piPool(nx, ny);
    const FivePointSystem system = helmholtzSystem(domain);
    const std::vector<double> bValues = rightSide(domain);
    const Field2D b = toField(nx, ny, bValues);
    RedBlackCg reduced;
    reduced.updateCoefficients(system.shift, system.faceX, system.faceY, system.wet);
    Field2D x = solidMarked(system);
    const CgResult result = reduced.solve(b, x, kTolerance, 1000);
    EXPECT_TRUE(result.converged) << nx << "x" << ny;
    const double residual = trueRelativeResidual(system, bValues, toDoubles(x), false);
    EXPECT_LE(residual, 1.01 * kTolerance) << nx << "x" << ny;
    EXPECT_NEAR(residual, result.relativeResidual, 0.02 * residual) << nx << "x" << ny;
    for (std::size_t k = 0; k < x.size(); ++k) {
      if (!system.wet[k]) {
        ASSERT_EQ(x.data()[k], kSolidValue) << k;
      }
    }

    ConjugateGradient plain;
    Field2D xPlain = solidMarked(system);
    const auto apply = [&](const Field2D& in, Field2D& out) { applyFivePoint(system, in, out); };
    const CgResult plainResult = plain.solve(apply, b, xPlain, system.wet, kTolerance, 1000);
    // Plain float CG stops on its recurrence, whose drift leaves the true residual up to a
    // few 1e-8 above the tolerance (measured 1.00033e-4 at 128x97).
    EXPECT_LE(plainResult.relativeResidual, 1.01 * kTolerance);
    EXPECT_LE(result.iterations, 0.6 * plainResult.iterations) << nx << "x" << ny;
    // Both residuals are at most 1e-4 ||b||, and A's smallest eigenvalue is at least 1.
    double dd = 0.0, bb = 0.0;
    for (std::size_t k = 0; k < x.size(); ++k) {
      const double d = double(x.data()[k]) - xPlain.data()[k];
      dd += system.wet[k] ? d * d : 0.0;
      bb += system.wet[k] ? bValues[k] * bValues[k] : 0.0;
    }
    EXPECT_LE(std::sqrt(dd / bb), 2.0 * kTolerance) << nx << "x" << ny;
    std::printf("%dx%d: plain CG %d iterations, reduced %d, residual %.2e\n", nx, ny,
                plainResult.iterations, result.iterations, residual);
  }
}

// S is symmetric and positive definite on the wet kept cells: u.Sv = v.Su, u.Su > 0.
TEST(RedBlackCg, ReducedOperatorIsSymmetricPositive) {
  const Domain domain = piPool(41, 38);
  const FivePointSystem system = helmholtzSystem(domain);
  RedBlackCg reduced;
  reduced.updateCoefficients(system.shift, system.faceX, system.faceY, system.wet);
  const int width = reduced.packedWidth();
  Field2D u(width + 2, 40), v(width + 2, 40), su(width + 2, 40), sv(width + 2, 40);
  // Kept cell k of row j is full cell (2k + (j & 1), j); only wet ones get values.
  for (int j = 0; j < 38; ++j)
    for (int k = 0; 2 * k + (j & 1) < 41; ++k) {
      if (!system.wet[system.shift.index(2 * k + (j & 1), j)]) continue;
      u(k + 1, j + 1) = float(std::sin(0.37 * (k + 50 * j)));
      v(k + 1, j + 1) = float(std::cos(0.11 * (k + 50 * j)));
    }
  const double uSu = reduced.applyReduced(u, su);
  reduced.applyReduced(v, sv);
  double vSu = 0.0, uSv = 0.0;
  for (std::size_t k = 0; k < u.size(); ++k)
    vSu += double(v.data()[k]) * su.data()[k], uSv += double(u.data()[k]) * sv.data()[k];
  EXPECT_NEAR(vSu, uSv, 1e-5 * uSu);
  EXPECT_GT(uSu, 0.0);
}

// A converged warm start costs no iteration and stays converged.
TEST(RedBlackCg, KeepsAConvergedWarmStart) {
  const Domain domain = piPool(64);
  const FivePointSystem system = helmholtzSystem(domain);
  const std::vector<double> bValues = rightSide(domain);
  const Field2D b = toField(64, bValues);
  RedBlackCg reduced;
  reduced.updateCoefficients(system.shift, system.faceX, system.faceY, system.wet);
  Field2D x(64, 64);
  ASSERT_TRUE(reduced.solve(b, x, kTolerance, 1000).converged);
  const CgResult again = reduced.solve(b, x, kTolerance, 1000);
  EXPECT_EQ(again.iterations, 0);
  EXPECT_TRUE(again.converged);
  EXPECT_LE(trueRelativeResidual(system, bValues, toDoubles(x), false), 1.01 * kTolerance);
}

// b = 0 has the solution 0: no iterations, wet cells set to 0 from any start, solid ones kept.
TEST(RedBlackCg, ZeroRightSideGivesZero) {
  const Domain domain = piPool(40, 37);
  const FivePointSystem system = helmholtzSystem(domain);
  RedBlackCg reduced;
  reduced.updateCoefficients(system.shift, system.faceX, system.faceY, system.wet);
  Field2D x = solidMarked(system);
  for (std::size_t k = 0; k < x.size(); ++k)
    if (system.wet[k]) x.data()[k] = 0.25f;
  const CgResult result = reduced.solve(Field2D(40, 37), x, kTolerance, 100);
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(result.iterations, 0);
  for (std::size_t k = 0; k < x.size(); ++k)
    ASSERT_EQ(x.data()[k], system.wet[k] ? 0.0f : kSolidValue) << k;
}

// The solve runs in one parallel region whose threads meet at barriers and each sum the team's
// partial sums: on two threads (bands of rows, the rows beside a band read from the other
// thread) it meets the tolerance on the full system's true residual and gives the one-thread
// solution to within the tolerance, in the same number of iterations give or take one.
TEST(RedBlackCg, TwoThreadsMeetTheToleranceAndAgreeWithOne) {
  const int nx = 161, ny = 150;  // above worthThreads' 128^2; an odd row length
  const Domain domain = piPool(nx, ny);
  const FivePointSystem system = helmholtzSystem(domain);
  const std::vector<double> bValues = rightSide(domain);
  const Field2D b = toField(nx, ny, bValues);
  const int before = omp_get_max_threads();
  const auto run = [&](int threads, CgResult& result) {
    omp_set_num_threads(threads);
    RedBlackCg reduced;
    reduced.updateCoefficients(system.shift, system.faceX, system.faceY, system.wet);
    Field2D x = solidMarked(system);
    result = reduced.solve(b, x, kTolerance, 1000);
    return x;
  };
  CgResult one, two;
  const Field2D xOne = run(1, one), xTwo = run(2, two);
  omp_set_num_threads(before);
  EXPECT_TRUE(two.converged);
  const double residual = trueRelativeResidual(system, bValues, toDoubles(xTwo), false);
  EXPECT_LE(residual, 1.01 * kTolerance);
  EXPECT_NEAR(residual, two.relativeResidual, 0.02 * residual);
  EXPECT_LE(std::abs(one.iterations - two.iterations), 1);
  double dd = 0.0, bb = 0.0;
  for (std::size_t k = 0; k < xOne.size(); ++k) {
    if (!system.wet[k]) {
      ASSERT_EQ(xTwo.data()[k], kSolidValue) << k;
      continue;
    }
    const double d = double(xOne.data()[k]) - xTwo.data()[k];
    dd += d * d, bb += bValues[k] * bValues[k];
  }
  // Both residuals are at most 1e-4 ||b|| and A's smallest eigenvalue is 1.
  EXPECT_LE(std::sqrt(dd / bb), 2.0 * kTolerance);
}

}  // namespace
}  // namespace wb
