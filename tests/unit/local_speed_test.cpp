// The wave models' local wave speed (speed = local, docs/models.md "Local wave speed") beyond
// the verification rows: each row's measurement fails on the mean-speed form, the link-depth
// operator is symmetric and conservative, a fixed c is refused with it, and open edges and
// eq. 7's depth-weighted flow keep working.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "core/errors.hpp"
#include "core/grid/stencil.hpp"
#include "core/measure/diagnostics.hpp"
#include "core/run/comparison.hpp"
#include "models/advected_wave/advected_wave.hpp"
#include "models/damped_wave/damped_wave.hpp"
#include "models/registry.hpp"
#include "models/verification/local_speed_checks.hpp"
#include "tests/unit/test_support.hpp"

namespace wb {
namespace {

// A Pi pool over random ground, depths 0.05 to 2 m.
Domain roughPool(unsigned seed) {
  Domain domain(Grid{40, 30, 0.1}, 9.81, 1.0);
  domain.applyPreset(MaskPreset::Pi);
  Field2D depth(40, 30);
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> d(0.05f, 2.0f);
  for (std::size_t k = 0; k < depth.size(); ++k)
    depth.data()[k] = d(random);
  domain.setRestDepth(depth);
  return domain;
}

TEST(WetStencil, LinkDepthsAreSymmetricAndConservative) {
  const Domain domain = roughPool(3);
  const Field2D a = randomWetField(domain, 5), b = randomWetField(domain, 6);
  Field2D la(40, 30), lb(40, 30);
  for (auto kind : {StencilKind::FivePoint, StencilKind::NinePoint}) {
    const WetStencil stencil(domain, kind, WallRule::Mirror, LinkDepth::Local);
    ASSERT_TRUE(stencil.localDepth());
    stencil.apply(a, la);
    stencil.apply(b, lb);
    // <b, L a> = <a, L b> (the energy invariant's condition) and sum L a = 0 (volume).
    double bla = 0.0, alb = 0.0, scale = 0.0;
    for (std::size_t k = 0; k < la.size(); ++k) {
      if (!domain.wetMask()[k]) continue;
      bla += double(b.data()[k]) * la.data()[k];
      alb += double(a.data()[k]) * lb.data()[k];
      scale += std::fabs(double(b.data()[k]) * la.data()[k]);
    }
    EXPECT_NEAR(bla, alb, 1e-6 * scale);
    EXPECT_NEAR(wetVolume(la, domain), 0.0, 1e-4);
  }
}

TEST(WetStencil, LinkDepthsOnFlatGroundAreTheUniformOperator) {
  Domain domain(Grid{40, 30, 0.1}, 9.81, 0.7);
  domain.applyPreset(MaskPreset::Pi);
  const Field2D h = randomWetField(domain, 7);
  Field2D uniform(40, 30), local(40, 30);
  for (auto kind : {StencilKind::FivePoint, StencilKind::NinePoint}) {
    WetStencil(domain, kind, WallRule::Mirror).apply(h, uniform);
    WetStencil(domain, kind, WallRule::Mirror, LinkDepth::Local).apply(h, local);
    for (std::size_t k = 0; k < h.size(); ++k)
      ASSERT_NEAR(local.data()[k], uniform.data()[k], 1e-5) << k;
  }
}

// Each verification row's measurement, on the mean-speed form, misses its tolerance: the rows
// test what the local speed adds.
TEST(LocalSpeed, TheMeanSpeedFailsLambsDepthStep) {
  for (const char* model : {"damped-wave", "advected-wave"}) {
    const DepthStepWaves mean = measureDepthStep(model, "mean");
    EXPECT_GT(mean.transmissionError(), 0.1) << model;
    EXPECT_GT(mean.reflectionError(), 0.5) << model;
    const DepthStepWaves local = measureDepthStep(model, "local");
    EXPECT_LT(local.transmissionError(), 0.02) << model;
    EXPECT_LT(local.reflectionError(), 0.02) << model;
  }
}

TEST(LocalSpeed, TheMeanSpeedFailsGreensLaw) {
  for (const char* model : {"damped-wave", "advected-wave"}) {
    EXPECT_GT(std::fabs(measureGreensLaw(model, "mean") - 1.0), 0.1) << model;
    EXPECT_LT(std::fabs(measureGreensLaw(model, "local") - 1.0), 0.03) << model;
  }
}

// Snell's law at an oblique step from 1 m to 0.25 m (c2 / c1 = 1/2): at 30 and 45 degrees the
// transmitted crest turns to 14.48 and 20.70 degrees. The tolerance, 1 degree at 20 cells per
// wavelength, is far above what the grid moves (the crest placed to a tenth of a cell over 60
// rows, the stencils' anisotropy a part in a thousand of c2 / c1), and the angle must not move
// with the grid (20 against 30 cells per wavelength, within half a degree). The mean-speed form
// does not turn: the same reading gives the incident angle back, which also checks the reading
// (the beam's ends and the walls' echoes stay out of it).
void expectSnellsLaw(const char* model) {
  for (double incident : {30.0, 45.0}) {
    const Refraction local = measureRefraction(model, "local", incident, 20);
    const Refraction mean = measureRefraction(model, "mean", incident, 20);
    std::printf("%s at %g deg: local %.3f deg (Snell %.3f), mean %.3f deg\n", model, incident,
                local.measuredDeg, local.expectedDeg, mean.measuredDeg);
    EXPECT_NEAR(local.measuredDeg, local.expectedDeg, 1.0) << model << " " << incident;
    EXPECT_NEAR(mean.measuredDeg, incident, 1.0) << model << " " << incident;
  }
  const Refraction coarse = measureRefraction(model, "local", 30.0, 20);
  const Refraction finer = measureRefraction(model, "local", 30.0, 30);
  std::printf("%s at 30 deg: %.3f deg on 20, %.3f deg on 30 cells per wavelength\n", model,
              coarse.measuredDeg, finer.measuredDeg);
  EXPECT_NEAR(finer.measuredDeg, finer.expectedDeg, 1.0) << model;
  EXPECT_NEAR(finer.measuredDeg, coarse.measuredDeg, 0.5) << model;
}

TEST(LocalSpeed, DampedWaveRefractsBySnellsLaw) {
  expectSnellsLaw("damped-wave");
}

TEST(LocalSpeed, AdvectedWaveRefractsBySnellsLaw) {
  expectSnellsLaw("advected-wave");
}

TEST(LocalSpeed, AFixedSpeedIsRefusedWithTheLocalOne) {
  const Domain domain = roughPool(4);
  for (const char* id : {"damped-wave", "advected-wave"}) {
    auto model = createModel(id);
    model->params().setFromText("speed", "local", "test");
    model->params().set("c", 2.0, "test");
    try {
      model->reset(domain, Field2D(40, 30));
      FAIL() << id << " accepted c with speed = local";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string(id) + ".c:"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("speed = local"), std::string::npos) << e.what();
    }
  }
}

// The bound uses the deepest water's speed: the automatic dt of the local form is that of the
// mean form with c = sqrt(g d_max).
TEST(LocalSpeed, TheStepIsBoundByTheDeepestWater) {
  const Domain domain = roughPool(5);
  DampedWave local, deepest;
  local.params().setFromText("speed", "local", "test");
  deepest.params().set("c", std::sqrt(9.81 * domain.maxWetDepth()), "test");
  local.reset(domain, Field2D(40, 30));
  deepest.reset(domain, Field2D(40, 30));
  EXPECT_DOUBLE_EQ(local.preferredDt(), deepest.preferredDt());
  EXPECT_TRUE(local.localSpeed());
  EXPECT_FALSE(deepest.localSpeed());
}

// The harbour row's volume and energy, against the mean form's on the same run: the local
// operator loses nothing the uniform one keeps (what drifts is the float sums' round-off).
TEST(LocalSpeed, TheHarbourKeepsVolumeAndEnergyAsTheMeanFormDoes) {
  for (const char* model : {"damped-wave", "advected-wave"}) {
    const HarbourRun mean = measureHarbour(model, "mean", 600);
    const HarbourRun local = measureHarbour(model, "local", 600);
    std::printf("%s: volume step %g / %g, drift %g / %g, energy %g / %g (mean / local)\n", model,
                mean.volumeStep, local.volumeStep, mean.volumeDrift, local.volumeDrift,
                mean.energyChange, local.energyChange);
    EXPECT_EQ(local.restMax, 0.0) << model;
    EXPECT_LT(local.volumeStep, 3.0 * mean.volumeStep + 1e-9) << model;
    EXPECT_LT(local.volumeDrift, 3.0 * mean.volumeDrift + 1e-9) << model;
    EXPECT_LT(local.energyChange, 1e-5) << model;
  }
}

// builtin:harbour (open west edge, 8-neighbour damped-wave) with the local speed in both
// models: the run stays bounded, its volume budget closes, and the energy only decays.
TEST(LocalSpeed, TheHarbourRunsWithOpenEdgesAndTheLocalSpeed) {
  Scenario scenario = loadScenario("builtin:harbour");
  scenario.bodies = {};
  scenario.modelParams = {{"damped-wave", {{"speed", "local"}, {"neighbours", 8}}},
                          {"advected-wave", {{"speed", "local"}}}};
  Comparison comparison(
      scenario, createScenarioModels(scenario, {"damped-wave", "advected-wave"}, {}, false));
  std::vector<double> energy0;
  for (std::size_t m = 0; m < 2; ++m)
    energy0.push_back(comparison.record(m).energyTotal());
  for (int f = 0; f < 300; ++f)
    comparison.advanceFrame();
  for (std::size_t m = 0; m < 2; ++m) {
    EXPECT_LT(std::fabs(comparison.record(m).volumeDrift), 1e-6) << m;
    EXPECT_LT(comparison.record(m).energyTotal(), 1.5 * energy0[m]) << m;
    EXPECT_LT(comparison.model(m).eta().maxAbs(), 0.2f) << m;
  }
}

// Eq. 7 with the depth-weighted flow: a uniform flow over a slope has div u = 0 but moves
// water from the deep to the shallow side (div(d u) != 0); the surface must change, and the
// volume must not.
TEST(LocalSpeed, AdvectedWaveLiftsTheSurfaceByTheDepthWeightedFlow) {
  Domain domain(Grid{48, 32, 0.1}, 9.81, 1.0);
  Field2D depth(48, 32);
  for (int j = 0; j < 32; ++j)
    for (int i = 0; i < 48; ++i)
      depth(i, j) = float(1.0 - 0.015 * i);
  domain.setRestDepth(depth);
  for (const char* speed : {"mean", "local"}) {
    AdvectedWave model;
    model.params().setFromText("speed", speed, "test");
    model.reset(domain, Field2D(48, 32));
    // A flow along y, uniform: no divergence, and no flux through the walls at i = 0, 47.
    for (int j = 0; j < 32; ++j)
      for (int i = 0; i < 48; ++i)
        model.velocityVMutable()(i, j) = j == 0 || j == 31 ? 0.0f : 0.1f;
    const double dt = model.preferredDt();
    const double volume0 = wetVolume(model.eta(), domain);
    for (int s = 0; s < 20; ++s)
      model.step(dt);
    EXPECT_NEAR(wetVolume(model.eta(), domain), volume0, 1e-7) << speed;
    // Mean: the flow's only divergence is at the south and north walls, equal along x. Local:
    // the deep side sends more water, so the surface differs between the sides.
    const double across = std::fabs(model.eta()(5, 2) - model.eta()(42, 2));
    if (std::string(speed) == "mean")
      EXPECT_LT(across, 1e-6);
    else
      EXPECT_GT(across, 1e-4);
  }
}

}  // namespace
}  // namespace wb
