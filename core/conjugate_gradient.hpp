// Matrix-free conjugate gradients (Hestenes & Stiefel 1952) for the symmetric positive
// (semi-)definite systems of the models: the damped-wave kinetic-energy potential, the
// advected-wave pressure Poisson equation and the shallow-water Helmholtz equation (Layton
// eq. 25). Works on the wet cells of a Domain; the caller's operator must leave solid cells 0.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/field2d.hpp"

namespace wb {

struct CgResult {
  int iterations = 0;
  double relativeResidual = 0.0;  // ||b - A x|| / ||b|| on wet cells
  bool converged = false;
};

class ConjugateGradient {
 public:
  using Operator = std::function<void(const Field2D& in, Field2D& out)>;

  ConjugateGradient() = default;
  ConjugateGradient(int nx, int ny);

  // Solves A x = b from the initial guess in x (warm start) until ||r|| <= tolerance ||b||.
  // With removeMean the system is taken as singular with constants in its null space (pure
  // Neumann walls): b and x are projected to zero mean over the wet cells.
  CgResult solve(const Operator& apply, const Field2D& b, Field2D& x,
                 const std::vector<std::uint8_t>& wet, double tolerance, int maxIterations,
                 bool removeMean = false);

 private:
  Field2D residual_, direction_, product_, rhs_;
};

}  // namespace wb
