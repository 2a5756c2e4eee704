// Maximum maps (core/measure/max_map.hpp, docs/exports.md "Maximum maps"): eta_max, depth_max
// and the first arrival per cell, sampled every step, and the run-up, against waves whose
// maxima are known: a wave travelling along a flat channel, a standing mode, Thacker's bowl.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "core/grid/domain.hpp"
#include "core/measure/max_map.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"

namespace wb {
namespace {

constexpr double kG = 9.81, kDepth = 0.1;

// A flat channel of nx cells of dx along x, 4 cells wide, kDepth deep.
Domain channel(int nx, double dx) {
  const std::string json = "{\"grid\": {\"nx\": " + std::to_string(nx) +
                           ", \"ny\": 4, \"dx\": " + std::to_string(dx) +
                           "}, \"water\": {\"g\": 9.81, \"depth\": 0.1}}";
  return buildDomain(parseScenarioText(json, "channel.json", {}));
}

// damped-wave without damping: the linear wave equation at c = sqrt(g d), the wave whose
// maxima are known exactly.
std::unique_ptr<Model> lossless(const Domain& domain, const Field2D& eta0) {
  auto model = createModel("damped-wave");
  model->params().set("k", 0.0, "test");
  model->reset(domain, eta0);
  return model;
}

// Steps the model to `duration`, taking every step's surface into the map.
void run(Model& model, MaxMap& map, double duration) {
  map.update(model.eta(), 0.0);
  double t = 0.0;
  while (t < duration) {
    const double dt = model.preferredDt();
    model.step(dt);
    t += dt;
    map.update(model.eta(), t);
  }
}

// A hump of height 2A splits into two waves of height A (d'Alembert); the right-going one
// passes x = 1.5..3.2 m in 2.5 s. Its crest, sampled every step, is eta_max there; its front
// reaches each cell at x/c plus a constant (the point where the Gaussian's flank crosses the
// tolerance), so arrival differences are distance / c; cells ahead of it have no arrival.
TEST(MaxMap, TravellingWaveLeavesItsHeightAndArrivesAtTheWaveSpeed) {
  constexpr double kDx = 0.01, kAmplitude = 0.01, kWidth = 0.1, kStart = 1.0;
  const Domain domain = channel(400, kDx);
  Field2D eta0(domain.nx(), domain.ny());
  for (int j = 0; j < domain.ny(); ++j)
    for (int i = 0; i < domain.nx(); ++i) {
      const double s = ((i + 0.5) * kDx - kStart) / kWidth;
      eta0(i, j) = float(2 * kAmplitude * std::exp(-s * s));
    }
  auto model = lossless(domain, eta0);
  MaxMap map(domain, {.arrivalTolerance = 0.1 * kAmplitude, .wetDepth = 1e-3}, false);
  run(*model, map, 2.5);

  const double c = std::sqrt(kG * kDepth);
  const int first = int(1.5 / kDx), last = int(3.2 / kDx);
  for (int i = first; i <= last; ++i) {
    SCOPED_TRACE("x = " + std::to_string((i + 0.5) * kDx));
    // 1 % of A: the explicit scheme's dispersion over 2.5 m at 10 cells per width (measured:
    // 0.2 %).
    EXPECT_NEAR(map.etaMax()(i, 1), kAmplitude, 0.01 * kAmplitude);
    EXPECT_NEAR(map.depthMax()(i, 1), kDepth + kAmplitude, 0.01 * kAmplitude);
    // Within one cell's travel time dx / c (a step is shorter; measured: 0.7 dx / c).
    EXPECT_NEAR(map.arrival()(i, 1) - map.arrival()(first, 1), (i - first) * kDx / c, kDx / c);
  }
  for (int i = int(3.8 / kDx); i < domain.nx(); ++i)
    EXPECT_TRUE(std::isnan(map.arrival()(i, 1))) << "x = " << (i + 0.5) * kDx;
}

// eta = a cos(pi x / L) cos(omega t) from rest: over a period each cell's highest surface is
// a |cos(pi x / L)|; in the half where cos < 0 it comes half a period later, at the far
// antinode eta_max = a.
TEST(MaxMap, StandingModeReachesItsAmplitudeAtTheAntinodes) {
  constexpr double kDx = 0.02, kLength = 2.0, kAmplitude = 0.01;
  const Domain domain = channel(int(kLength / kDx), kDx);
  const double k = std::numbers::pi / kLength;
  Field2D eta0(domain.nx(), domain.ny());
  for (int j = 0; j < domain.ny(); ++j)
    for (int i = 0; i < domain.nx(); ++i)
      eta0(i, j) = float(kAmplitude * std::cos(k * (i + 0.5) * kDx));
  auto model = lossless(domain, eta0);
  MaxMap map(domain, {}, false);
  run(*model, map, 2 * kLength / std::sqrt(kG * kDepth));  // one period
  for (int i = 0; i < domain.nx(); ++i) {
    SCOPED_TRACE("x = " + std::to_string((i + 0.5) * kDx));
    // 0.1 % of a: the scheme's phase error at 200 cells per wavelength over one period
    // (measured: 6e-6 of a).
    EXPECT_NEAR(map.etaMax()(i, 2), kAmplitude * std::fabs(std::cos(k * (i + 0.5) * kDx)),
                1e-3 * kAmplitude);
  }
  EXPECT_NEAR(map.etaMax()(domain.nx() - 1, 2), kAmplitude, 1e-3 * kAmplitude);
}

// Thacker's bowl (SWASHES 4.2.1, builtin:thacker: a = 1 m, h0 = 0.1 m, r0 = 0.8 m): the
// shoreline climbs to r = a / sqrt(S_min), S_min = 0.8, where the ground stands
// h0 (1 / S_min - 1) = 0.025 m above the still water: the exact run-up. The map sees the highest
// cell holding more than 1 mm: within the ground's rise over one cell there (slope 2 h0 r / a^2
// times dx = 0.011 m). A model without wet/dry physics has no run-up.
TEST(MaxMap, RunUpInThackersBowlIsTheExactHighestShoreline) {
  Scenario scenario = loadCheckedScenario("builtin:thacker");
  scenario.duration = 2.3;  // a period, 2.243 s
  Comparison run(scenario,
                 createScenarioModels(scenario, {"swe-semi-lagrangian", "damped-wave"}, {}, false));
  run.recordMaxMaps({});
  while (run.frame() < scenario.frameCount())
    run.advanceFrame();
  ASSERT_FALSE(run.anyFailed());
  const double exact = 0.1 * (1 / 0.8 - 1);
  const auto runUp = run.maxMap(0)->runUp(run.domain());
  ASSERT_TRUE(runUp.has_value());
  EXPECT_NEAR(runUp->height, exact, 2 * 0.1 * 1.118 * 0.05);
  EXPECT_LE(runUp->height, exact + 1e-6);  // a cell above the exact shoreline never floods
  EXPECT_FALSE(run.maxMap(1)->runUp(run.domain()).has_value());
  EXPECT_FALSE(run.maxMap(1)->floodsLand());
  // Ground above the highest shoreline was never wet: no maximum, no depth, no arrival.
  const Domain& domain = run.domain();
  for (int j = 0; j < domain.ny(); ++j)
    for (int i = 0; i < domain.nx(); ++i)
      if (-domain.restDepth()(i, j) > exact + 0.005) {
        EXPECT_TRUE(std::isnan(run.maxMap(0)->etaMax()(i, j)));
        EXPECT_EQ(run.maxMap(0)->depthMax()(i, j), 0.0f);
        EXPECT_TRUE(std::isnan(run.maxMap(0)->arrival()(i, j)));
      }
}

// The maps sample every step, not frames: the same run with frames of one tick and of 0.5 s
// gives the same maps to the bit (the docs' promise that frame_dt never changes results), and
// with frames of 0.5 s the wave arrives at cells between frames.
TEST(MaxMap, FramesDoNotChangeTheMaps) {
  const std::string json = R"({
    "grid": {"nx": 40, "ny": 32, "dx": 0.1}, "water": {"depth": 0.4}, "domain": {"mask": "pi"},
    "initial": {"drops": [{"x": 1.0, "y": 2.6, "radius": 0.2, "amplitude": 0.03}]},
    "frame_dt": FRAME, "duration": 1.0})";
  std::vector<std::vector<Field2D>> maps;
  for (const char* frame : {"0.0166666666667", "0.5"}) {
    std::string text = json;
    text.replace(text.find("FRAME"), 5, frame);
    const Scenario scenario = parseScenarioText(text, "drop.json", {});
    Comparison run(scenario, createScenarioModels(scenario, {}, {}, false));
    run.recordMaxMaps({});
    while (run.frame() < scenario.frameCount())
      run.advanceFrame();
    if (run.frame() == 2) {  // frames of 0.5 s
      int between = 0;
      for (const float t :
           std::vector<float>(run.maxMap(0)->arrival().data(),
                              run.maxMap(0)->arrival().data() + run.maxMap(0)->arrival().size()))
        between += t > 0.0f && t != 0.5f && t != 1.0f;
      EXPECT_GT(between, 10);
    }
    maps.emplace_back();
    for (std::size_t k = 0; k < run.modelCount(); ++k) {
      maps.back().push_back(run.maxMap(k)->etaMax());
      maps.back().push_back(run.maxMap(k)->arrival());
    }
  }
  ASSERT_EQ(maps[0].size(), maps[1].size());
  for (std::size_t m = 0; m < maps[0].size(); ++m)
    for (std::size_t c = 0; c < maps[0][m].size(); ++c) {
      const float a = maps[0][m].data()[c], b = maps[1][m].data()[c];
      ASSERT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << "map " << m << " cell " << c;
    }
}

}  // namespace
}  // namespace wb
