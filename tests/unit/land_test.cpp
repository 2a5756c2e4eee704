// Land above the rest level (docs/wet-dry.md, "Land above the rest level"): a bathymetry's
// negative depths are ground that is dry until water reaches it. The shallow-water models
// keep a lake at rest around an island read from a CSV and flood and drain a beach with depth
// never negative and volume kept; damped-wave and advected-wave run the same land as walls.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <type_traits>

#include "core/scenario/field_io.hpp"
#include "core/scenario/scenario.hpp"
#include "models/advected_wave/advected_wave.hpp"
#include "models/damped_wave/damped_wave.hpp"
#include "models/swe_adi/swe_adi.hpp"
#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"
#include "models/verification/land_checks.hpp"

namespace wb {
namespace {
namespace fs = std::filesystem;
using namespace land_checks;

TEST(Land, RestDepthIsSignedAndOnlyShallowWaterIsRaised) {
  Domain domain(Grid{4, 1, 1.0}, kG, 1.0);
  Field2D depth(4, 1);
  depth(0, 0) = 0.5f, depth(1, 0) = 0.001f, depth(2, 0) = 0.0f, depth(3, 0) = -0.2f;
  domain.setRestDepth(depth);
  EXPECT_FLOAT_EQ(domain.restDepth()(0, 0), 0.5f);
  EXPECT_FLOAT_EQ(domain.restDepth()(1, 0), float(Domain::kMinDepth));  // as before
  EXPECT_FLOAT_EQ(domain.restDepth()(2, 0), float(Domain::kMinDepth));
  EXPECT_FLOAT_EQ(domain.restDepth()(3, 0), -0.2f);  // ground 0.2 m above rest
  EXPECT_TRUE(domain.isWet(3, 0));
  EXPECT_FALSE(domain.isWetAtRest(3, 0));
  EXPECT_TRUE(domain.hasLandAboveRest());
  EXPECT_NEAR(domain.meanWetDepth(), (0.5 + 2 * Domain::kMinDepth) / 3, 1e-7);
  const Domain walled = domain.withLandAsWalls();
  EXPECT_FALSE(walled.isWet(3, 0));
  EXPECT_EQ(walled.restDepth()(3, 0), 0.0f);
  EXPECT_EQ(walled.wetCount(), 3);
  EXPECT_FALSE(walled.hasLandAboveRest());
}

TEST(Land, TerrainCoastIsWallsByDefaultOrGroundAboveRest) {
  Field2D height(3, 1);
  height(0, 0) = 0.1f, height(1, 0) = 0.5f, height(2, 0) = 0.9f;
  Domain walls(Grid{3, 1, 1.0}, kG, 1.0), ground(Grid{3, 1, 1.0}, kG, 1.0);
  walls.applyTerrain(height, 0.5);
  ground.applyTerrain(height, 0.5, Domain::Coast::Ground);
  EXPECT_EQ(walls.wetCount(), 1);
  EXPECT_EQ(ground.wetCount(), 3);
  for (const Domain* d : {&walls, &ground})
    EXPECT_FLOAT_EQ(d->restDepth()(0, 0), 0.4f);
  EXPECT_FLOAT_EQ(ground.restDepth()(1, 0), 0.0f);  // at sea level: dry ground
  EXPECT_FLOAT_EQ(ground.restDepth()(2, 0), -0.4f);
  EXPECT_FALSE(ground.isWetAtRest(1, 0));
}

// A scenario folder holding island.csv: a 32 x 32 basin 1 m deep whose island rises 0.5 m
// above the rest level (depth 1 - 1.5 exp(-r^2 / 20), r from the centre in m).
class LandScenario : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("wavebench_land_" + std::string(info->name()) + "_" + std::to_string(getpid()));
    fs::create_directories(dir_);
    const Field2D depth = islandDepth();
    std::ofstream out(dir_ / "island.csv");
    writeCsvField(out, depth);
  }
  void TearDown() override { fs::remove_all(dir_); }

  Scenario island() const {
    return parseScenarioText(
        R"({"grid": {"nx": 32, "ny": 32, "dx": 1}, "water": {"bathymetry": {"csv": "island.csv"}}})",
        "island.json", dir_);
  }

  static constexpr int kN = 32;
  fs::path dir_;
};

TEST_F(LandScenario, NegativeDepthsAreReadAsGroundAboveRest) {
  const Scenario s = island();
  const Domain domain = buildDomain(s);
  int land = 0;
  for (int j = 0; j < kN; ++j)
    for (int i = 0; i < kN; ++i)
      land += domain.isWet(i, j) && !domain.isWetAtRest(i, j);
  EXPECT_EQ(domain.wetCount(), kN * kN);
  EXPECT_GT(land, 20);
  EXPECT_NEAR(domain.restDepth()(15, 15), 1.0 - 1.5 * std::exp(-0.5 / 20.0), 1e-6);
}

// A heightmap ramp (grey 0 to 1 from west to east, 1 m scale) with "coast": "ground": the
// cells above the 0.5 m sea level stay open as ground above rest; the key survives a save and
// load, and the default ("walls") is not written.
TEST_F(LandScenario, TerrainCoastGroundKeepsLandOpenAndSurvivesSaveAndLoad) {
  Field2D ramp(kN, kN);
  for (int j = 0; j < kN; ++j)
    for (int i = 0; i < kN; ++i)
      ramp(i, j) = float(i) / float(kN - 1);
  writePngField(dir_ / "ramp.png", ramp, 0.0f, 1.0f);
  const std::string grid = R"({"grid": {"nx": 32, "ny": 32, "dx": 1}, )";
  const Scenario ground = parseScenarioText(
      grid + R"("terrain": {"png": "ramp.png", "coast": "ground"}})", "g.json", dir_);
  const Scenario walls =
      parseScenarioText(grid + R"("terrain": {"png": "ramp.png"}})", "w.json", dir_);
  EXPECT_EQ(buildDomain(ground).wetCount(), kN * kN);
  EXPECT_EQ(buildDomain(walls).wetCount(), kN * kN / 2);
  EXPECT_NEAR(buildDomain(ground).restDepth()(kN - 1, 0), -0.5, 0.01);
  const nlohmann::json saved = scenarioToJson(ground);
  EXPECT_EQ(saved["terrain"]["coast"], "ground");
  EXPECT_EQ(parseScenarioText(saved.dump(), "again.json", dir_).coast, Domain::Coast::Ground);
  EXPECT_FALSE(scenarioToJson(walls)["terrain"].contains("coast"));
}

// A lake at rest around the island stays at rest: 1000 steps, |eta - eta0| and |u|, |v| at
// most 1e-6, the water kept to 1e-6 of itself (float round-off).
template <class M>
void expectLakeAtRest(const Scenario& s, double dt) {
  const Domain domain = buildDomain(s);
  const LakeRun run = runLakeAtRest<M>(domain, buildInitialEta(s, domain), dt, 1000);
  EXPECT_LE(run.error, 1e-6);
  EXPECT_LE(run.drift, 1e-6);
}

TEST_F(LandScenario, LakeAtRestAroundAnIslandInSweSemiLagrangian) {
  expectLakeAtRest<SweSemiLagrangian>(island(), 1.0);
}

TEST_F(LandScenario, LakeAtRestAroundAnIslandInSweAdi) {
  expectLakeAtRest<SweAdi>(island(), 1.0);
}

// The wave runs up the beach over cells dry at rest and drains back: within 12 s at least two
// columns of dry ground hold more than 1 mm at once, later at most a quarter of them do; depth
// never negative, the water kept to 1e-6 of itself.
TEST(Land, BeachFloodsAndDrainsInSweSemiLagrangian) {
  const BeachRun run = runBeach<SweSemiLagrangian>(12.0);
  EXPECT_TRUE(floodsAndDrains(run))
      << "flooded " << run.peakFlooded << ", then " << run.drainedAfter << ", min depth "
      << run.minDepth << " m, drift " << run.drift;
}

TEST(Land, BeachFloodsAndDrainsInSweAdi) {
  const BeachRun run = runBeach<SweAdi>(12.0);
  EXPECT_TRUE(floodsAndDrains(run))
      << "flooded " << run.peakFlooded << ", then " << run.drainedAfter << ", min depth "
      << run.minDepth << " m, drift " << run.drift;
}

// The beach's coast moves every step: faces close and open under the flooding rule and the
// drying correction lifts cells the step drew below their ground. Both keep swe-adi's
// discharges on the rate (a closed face keeps the discharge its rate carries, the lifted
// water crosses the faces it came through), with and without Manning friction, so the
// discharge correction's Poisson solve is not needed in any step: max |-div(q) - hdot| stays
// within DischargeSync's 1 % of the largest rate.
TEST(Land, BeachCoastKeepsSweAdiDischargesOnTheRate) {
  for (const double manning : {0.0, 0.012}) {
    Domain domain = beach();
    domain.setManning(manning);
    SweAdi model;
    model.reset(domain, beachWave(domain));
    int corrected = 0, steps = 0;
    double moved = 0.0, worst = 0.0;
    for (double t = 0.0; t < 12.0; ++steps) {
      const double dt = model.preferredDt();
      model.step(dt);
      t += dt;
      const auto figures = model.diagnostics();
      corrected += int(figures.at("discharge_sync"));
      moved += figures.at("positivity_volume");
      float rate = 0.0f;
      for (std::size_t k = 0; k < model.rate().size(); ++k)
        rate = std::max(rate, std::fabs(model.rate().data()[k]));
      worst = std::max(worst, figures.at("discharge_mismatch") / std::max(double(rate), 1e-12));
    }
    EXPECT_GT(moved, 0.0) << manning;  // the drying correction ran
    EXPECT_EQ(corrected, 0) << manning << ": of " << steps << " steps";
    EXPECT_LE(worst, 0.01) << manning;
  }
}

// damped-wave and advected-wave have no wet/dry physics: the beach's land is a wall to them,
// so they run exactly as on the beach with those cells masked solid, and leave them at rest.
template <class M>
void expectLandAsWalls() {
  const Domain domain = beach();
  Domain masked = domain;
  for (int j = 0; j < domain.ny(); ++j)
    for (int i = 0; i < domain.nx(); ++i)
      if (!domain.isWetAtRest(i, j)) masked.setWet(i, j, false);
  const Field2D eta0 = beachWave(domain);
  M onLand, onWalls;
  onLand.reset(domain, eta0);
  onWalls.reset(masked, eta0);
  ASSERT_EQ(onLand.preferredDt(), onWalls.preferredDt());
  const double dt = onLand.preferredDt();
  double sum0 = 0.0;
  for (std::size_t k = 0; k < eta0.size(); ++k)
    sum0 += eta0.data()[k];
  for (int step = 0; step < 400; ++step) {
    onLand.step(dt);
    onWalls.step(dt);
  }
  double sum = 0.0;
  for (int j = 0; j < domain.ny(); ++j)
    for (int i = 0; i < domain.nx(); ++i) {
      ASSERT_EQ(onLand.eta()(i, j), onWalls.eta()(i, j)) << i << ", " << j;
      if (domain.isWetAtRest(i, j))
        sum += onLand.eta()(i, j);
      else
        ASSERT_EQ(onLand.eta()(i, j), 0.0f) << i << ", " << j;
    }
  EXPECT_NEAR(sum, sum0, 1e-4 * sum0);  // the hump's water stays in the sea
}

// Thacker's planar oscillation in a paraboloid (land_checks.hpp) for one period at 20 cells
// per metre: the cap of water comes back where it started, in shape (L1 depth error within
// 2 % of h0) and place (its centroid within a quarter of a cell), depth never negative. With
// the first-order upwind advective depth and the dry-bed Riemann start on the rising
// shoreline, the cap came back 0.09 m (1.8 cells) from its place, error 0.084.
TEST(Land, ThackerOscillationComesBackAfterOnePeriod) {
  const ThackerRun run = runThacker<SweSemiLagrangian>(20.0, 1.0);
  EXPECT_LE(run.finalError, kThackerTolerance);
  EXPECT_LE(run.centroidOffset, 0.25 * 0.05);
  EXPECT_GE(run.minDepth, 0.0);
  EXPECT_LE(run.drift, 1e-5);
}

TEST(Land, DampedWaveRunsTheBeachWithLandAsWalls) {
  expectLandAsWalls<DampedWave>();
}

TEST(Land, AdvectedWaveRunsTheBeachWithLandAsWalls) {
  expectLandAsWalls<AdvectedWave>();
}

}  // namespace
}  // namespace wb
