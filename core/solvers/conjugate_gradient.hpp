// Matrix-free conjugate gradients (Hestenes & Stiefel 1952) for the symmetric positive
// (semi-)definite systems of the models: the damped-wave kinetic-energy potential, the
// advected-wave pressure Poisson equation and the shallow-water Helmholtz equation (Layton
// eq. 25). Works on the wet cells of a Domain.
//
// Operator contract: A maps a field that is 0 on solid cells to one that is 0 there. The
// residual and direction are 0 on solid cells from the start (the initial residual is masked),
// so the iterations need no mask: dot products over all cells equal those over wet cells.
//
// Cost per iteration (memory-bound): the operator, then one fused pass x += alpha p,
// r -= alpha q with r.r, then p = r + beta p. An operator that also returns p.(A p) (a
// FusedOperator) saves the separate pass for that dot product.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/grid/field2d.hpp"

namespace wb {

struct CgResult {
  int iterations = 0;
  double relativeResidual = 0.0;  // ||b - A x|| / ||b|| on wet cells
  bool converged = false;
};

class ConjugateGradient {
 public:
  // out = A in. Called once per iteration, so the std::function call costs nothing next to the
  // pass over the grid inside it.
  using Operator = std::function<void(const Field2D& in, Field2D& out)>;
  // out = A in, returning sum(in * out) (in double) over the cells.
  using FusedOperator = std::function<double(const Field2D& in, Field2D& out)>;

  ConjugateGradient() = default;
  ConjugateGradient(int nx, int ny);

  // Solves A x = b from the initial guess in x (warm start) until ||r|| <= tolerance ||b||.
  // With removeMean the system is taken as singular with constants in its null space (pure
  // Neumann walls): b and x are projected to zero mean over the wet cells.
  CgResult solve(const Operator& apply, const Field2D& b, Field2D& x,
                 const std::vector<std::uint8_t>& wet, double tolerance, int maxIterations,
                 bool removeMean = false);
  CgResult solveFused(const FusedOperator& apply, const Field2D& b, Field2D& x,
                      const std::vector<std::uint8_t>& wet, double tolerance, int maxIterations,
                      bool removeMean = false);

 private:
  Field2D residual_, direction_, product_, rhs_;
};

// Preconditioned conjugate gradients with the vectors in double: in float, the true residual of
// a smooth solution on a large grid cannot fall below about 8 eps / lambda_min (1e-2 for the
// Neumann Poisson equation at 512^2), far above the tolerances the preconditioner can reach.
// The operator and the preconditioner map a vector that is 0 on solid cells to one that is 0
// there (the iterations then need no mask). The work vectors are allocated by the first solve
// of a size and reused.
class PreconditionedCg {
 public:
  using Operator = std::function<void(const double* in, double* out)>;
  // z = M^{-1} r, symmetric positive definite on the wet cells.
  using Preconditioner = std::function<void(const double* r, double* z)>;

  // Solves A x = b from the initial guess in x until the true residual ||b - A x|| <=
  // tolerance ||b|| (x and the residual in double). removeMean: constants are in A's null space
  // (pure Neumann walls); b, x and every preconditioned residual are projected to zero mean.
  CgResult solve(const Operator& apply, const Preconditioner& precondition, const double* b,
                 double* x, const std::vector<std::uint8_t>& wet, double tolerance,
                 int maxIterations, bool removeMean = false);
  // The same for float fields (converted on entry and exit).
  CgResult solve(const Operator& apply, const Preconditioner& precondition, const Field2D& b,
                 Field2D& x, const std::vector<std::uint8_t>& wet, double tolerance,
                 int maxIterations, bool removeMean = false);

 private:
  CgResult iterate(const Operator& apply, const Preconditioner& precondition, double* x,
                   const std::vector<std::uint8_t>& wet, double bNorm, double tolerance,
                   int maxIterations, bool removeMean);
  std::vector<double> rhs_, solution_, residual_, preconditioned_, direction_, product_;
};

// Kernels of one CG iteration, exposed for the benchmarks (tests/bench).
namespace cg_kernels {
// sum(a * b) in double.
double dot(const float* a, const float* b, std::size_t n);
// x += alpha p, r -= alpha q; returns r.r (one pass).
double updateSolutionAndResidual(float* x, float* r, const float* p, const float* q, float alpha,
                                 std::size_t n);
// p = r + beta p.
void updateDirection(float* p, const float* r, float beta, std::size_t n);
}  // namespace cg_kernels

}  // namespace wb
