// Core pieces: domain presets and coasts, the fixed-step accumulator, excitations (rain,
// boat eqs. 7-9), scenario JSON round trip and the Comparison runner's lockstep.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>

#include "core/comparison.hpp"
#include "core/errors.hpp"
#include "core/scenario.hpp"
#include "models/registry.hpp"

namespace wb {
namespace {

TEST(Domain, PiPresetCutsTheMiddleOfTheLowerPart) {
  Domain domain(Grid{60, 50, 1.0}, 9.81, 1.0);
  domain.applyPreset(MaskPreset::Pi);
  EXPECT_TRUE(domain.isWet(5, 5));    // left leg
  EXPECT_TRUE(domain.isWet(55, 5));   // right leg
  EXPECT_FALSE(domain.isWet(30, 5));  // between the legs
  EXPECT_TRUE(domain.isWet(30, 45));  // the bar
  EXPECT_EQ(domain.restDepth()(30, 5), 0.0f);
  EXPECT_EQ(domain.wetCount(), 60 * 50 - 20 * 30);
}

TEST(Domain, TerrainTurnsHighGroundSolidAndSetsShelfDepth) {
  Domain domain(Grid{4, 1, 1.0}, 9.81, 5.0);
  Field2D ground(4, 1);
  ground(0, 0) = 0.0f, ground(1, 0) = 0.4f, ground(2, 0) = 0.5f, ground(3, 0) = 0.9f;
  domain.applyTerrain(ground, 0.5);
  EXPECT_TRUE(domain.isWet(0, 0));
  EXPECT_NEAR(domain.restDepth()(0, 0), 0.5, 1e-6);
  EXPECT_NEAR(domain.restDepth()(1, 0), 0.1, 1e-6);
  EXPECT_FALSE(domain.isWet(2, 0));  // at sea level: land
  EXPECT_FALSE(domain.isWet(3, 0));
}

TEST(FixedStepAccumulator, CarriesTheRemainderAndCapsTheBacklog) {
  FixedStepAccumulator clock(0.01, 5);
  EXPECT_EQ(clock.framesFor(0.025), 2);
  EXPECT_NEAR(clock.remainder(), 0.005, 1e-12);
  EXPECT_EQ(clock.framesFor(0.006), 1);
  EXPECT_EQ(clock.framesFor(1.0), 5);  // a stall does not make the simulation race
  EXPECT_EQ(clock.remainder(), 0.0);
}

TEST(Excitations, RainIsReproducibleFromTheSeedAndHasItsCount) {
  const Scenario scenario = loadScenario("builtin:rain");
  const Domain domain = buildDomain(scenario);
  auto collect = [&](std::uint64_t seed) {
    Excitations excitations(scenario.excitations, domain, seed);
    std::vector<SurfaceEvent> all;
    for (int f = 0; f < scenario.frameCount(); ++f) {
      auto events = excitations.advance(f * scenario.frameDt, (f + 1) * scenario.frameDt);
      all.insert(all.end(), events.begin(), events.end());
    }
    return all;
  };
  const auto a = collect(42), b = collect(42), c = collect(43);
  ASSERT_EQ(a.size(), 128u);  // the paper's 128 drops
  ASSERT_EQ(b.size(), a.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].x, b[k].x);
    EXPECT_EQ(a[k].time, b[k].time);
  }
  EXPECT_NE(a[0].x, c[0].x);
}

TEST(Excitations, BoatAcceleratesTowardsItsTargetAndTurnsItsHeading) {
  const Domain domain(Grid{100, 100, 1.0}, 9.81, 1.0);
  ExcitationSpecs specs;
  BoatSpec boat;
  boat.startX = 10, boat.startY = 10;
  boat.waypoints = {{90.0, 10.0}};
  boat.maxSpeed = 100;
  specs.boats.push_back(boat);
  Excitations excitations(specs, domain, 1);
  const auto events = excitations.advance(0.0, 1.0);
  const BoatState& state = excitations.boats()[0];
  // Eq. 7 with unit acceleration along +x for 1 s: v = 1 m/s, x = 10 + 1/2 m (first order).
  EXPECT_NEAR(state.vx, 1.0, 1e-9);
  EXPECT_NEAR(state.x, 10.5, 0.02);
  EXPECT_NEAR(state.heading, 0.0, 1e-9);
  EXPECT_EQ(events.size(), 60u);  // one wake dent per boat step of 1/60 s
  for (const auto& e : events)
    EXPECT_LT(e.amplitude, 0.0);
  // Turn the target by 90 degrees: the heading follows, tilt = kappa d theta (eq. 9).
  excitations.setBoatTarget(0, state.x, 90.0);
  excitations.advance(1.0, 4.0);
  EXPECT_GT(excitations.boats()[0].heading, 0.5);
  EXPECT_LT(excitations.boats()[0].heading, std::numbers::pi / 2 + 1e-9);
}

TEST(Excitations, StirIsAShortLocalForceInItsDirection) {
  const Domain domain(Grid{40, 40, 0.1}, 9.81, 1.0);
  Excitations excitations(ExcitationSpecs{}, domain, 1);
  EXPECT_FALSE(excitations.windAt(0.0).has_value());
  StirImpulse stir;
  stir.x = 1.05, stir.y = 2.05, stir.radius = 0.3, stir.ax = 2.0, stir.ay = -1.0;
  stir.duration = 0.2;
  excitations.addStir(stir);
  excitations.advance(0.5, 0.6);  // taken up at the start of the next frame
  const auto force = excitations.windAt(0.55);
  ASSERT_TRUE(force.has_value());
  EXPECT_NEAR(force->ax(10, 20), 2.0, 1e-6);  // the cell centred on the stir point
  EXPECT_NEAR(force->ay(10, 20), -1.0, 1e-6);
  EXPECT_LT(std::fabs(force->ax(30, 20)), 1e-6);  // 2 m away: nothing
  excitations.advance(0.6, 0.8);
  EXPECT_FALSE(excitations.windAt(0.75).has_value());  // over after its duration
}

TEST(Scenario, JsonRoundTripKeepsEverything) {
  const Scenario a = loadScenario("builtin:boat");
  const auto dir = std::filesystem::temp_directory_path() / "wavebench_scenario";
  std::filesystem::create_directories(dir);
  saveScenarioFile(a, dir / "boat.json");
  const Scenario b = loadScenarioFile(dir / "boat.json");
  EXPECT_EQ(scenarioToJson(a), scenarioToJson(b));
  EXPECT_EQ(b.excitations.boats.size(), 1u);
  EXPECT_EQ(b.excitations.boats[0].waypoints.size(), 4u);
}

TEST(Scenario, EveryBuiltinLoadsAndBuildsItsDomain) {
  for (const auto& name : builtinScenarioNames()) {
    SCOPED_TRACE(name);
    const Scenario s = loadScenario("builtin:" + name);
    const Domain domain = buildDomain(s);
    EXPECT_GT(domain.wetCount(), 0);
    EXPECT_FALSE(s.description.empty());
  }
}

TEST(Comparison, ModelsAdvanceInLockstepAndReceiveTheSameDrops) {
  Scenario scenario = loadScenario("builtin:rain");
  scenario.modelParams = {{"damped-wave", {{"k", 0.0}}}};
  // Two copies of one model with different substeps must see the same sources.
  auto models = createScenarioModels(scenario, {"damped-wave"}, {}, false);
  auto second = createModel("damped-wave");
  second->params().set("dt", 0.002, "test");
  models.push_back(std::move(second));
  Comparison comparison(scenario, std::move(models));
  for (int f = 0; f < 120; ++f)
    comparison.advanceFrame();
  const FrameRecord a = comparison.record(0), b = comparison.record(1);
  EXPECT_EQ(a.time, b.time);
  EXPECT_NE(a.substeps, b.substeps);
  EXPECT_NEAR(a.volumeSources, b.volumeSources, 1e-9);
  EXPECT_LT(a.volumeSources, 0.0);  // rain dents the surface
  EXPECT_NEAR(a.volume, b.volume, 1e-6);
}

}  // namespace
}  // namespace wb
