// The one Helmholtz solver interface (core/solvers/helmholtz_solver.hpp): each method, made by
// makeHelmholtzSolver and handed Layton eq. 25's coefficients, meets its tolerance on the true
// residual recomputed from the coefficients (tests/unit/five_point_systems.hpp), and the three
// agree on the solution.
#include <gtest/gtest.h>

#include <cmath>

#include "core/solvers/helmholtz_solver.hpp"
#include "tests/unit/five_point_systems.hpp"

namespace wb {
namespace {

TEST(HelmholtzSolver, EveryMethodMeetsItsToleranceAndTheyAgree) {
  const Domain domain = piPool(96, 80);
  const FivePointSystem system = helmholtzSystem(domain);
  const std::vector<double> b = rightSide(domain);
  Field2D rhs(96, 80);
  for (std::size_t k = 0; k < b.size(); ++k)
    rhs.data()[k] = float(b[k]);
  constexpr double kTolerance = 1e-4;  // float vectors reach about 1e-5
  std::vector<std::vector<double>> solutions;
  for (HelmholtzMethod method :
       {HelmholtzMethod::Cg, HelmholtzMethod::ReducedCg, HelmholtzMethod::Multigrid}) {
    SCOPED_TRACE(int(method));
    auto solver = makeHelmholtzSolver(
        method, 96, 80, domain.wetMask(),
        [&](const Field2D& in, Field2D& out) { return applyFivePoint(system, in, out); });
    ASSERT_NE(solver, nullptr);
    solver->updateCoefficients(system.shift, system.faceX, system.faceY);
    Field2D x(96, 80);
    const CgResult result = solver->solve(rhs, x, kTolerance, 500);
    EXPECT_TRUE(result.converged) << result.iterations << " " << result.relativeResidual;
    EXPECT_GT(result.iterations, 0);
    std::vector<double> solution(x.data(), x.data() + x.size());
    // Float vectors: the true residual may exceed the solver's own by float rounding.
    EXPECT_LT(trueRelativeResidual(system, b, solution, false), 2 * kTolerance);
    solutions.push_back(solution);
  }
  // A's smallest eigenvalue is the shift 1, so ||x - y|| <= ||A (x - y)|| <= 4e-4 ||b||.
  double bNorm = 0.0;
  for (double v : b)
    bNorm += v * v;
  bNorm = std::sqrt(bNorm);
  for (std::size_t m = 1; m < solutions.size(); ++m) {
    double difference = 0.0;
    for (std::size_t k = 0; k < b.size(); ++k)
      difference += std::pow(solutions[m][k] - solutions[0][k], 2);
    EXPECT_LT(std::sqrt(difference), 4 * kTolerance * bNorm) << "method " << m;
  }
}

// New coefficients on the same solver (each step's faces change with the depth).
TEST(HelmholtzSolver, UpdatedCoefficientsAreTheOnesSolved) {
  const Domain domain = piPool(64);
  FivePointSystem system = helmholtzSystem(domain);
  const std::vector<double> b = rightSide(domain);
  Field2D rhs(64, 64);
  for (std::size_t k = 0; k < b.size(); ++k)
    rhs.data()[k] = float(b[k]);
  for (HelmholtzMethod method : {HelmholtzMethod::ReducedCg, HelmholtzMethod::Multigrid}) {
    SCOPED_TRACE(int(method));
    auto solver = makeHelmholtzSolver(method, 64, 64, domain.wetMask(), nullptr);
    solver->updateCoefficients(system.shift, system.faceX, system.faceY);
    Field2D x(64, 64);
    solver->solve(rhs, x, 1e-4, 500);
    FivePointSystem doubled = system;
    for (std::size_t k = 0; k < b.size(); ++k)
      doubled.faceX.data()[k] *= 2.0f, doubled.faceY.data()[k] *= 2.0f;
    solver->updateCoefficients(doubled.shift, doubled.faceX, doubled.faceY);
    Field2D y(64, 64);
    EXPECT_TRUE(solver->solve(rhs, y, 1e-4, 500).converged);
    std::vector<double> solution(y.data(), y.data() + y.size());
    EXPECT_LT(trueRelativeResidual(doubled, b, solution, false), 2e-4);
    EXPECT_GT(trueRelativeResidual(system, b, solution, false), 1e-3);  // not the old system's
  }
}

}  // namespace
}  // namespace wb
