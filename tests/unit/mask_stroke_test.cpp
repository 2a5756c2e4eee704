// Mask strokes during a run (Model::changeMask, the "mask" excitation): in every model a
// stroke keeps the run stable, the volume it reports is exactly what the water gained or lost
// (volume before + added - removed = after, to round-off), the budget with the masked term
// drifts no more than the model's own drift, and a wall painted across a channel stops a
// pulse. The "mask" key survives JSON exactly and reports bad input in one line.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <sstream>

#include "core/measure/diagnostics.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"
#include "test_support.hpp"

namespace wb {
namespace {

// A pool of 12 m x 12 m, 1 m deep, a drop in its middle, walls or the west side open; strokes
// given as JSON.
Scenario poolWith(const std::string& strokes, double duration, bool openWest) {
  std::ostringstream text;
  if (openWest) text << R"({"domain": {"edges": {"west": "open", "layer_cells": 8}},)";
  text << (openWest ? "" : "{")
       << R"("grid": {"nx": 48, "ny": 48, "dx": 0.25}, "water": {"depth": 1},
    "initial": {"drops": [{"x": 6, "y": 6, "radius": 1, "amplitude": 0.05}]},
    "duration": )"
       << duration << R"(, "excitations": [)" << strokes << "]}";
  return parseScenarioText(text.str(), "s.json", ".");
}

// A wall stroke over a quarter ring of the drop's waves at 0.5 s, then part of it opened
// again at 1 s.
constexpr const char* kStrokes =
    R"({"type": "mask", "time": 0.5, "solid": true, "dabs": [{"x": 8, "y": 6, "radius": 0.6},
        {"x": 8.3, "y": 7, "radius": 0.6}, {"x": 8.5, "y": 8, "radius": 0.6}]},
       {"type": "mask", "time": 1.0, "solid": false, "dabs": [{"x": 8.3, "y": 7, "radius": 0.4}]})";

struct PoolRun {
  double maxDrift = 0.0, masked = 0.0, volumeScale = 0.0;
  bool finite = true;
  std::vector<std::uint8_t> wet;
};

PoolRun runPool(const std::string& id, const std::string& strokes, bool openWest) {
  std::vector<std::unique_ptr<Model>> models;
  models.push_back(createModel(id));
  Comparison comparison(poolWith(strokes, 2.0, openWest), std::move(models));
  PoolRun run;
  while (comparison.time() < 2.0 - 1e-9) {
    comparison.advanceFrame();
    const FrameRecord r = comparison.record(0);
    run.maxDrift = std::max(run.maxDrift, std::fabs(r.volumeDrift));
    run.finite = run.finite && !comparison.failure(0) && std::isfinite(r.volume);
    run.masked = r.volumeMasked;
  }
  run.wet = comparison.domain().wetMask();
  // The drop's volume: the scale of the budget's terms.
  run.volumeScale = 0.05 * M_PI * 1.0 * 1.0;
  return run;
}

class MaskStrokeModel : public ::testing::TestWithParam<std::string> {};

// Volume before + the returned change = volume after, at the stroke itself, to the float
// round-off of summing the same cells in another order.
TEST_P(MaskStrokeModel, ReportedVolumeIsWhatTheWaterGainedOrLost) {
  Domain domain(Grid{48, 48, 0.25}, 9.81, 1.0);
  Field2D eta0(48, 48);
  stampGaussian(eta0, domain, SurfaceEvent{0.0, 6.0, 6.0, 1.0, 0.05});
  auto model = createModel(GetParam());
  model->reset(domain, eta0);
  for (int k = 0; k < 40; ++k)
    model->step(model->preferredDt());
  for (const bool solid : {true, false}) {
    MaskStroke stroke;
    stroke.solid = solid;
    stroke.dabs = {{7.0, 6.0, 0.6}, {7.3, 6.8, 0.6}};
    std::vector<std::uint8_t> wet = domain.wetMask();
    std::vector<std::uint32_t> changed;
    for (const std::uint32_t k : strokeCells(stroke, domain.grid()))
      if ((wet[k] != 0) == solid) {
        wet[k] = solid ? 0 : 1;
        changed.push_back(k);
      }
    ASSERT_GT(changed.size(), 10u);
    Field2D depth = domain.restDepth();
    for (const std::uint32_t k : changed)
      depth.data()[k] = solid ? 0.0f : 1.0f;
    const double before = wetVolume(model->eta(), domain);
    double removed = 0.0;  // what the cells turned solid held
    for (const std::uint32_t k : changed)
      removed += model->eta().data()[k] * domain.grid().cellArea();
    domain.setMask(wet);
    domain.setRestDepth(depth);
    const double added = model->changeMask(domain, changed);
    const double after = wetVolume(model->eta(), domain);
    EXPECT_NEAR(before + added, after, 1e-12) << (solid ? "walls" : "water");
    if (solid) {
      EXPECT_NE(removed, 0.0);  // the waves were there: the stroke took water away
      EXPECT_NEAR(added, -removed, 1e-12);
    } else {
      EXPECT_EQ(added, 0.0);  // opened at the rest level: eta = 0 there
    }
    for (const std::uint32_t k : changed)
      EXPECT_EQ(model->eta().data()[k], 0.0f);
    for (int k = 0; k < 40; ++k) {
      model->step(model->preferredDt());
      // The steps after it keep the new volume (to the model's float round-off).
      ASSERT_NEAR(wetVolume(model->eta(), domain), after, 1e-6) << "step " << k;
    }
  }
}

// A run with strokes stays stable and its drift, the masked volume accounted for, stays at the
// size of the same run's without strokes (the model's own error), with walls and with an open
// side (whose layer's sink the strokes must not disturb).
TEST_P(MaskStrokeModel, BudgetClosesAndTheRunStaysStable) {
  for (const bool open : {false, true}) {
    SCOPED_TRACE(open ? "open west side" : "walls");
    const PoolRun plain = runPool(GetParam(), "", open);
    const PoolRun stroked = runPool(GetParam(), kStrokes, open);
    ASSERT_TRUE(stroked.finite);
    EXPECT_NE(stroked.masked, 0.0);
    EXPECT_LT(std::fabs(stroked.masked), stroked.volumeScale);
    // The model's own drift, or float round-off of the drop's volume where it is smaller.
    const double own = std::max(plain.maxDrift, 1e-6 * stroked.volumeScale);
    EXPECT_LE(stroked.maxDrift, 3.0 * own) << "without strokes " << plain.maxDrift;
    // The second stroke reopened what it covered.
    const int cell = int(7.0 / 0.25) * 48 + int(8.3 / 0.25);
    EXPECT_EQ(stroked.wet[std::size_t(cell)], 1);
    const int walled = int(6.0 / 0.25) * 48 + int(8.0 / 0.25);
    EXPECT_EQ(stroked.wet[std::size_t(walled)], 0);
  }
}

// A channel 24 m x 3 m with a pulse at its west end; at 0.5 s, before the pulse arrives, a wall
// three cells thick (dabs of 1.5 cells) is painted across it at x = 12 m. Without the wall the
// pulse reaches the east half; with it the east half stays at rest and the wall sends the pulse
// back.
TEST_P(MaskStrokeModel, PaintedWallStopsAPulse) {
  const auto run = [&](bool wall) {
    std::ostringstream text;
    text << R"({"grid": {"nx": 96, "ny": 12, "dx": 0.25}, "water": {"depth": 1},
      "initial": {"drops": [{"x": 4, "y": 1.5, "radius": 1, "amplitude": 0.02}]},
      "excitations": [)";
    if (wall)
      text << R"({"type": "mask", "time": 0.5, "dabs": [{"x": 12.125, "y": 0.375, "radius": 0.375},
        {"x": 12.125, "y": 0.875, "radius": 0.375}, {"x": 12.125, "y": 1.375, "radius": 0.375},
        {"x": 12.125, "y": 1.875, "radius": 0.375}, {"x": 12.125, "y": 2.375, "radius": 0.375},
        {"x": 12.125, "y": 2.875, "radius": 0.375}]})";
    text << "]}";
    std::vector<std::unique_ptr<Model>> models;
    models.push_back(createModel(GetParam()));
    Comparison comparison(parseScenarioText(text.str(), "s.json", "."), std::move(models));
    double east = 0.0, west = 0.0;  // largest |eta| beyond the wall and behind it, late
    while (comparison.time() < 5.0) {
      comparison.advanceFrame();
      EXPECT_FALSE(comparison.failure(0).has_value());
      if (comparison.time() < 3.0) continue;
      const Field2D& eta = comparison.model(0).eta();
      for (int j = 0; j < 12; ++j)
        for (int i = 0; i < 96; ++i) {
          double& side = i >= 50 ? east : west;
          if (i >= 47 && i < 50) continue;  // the wall and its cells
          side = std::max(side, double(std::fabs(eta(i, j))));
        }
    }
    return std::pair{east, west};
  };
  const auto [openEast, openWest] = run(false);
  const auto [wallEast, wallWest] = run(true);
  EXPECT_GT(openEast, 1e-3);  // sqrt(g d) = 3.1 m/s: the pulse crossed by 3 s
  // swe-adi's step takes the float round-off of the mean surface rate out of every wet cell:
  // about 1e-6 of the pulse reaches the far side through it.
  EXPECT_LT(wallEast, 1e-5 * openEast) << "open " << openEast;
  EXPECT_GT(wallWest, 1e-3);  // reflected, still in the west half
}

INSTANTIATE_TEST_SUITE_P(EveryModel, MaskStrokeModel,
                         ::testing::Values("damped-wave", "advected-wave", "swe-semi-lagrangian",
                                           "swe-adi"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

TEST(MaskStrokeCells, BrushOfRCellsCoversTheEditorsDisc) {
  const Grid grid{20, 20, 0.5};
  MaskStroke stroke;
  stroke.dabs = {{grid.x(7), grid.y(9), 2 * grid.dx}};
  int count = 0;
  for (const std::uint32_t k : strokeCells(stroke, grid)) {
    const int i = int(k % 20), j = int(k / 20);
    EXPECT_LE((i - 7) * (i - 7) + (j - 9) * (j - 9), 4);
    ++count;
  }
  EXPECT_EQ(count, 13);              // the lattice points of a disc of radius 2
  stroke.dabs = {{0.1, 9.99, 0.0}};  // radius 0: the cell holding the point
  ASSERT_EQ(strokeCells(stroke, grid).size(), 1u);
  EXPECT_EQ(strokeCells(stroke, grid)[0], 19u * 20u + 0u);
}

TEST(MaskStrokeScenario, SurvivesJsonExactlyAndKeepsTimeOrder) {
  const Scenario a = parseScenarioText(
      R"({"grid": {"nx": 16, "ny": 16, "dx": 0.5}, "excitations": [
        {"type": "mask", "time": 0.35, "solid": false, "dabs": [{"x": 1.25, "y": 7.75, "radius": 1}]},
        {"type": "mask", "time": 0.016666666666666666, "dabs": [{"x": 3.1, "y": 4.2}]}]})",
      "s.json", {});
  ASSERT_EQ(a.excitations.strokes.size(), 2u);
  EXPECT_EQ(a.excitations.strokes[0].time, 0.016666666666666666);
  EXPECT_TRUE(a.excitations.strokes[0].solid);
  EXPECT_EQ(a.excitations.strokes[0].dabs[0].radius, 0.0);
  EXPECT_FALSE(a.excitations.strokes[1].solid);
  const auto file = std::filesystem::temp_directory_path() / "wavebench_mask_stroke.json";
  saveScenarioFile(a, file);
  const Scenario b = loadScenarioFile(file);
  std::filesystem::remove(file);
  EXPECT_EQ(scenarioToJson(a), scenarioToJson(b));
  ASSERT_EQ(b.excitations.strokes.size(), 2u);
  EXPECT_EQ(b.excitations.strokes[1].dabs[0].y, 7.75);
}

TEST(MaskStrokeScenario, BadStrokesAreOneLineNamingTheKey) {
  const auto parse = [](const std::string& excitation) {
    return errorOf([&] {
      parseScenarioText(
          R"({"grid": {"nx": 8, "ny": 8, "dx": 1}, "excitations": [)" + excitation + "]}", "s.json",
          {});
    });
  };
  EXPECT_EQ(parse(R"({"type": "mask", "time": 1})"), "s.json: excitations[0].dabs: missing");
  EXPECT_EQ(parse(R"({"type": "mask", "dabs": []})"),
            "s.json: excitations[0].dabs: must be [{\"x\", \"y\", \"radius\"}, ...]");
  EXPECT_EQ(parse(R"({"type": "mask", "dabs": [{"x": 1, "y": 1, "radius": -1}]})"),
            "s.json: excitations[0].dabs[0].radius: -1 is outside [0, 8]");
  EXPECT_EQ(parse(R"({"type": "mask", "dabs": [{"x": 9, "y": 1}]})"),
            "s.json: excitations[0].dabs[0].x: 9 is outside [0, 8]");
  EXPECT_EQ(parse(R"({"type": "mask", "dabs": [{"x": "a", "y": 1}]})"),
            "s.json: excitations[0].dabs[0].x: must be a number");
  EXPECT_EQ(parse(R"({"type": "mask", "solid": 1, "dabs": [{"x": 1, "y": 1}]})"),
            "s.json: excitations[0].solid: must be true or false");
  EXPECT_EQ(parse(R"({"type": "mask", "time": -2, "dabs": [{"x": 1, "y": 1}]})"),
            "s.json: excitations[0].time: -2 is outside [0, 1e+12]");
  EXPECT_EQ(parse(R"({"type": "mask", "dabs": [{"x": 1, "y": 1, "r": 1}]})"),
            "s.json: excitations[0].dabs[0].r: unknown key");
}

// JSON text cannot hold NaN; a scenario built as a JSON value can, and is refused by key.
TEST(MaskStrokeScenario, NanRadiusIsRefused) {
  nlohmann::json json = nlohmann::json::parse(R"({"grid": {"nx": 8, "ny": 8, "dx": 1},
    "excitations": [{"type": "mask", "dabs": [{"x": 1, "y": 1}]}]})");
  json["excitations"][0]["dabs"][0]["radius"] = std::nan("");
  EXPECT_EQ(errorOf([&] { parseScenario(json, "s.json", {}); }),
            "s.json: excitations[0].dabs[0].radius: must be finite");
}

}  // namespace
}  // namespace wb
