// Floating bodies (core/forcing/floating_bodies.hpp): Layton eqs. 26-27 in a uniform flow, walls,
// deterministic placement, the riding rule on a slope, and the bodies of a comparison.
#include <gtest/gtest.h>

#include <cmath>

#include "core/forcing/floating_bodies.hpp"
#include "core/run/comparison.hpp"
#include "models/advected_wave/advected_wave.hpp"
#include "models/damped_wave/damped_wave.hpp"

namespace wb {
namespace {

TEST(FloatingBodies, PlacementIsDeterministicAndWet) {
  Domain domain(Grid{64, 64, 0.1}, 9.81, 1.0);
  domain.applyPreset(MaskPreset::Pi);
  const FloatingBodies a(domain, 200, 0.1, 5), b(domain, 200, 0.1, 5), c(domain, 200, 0.1, 6);
  ASSERT_EQ(a.size(), 200u);
  EXPECT_EQ(a.countInSolid(), 0);
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a.bodies()[k].x, b.bodies()[k].x);
    EXPECT_EQ(a.bodies()[k].y, b.bodies()[k].y);
  }
  EXPECT_NE(a.bodies()[0].x, c.bodies()[0].x);
}

TEST(FloatingBodies, UniformFlowCarriesBodiesAtTheFlowSpeed) {
  const Domain domain(Grid{64, 64, 0.1}, 9.81, 1.0);
  FloatingBodies bodies(domain, 200, 0.1, 1);
  const Field2D u(64, 64, 0.25f), v(64, 64, 0.1f);
  const auto start = bodies.bodies();
  for (int s = 0; s < 10; ++s)
    bodies.advect(0.02, u, v);
  for (std::size_t k = 0; k < start.size(); ++k) {
    const auto& body = bodies.bodies()[k];
    if (body.vx == 0.0 || body.vy == 0.0) continue;  // stopped at the wall
    EXPECT_NEAR(body.x - start[k].x, 0.25 * 0.2, 1e-6);
    EXPECT_NEAR(body.y - start[k].y, 0.1 * 0.2, 1e-6);
  }
}

TEST(FloatingBodies, NeverEnterSolidCells) {
  Domain domain(Grid{64, 64, 0.1}, 9.81, 1.0);
  domain.applyPreset(MaskPreset::Pi);
  FloatingBodies bodies(domain, 300, 0.1, 2);
  // A flow that pushes everything towards the solid middle and the top-right corner.
  const Field2D u(64, 64, 0.7f), v(64, 64, 0.9f);
  const Field2D back(64, 64, -0.8f);
  for (int s = 0; s < 400; ++s) {
    if (s < 200)
      bodies.advect(0.05, u, v);
    else
      bodies.advect(0.05, back, u);
    ASSERT_EQ(bodies.countInSolid(), 0) << "step " << s;
  }
}

// On a standing slope eta = s x the riding rule reaches the terminal speed -g s / drag.
TEST(FloatingBodies, RidingBodiesSlideDownTheSlope) {
  const Domain domain(Grid{400, 16, 0.1}, 9.81, 1.0);
  FloatingBodies bodies(domain, 20, 0.1, 3);
  const double slope = 1e-3;
  Field2D eta(400, 16);
  for (int j = 0; j < 16; ++j)
    for (int i = 0; i < 400; ++i)
      eta(i, j) = float(slope * domain.grid().x(i));
  for (int s = 0; s < 1000; ++s)
    bodies.ride(0.01, eta);
  const double terminal = -9.81 * slope / FloatingBodies::kRideDrag;
  for (const auto& body : bodies.bodies()) {
    if (body.vx == 0.0) continue;  // reached the wall
    EXPECT_NEAR(body.vx, terminal, 1e-3 * std::fabs(terminal));
  }
}

TEST(FloatingBodies, EachModelOfAComparisonCarriesItsOwnBodies) {
  Scenario s;
  s.grid = Grid{48, 48, 0.1};
  s.excitations.wind.push_back(WindSpec{30.0, 0.3, false, 0, 0, 0, 0});
  s.initialDrops.push_back({0.0, 2.4, 2.4, 0.3, 0.02, EventSource::Drop});
  s.bodies = {200, 0.1};
  s.maskPreset = "pi";
  std::vector<std::unique_ptr<Model>> models;
  models.push_back(std::make_unique<DampedWave>());
  models.push_back(std::make_unique<AdvectedWave>());
  Comparison comparison(s, std::move(models));
  ASSERT_NE(comparison.bodies(0), nullptr);
  ASSERT_EQ(comparison.bodies(1)->size(), 200u);
  for (int f = 0; f < 120; ++f) {
    comparison.advanceFrame();
    for (std::size_t k = 0; k < 2; ++k)
      ASSERT_EQ(comparison.record(k).solver.at("bodies_in_solid"), 0.0);
  }
  // The two models move their boxes differently from the same start.
  EXPECT_NE(comparison.bodies(0)->bodies()[0].x, comparison.bodies(1)->bodies()[0].x);
}

}  // namespace
}  // namespace wb
