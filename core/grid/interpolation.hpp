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

// The four cell centres around (x, y) and the point's fractions between them.
struct BilinearCell {
  int i0 = 0, j0 = 0, i1 = 0, j1 = 0;
  double sx = 0.0, sy = 0.0;
};

inline BilinearCell bilinearCell(const Field2D& f, double dx, double x, double y) {
  // Clamped to the grid; NaN fails "> 0" and goes to the first cell (std::clamp would keep it,
  // and int(NaN) is undefined).
  const double px = x / dx - 0.5, py = y / dx - 0.5;
  const double gx = px > 0.0 ? std::min(px, double(f.nx() - 1)) : 0.0;
  const double gy = py > 0.0 ? std::min(py, double(f.ny() - 1)) : 0.0;
  BilinearCell c;
  c.i0 = std::clamp(int(gx), 0, std::max(0, f.nx() - 2));
  c.j0 = std::clamp(int(gy), 0, std::max(0, f.ny() - 2));
  c.i1 = std::min(c.i0 + 1, f.nx() - 1), c.j1 = std::min(c.j0 + 1, f.ny() - 1);
  c.sx = gx - c.i0, c.sy = gy - c.j0;
  return c;
}

// The interpolant in a cell found by bilinearCell of the values value(i, j) of a field of that
// grid's shape, read where needed (a model's field derived from others, at a gauge).
template <class Value>
float sampleBilinear(const BilinearCell& c, Value value) {
  const float sx = float(c.sx), sy = float(c.sy);
  const float bottom = (1.0f - sx) * value(c.i0, c.j0) + sx * value(c.i1, c.j0);
  const float top = (1.0f - sx) * value(c.i0, c.j1) + sx * value(c.i1, c.j1);
  return (1.0f - sy) * bottom + sy * top;
}

// The interpolant of f in a cell found for a field of f's shape (fields that share a grid
// share their cells: one lookup serves them all).
inline float sampleBilinear(const Field2D& f, const BilinearCell& c) {
  return sampleBilinear(c, [&f](int i, int j) { return f(i, j); });
}

inline float sampleBilinear(const Field2D& f, double dx, double x, double y) {
  return sampleBilinear(f, bilinearCell(f, dx, x, y));
}

// The interpolant in double and its gradient (per metre), from one fetch of the four cells.
struct BilinearSample {
  double value = 0.0, slopeX = 0.0, slopeY = 0.0;
};

inline BilinearSample sampleBilinearWithSlope(const Field2D& f, double dx, double x, double y) {
  const BilinearCell c = bilinearCell(f, dx, x, y);
  const double a = f(c.i0, c.j0), b = f(c.i1, c.j0), d = f(c.i0, c.j1), e = f(c.i1, c.j1);
  const double bottom = a + c.sx * (b - a), top = d + c.sx * (e - d);
  return {bottom + c.sy * (top - bottom), ((1 - c.sy) * (b - a) + c.sy * (e - d)) / dx,
          (top - bottom) / dx};
}

inline float sampleBilinear(const Field2D& f, const Grid& grid, double x, double y) {
  return sampleBilinear(f, grid.dx, x, y);
}

}  // namespace wb
