// Buoyant bodies coupled both ways with every model (core/forcing/rigid_bodies.hpp through
// core/run/comparison.cpp): the volume budget, the waves a falling box makes, a body dropped
// while running, a towed hull. Archimedes' draft is a verify case
// (models/verification/body_cases.cpp), run as a test by verification_test.cpp.
#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.hpp"
#include "core/grid/interpolation.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"
#include "models/verification/body_checks.hpp"

namespace wb {
namespace {

const std::vector<std::string> kModels{"damped-wave", "advected-wave", "swe-semi-lagrangian",
                                       "swe-adi", "fft-ocean"};

using body_checks::crate;
using body_checks::draftUnder;
using body_checks::pool;

Comparison start(const Scenario& s, const std::string& id) {
  std::vector<std::unique_ptr<Model>> models;
  models.push_back(createModel(id));
  return Comparison(s, std::move(models));
}

// The budget: the displaced term is exactly the bodies' change of displaced volume (to 1e-6
// of the bodies' volume, 1.2 m^3) in every model, and the water's volume rises by it to 1e-6
// in the shallow-water models, whose continuity is in flux form with double sums. damped-wave
// and advected-wave keep their two height levels in float and every stamp rounds them apart:
// their own drift (measured up to 3e-6 m^3 here) shows as drift, separate from the displaced
// term.
TEST(BodyCoupling, WaterVolumeRisesByWhatTheBodiesDisplace) {
  const double bodiesVolume = 2 * 0.6;
  for (const auto& id : kModels) {
    Scenario s = pool(false);
    s.rigidBodies.push_back(crate(500.0, 8.0, 8.0, 0.4));
    s.rigidBodies.push_back(crate(800.0, 5.0, 10.0, 0.2));
    Comparison run = start(s, id);
    const double initialVolume = run.record(0).volume;
    const double initialDisplaced = run.rigidBodies(0)->displacedVolume();
    for (int f = 0; f < 3 * 60; ++f)
      run.advanceFrame();
    ASSERT_FALSE(run.failure(0)) << *run.failure(0);
    const FrameRecord r = run.record(0);
    const double displaced = run.rigidBodies(0)->displacedVolume() - initialDisplaced;
    EXPECT_GT(displaced, 0.3) << id << ": the boxes fell in";
    EXPECT_NEAR(r.volumeDisplaced, displaced, 1e-6 * bodiesVolume) << id;
    const bool shallowWater = id == "swe-adi" || id == "swe-semi-lagrangian";
    EXPECT_NEAR(r.volume - initialVolume, displaced, (shallowWater ? 1e-6 : 1e-5) * bodiesVolume)
        << id;
  }
}

TEST(BodyCoupling, FallingBoxRadiatesWavesSymmetrically) {
  for (const auto& id : kModels) {
    Scenario s = pool(false);
    s.rigidBodies.push_back(crate(500.0, 8.0, 8.0, 0.6));
    Comparison run = start(s, id);
    for (int f = 0; f < 60; ++f)
      run.advanceFrame();
    const Field2D& eta = run.model(0).eta();
    const Grid& grid = run.domain().grid();
    // A ring 3 m out has moved, and it is the same on the four sides of the body.
    const double east = sampleBilinear(eta, grid, 11.0, 8.0),
                 west = sampleBilinear(eta, grid, 5.0, 8.0);
    const double north = sampleBilinear(eta, grid, 8.0, 11.0),
                 south = sampleBilinear(eta, grid, 8.0, 5.0);
    EXPECT_GT(run.record(0).maxAbsEta, 0.005) << id;
    EXPECT_NEAR(east, west, 1e-4 + 1e-3 * std::fabs(east)) << id;
    EXPECT_NEAR(north, south, 1e-4 + 1e-3 * std::fabs(north)) << id;
    EXPECT_NEAR(east, north, 1e-4 + 1e-3 * std::fabs(east)) << id;
  }
}

}  // namespace
}  // namespace wb

namespace wb {
namespace {

TEST(BodyCoupling, BodyAddedWhileRunningFloatsOnEveryModel) {
  Scenario s = pool(false);
  std::vector<std::unique_ptr<Model>> models;
  for (const auto& id : kModels)
    models.push_back(createModel(id));
  Comparison run(s, std::move(models));
  EXPECT_EQ(run.rigidBodies(0), nullptr);
  for (int f = 0; f < 10; ++f)
    run.advanceFrame();
  run.addRigidBody(crate(500.0, 8.0, 8.0, std::nullopt));
  BodySpec wall = crate(500.0, 20.0, 8.0, std::nullopt);  // outside the 16 m grid
  EXPECT_THROW(run.addRigidBody(wall), InputError);
  for (int f = 0; f < 60; ++f)
    run.advanceFrame();
  for (std::size_t k = 0; k < run.modelCount(); ++k) {
    ASSERT_NE(run.rigidBodies(k), nullptr);
    ASSERT_EQ(run.rigidBodies(k)->size(), 1u);
    EXPECT_NEAR(draftUnder(run, run.rigidBodies(k)->bodies()[0], k), 0.3, 0.01 * 0.6) << k;
  }
}

}  // namespace
}  // namespace wb

namespace wb {
namespace {

// builtin:boat: the hull towed by the boat of Nishidate & Nikishkov eqs. 7-9 trails it round
// the waypoints, pointing where it goes.
TEST(BodyCoupling, TowedHullTrailsItsBoat) {
  Scenario s = loadScenario("builtin:boat");
  Comparison run(s, createScenarioModels(s, {}, {}, false));
  double worstGap = 0.0, worstTurn = 0.0;
  for (int f = 0; f < 8 * 60; ++f) {  // round the first waypoint
    run.advanceFrame();
    if (run.time() < 2.0) continue;  // under way
    const BoatState& boat = run.excitations().boats()[0];
    const RigidBody& hull = run.rigidBodies(0)->bodies()[0];
    worstGap =
        std::max(worstGap, std::hypot(hull.position.x() - boat.x, hull.position.y() - boat.y));
    const double course = std::atan2(hull.velocity.y(), hull.velocity.x());
    const double yaw = hull.rollPitchYaw().z();
    worstTurn = std::max(worstTurn, std::fabs(std::remainder(yaw - course, 2 * M_PI)));
  }
  // The bow (0.6 m ahead of the centre) lags a point moving at v by 2 v / w = 1 m at the
  // boat's 2 m/s (a critically damped spring of rate w = 2/s).
  EXPECT_LT(worstGap, 1.8);
  EXPECT_LT(worstTurn, 25.0 * M_PI / 180.0);
  EXPECT_FALSE(run.failure(0));
}

}  // namespace
}  // namespace wb

namespace wb {
namespace {

// A hull towed at 2 m/s across a still pool 0.2 m deep (faster than its waves, sqrt(g d) =
// 1.4 m/s) by a boat that leaves no dents of its own, or the same hull left at rest.
Scenario towScenario(bool towed) {
  const std::string body = std::string(R"({"shape": "hull", "size": [1.2, 0.45, 0.3],
      "density": 350, "x": 1.2, "y": 4.0)") +
                           (towed ? R"(, "towed_by": 0})" : "}");
  return parseScenarioText(R"({"grid": {"nx": 160, "ny": 80, "dx": 0.1},
    "water": {"g": 9.81, "depth": 0.2}, "domain": {"mask": "rect"},
    "excitations": [{"type": "boat", "x": 2.0, "y": 4.0, "path": [[15.0, 4.0]],
      "acceleration": 1.0, "max_speed": 2.0, "wake_radius": 0.15, "wake_amplitude": 0.0,
      "tilt_gain": 0.0, "arrive_radius": 0.5}],
    "bodies": [)" + body + R"(], "frame_dt": 0.0166666666667, "duration": 6.0})",
                           "tow", {});
}

// The wake (core/forcing/body_displacement.cpp): a towed hull pushes water aside as it moves,
// though its displaced volume stays the same, and leaves a V behind it (the Mach cone of these
// non-dispersive models, half-angle asin(sqrt(g d) / U) = 44 degrees, its arms 3 m behind the
// hull about 3 m off the track; measured 1.0 to 2.7 m, energy 0.05 to 0.28 m^5/s^2 after 5 s).
// Without the wake the towed hull's water gets only its trim's ring, amplitudes of a few
// micrometres. The same hull at rest on still water adds no energy (measured below 1e-26), and
// the budget holds: the wake moves water, it adds none.
TEST(BodyCoupling, TowedHullLeavesAWakeAndAHullAtRestNone) {
  for (const auto& id : kModels) {
    for (const bool towed : {false, true}) {
      std::vector<std::unique_ptr<Model>> models;
      models.push_back(createModel(id));
      Comparison run(towScenario(towed), std::move(models));
      const double displaced0 = run.rigidBodies(0)->displacedVolume();
      for (int f = 0; f < 5 * 60; ++f)
        run.advanceFrame();
      ASSERT_FALSE(run.failure(0)) << *run.failure(0);
      const FrameRecord r = run.record(0);
      const double energy = r.energyPotential + r.energyKinetic;
      const double displaced = run.rigidBodies(0)->displacedVolume() - displaced0;
      const RigidBody& hull = run.rigidBodies(0)->bodies()[0];
      EXPECT_NEAR(r.volumeDisplaced, displaced, 1e-6 * hull.geometry->volume) << id;
      if (!towed) {
        EXPECT_LT(energy, 1e-20) << id << ": a hull at rest";
        continue;
      }
      EXPECT_GT(energy, 0.02) << id << ": the towed hull's wake";
      // Across the track 3 m behind the hull the largest |eta| is on an arm of the V, off the
      // track; 1 m ahead of the bow the water has not moved (the hull outruns its waves).
      const Grid& grid = run.domain().grid();
      const Field2D& eta = run.model(0).eta();
      const int behind = int((hull.position.x() - 3.0) / grid.dx);
      const int ahead = int((hull.position.x() + 1.6) / grid.dx);
      int peak = 0;
      double peakValue = 0.0, aheadValue = 0.0;
      for (int j = 0; j < grid.ny; ++j) {
        if (std::fabs(eta(behind, j)) > peakValue) peakValue = std::fabs(eta(behind, j)), peak = j;
        aheadValue = std::max(aheadValue, double(std::fabs(eta(ahead, j))));
      }
      EXPECT_GT(std::fabs(grid.y(peak) - hull.position.y()), 0.5) << id;
      EXPECT_LT(aheadValue, 1e-3 * peakValue) << id;
    }
  }
}

}  // namespace
}  // namespace wb
