#include "core/study/finest_run_errors.hpp"

#include <algorithm>
#include <cmath>

#include "core/grid/interpolation.hpp"

namespace wb {

ReferenceErrors errorsAgainstFinerRun(const Field2D& eta, const Domain& domain, const Field2D& fine,
                                      const Grid& fineGrid) {
  const Grid& grid = domain.grid();
  double l1 = 0.0, l2 = 0.0, norm1 = 0.0, norm2 = 0.0;
  ReferenceErrors errors;
  for (int j = 0; j < grid.ny; ++j)
    for (int i = 0; i < grid.nx; ++i) {
      if (!domain.isWet(i, j)) continue;
      const double rest = domain.restDepth()(i, j);
      const double fineEta = sampleBilinear(fine, fineGrid, grid.x(i), grid.y(j));
      const double depth = std::max(0.0, double(eta(i, j)) + rest);
      const double exact = std::max(0.0, fineEta + rest);
      if (depth <= 0.0 && exact <= 0.0) continue;
      l1 += std::fabs(depth - exact), norm1 += exact;
      l2 += (depth - exact) * (depth - exact), norm2 += exact * exact;
      errors.max = std::max(errors.max, std::fabs(double(eta(i, j)) - fineEta));
    }
  errors.l1 = norm1 > 0.0 ? l1 / norm1 : 0.0;
  errors.l2 = norm2 > 0.0 ? std::sqrt(l2 / norm2) : 0.0;
  return errors;
}

}  // namespace wb
