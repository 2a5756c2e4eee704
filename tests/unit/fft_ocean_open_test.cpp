// fft-ocean's open form (sea = open): the state after an hour of small steps is the state at
// t = 3600 s to the bit; drops superpose exactly and keep their volume; potential + kinetic
// energy is constant; it runs with open edges; bad input is refused with a one-line error naming
// the key.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "core/measure/diagnostics.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/scenario.hpp"
#include "models/fft_ocean/fft_ocean.hpp"
#include "models/registry.hpp"
#include "tests/unit/test_support.hpp"

namespace wb {
namespace {

constexpr double kG = 9.81;

void openSea(FftOcean& model, const std::string& spectrum, double windSpeed) {
  model.params().setFromText("sea", "open", "test");
  model.params().setFromText("spectrum", spectrum, "test");
  model.params().set("wind_speed", windSpeed, "test");
}

bool sameBits(const Field2D& a, const Field2D& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// 14400 steps of 0.25 s and one step of 3600 s reach the same time, t = 3600 exactly, and the
// phases are w t of it: the same bits. Steps of 1/60 s reach 3600 s to a rounding of the time
// (t = 216000 * fl(1/60), not a sum of 216000 roundings): the same surface to 1e-6.
TEST(FftOceanOpen, AnHourOfStepsIsTheStateAtAnHour) {
  const Domain domain(Grid{64, 64, 1.0}, kG, 20.0);
  FftOcean stepped, direct, sixtieths;
  for (FftOcean* m : {&stepped, &direct, &sixtieths}) {
    openSea(*m, "jonswap", 8.0);
    m->reset(domain, Field2D(64, 64));
  }
  for (int k = 0; k < 14400; ++k)
    stepped.step(0.25);
  for (int k = 0; k < 216000; ++k)
    sixtieths.step(1.0 / 60.0);
  direct.step(3600.0);
  EXPECT_EQ(stepped.time(), 3600.0);
  EXPECT_TRUE(sameBits(stepped.eta(), direct.eta()));
  EXPECT_NEAR(sixtieths.time(), 3600.0, 1e-12);
  double worst = 0.0;
  for (std::size_t k = 0; k < direct.eta().size(); ++k)
    worst = std::max(worst, double(std::fabs(sixtieths.eta().data()[k] - direct.eta().data()[k])));
  EXPECT_LT(worst, 1e-6 * direct.eta().maxAbs());
}

// Linear and exact: a drop added at t0 is a surface at rest at t0 evolving by w(k); the sum of
// a sea with a drop and the calm run with the drop is the sea plus the drop. addEta returns the
// drop's volume; the volume of the surface is that of the drop at every later time.
TEST(FftOceanOpen, DropsSuperposeExactlyAndKeepTheirVolume) {
  const Grid grid{48, 32, 0.5};
  const Domain domain(grid, kG, 2.0);
  Field2D drop(grid.nx, grid.ny);
  stampGaussian(drop, domain, SurfaceEvent{0.0, 6, 8, 1.5, 0.1});
  FftOcean both, sea, calm;
  openSea(both, "phillips", 5.0);
  openSea(sea, "phillips", 5.0);
  openSea(calm, "phillips", 0.0);
  for (FftOcean* m : {&both, &sea, &calm})
    m->reset(domain, Field2D(grid.nx, grid.ny));
  for (int k = 0; k < 30; ++k)
    for (FftOcean* m : {&both, &sea, &calm})
      m->step(0.05);
  const double added = both.addEta(drop);
  calm.addEta(drop);
  EXPECT_NEAR(added, drop.sum() * grid.cellArea(), 1e-9);
  for (int k = 0; k < 50; ++k)
    for (FftOcean* m : {&both, &sea, &calm})
      m->step(0.05);
  double worst = 0.0;
  for (std::size_t k = 0; k < both.eta().size(); ++k)
    worst = std::max(worst, double(std::fabs(both.eta().data()[k] - sea.eta().data()[k] -
                                             calm.eta().data()[k])));
  EXPECT_LT(worst, 1e-6 * both.eta().maxAbs());
  EXPECT_NEAR(wetVolume(calm.eta(), domain), added, 1e-6 * added);
}

// Potential (1/2 g sum eta^2 dA) + kinetic (1/2 g sum |h_t|^2 / w^2, the basin's definition for
// travelling waves) is constant: a drop's energy goes from potential to kinetic and back.
TEST(FftOceanOpen, PotentialPlusKineticIsConstant) {
  const Grid grid{64, 64, 1.0};
  const Domain domain(grid, kG, 5.0);
  Field2D drop(grid.nx, grid.ny);
  stampGaussian(drop, domain, SurfaceEvent{0.0, 20, 30, 3.0, 0.2});
  FftOcean model;
  openSea(model, "jonswap", 6.0);
  model.reset(domain, drop);
  EXPECT_EQ(model.kineticEnergy() > 0.0, true);  // the wind sea moves from the start
  const auto total = [&] {
    return summarizeSurface(model.eta(), domain).potentialEnergy + model.kineticEnergy();
  };
  const double e0 = total();
  for (int k = 0; k < 100; ++k) {
    model.step(0.37);
    EXPECT_NEAR(total(), e0, 1e-6 * e0) << k;
  }
}

// The bodies' shadow in the open form damps eta_t under a body: energy goes down, the volume
// does not move, and eta at the moment of damping is kept.
TEST(FftOceanOpen, ShadowKeepsVolumeAndTakesEnergy) {
  const Grid grid{32, 32, 0.5};
  const Domain domain(grid, kG, 2.0);
  Field2D eta0(grid.nx, grid.ny);
  stampGaussian(eta0, domain, SurfaceEvent{0.0, 5, 5, 1.5, 0.1});
  FftOcean model;
  openSea(model, "phillips", 0.0);
  model.reset(domain, eta0);
  for (int k = 0; k < 20; ++k)
    model.step(0.05);
  Field2D rate(grid.nx, grid.ny);
  for (int j = 10; j < 22; ++j)
    for (int i = 10; i < 22; ++i)
      rate(i, j) = 5.0f;
  const double v0 = wetVolume(model.eta(), domain);
  const auto energy = [&] {
    return summarizeSurface(model.eta(), domain).potentialEnergy + model.kineticEnergy();
  };
  const double e0 = energy();
  const Field2D before = model.eta();
  model.dampUnderBodies(rate, 0.05);
  double moved = 0.0;
  for (std::size_t k = 0; k < before.size(); ++k)
    moved = std::max(moved, double(std::fabs(model.eta().data()[k] - before.data()[k])));
  EXPECT_LT(moved, 1e-6 * before.maxAbs());
  for (int k = 0; k < 40; ++k) {
    model.step(0.05);
    model.dampUnderBodies(rate, 0.05);
  }
  EXPECT_LT(energy(), 0.9 * e0);
  EXPECT_NEAR(wetVolume(model.eta(), domain), v0, 1e-6 * std::fabs(eta0.sum()) + 1e-7);
}

// The open form runs with open edges (the periodic patch is not coupled to them) and reports
// its sea state: Hs of the realisation near the spectrum's, the peak period of the fetch law.
TEST(FftOceanOpen, RunsWithOpenEdgesAndReportsTheSeaState) {
  const Scenario s = parseScenarioText(
      R"({"grid": {"nx": 128, "ny": 128, "dx": 1.0}, "water": {"depth": 30},
          "domain": {"edges": "open"},
          "models": {"fft-ocean": {"sea": "open", "spectrum": "jonswap", "wind_speed": 6,
                                   "fetch": 20000}}})",
      "s.json", ".");
  Comparison comparison(s, createScenarioModels(s, {}, {}, false));
  for (int f = 0; f < 10; ++f)
    comparison.advanceFrame();
  EXPECT_FALSE(comparison.failure(0).has_value());
  const auto* model = dynamic_cast<const FftOcean*>(&comparison.model(0));
  ASSERT_NE(model, nullptr);
  const FftOcean::SeaState state = model->seaState();
  const double wp = 22.0 * std::cbrt(kG * kG / (6.0 * 20000.0));
  EXPECT_NEAR(state.peakPeriod, 2.0 * 3.141592653589793 / wp, 1e-9);
  EXPECT_GT(state.hsRealised, 0.5 * state.hsLattice);
  EXPECT_LT(state.hsRealised, 1.5 * state.hsLattice);
  // The lattice sum is the integral's Riemann sum without what lies beyond the patch's
  // wavenumbers: near it (the peak, 15 m long, is well inside the 128 m patch).
  EXPECT_NEAR(state.hsLattice, state.hsSpectrum, 0.02 * state.hsSpectrum);
  // The views' fields are the patch's at the model's time; eta is the same height.
  const Field2D height = model->eta();
  const OceanPatch* sea = model->openSeaFields(PatchOutputs{.slopes = true, .displacement = true});
  ASSERT_NE(sea, nullptr);
  EXPECT_EQ(std::memcmp(sea->height().data(), height.data(), height.size() * sizeof(float)), 0);
  EXPECT_GT(sea->field(PatchField::DisplacementX).maxAbs(), 0.0f);
}

std::string setError(const std::string& assignment) {
  return errorOf([&] {
    const Scenario s = parseScenarioText(
        R"({"grid": {"nx": 16, "ny": 16, "dx": 0.5}, "water": {"depth": 1}})", "s.json", ".");
    createScenarioModels(s, {"fft-ocean"}, {assignment}, false);
  });
}

TEST(FftOceanOpen, RefusesBadInputNamingTheKey) {
  EXPECT_EQ(setError("fft-ocean.wind_speed=-1"),
            "--set fft-ocean.wind_speed=-1: -1 is outside [0, 100] m/s");
  EXPECT_EQ(setError("fft-ocean.spectrum=pierson"),
            "--set fft-ocean.spectrum=pierson: 'pierson' is not one of phillips, jonswap");
  EXPECT_EQ(setError("fft-ocean.sea=lake"),
            "--set fft-ocean.sea=lake: 'lake' is not one of basin, open");
  EXPECT_EQ(setError("fft-ocean.gamma=nan"),
            "--set fft-ocean.gamma=nan: value must be a finite number");
  Domain uneven(Grid{8, 8, 1.0}, kG, 1.0);
  Field2D depth(8, 8, 1.0f);
  depth(3, 3) = 1.5f;
  uneven.setRestDepth(depth);
  FftOcean model;
  model.params().setFromText("sea", "open", "test");
  EXPECT_EQ(errorOf([&] { model.reset(uneven, Field2D(8, 8)); }),
            "fft-ocean.sea: open: the rest depth of the water ranges from 1 to 1.5 m; w^2 = g k "
            "tanh(k d) needs one depth");
  EXPECT_EQ(errorOf([] {
              const Scenario s = loadScenario("builtin:pi-pool");
              Comparison(s, createScenarioModels(s, {"fft-ocean"}, {"fft-ocean.sea=open"}, false));
            }),
            "fft-ocean.sea: open: the domain has 858 solid cells; the periodic patch needs the "
            "whole rectangle wet");
}

}  // namespace
}  // namespace wb
