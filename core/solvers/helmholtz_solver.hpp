// One interface for the solvers of a shifted five-point system of core/solvers/multigrid.hpp's
// form
//   (A x)_c = s_c x_c + sum over the 4 faces f of c: w_f (x_c - x_neighbour)   on wet cells,
// s_c > 0, w_f >= 0 (0 across walls, dry faces and the grid edge): swe-semi-lagrangian's
// Helmholtz equation (Layton & van de Panne eq. 25, s = 1). A model chooses a method once
// (makeHelmholtzSolver) and, every step, hands the solver the step's coefficients and solves.
//
// The methods and when each wins are in swe_semi_lagrangian.hpp (kMultigridMinCoupling,
// kReducedMinCoupling): plain CG (conjugate_gradient.hpp), CG on the red-black reduced system
// (red_black_cg.hpp) and float multigrid V-cycles (multigrid.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/grid/field2d.hpp"
#include "core/solvers/conjugate_gradient.hpp"

namespace wb {

class HelmholtzSolver {
 public:
  virtual ~HelmholtzSolver() = default;
  // The step's coefficients on the solver's mask (allocates only at the first call).
  virtual void updateCoefficients(const Field2D& shift, const Field2D& faceX,
                                  const Field2D& faceY) = 0;
  // Solves A x = b from the guess in x until ||b - A x|| <= tolerance ||b|| over the wet
  // cells or maxIterations iterations (V-cycles for multigrid). Solid cells of x are kept.
  virtual CgResult solve(const Field2D& b, Field2D& x, double tolerance, int maxIterations) = 0;
};

// The values are those of swe-semi-lagrangian's helmholtz_solver parameter.
enum class HelmholtzMethod { Cg = 1, Multigrid = 2, ReducedCg = 3 };

// A solver for the nx x ny grid whose wet cells are `wet` (1 wet, 0 solid; kept by reference:
// it must outlive the solver). Plain CG's cost is its operator, so it applies the caller's
// fused kernel of the same coefficients, `apply` (out = A in, returning in . out); the other
// methods ignore it.
std::unique_ptr<HelmholtzSolver> makeHelmholtzSolver(HelmholtzMethod method, int nx, int ny,
                                                     const std::vector<std::uint8_t>& wet,
                                                     ConjugateGradient::FusedOperator apply);

}  // namespace wb
