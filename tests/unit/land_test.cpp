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

namespace wb {
namespace {
namespace fs = std::filesystem;

constexpr double kG = 9.81;

// Water above the ground, m^3: sum of (h - b) over the open cells, h lifted to the ground.
double water(const Field2D& h, const Domain& domain) {
  double sum = 0.0;
  for (std::size_t k = 0; k < h.size(); ++k)
    if (domain.wetMask()[k])
      sum += std::max(double(h.data()[k]) + domain.restDepth().data()[k], 0.0);
  return sum * domain.grid().cellArea();
}

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
    Field2D depth(kN, kN);
    for (int j = 0; j < kN; ++j)
      for (int i = 0; i < kN; ++i)
        depth(i, j) = float(
            1.0 -
            1.5 * std::exp(-(std::pow(i + 0.5 - 16.0, 2) + std::pow(j + 0.5 - 16.0, 2)) / 20.0));
    std::ofstream out(dir_ / "island.csv");
    writeCsvField(out, depth);
  }
  void TearDown() override { fs::remove_all(dir_); }

  Scenario island(const std::string& extra = "") const {
    return parseScenarioText(R"({"grid": {"nx": 32, "ny": 32, "dx": 1},
        "water": {"bathymetry": {"csv": "island.csv"}})" +
                                 extra + "}",
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
  // The coast key survives a save and load; the default is not written.
  const Scenario walls = parseScenarioText(scenarioToJson(s).dump(), "again.json", dir_);
  EXPECT_FALSE(scenarioToJson(walls).contains("terrain"));
}

// A lake at rest around the island stays at rest: 1000 steps, |eta - eta0| and |u|, |v| at
// most 1e-6, the water kept to 1e-6 of itself (float round-off).
template <class M>
void expectLakeAtRest(const Scenario& s, double dt) {
  const Domain domain = buildDomain(s);
  const Field2D eta0 = buildInitialEta(s, domain);
  M model;
  model.params().set("dt", dt, "test");
  if constexpr (std::is_same_v<M, SweSemiLagrangian>) model.params().set("force", 1, "test");
  model.reset(domain, eta0);
  const Field2D start = model.eta();
  const double w0 = water(start, domain);
  double worst = 0.0, drift = 0.0;
  for (int k = 0; k < 1000; ++k) {
    model.step(dt);
    drift = std::max(drift, std::fabs(water(model.eta(), domain) - w0) / w0);
  }
  for (std::size_t k = 0; k < start.size(); ++k)
    worst = std::max({worst, double(std::fabs(model.eta().data()[k] - start.data()[k])),
                      double(std::fabs(model.velocityU()->data()[k])),
                      double(std::fabs(model.velocityV()->data()[k]))});
  EXPECT_LE(worst, 1e-6);
  EXPECT_LE(drift, 1e-6);
  // The island's top is dry: the surface there is the ground.
  EXPECT_NEAR(model.eta()(15, 15), -domain.restDepth()(15, 15), 1e-7);
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
// A beach: a 12.8 m strip (128 x 4 cells of 0.1 m) whose ground rises linearly from 0.5 m
// below rest at the west wall to 0.5 m above it at the east wall; a 0.1 m hump of water at
// x = 3 m, at rest, sends half of itself up the beach.
Domain beach() {
  const int nx = 128, ny = 4;
  Domain domain(Grid{nx, ny, 0.1}, kG, 1.0);
  Field2D depth(nx, ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      depth(i, j) = float(0.5 - domain.grid().x(i) / domain.grid().width());
  domain.setRestDepth(depth);
  return domain;
}

Field2D beachWave(const Domain& domain) {
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
  double drift = 0.0;     // max |water - water0| / water0
};

template <class M>
BeachRun runBeach(double duration) {
  const Domain domain = beach();
  M model;
  model.reset(domain, beachWave(domain));
  const double w0 = water(model.eta(), domain);
  BeachRun run;
  int peakStep = 0;
  run.drainedAfter = domain.nx() * domain.ny();
  double t = 0.0;
  for (int step = 0; t < duration; ++step) {
    const double dt = model.preferredDt();
    model.step(dt);
    t += dt;
    int flooded = 0;
    double raw = 0.0;
    for (int j = 0; j < domain.ny(); ++j)
      for (int i = 0; i < domain.nx(); ++i) {
        const double d = model.eta()(i, j) + domain.restDepth()(i, j);
        raw += d * domain.grid().cellArea();
        run.minDepth = std::min(run.minDepth, d);
        flooded += !domain.isWetAtRest(i, j) && d > 1e-3;
      }
    run.drift = std::max(run.drift, std::fabs(raw - w0) / w0);
    if (flooded > run.peakFlooded)
      run.peakFlooded = flooded, peakStep = step, run.drainedAfter = flooded;
    if (step > peakStep) run.drainedAfter = std::min(run.drainedAfter, flooded);
  }
  return run;
}

TEST(Land, BeachFloodsAndDrainsInSweSemiLagrangian) {
  const BeachRun run = runBeach<SweSemiLagrangian>(12.0);
  EXPECT_GE(run.peakFlooded, 8);  // at least two columns of the beach
  EXPECT_LE(run.drainedAfter, run.peakFlooded / 4);
  EXPECT_GE(run.minDepth, 0.0);
  EXPECT_LE(run.drift, 1e-6);
}

TEST(Land, BeachFloodsAndDrainsInSweAdi) {
  const BeachRun run = runBeach<SweAdi>(12.0);
  EXPECT_GE(run.peakFlooded, 8);  // at least two columns of the beach
  EXPECT_LE(run.drainedAfter, run.peakFlooded / 4);
  EXPECT_GE(run.minDepth, 0.0);
  EXPECT_LE(run.drift, 1e-6);
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

TEST(Land, DampedWaveRunsTheBeachWithLandAsWalls) {
  expectLandAsWalls<DampedWave>();
}

TEST(Land, AdvectedWaveRunsTheBeachWithLandAsWalls) {
  expectLandAsWalls<AdvectedWave>();
}

}  // namespace
}  // namespace wb
