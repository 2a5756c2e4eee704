// Fields and measurements the shallow-water models' verification cases share (one way to
// make a mode, a hump or a front measurement for swe-semi-lagrangian and swe-adi alike).
#pragma once

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <string>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"
#include "core/measure/references.hpp"
#include "models/verification/verification.hpp"

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

// Uneven ground: a seamount reaching 0.1 m below the surface, ripples, an island and a shelf.
inline Domain unevenBasin(int n) {
  Domain domain(Grid{n, n, 1.0}, kG, 2.0);
  Field2D depth(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const double x = domain.grid().x(i), y = domain.grid().y(j);
      const double mount =
          1.9 * std::exp(-(std::pow(x - 0.3 * n, 2) + std::pow(y - 0.6 * n, 2)) / 40.0);
      const double ripple = 0.3 * std::sin(0.7 * x) * std::cos(0.5 * y);
      const double shelf = x > 0.8 * n ? 1.2 : 0.0;
      depth(i, j) = float(std::max(2.0 - mount - ripple - shelf, Domain::kMinDepth));
    }
  domain.setRestDepth(depth);
  for (int j = n / 4; j < n / 4 + 6; ++j)
    for (int i = n / 2; i < n / 2 + 5; ++i)
      domain.setWet(i, j, false);
  domain.setRestDepth(depth);  // zero depth on the island
  return domain;
}

// A lake at rest over the uneven basin stays at rest: 500 steps of 1 s.
template <class MakeModel>
VerifyResult lakeAtRest(const std::string& kId, const MakeModel& makeModel) {
  const Domain domain = unevenBasin(48);
  auto model = makeModel(1.0);
  model.reset(domain, Field2D(48, 48));
  for (int k = 0; k < 500; ++k)
    model.step(1.0);
  const double error = std::max({double(model.eta().maxAbs()), double(model.velocityU()->maxAbs()),
                                 double(model.velocityV()->maxAbs())});
  std::ostringstream d;
  d << "max(|eta| m, |u|, |v| m/s) after 500 steps of 1 s (" << 1.0 / model.explicitLimit()
    << "x explicit) over a seamount, ripples, a shelf and an island";
  return {kId, "lake at rest over uneven ground", error, 1e-6, "m, m/s", error <= 1e-6, d.str()};
}

}  // namespace wb::shallow_water_checks
