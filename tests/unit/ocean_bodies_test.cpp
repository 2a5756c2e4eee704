// Buoyant bodies on the open sea (scenario "ocean", core/ocean/ocean_layer.hpp): they float on
// the model's surface plus the sea's, with the sea's orbital velocity, and push back into the
// model's own surface. A swell is one lattice wave that runs at the lattice's period.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "core/ocean/ocean_layer.hpp"
#include "core/ocean/ocean_spectrum.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"
#include "tests/unit/test_support.hpp"

namespace wb {
namespace {

TEST(OceanSwell, RunsAtTheNearestLatticeWaveOfItsPeriod) {
  // 10 m deep, 64 m long: 8 s has a wavelength of 70.9 m, the patch holds 64 m (7.38 s).
  const Scenario s = parseScenarioText(
      R"({"grid": {"nx": 128, "ny": 16, "dx": 0.5}, "water": {"depth": 10},
          "ocean": {"wind_speed": 0, "swell_height": 0.2, "swell_period": 8}})",
      "s.json", {});
  const Domain domain(s.grid, s.g, s.depth);
  OceanLayer ocean(oceanParams(s), domain, "s.json: ocean");
  ASSERT_TRUE(ocean.swell());
  const OceanLayer::Swell& swell = *ocean.swell();
  EXPECT_EQ(swell.m, 1);
  EXPECT_EQ(swell.n, 0);
  EXPECT_NEAR(swell.wavelength, 64.0, 1e-12);
  const double k = 2.0 * std::numbers::pi / 64.0;
  EXPECT_NEAR(swell.omega, std::sqrt(9.81 * k * std::tanh(10.0 * k)), 1e-12);
  // The inverse of the dispersion relation: 8 s is 70.9 m long at 10 m.
  const double k8 = dispersionWavenumber(2.0 * std::numbers::pi / 8.0, 9.81, 10.0);
  EXPECT_NEAR(dispersionOmega(k8, 9.81, 10.0), 2.0 * std::numbers::pi / 8.0, 1e-14);
  EXPECT_NEAR(2.0 * std::numbers::pi / k8, 70.9, 0.05);
  // 0.1 cos(k x' - w t) with x' = x - dx/2, the patch's coordinate (cell i's centre is its
  // point i dx), many periods on (t = 1000 s), to the float transform's round-off.
  for (const double t : {0.0, 3.3, 1000.0}) {
    ocean.evaluate(t);
    for (const int i : {0, 17, 100}) {
      const double x = i * 0.5;
      EXPECT_NEAR(ocean.height()(i, 5), 0.1 * std::cos(k * x - swell.omega * t), 1e-6)
          << "t = " << t << ", i = " << i;
    }
  }
  EXPECT_NE(errorOf([] {
              const Scenario t = parseScenarioText(R"({"grid": {"nx": 16, "ny": 16, "dx": 0.5},
                  "ocean": {"swell_height": 1, "swell_period": 60}})",
                                                   "s.json", {});
              Comparison(t, createScenarioModels(t, {"damped-wave"}, {}, false));
            }).find("s.json: ocean.swell_period: the swell's wavelength"),
            std::string::npos);
}

// A 0.5 m box half as dense as water on a long swell (wavelength 64 m, period 7.38 s, 0.1 m
// high, 10 m deep): its heave's natural frequency sqrt(g / draft) = 6.3 rad/s is far above the
// swell's 0.85, so it rides the swell, response amplitude 1 / (1 - (0.85 / 6.3)^2) = 1.02 of
// linear theory's quasi-static heave. Measured as the swell-frequency part of its height over
// two periods after one (a least-squares fit of a + b cos wt + c sin wt, which the free heave
// at 6.3 rad/s hardly enters), on the local models with and without a velocity of their own.
TEST(OceanBodies, ASmallBoxHeavesWithALongSwell) {
  for (const char* model : {"damped-wave", "swe-adi"}) {
    const Scenario s = parseScenarioText(
        R"({"grid": {"nx": 128, "ny": 16, "dx": 0.5}, "water": {"depth": 10},
            "ocean": {"wind_speed": 0, "swell_height": 0.2, "swell_period": 8},
            "bodies": [{"shape": "box", "size": [0.5, 0.5, 0.5], "density": 500,
                        "x": 32, "y": 4}],
            "frame_dt": 0.05, "duration": 30})",
        "s.json", {});
    Comparison comparison(s, createScenarioModels(s, {model}, {}, false));
    const double omega = comparison.ocean()->swell()->omega;
    const double period = 2.0 * std::numbers::pi / omega;
    double sums[3][3] = {}, rhs[3] = {};
    while (comparison.time() < 3.0 * period) {
      comparison.advanceFrame();
      const double t = comparison.time();
      if (t < period) continue;
      const double z = comparison.rigidBodies(0)->bodies()[0].position.z();
      const double basis[3] = {1.0, std::cos(omega * t), std::sin(omega * t)};
      for (int a = 0; a < 3; ++a) {
        rhs[a] += basis[a] * z;
        for (int b = 0; b < 3; ++b)
          sums[a][b] += basis[a] * basis[b];
      }
    }
    // The 3 x 3 normal equations, by Cramer's rule.
    const auto det = [](const double m[3][3]) {
      return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
             m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
             m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    };
    double coefficient[3];
    for (int c = 0; c < 3; ++c) {
      double m[3][3];
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
          m[a][b] = b == c ? rhs[a] : sums[a][b];
      coefficient[c] = det(m) / det(sums);
    }
    const double heave = std::hypot(coefficient[1], coefficient[2]);
    EXPECT_NEAR(heave / 0.1, 1.0, 0.05) << model;
    // In phase with the swell at the box: 0.1 cos(k (x - dx/2) - w t) at x = 32 m.
    const double k = 2.0 * std::numbers::pi / 64.0;
    const double expectedPhase = std::atan2(std::sin(k * 31.75), std::cos(k * 31.75));
    const double phase = std::atan2(coefficient[2], coefficient[1]);
    EXPECT_NEAR(std::remainder(phase - expectedPhase, 2.0 * std::numbers::pi), 0.0, 0.1) << model;
  }
}

// A tracer on a swell moves with the sea's orbital velocity at the surface: linear theory's
// horizontal excursion is a coth(k d) (here 0.1 coth(0.98) = 0.133 m). Both rules: swe-adi
// carries tracers with its velocity plus the sea's, damped-wave rides its own (calm) surface
// while the sea carries them.
TEST(OceanBodies, TracersFollowTheSwellsOrbits) {
  const Scenario s = parseScenarioText(
      R"({"grid": {"nx": 128, "ny": 16, "dx": 0.5}, "water": {"depth": 10},
          "ocean": {"wind_speed": 0, "swell_height": 0.2, "swell_period": 8},
          "bodies": {"count": 20, "size": 0.1}, "frame_dt": 0.05, "duration": 30})",
      "s.json", {});
  const std::vector<std::string> models{"damped-wave", "swe-adi"};
  Comparison comparison(s, createScenarioModels(s, models, {}, false));
  const double omega = comparison.ocean()->swell()->omega;
  const double period = 2.0 * std::numbers::pi / omega;
  const double k = 2.0 * std::numbers::pi / 64.0;
  std::vector<std::vector<double>> low(models.size(), std::vector<double>(20, 1e9));
  std::vector<std::vector<double>> high(models.size(), std::vector<double>(20, -1e9));
  while (comparison.time() < 2.0 * period) {
    comparison.advanceFrame();
    if (comparison.time() < period) continue;
    for (std::size_t m = 0; m < models.size(); ++m) {
      const auto& tracers = comparison.bodies(m)->bodies();
      for (std::size_t b = 0; b < tracers.size(); ++b) {
        low[m][b] = std::min(low[m][b], tracers[b].x);
        high[m][b] = std::max(high[m][b], tracers[b].x);
      }
    }
  }
  const double excursion = 0.1 / std::tanh(k * 10.0);
  for (std::size_t m = 0; m < models.size(); ++m)
    for (std::size_t b = 0; b < low[m].size(); ++b)
      EXPECT_NEAR(0.5 * (high[m][b] - low[m][b]), excursion, 0.05 * excursion)
          << models[m] << " tracer " << b;
}

}  // namespace
}  // namespace wb
