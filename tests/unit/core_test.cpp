// Core pieces: domain presets and coasts, excitations (rain, boat eqs. 7-9), scenario JSON round
// trip, the Comparison runner's lockstep and concurrency, the fused surface diagnostics and the
// kinetic energy's predicted solve.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <numbers>

#include "core/errors.hpp"
#include "core/grid/stencil.hpp"
#include "core/measure/diagnostics.hpp"
#include "core/measure/wave_energy.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/scenario.hpp"
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
  excitations.record([&](ExcitationSpecs& s) { recordBoatSteer(s, 1.0, 0, state.x, 90.0); });
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
  excitations.record([&](ExcitationSpecs& s) { recordStir(s, 0.5, stir); });
  EXPECT_FALSE(excitations.windAt(0.45).has_value());  // not before its time
  excitations.advance(0.5, 0.6);
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

// A builtin scenario saved to any folder (Save As, the GUI's autosave) names its embedded
// resources "builtin:NAME", so the copy loads there with the same terrain, mesh and fields.
TEST(Scenario, EveryBuiltinSavedElsewhereLoadsWithItsResources) {
  const auto dir = std::filesystem::temp_directory_path() / "wavebench_builtin_copies";
  std::filesystem::create_directories(dir);
  int resources = 0;
  for (const auto& name : builtinScenarioNames()) {
    SCOPED_TRACE(name);
    const Scenario a = loadScenario("builtin:" + name);
    saveScenarioFile(a, dir / (name + ".json"));
    const Scenario b = loadScenarioFile(dir / (name + ".json"));
    EXPECT_EQ(scenarioToJson(a), scenarioToJson(b));
    const Domain domainA = buildDomain(a), domainB = buildDomain(b);
    EXPECT_EQ(domainA.wetMask(), domainB.wetMask());
    for (const auto& body : b.rigidBodies) {
      if (body.meshFile.empty()) continue;
      EXPECT_TRUE(body.meshFile.starts_with("builtin:")) << body.meshFile;
      ++resources;
    }
    if (b.terrain) {
      EXPECT_TRUE(b.terrain->builtin);
      ++resources;
    }
  }
  EXPECT_GE(resources, 2);  // harbour's terrain, the canoe's hull
  std::filesystem::remove_all(dir);
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

// The concurrent runner puts each model on its own thread: every model and record must come
// out bitwise as in the serial order with one thread (each model's state is its own; drops,
// floating boxes and the blow-up check are per model). 128^2 cells, so that the models' loops
// take their OpenMP paths.
TEST(Comparison, ConcurrentModelsGiveExactlyTheSerialSeries) {
  Scenario scenario = loadScenario("builtin:rain");
  scenario.bodies.count = 3;
  const std::vector<std::string> ids = {"damped-wave", "advected-wave", "swe-semi-lagrangian"};
  const int threads = omp_get_max_threads();
  const auto run = [&](bool concurrent, int teamThreads) {
    omp_set_num_threads(teamThreads);
    Comparison comparison(scenario, createScenarioModels(scenario, ids, {}, false));
    comparison.setConcurrent(concurrent);
    std::vector<FrameRecord> records;
    std::vector<Field2D> surfaces;
    for (int f = 0; f < 30; ++f) {
      comparison.advanceFrame();
      EXPECT_EQ(omp_get_max_threads(), teamThreads);  // the runner leaves the thread count
      for (std::size_t k = 0; k < comparison.modelCount(); ++k)
        records.push_back(comparison.record(k));
    }
    for (std::size_t k = 0; k < comparison.modelCount(); ++k)
      surfaces.push_back(comparison.model(k).eta());
    omp_set_num_threads(threads);
    return std::make_pair(records, surfaces);
  };
  const auto [serial, serialSurfaces] = run(false, 1);
  const auto [concurrent, concurrentSurfaces] = run(true, 3);
  ASSERT_EQ(serial.size(), concurrent.size());
  for (std::size_t r = 0; r < serial.size(); ++r) {
    const FrameRecord &a = serial[r], &b = concurrent[r];
    SCOPED_TRACE(a.model + " frame " + std::to_string(a.frame));
    EXPECT_EQ(a.model, b.model);
    EXPECT_EQ(a.frame, b.frame);
    EXPECT_EQ(a.volume, b.volume);
    EXPECT_EQ(a.volumeSources, b.volumeSources);
    EXPECT_EQ(a.energyPotential, b.energyPotential);
    EXPECT_EQ(a.energyKinetic, b.energyKinetic);
    EXPECT_EQ(a.maxAbsEta, b.maxAbsEta);
    EXPECT_EQ(a.substeps, b.substeps);
    EXPECT_EQ(a.solver, b.solver);
  }
  for (std::size_t k = 0; k < serialSurfaces.size(); ++k)
    EXPECT_EQ(0, std::memcmp(serialSurfaces[k].data(), concurrentSurfaces[k].data(),
                             serialSurfaces[k].size() * sizeof(float)));
}

// The fused surface pass against plain sums, on a masked pool with a NaN on a solid cell.
TEST(Diagnostics, SurfaceSummaryMatchesPlainSums) {
  Domain domain(Grid{150, 140, 0.1}, 9.81, 1.0);
  domain.applyPreset(MaskPreset::Pi);
  Field2D eta(150, 140);
  for (int j = 0; j < 140; ++j)
    for (int i = 0; i < 150; ++i)
      eta(i, j) = 0.01f * std::sin(0.1f * float(i)) * std::cos(0.07f * float(j)) - 0.002f;
  eta(75, 5) = 0.5f;  // solid: counted by max |eta| only
  ASSERT_FALSE(domain.isWet(75, 5));
  double volume = 0.0, squares = 0.0;
  float maxAbs = 0.0f;
  for (int j = 0; j < 140; ++j)
    for (int i = 0; i < 150; ++i) {
      maxAbs = std::max(maxAbs, std::fabs(eta(i, j)));
      if (!domain.isWet(i, j)) continue;
      volume += eta(i, j);
      squares += double(eta(i, j)) * eta(i, j);
    }
  const SurfaceSummary s = summarizeSurface(eta, domain);
  const double area = 0.1 * 0.1;
  EXPECT_NEAR(s.volume, volume * area, 1e-12 * std::fabs(volume * area) + 1e-15);
  EXPECT_NEAR(s.potentialEnergy, 0.5 * 9.81 * squares * area, 1e-12 * squares);
  EXPECT_EQ(s.maxAbs, 0.5f);
  EXPECT_TRUE(s.finite);
  eta(75, 5) = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(summarizeSurface(eta, domain).finite);
  eta(75, 5) = 0.0f;
  eta(3, 3) = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(summarizeSurface(eta, domain).finite);
}

// The cost figures' median: a burst of outside load in one frame does not move it, and the
// window holds the last frames only.
TEST(Diagnostics, MedianStepCostIgnoresASpikeAndForgetsOldFrames) {
  std::vector<FrameRecord> history;
  for (double ms : {1.0, 1.2, 40.0, 1.1, 0.9}) {
    history.emplace_back();
    history.back().stepMs = ms;
  }
  EXPECT_EQ(medianStepMs(history, history.size(), 15), 1.1);
  EXPECT_EQ(medianStepMs(history, 3, 15), 1.2);  // frames 0-2 only
  EXPECT_EQ(medianStepMs(history, 5, 2), 1.1);   // frames 3 and 4: the upper of the two
  EXPECT_EQ(medianStepMs(history, 99, 1), 0.9);  // end is clamped to the history
  EXPECT_EQ(medianStepMs(history, 0, 15), 0.0);
  EXPECT_EQ(medianStepMs({}, 0, 15), 0.0);
}

// The kinetic energy starts from its Galerkin prediction and corrects it once with a V-cycle
// (core/measure/wave_energy.hpp); it must agree with a solve from zero to the same tolerance, on a
// pool with walls, with both wall rules. The surfaces come from the undamped three-level scheme, 4
// steps per "frame".
TEST(WaveKineticEnergy, PredictionAgreesWithAColdSolve) {
  for (const auto& [kind, rule] : {std::pair{StencilKind::NinePoint, WallRule::Mirror},
                                   std::pair{StencilKind::FivePoint, WallRule::Zero}}) {
    SCOPED_TRACE(rule == WallRule::Mirror ? "mirror" : "zero");
    Domain domain(Grid{96, 80, 0.05}, 9.81, 0.5);
    domain.applyPreset(MaskPreset::Pi);
    const WetStencil stencil(domain, kind, rule);
    const double c = std::sqrt(9.81 * 0.5), dt = 0.5 * 0.05 / (c * 2.0);
    const float mu = float(c * c * dt * dt / (0.05 * 0.05));
    Field2D h(96, 80), hOld(96, 80), lap(96, 80);
    for (int j = 0; j < 80; ++j)
      for (int i = 0; i < 96; ++i)
        if (domain.isWet(i, j))
          h(i, j) = hOld(i, j) =
              0.05f * std::exp(-0.01f * float((i - 20) * (i - 20) + (j - 50) * (j - 50)));
    WaveKineticEnergy predicted;
    int cheapFrames = 0;
    for (int frame = 0; frame < 40; ++frame) {
      for (int step = 0; step < 4; ++step) {
        stencil.apply(h, lap);
        for (std::size_t k = 0; k < h.size(); ++k) {
          if (!domain.wetMask()[k]) continue;
          const float next = 2.0f * h.data()[k] - hOld.data()[k] + mu * lap.data()[k];
          hOld.data()[k] = h.data()[k];
          h.data()[k] = next;
        }
      }
      const bool singular = rule == WallRule::Mirror;
      Field2D rate(96, 80);
      for (std::size_t k = 0; k < h.size(); ++k)
        rate.data()[k] = h.data()[k] - hOld.data()[k];
      const double fast = predicted.compute(stencil, domain, singular, c, h, rate, dt);
      WaveKineticEnergy cold;
      const double reference = cold.compute(stencil, domain, singular, c, h, rate, dt);
      ASSERT_GT(reference, 0.0);
      EXPECT_NEAR(fast, reference, 1e-5 * reference) << "frame " << frame;
      EXPECT_TRUE(predicted.lastSolve().converged);
      cheapFrames += predicted.lastSolve().iterations <= 1;
    }
    // The prediction, at most with one correction, met the tolerance on most frames.
    EXPECT_GE(cheapFrames, 30);
  }
}

}  // namespace
}  // namespace wb
