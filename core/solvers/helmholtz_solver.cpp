#include "core/solvers/helmholtz_solver.hpp"

#include <utility>

#include "core/solvers/multigrid.hpp"
#include "core/solvers/red_black_cg.hpp"

namespace wb {
namespace {

class PlainCg final : public HelmholtzSolver {
 public:
  PlainCg(const std::vector<std::uint8_t>& wet, ConjugateGradient::FusedOperator apply)
      : wet_(wet), apply_(std::move(apply)) {}
  // The operator reads the coefficients where the caller keeps them.
  void updateCoefficients(const Field2D&, const Field2D&, const Field2D&) override {}
  CgResult solve(const Field2D& b, Field2D& x, double tolerance, int maxIterations) override {
    return cg_.solveFused(apply_, b, x, wet_, tolerance, maxIterations);
  }

 private:
  const std::vector<std::uint8_t>& wet_;
  ConjugateGradient::FusedOperator apply_;
  ConjugateGradient cg_;
};

class ReducedCg final : public HelmholtzSolver {
 public:
  explicit ReducedCg(const std::vector<std::uint8_t>& wet) : wet_(wet) {}
  void updateCoefficients(const Field2D& shift, const Field2D& faceX,
                          const Field2D& faceY) override {
    cg_.updateCoefficients(shift, faceX, faceY, wet_);
  }
  CgResult solve(const Field2D& b, Field2D& x, double tolerance, int maxIterations) override {
    return cg_.solve(b, x, tolerance, maxIterations);
  }

 private:
  const std::vector<std::uint8_t>& wet_;
  RedBlackCg cg_;
};

class VCycles final : public HelmholtzSolver {
 public:
  // The levels are built once for the mask; each step only recomputes their coefficients.
  VCycles(int nx, int ny, const std::vector<std::uint8_t>& wet) {
    multigrid_.setup(FivePointSystem::fromMask(nx, ny, wet, 1.0f));
  }
  void updateCoefficients(const Field2D& shift, const Field2D& faceX,
                          const Field2D& faceY) override {
    multigrid_.updateCoefficients(shift, faceX, faceY);
  }
  CgResult solve(const Field2D& b, Field2D& x, double tolerance, int maxIterations) override {
    return multigrid_.solve(b, x, tolerance, maxIterations);
  }

 private:
  Multigrid multigrid_;
};

}  // namespace

std::unique_ptr<HelmholtzSolver> makeHelmholtzSolver(HelmholtzMethod method, int nx, int ny,
                                                     const std::vector<std::uint8_t>& wet,
                                                     ConjugateGradient::FusedOperator apply) {
  switch (method) {
    case HelmholtzMethod::Cg:
      return std::make_unique<PlainCg>(wet, std::move(apply));
    case HelmholtzMethod::ReducedCg:
      return std::make_unique<ReducedCg>(wet);
    case HelmholtzMethod::Multigrid:
      return std::make_unique<VCycles>(nx, ny, wet);
  }
  return nullptr;
}

}  // namespace wb
