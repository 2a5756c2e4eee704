// Land above the rest level (docs/wet-dry.md, "Land above the rest level"): the island basin
// and the beach that the verification rows (land_cases.cpp) and tests/unit/land_test.cpp run.
// Ground above rest is a negative rest depth; the shallow-water models lift the surface to it.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"
#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"

namespace wb::land_checks {

constexpr double kG = 9.81;

// Water above the ground (m^3): the sum of max(h - b, 0) over the open cells.
inline double water(const Field2D& h, const Domain& domain) {
  double sum = 0.0;
  for (std::size_t k = 0; k < h.size(); ++k)
    if (domain.wetMask()[k])
      sum += std::max(double(h.data()[k]) + domain.restDepth().data()[k], 0.0);
  return sum * domain.grid().cellArea();
}

// A 32 x 32 basin of 1 m cells, 1 m deep, whose island rises 0.5 m above the rest level:
// depth 1 - 1.5 exp(-r^2 / 20), r (m) from the centre.
inline Field2D islandDepth() {
  const int n = 32;
  Field2D depth(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      depth(i, j) =
          float(1.0 - 1.5 * std::exp(-(std::pow(i + 0.5 - 16.0, 2) + std::pow(j + 0.5 - 16.0, 2)) /
                                     20.0));
  return depth;
}

struct LakeRun {
  double error = 0.0;  // max |eta - eta0| (m), |u|, |v| (m/s) at the end
  double drift = 0.0;  // max |water - water0| / water0 over the run
};

// A lake at rest (eta0 = 0, lifted to the ground on land) run for `steps` steps of dt.
template <class M>
LakeRun runLakeAtRest(const Domain& domain, const Field2D& eta0, double dt, int steps) {
  M model;
  model.params().set("dt", dt, "verify");
  if constexpr (std::is_same_v<M, SweSemiLagrangian>) model.params().set("force", 1, "verify");
  model.reset(domain, eta0);
  const Field2D start = model.eta();
  const double w0 = water(start, domain);
  LakeRun run;
  for (int k = 0; k < steps; ++k) {
    model.step(dt);
    run.drift = std::max(run.drift, std::fabs(water(model.eta(), domain) - w0) / w0);
  }
  for (std::size_t k = 0; k < start.size(); ++k)
    run.error = std::max({run.error, double(std::fabs(model.eta().data()[k] - start.data()[k])),
                          double(std::fabs(model.velocityU()->data()[k])),
                          double(std::fabs(model.velocityV()->data()[k]))});
  return run;
}

// A beach: a 12.8 m strip (128 x 4 cells of 0.1 m) whose ground rises linearly from 0.5 m
// below rest at the west wall to 0.5 m above it at the east wall.
inline Domain beach() {
  const int nx = 128, ny = 4;
  Domain domain(Grid{nx, ny, 0.1}, kG, 1.0);
  Field2D depth(nx, ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      depth(i, j) = float(0.5 - domain.grid().x(i) / domain.grid().width());
  domain.setRestDepth(depth);
  return domain;
}

// A 0.1 m hump of water at x = 3 m, at rest: half of it runs up the beach.
inline Field2D beachWave(const Domain& domain) {
  Field2D eta0(domain.nx(), domain.ny());
  for (int j = 0; j < domain.ny(); ++j)
    for (int i = 0; i < domain.nx(); ++i)
      if (domain.isWetAtRest(i, j))
        eta0(i, j) = float(0.1 * std::exp(-std::pow((domain.grid().x(i) - 3.0) / 0.5, 2)));
  return eta0;
}

struct BeachRun {
  int peakFlooded = 0;    // most cells dry at rest holding more than 1 mm at once
  int drainedAfter = 0;   // fewest such cells after the peak
  double minDepth = 1.0;  // m, over every cell and step
  double drift = 0.0;     // max |volume - volume0| / water0, volume = sum of (h - b)
  int steps = 0;
};

// The beach wave run for `duration` s at the model's own dt.
template <class M>
BeachRun runBeach(double duration) {
  const Domain domain = beach();
  M model;
  model.reset(domain, beachWave(domain));
  const double w0 = water(model.eta(), domain);
  BeachRun run;
  int peakStep = 0;
  run.drainedAfter = domain.nx() * domain.ny();
  for (double t = 0.0; t < duration; ++run.steps) {
    const double dt = model.preferredDt();
    model.step(dt);
    t += dt;
    int flooded = 0;
    double volume = 0.0;
    for (int j = 0; j < domain.ny(); ++j)
      for (int i = 0; i < domain.nx(); ++i) {
        const double d = model.eta()(i, j) + domain.restDepth()(i, j);
        volume += d * domain.grid().cellArea();
        run.minDepth = std::min(run.minDepth, d);
        flooded += !domain.isWetAtRest(i, j) && d > 1e-3;
      }
    run.drift = std::max(run.drift, std::fabs(volume - w0) / w0);
    if (flooded > run.peakFlooded)
      run.peakFlooded = flooded, peakStep = run.steps, run.drainedAfter = flooded;
    if (run.steps > peakStep) run.drainedAfter = std::min(run.drainedAfter, flooded);
  }
  return run;
}

// What the beach rows and tests require: at least two columns of dry ground flooded at once,
// later at most a quarter of them still holding more than 1 mm, depth never negative, the
// water kept to 1e-6 of itself (float round-off).
inline bool floodsAndDrains(const BeachRun& run) {
  return run.peakFlooded >= 8 && run.drainedAfter <= run.peakFlooded / 4 && run.minDepth >= 0.0 &&
         run.drift <= 1e-6;
}

}  // namespace wb::land_checks
