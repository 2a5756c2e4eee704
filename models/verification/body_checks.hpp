// What the buoyant-body checks share (models/verification/body_cases.cpp and
// tests/unit/body_coupling_test.cpp, body_heave_test.cpp): the pool, the 1 x 1 x 0.6 crate and its
// measured draft, and the long box dropped into a closed pool with how it settles.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "core/run/comparison.hpp"
#include "models/registry.hpp"

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

// A 3 x 0.8 x 0.35 box of density 350 (resting draft 0.1225 m), turned 20 degrees, released
// with its centre 0.1 m above the rest level (its bottom 0.0475 m above where it rests) into a
// closed 12.8 x 9.6 m pool of 0.2 m cells, 1.5 m deep, without excitations.
inline Scenario longBoxDrop() {
  Scenario s;
  s.source = "bodies";
  s.grid = {64, 48, 0.2};
  s.depth = 1.5;
  BodySpec b;
  b.size = {3.0, 0.8, 0.35};
  b.density = 350.0;
  b.x = 6.4;
  b.y = 4.8;
  b.z = 0.1;
  b.yawDegrees = 20.0;
  s.rigidBodies.push_back(b);
  return s;
}

// How the long box of longBoxDrop settles in model `id` over `seconds`: its heave amplitude
// (half the range of z) over the last second against its first drop (the height above rest it
// is released from), and the energy of water and body per unit water density (m^5/s^2): the
// model's (energyTotal) plus the body's kinetic energy and its heave spring's,
// rho g A (z - z_rest)^2 / 2, about its wall-sided rest z_rest = h/2 - m / (rho A). The
// coupling exchanges heave energy with the water and creates none, so the total must not
// rise above its start.
struct Settling {
  double drop = 0.0, amplitude = 0.0;  // m
  double initialEnergy = 0.0, highestEnergy = 0.0, finalEnergy = 0.0;
  std::optional<std::string> failure;
};
inline Settling settleLongBox(const std::string& id, double seconds = 6.0) {
  const Scenario s = longBoxDrop();
  std::vector<std::unique_ptr<Model>> models;
  models.push_back(createModel(id, "bodies"));
  Comparison run(s, std::move(models));
  run.setConcurrent(false);
  const BodySpec& spec = s.rigidBodies[0];
  const double area = spec.size.x() * spec.size.y(), rho = s.waterDensity, g = s.g;
  const double mass = spec.density * spec.size.prod();
  const double rest = 0.5 * spec.size.z() - mass / (rho * area);
  Settling out;
  out.drop = *spec.z - rest;
  double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
  const int frames = int(std::lround(seconds / s.frameDt));
  for (int f = 0; f <= frames; ++f) {
    if (f > 0) run.advanceFrame();
    if (run.failure(0)) {
      out.failure = run.failure(0);
      return out;
    }
    const RigidBody& body = run.rigidBodies(0)->bodies()[0];
    const double heave = body.position.z() - rest;
    const Eigen::Matrix3d rotation = body.orientation.toRotationMatrix();
    const double spin = body.angularVelocity.dot(rotation * body.inertia * rotation.transpose() *
                                                 body.angularVelocity);
    const double energy =
        run.record(0).energyTotal() + (0.5 * mass * body.velocity.squaredNorm() + 0.5 * spin +
                                       0.5 * rho * g * area * heave * heave) /
                                          rho;
    if (f == 0) out.initialEnergy = energy;
    out.highestEnergy = std::max(out.highestEnergy, energy);
    out.finalEnergy = energy;
    if (run.time() >= seconds - 1.0 - 1e-9)
      lowest = std::min(lowest, heave), highest = std::max(highest, heave);
  }
  out.amplitude = 0.5 * (highest - lowest);
  return out;
}

}  // namespace wb::body_checks
