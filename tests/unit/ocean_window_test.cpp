// The travelling window (scenario "ocean.window", docs/scenario.md#window): the grid re-centres
// by whole cells on a towed body's boat across the periodic open sea. Every model translates
// its state (Model::shiftWindow), the sea its origin, and the budget counts what leaves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/ocean/ocean_layer.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"
#include "tests/unit/test_support.hpp"

namespace wb {
namespace {

constexpr int kLayer = 24;  // cells of an open edge's absorbing layer on these grids
const std::vector<std::string> kLocalModels{"damped-wave", "advected-wave", "swe-adi",
                                            "swe-semi-lagrangian"};

// The sea seen from a moved origin is the sea at the moved points: fields to the float
// transform's round-off, point sums to double round-off, at 0 s and after an hour.
TEST(OceanWindow, TheSeaMovesItsOriginExactly) {
  const Scenario s = parseScenarioText(
      R"({"grid": {"nx": 64, "ny": 48, "dx": 0.5}, "water": {"depth": 3},
          "ocean": {"spectrum": "jonswap", "wind_speed": 4, "swell_height": 0.1,
                    "swell_period": 4}})",
      "s.json", {});
  const Domain domain(s.grid, s.g, s.depth);
  OceanLayer still(oceanParams(s), domain, "s.json: ocean");
  OceanLayer moved(oceanParams(s), domain, "s.json: ocean");
  moved.moveTo(5, -3);
  moved.moveTo(70, -13);  // twice: the second move is relative to the first
  for (const double t : {0.0, 3600.0}) {
    still.evaluate(t);
    moved.evaluate(t);
    const float scale = still.height().maxAbs();
    ASSERT_GT(scale, 0.01f);
    for (int j = 0; j < 48; ++j)
      for (int i = 0; i < 64; ++i)
        ASSERT_NEAR(moved.height()(i, j), still.height()((i + 70) % 64, (j - 13 + 48) % 48),
                    1e-5 * scale)
            << "cell (" << i << ", " << j << ") at " << t << " s";
    EXPECT_NEAR(moved.heightAt(3.3, 7.1, t), still.heightAt(3.3 + 35.0, 7.1 - 6.5, t), 1e-12);
  }
}

// A drop spreading, its model moved by (4, -3) cells halfway: the surface afterwards is the
// unmoved run's, moved. Walls-free open water of one depth, the window's rule; compared off
// the open edges' absorbing layers (24 cells here, which stay where they are), which the waves
// have not reached. The explicit damped-wave is exact; the others solve over the whole grid
// (rows, the pressure, the Helmholtz equation) from a moved first guess: to 1e-4 with their
// solvers at 1e-7.
TEST(OceanWindow, ShiftingTheStateDoesNotMoveThePhysics) {
  const Scenario s = parseScenarioText(
      R"({"grid": {"nx": 96, "ny": 96, "dx": 0.5}, "water": {"depth": 2},
          "domain": {"edges": "open"},
          "initial": {"drops": [{"x": 24, "y": 24, "radius": 1.5, "amplitude": 0.05}]}})",
      "s.json", {});
  const Domain domain = buildDomain(s);
  const Field2D eta0 = buildInitialEta(s, domain);
  for (const std::string& id : kLocalModels) {
    auto still = std::move(createScenarioModels(s, {id}, {}, false)[0]);
    auto moved = std::move(createScenarioModels(s, {id}, {}, false)[0]);
    for (auto* model : {&still, &moved})
      if ((*model)->params().has("cg_tolerance"))
        (*model)->params().set("cg_tolerance", 1e-7, "test");
    still->reset(domain, eta0);
    moved->reset(domain, eta0);
    const double dt = std::min(still->preferredDt(), 0.02);
    for (int n = 0; n < 60; ++n) {
      if (n == 30) moved->shiftWindow(4, -3);
      still->step(dt);
      moved->step(dt);
    }
    const Field2D& a = still->eta();
    const Field2D& b = moved->eta();
    const float scale = a.maxAbs();
    ASSERT_GT(scale, 1e-3f) << id;
    double worst = 0.0;
    int worstI = 0, worstJ = 0;
    for (int j = kLayer + 3; j < 96 - kLayer; ++j)
      for (int i = kLayer; i < 96 - kLayer - 4; ++i)
        if (const double d = std::fabs(b(i, j) - a(i + 4, j - 3)); d > worst)
          worst = d, worstI = i, worstJ = j;
    const double bound = (id == "damped-wave" ? 1e-9 : 1e-4) * scale;
    EXPECT_LE(worst, bound) << id << ": " << worst / scale << " of the largest wave, at cell ("
                            << worstI << ", " << worstJ << ")";
  }
}

// A hull towed at 2 m/s across calm water, once on a 96 m grid and once in a 48 m window that
// follows it: around the hull (a 10 m x 8 m box) the two wakes agree, the hulls sail the same
// course, and the window's budget closes with what left it. Early (4 s, the window has moved
// 12 cells) and late (12 s, 44 cells, the bow waves back from the window's edges): measured
// 0.05-1.2 % of the wake's height, bounded at 2 %.
TEST(OceanWindow, ATowedHullLeavesTheSameWakeInTheWindowAsOnCalmWater) {
  const std::string common = R"("water": {"depth": 2, "density": 1025},
      "domain": {"edges": "open"},
      "excitations": [{"type": "boat", "x": 12, "y": 20, "path": [[90, 20]],
                       "acceleration": 1, "max_speed": 2, "wake_amplitude": 0}],
      "bodies": [{"shape": "hull", "size": [2, 0.8, 0.4], "density": 400, "x": 10, "y": 20,
                  "towed_by": 0}],
      "duration": 20)";
  const Scenario wide = parseScenarioText(
      R"({"grid": {"nx": 192, "ny": 80, "dx": 0.5}, "ocean": {"wind_speed": 0}, )" + common + "}",
      "wide.json", {});
  const Scenario window = parseScenarioText(
      R"({"grid": {"nx": 96, "ny": 80, "dx": 0.5},
          "ocean": {"wind_speed": 0, "window": {"follow": 0, "size": [48, 40]}}, )" +
          common + "}",
      "window.json", {});
  const double dx = 0.5;
  for (const std::string& id : kLocalModels) {
    Comparison onWide(wide, createScenarioModels(wide, {id}, {}, false));
    Comparison inWindow(window, createScenarioModels(window, {id}, {}, false));
    EXPECT_EQ(inWindow.windowOrigin()[0], -12.0) << id << ": starts centred on the boat";
    for (const double stop : {4.0, 12.0}) {
      while (inWindow.time() < stop - 1e-9) {
        onWide.advanceFrame();
        inWindow.advanceFrame();
      }
      const std::string at = id + " at " + std::to_string(stop) + " s";
      const auto origin = inWindow.windowOrigin();
      const auto& hullWide = onWide.rigidBodies(0)->bodies()[0];
      const auto& hullWindow = inWindow.rigidBodies(0)->bodies()[0];
      EXPECT_NEAR(hullWindow.position.x() + origin[0], hullWide.position.x(), 0.01) << at;
      EXPECT_NEAR(hullWindow.position.y() + origin[1], hullWide.position.y(), 0.01) << at;
      // The box around the hull, in the wide grid's cells and the window's.
      const int iWide = int(hullWide.position.x() / dx), jWide = int(hullWide.position.y() / dx);
      const int shiftI = int(std::lround(origin[0] / dx));
      const int shiftJ = int(std::lround(origin[1] / dx));
      double largest = 0.0, worst = 0.0;
      for (int j = jWide - 8; j <= jWide + 8; ++j)
        for (int i = iWide - 10; i <= iWide + 10; ++i) {
          const double a = onWide.surface(0)(i, j);
          const double b = inWindow.surface(0)(i - shiftI, j - shiftJ);
          largest = std::max(largest, std::fabs(a));
          worst = std::max(worst, std::fabs(a - b));
        }
      ASSERT_GT(largest, 5e-3) << at << ": no wake to compare";
      EXPECT_LE(worst, 0.02 * largest) << at << ": " << worst / largest << " of the wake";
      const FrameRecord r = inWindow.record(0);
      EXPECT_LT(r.volumeWindow, 0.0) << at << ": the wake left behind takes water";
      const double moved =
          std::fabs(r.volumeSink) + std::fabs(r.volumeWindow) + std::fabs(r.volumeDisplaced);
      EXPECT_LE(std::fabs(r.volumeDrift), 1e-4 * moved + 1e-6)
          << at << ": window " << r.volumeWindow << " m^3, sink " << r.volumeSink;
    }
  }
}

// builtin:open-sea for 30 s: the window moves a cell every 0.2 s. With the PML's psi left in
// place while the water moved through the layer (a PML in a mean flow) damped-wave's and
// advected-wave's wakes grew threefold a second from 10 s on (4.8 m at 14 s).
TEST(OceanWindow, TheWakeStaysBoundedAsTheWindowSails) {
  const Scenario s = loadScenario("builtin:open-sea");
  const std::vector<std::string> models{"damped-wave", "advected-wave"};
  Comparison comparison(s, createScenarioModels(s, models, {}, false));
  double largest = 0.0;
  while (comparison.time() < 30.0 - 1e-9) {
    comparison.advanceFrame();
    for (std::size_t k = 0; k < models.size(); ++k)
      largest = std::max(largest, comparison.record(k).maxAbsEta);
  }
  EXPECT_GT(comparison.windowOrigin()[0], 50.0);
  EXPECT_LT(largest, 0.1);
  for (std::size_t k = 0; k < models.size(); ++k) {
    const FrameRecord r = comparison.record(k);
    EXPECT_LE(std::fabs(r.volumeDrift),
              1e-4 * (std::fabs(r.volumeSink) + std::fabs(r.volumeWindow)) + 1e-6)
        << models[k] << ": window " << r.volumeWindow << " m^3, sink " << r.volumeSink;
  }
}

TEST(OceanWindow, BadWindowsAreRefusedNamingTheKey) {
  const std::string boatAndHull = R"("excitations": [{"type": "boat", "x": 8, "y": 8,
      "path": [[300, 8]]}], "bodies": [{"shape": "hull", "size": [2, 0.8, 0.4], "x": 6,
      "y": 8, "towed_by": 0}, {"shape": "box", "size": [0.5, 0.5, 0.5], "x": 3, "y": 3}])";
  const auto parse = [&](const std::string& grid, const std::string& window,
                         const std::string& more = "") {
    return errorOf([&] {
      parseScenarioText(R"({"grid": )" + grid + R"(, "water": {"depth": 2},
          "ocean": {"wind_speed": 2, "window": )" +
                            window + "}, " + boatAndHull + more + "}",
                        "s.json", {});
    });
  };
  const std::string grid = R"({"nx": 32, "ny": 32, "dx": 0.5})";
  EXPECT_EQ(parse(grid, R"({"follow": 0, "size": [16, 16]})"), "no error");
  EXPECT_EQ(parse(grid, R"({"follow": 0, "size": [20, 16]})"),
            "s.json: ocean.window.size: [20, 16] m is larger than the grid (16 x 16 m): the "
            "window is the local grid");
  EXPECT_NE(parse(grid, R"({"follow": 0, "size": [8, 16]})")
                .find("s.json: ocean.window.size: [8, 16] m is smaller than the grid"),
            std::string::npos);
  EXPECT_EQ(parse(grid, R"({"follow": 2})"), "s.json: ocean.window.follow: 2 is outside [0, 1]");
  EXPECT_NE(parse(grid, R"({"follow": 1})")
                .find("s.json: ocean.window.follow: body 1 is not towed (towed_by)"),
            std::string::npos);
  EXPECT_EQ(parse(grid, R"({"size": [16, 16]})"), "s.json: ocean.window.follow: missing");
  EXPECT_EQ(parse(grid, R"({"follow": 0, "speed": 1})"), "s.json: ocean.window.speed: unknown key");
  EXPECT_NE(parse(grid, R"({"follow": 0})", R"(, "domain": {"mask": "pi"})")
                .find("s.json: ocean.window: the window travels, so the domain must be open "
                      "water of one depth"),
            std::string::npos);
  // A boat's path may run far beyond the grid only with a window.
  EXPECT_NE(errorOf([&] {
              parseScenarioText(
                  R"({"grid": )" + grid + R"(, "ocean": {"wind_speed": 2}, )" + boatAndHull + "}",
                  "s.json", {});
            }).find("s.json: excitations[0].path[0]: 300 is outside [0, 16]"),
            std::string::npos);
  // fft-ocean's basin cannot travel; a mask stroke is refused while the window travels.
  const Scenario s = parseScenarioText(R"({"grid": )" + grid + R"(, "water": {"depth": 2},
      "ocean": {"wind_speed": 2, "window": {"follow": 0}}, )" +
                                           boatAndHull + "}",
                                       "s.json", {});
  EXPECT_NE(errorOf([&] {
              Comparison(s, createScenarioModels(s, {"fft-ocean"}, {}, false));
            }).find("s.json: ocean.window: fft-ocean: the basin's walls cannot travel"),
            std::string::npos);
  Comparison comparison(s, createScenarioModels(s, {"damped-wave"}, {}, false));
  MaskStroke stroke;
  stroke.dabs = {MaskDab{3.0, 3.0, 1.0}};
  EXPECT_NE(errorOf([&] {
              comparison.applyStroke(stroke);
            }).find("s.json: a mask stroke is refused: the window travels"),
            std::string::npos);
}

}  // namespace
}  // namespace wb
