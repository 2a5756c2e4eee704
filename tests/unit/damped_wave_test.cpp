// damped-wave beyond the verification table: the bound is enforced, blow-ups are caught, the
// zero boundary really leaks, energy is conserved without damping, the stencils are
// conservative and symmetric.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <random>

#include "core/errors.hpp"
#include "core/grid/stencil.hpp"
#include "core/measure/diagnostics.hpp"
#include "core/run/comparison.hpp"
#include "models/damped_wave/damped_wave.hpp"
#include "models/registry.hpp"
#include "tests/unit/test_support.hpp"

namespace wb {
namespace {

TEST(WetStencil, MirrorWallsSumToZeroAndZeroWallsDoNot) {
  Domain domain(Grid{40, 30, 1.0}, 9.81, 1.0);
  domain.applyPreset(MaskPreset::Pi);
  const Field2D h = randomWetField(domain, 5);
  Field2D out(40, 30);
  for (auto kind : {StencilKind::FivePoint, StencilKind::NinePoint}) {
    WetStencil mirror(domain, kind, WallRule::Mirror);
    mirror.apply(h, out);
    EXPECT_NEAR(wetVolume(out, domain), 0.0, 1e-4);
    WetStencil zero(domain, kind, WallRule::Zero);
    zero.apply(h, out);
    double boundaryValue = 0.0;
    for (const auto& cell : zero.edgeCells())
      boundaryValue += h.data()[cell.index];
    // Zero walls pull edge cells towards 0: the sum is minus the wall weights times h there.
    EXPECT_GT(std::fabs(wetVolume(out, domain)), 1e-2 * std::fabs(boundaryValue));
  }
}

TEST(WetStencil, NinePointApproximatesTheLaplacian) {
  // On h = x^2 + y^2 (lap = 4) both stencils give dx^2 * 4 at interior cells.
  const Domain domain(Grid{8, 8, 0.5}, 9.81, 1.0);
  Field2D h(8, 8), out(8, 8);
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 8; ++i)
      h(i, j) = float(std::pow(domain.grid().x(i), 2) + std::pow(domain.grid().y(j), 2));
  for (auto kind : {StencilKind::FivePoint, StencilKind::NinePoint}) {
    WetStencil(domain, kind, WallRule::Mirror).apply(h, out);
    EXPECT_NEAR(out(4, 4), 4.0 * 0.25, 1e-5);
  }
}

TEST(DampedWave, StabilityLimitMatchesBresslerForFourNeighbours) {
  const double k = 1.5, c = 2.0, dx = 0.1;
  const double dt = DampedWave::stabilityLimit(k, c, dx, 8.0);
  EXPECT_NEAR(k * dt + 4 * c * c * dt * dt / (dx * dx), 2.0, 1e-12);
  const double dt8 = DampedWave::stabilityLimit(k, c, dx, 4.0);
  EXPECT_NEAR(k * dt8 + 2 * c * c * dt8 * dt8 / (dx * dx), 2.0, 1e-12);
  EXPECT_GT(dt8, dt);
}

TEST(DampedWave, RefusesUnstableDtWithClearMessage) {
  const Domain domain(Grid{16, 16, 0.1}, 9.81, 1.0);
  DampedWave model;
  model.params().set("dt", 0.1, "test");
  try {
    model.reset(domain, Field2D(16, 16));
    FAIL() << "an unstable dt was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("damped-wave.dt: 0.1 s exceeds the stability bound"),
              std::string::npos)
        << e.what();
  }
}

TEST(DampedWave, ForcedUnstableRunIsReportedAsBlowUpNotNan) {
  Scenario scenario = loadScenario("builtin:pi-pool");
  scenario.modelParams = {{"damped-wave", {{"dt", 0.05}, {"force", true}}}};
  scenario.tick = scenario.frameDt = 0.05;  // the runner never steps beyond the tick
  Comparison comparison(scenario, createScenarioModels(scenario, {}, {}, false));
  for (int f = 0; f < 200 && !comparison.anyFailed(); ++f)
    comparison.advanceFrame();
  ASSERT_TRUE(comparison.failure(0).has_value());
  EXPECT_NE(comparison.failure(0)->find("damped-wave blew up at t = "), std::string::npos)
      << *comparison.failure(0);
}

// The energy a leapfrog run conserves is its discrete invariant, per mode a cos(n theta) of -L
// with eigenvalue s, mu = c^2 dt^2 / dx^2 and cos(theta) = 1 - mu s / 2:
//   E = (rho g / 2) ((a^{n+1} - a^n)^2 / (omega dt)^2 + a^{n+1} a^n),  omega^2 dt^2 = mu s.
// A surface at rest at t = 0 (core/model/rest_start.hpp: a^{-1} = a^1 = cos(theta)) holds
// E = (1 + cos(theta)) / 2 = 1 - mu s / 4 times its potential energy P, which is what the
// model reports before the first step. Summed over the modes of h^0:
//   E / P = 1 - (mu / 4) <h, -L h> / <h, h>,
// the O(dt^2) start offset of a second-order scheme; from then on E stays constant.
double restStartEnergyRatio(const Domain& walled, const Field2D& h, double c, double dt) {
  const WetStencil stencil(walled, StencilKind::FivePoint, WallRule::Mirror);
  Field2D lh(h.nx(), h.ny());
  stencil.apply(h, lh);
  double hLh = 0.0, hh = 0.0;
  for (std::size_t k = 0; k < h.size(); ++k)
    if (walled.wetMask()[k]) {
      hLh -= double(h.data()[k]) * lh.data()[k];
      hh += double(h.data()[k]) * h.data()[k];
    }
  const double mu = c * c * dt * dt / (walled.grid().dx * walled.grid().dx);
  return 1.0 - 0.25 * mu * hLh / hh;
}

TEST(DampedWave, EnergyIsConservedWithoutDampingAndDecaysWithIt) {
  for (double k : {0.0, 1.0}) {
    Scenario scenario = loadScenario("builtin:pi-pool");
    scenario.modelParams = {{"damped-wave", {{"k", k}, {"neighbours", 4}}}};
    Comparison comparison(scenario, createScenarioModels(scenario, {}, {}, false));
    const Domain walled = comparison.domain().withLandAsWalls();
    const double c = std::sqrt(walled.g() * walled.meanWetDepth());
    const double startRatio =
        restStartEnergyRatio(walled, comparison.model(0).eta(), c, scenario.frameDt);
    const double e0 = comparison.record(0).energyTotal();
    comparison.advanceFrame();
    ASSERT_EQ(comparison.record(0).substeps, 1);  // one step of frameDt
    const double e1 = comparison.record(0).energyTotal();
    for (int f = 1; f < 120; ++f)
      comparison.advanceFrame();
    const double e120 = comparison.record(0).energyTotal();
    if (k == 0.0) {
      ASSERT_LT(startRatio, 0.999);  // the offset is large enough to be told from none
      EXPECT_NEAR(e1 / e0, startRatio, 1e-4);
      EXPECT_NEAR(e120 / e1, 1.0, 1e-6);
    } else {
      // The discrete energy decays as R^n = (1 - k dt)^n, close to exp(-k t).
      EXPECT_NEAR(e120 / (e0 * startRatio), std::exp(-k * comparison.time()), 0.02);
    }
  }
}

TEST(DampedWave, ZeroBoundaryLeaksVolumeWhereMirrorKeepsIt) {
  Scenario scenario = loadScenario("builtin:pi-pool");
  std::vector<double> drift;
  for (const char* boundary : {"mirror", "zero"}) {
    scenario.modelParams = {{"damped-wave", {{"boundary", boundary}}}};
    Comparison comparison(scenario, createScenarioModels(scenario, {}, {}, false));
    for (int f = 0; f < 120; ++f)
      comparison.advanceFrame();
    drift.push_back(std::fabs(comparison.record(0).volumeDrift));
  }
  EXPECT_LT(drift[0], 1e-6);
  EXPECT_GT(drift[1], 1e3 * drift[0]);
}

// The threaded step (wall cells and spans shared by one team) against one thread, on a Pi
// pool large enough for threads, with both stencils and both wall rules: the update of a cell
// reads only the last two levels, so the surfaces must agree bit for bit.
TEST(DampedWave, TwoThreadsStepAsOneBitForBit) {
  const int n = 136;  // above core/grid/parallel.hpp's threshold
  Domain domain(Grid{n, n, 0.06}, 9.81, 1.0);
  domain.applyPreset(MaskPreset::Pi);
  const Field2D eta0 = randomWetField(domain, 7);
  for (const char* neighbours : {"4", "8"})
    for (const char* boundary : {"mirror", "zero"}) {
      Field2D eta[2];
      for (int threads : {1, 2}) {
        omp_set_num_threads(threads);
        DampedWave model;
        model.params().setFromText("neighbours", neighbours, "test");
        model.params().setFromText("boundary", boundary, "test");
        model.reset(domain, eta0);
        for (int s = 0; s < 20; ++s)
          model.step(model.preferredDt());
        eta[threads - 1] = model.eta();
      }
      omp_set_num_threads(1);
      ASSERT_GT(eta[0].maxAbs(), 0.0f);
      for (std::size_t k = 0; k < eta[0].size(); ++k)
        ASSERT_EQ(eta[1].data()[k], eta[0].data()[k]) << neighbours << " " << boundary << " " << k;
    }
}

// A floating body adds its displacement's change at every step (addEta); a wall painted next
// to it mid-run turns cells solid. Solid cells must stay 0 and the surface bounded: the start
// at rest of each added bump (core/model/rest_start.hpp) once kept the old values of cells
// turned solid and multiplied them by c^2/dx^2 at every step, a blow-up within 5 steps.
TEST(DampedWave, BumpsAddedEveryStepBesideANewWallStayBounded) {
  const Domain open(Grid{16, 16, 0.1}, 9.81, 1.0);
  DampedWave model;
  model.reset(open, Field2D(16, 16));
  Field2D bump(16, 16);
  for (int j = 6; j <= 9; ++j)
    for (int i = 6; i <= 9; ++i)
      bump(i, j) = 1e-4f;
  const double dt = 0.5 * model.maxStableDt();
  for (int n = 0; n < 5; ++n)
    model.addEta(bump), model.step(dt);
  Domain walled = open;
  std::vector<std::uint32_t> cells;
  for (int j = 6; j <= 9; ++j) {
    walled.setWet(8, j, false);
    cells.push_back(std::uint32_t(j * 16 + 8));
  }
  model.changeMask(walled, cells);
  for (int n = 0; n < 200; ++n) {
    model.addEta(bump);
    model.step(dt);
    for (const std::uint32_t k : cells)
      ASSERT_EQ(model.eta().data()[k], 0.0f) << "step " << n;
  }
  // 205 bumps of 16 cells at 1e-4 m: the water cannot stand higher than their sum.
  EXPECT_LT(model.eta().maxAbs(), 205 * 16 * 1e-4);
}

TEST(DampedWave, AddEtaDisplacesWithoutVelocity) {
  const Domain domain(Grid{16, 16, 0.1}, 9.81, 1.0);
  DampedWave model;
  model.reset(domain, Field2D(16, 16));
  Field2D delta(16, 16);
  delta(8, 8) = 0.1f;
  EXPECT_NEAR(model.addEta(delta), 0.1 * 0.01, 1e-9);
  EXPECT_FLOAT_EQ(model.eta()(8, 8), 0.1f);
  EXPECT_NEAR(model.kineticEnergy() + 0.0, 0.0, 1e-12);  // at rest: no kinetic energy
}

}  // namespace
}  // namespace wb
