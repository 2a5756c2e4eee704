// What the buoyant-body checks share (models/verification/body_cases.cpp and
// tests/unit/body_coupling_test.cpp): the pool, the 1 x 1 x 0.6 crate and its measured draft.
#pragma once

#include <cmath>
#include <optional>

#include "core/run/comparison.hpp"

namespace wb::body_checks {

constexpr double kCrateHeight = 0.6;  // m, of a 1 x 1 x 0.6 crate

// A 16 m pool of 0.25 m cells, 2 m deep; with open edges the waves the bodies make leave it.
inline Scenario pool(bool openEdges) {
  Scenario s;
  s.source = "bodies";
  s.grid = {64, 64, 0.25};
  s.depth = 2.0;
  if (openEdges) {
    s.edges = Edges::all(EdgeKind::Open);
    s.edges.layerCells = 12;
  }
  return s;
}

inline BodySpec crate(double density, double x, double y, std::optional<double> z) {
  BodySpec b;
  b.size = {1.0, 1.0, kCrateHeight};
  b.density = density;
  b.x = x;
  b.y = y;
  b.z = z;
  return b;
}

// The mean surface of model k over the cells under an upright crate, minus its bottom's height.
inline double draftUnder(const Comparison& run, const RigidBody& body, std::size_t model = 0) {
  const Grid& grid = run.domain().grid();
  double sum = 0.0;
  int count = 0;
  for (int j = 0; j < grid.ny; ++j)
    for (int i = 0; i < grid.nx; ++i)
      if (std::fabs(grid.x(i) - body.position.x()) < 0.5 &&
          std::fabs(grid.y(j) - body.position.y()) < 0.5)
        sum += run.model(model).eta()(i, j), ++count;
  return sum / count - (body.position.z() - 0.5 * kCrateHeight);
}

}  // namespace wb::body_checks
