// Fields and measurements the shallow-water models' verification cases share (one way to
// make a mode, a hump or a front measurement for swe-semi-lagrangian and swe-adi alike).
#pragma once

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"

namespace wb::shallow_water_checks {

constexpr double kPi = std::numbers::pi;
constexpr double kG = 9.81;

// The cosine mode (m, n) of a closed rectangular basin, cos(m pi x / Lx) cos(n pi y / Ly).
inline Field2D cosineMode(const Grid& grid, int m, int n, double amplitude) {
  Field2D mode(grid.nx, grid.ny);
  for (int j = 0; j < grid.ny; ++j)
    for (int i = 0; i < grid.nx; ++i)
      mode(i, j) = float(amplitude * std::cos(m * kPi * grid.x(i) / grid.width()) *
                         std::cos(n * kPi * grid.y(j) / grid.height()));
  return mode;
}

// The mode's amplitude in eta: <eta, mode> / <mode, mode>.
inline double projection(const Field2D& eta, const Field2D& mode) {
  double dot = 0.0, norm = 0.0;
  for (std::size_t k = 0; k < eta.size(); ++k) {
    dot += double(eta.data()[k]) * mode.data()[k];
    norm += double(mode.data()[k]) * mode.data()[k];
  }
  return dot / norm;
}

// amplitude exp(-r^2 / radius^2) around (x0, y0).
inline Field2D gaussian(const Grid& grid, double x0, double y0, double radius, double amplitude) {
  Field2D f(grid.nx, grid.ny);
  for (int j = 0; j < grid.ny; ++j)
    for (int i = 0; i < grid.nx; ++i) {
      const double r2 = std::pow(grid.x(i) - x0, 2) + std::pow(grid.y(j) - y0, 2);
      f(i, j) = float(amplitude * std::exp(-r2 / (radius * radius)));
    }
  return f;
}

// The shallow-water models' front-speed case. A 1-D strip 256 m long: a Gaussian hump at x = 64 m
// splits and its right half travels towards +x. Depth 1 m up to x = 128 m, then a ramp over 16 m to
// shelfDepth. The speed is measured from the sub-cell position of the right-going peak at two
// times.
template <class MakeModel>
double frontSpeed(const MakeModel& makeModel, double shelfDepth, double tStart, double tEnd) {
  const int nx = 256, ny = 4;
  Domain domain(Grid{nx, ny, 1.0}, kG, 1.0);
  Field2D depth(nx, ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const double s = std::clamp((domain.grid().x(i) - 128.0) / 16.0, 0.0, 1.0);
      depth(i, j) = float(1.0 + s * (shelfDepth - 1.0));
    }
  domain.setRestDepth(depth);
  Field2D eta0(nx, ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      eta0(i, j) = float(1e-3 * std::exp(-std::pow((domain.grid().x(i) - 64.0) / 4.0, 2)));
  const double dt = 0.25 / std::sqrt(kG);  // a quarter of the explicit limit: accuracy
  auto model = makeModel(dt);
  model.reset(domain, eta0);
  const auto peakAt = [&](double from) {
    const int row = 1;
    int best = int(from);
    for (int i = int(from); i < nx - 1; ++i)
      if (model.eta()(i, row) > model.eta()(best, row)) best = i;
    // Parabola through the peak and its neighbours.
    const double l = model.eta()(best - 1, row), c = model.eta()(best, row),
                 r = model.eta()(best + 1, row);
    return domain.grid().x(best) + 0.5 * (l - r) / (l - 2 * c + r);
  };
  double t = 0.0, x0 = 0.0;
  const double searchFrom = 70.0;  // right of the start: only the right-going pulse
  while (t < tEnd - 1e-9) {
    model.step(dt);
    t += dt;
    if (std::fabs(t - tStart) < 0.5 * dt) x0 = peakAt(searchFrom);
  }
  return (peakAt(searchFrom) - x0) / (tEnd - tStart);
}

}  // namespace wb::shallow_water_checks
