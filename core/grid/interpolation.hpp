// Bilinear interpolation of a cell-centred field at a world point (Layton eq. 32; Stam's
// advect). Cell (i, j) has its centre at ((i + 0.5) dx, (j + 0.5) dx); points closer to the
// grid edge than half a cell are clamped onto the outermost centres, so the result is always
// a convex combination of stored values.
#pragma once

#include <algorithm>
#include <cmath>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"

namespace wb {

inline float sampleBilinear(const Field2D& f, double dx, double x, double y) {
  const double gx = std::clamp(x / dx - 0.5, 0.0, double(f.nx() - 1));
  const double gy = std::clamp(y / dx - 0.5, 0.0, double(f.ny() - 1));
  const int i0 = std::clamp(int(gx), 0, std::max(0, f.nx() - 2));
  const int j0 = std::clamp(int(gy), 0, std::max(0, f.ny() - 2));
  const int i1 = std::min(i0 + 1, f.nx() - 1), j1 = std::min(j0 + 1, f.ny() - 1);
  const float sx = float(gx - i0), sy = float(gy - j0);
  const float bottom = (1.0f - sx) * f(i0, j0) + sx * f(i1, j0);
  const float top = (1.0f - sx) * f(i0, j1) + sx * f(i1, j1);
  return (1.0f - sy) * bottom + sy * top;
}

inline float sampleBilinear(const Field2D& f, const Grid& grid, double x, double y) {
  return sampleBilinear(f, grid.dx, x, y);
}

}  // namespace wb
