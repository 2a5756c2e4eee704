// fft-ocean: the verification cases must pass (their figures are printed); plus the model's
// contract: the surface velocity of one mode against linear theory, kinetic energy equal to the
// potential a quarter period on, exact superposition of addEta, the bodies' shadow keeping
// the volume and taking energy, the default model set without it, and every domain it cannot
// represent refused with a one-line error (Π pool, uneven ground, open edges, a mask stroke
// mid-run, a NaN wind speed).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>

#include "core/measure/diagnostics.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/scenario.hpp"
#include "models/fft_ocean/fft_ocean.hpp"
#include "models/registry.hpp"
#include "models/verification/verification.hpp"
#include "tests/unit/test_support.hpp"

namespace wb {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kG = 9.81;

class FftOceanCase : public ::testing::TestWithParam<std::string> {};

TEST_P(FftOceanCase, Passes) {
  for (const auto& c : verificationCases()) {
    if (c.model != "fft-ocean" || c.name != GetParam()) continue;
    const VerifyResult r = c.run();
    std::printf("[ fft-ocean ] %s: measured %g %s (tolerance %g): %s\n", r.name.c_str(), r.measured,
                r.unit.c_str(), r.tolerance, r.detail.c_str());
    EXPECT_TRUE(r.passed) << r.name << ": " << r.detail;
    return;
  }
  FAIL() << "no case named " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Verification, FftOceanCase,
                         ::testing::Values("period (1,1) kd = 0.1", "period (1,1) kd = 1",
                                           "period (1,1) kd = 10", "energy 10000 steps",
                                           "volume 10000 steps", "symmetry", "Phillips variance",
                                           "no energy across the wind", "shallow limit vs swe-adi",
                                           "open travelling wave kd = 1",
                                           "open travelling wave deep", "open standing wave kd = 1",
                                           "open JONSWAP variance", "open Hs vs Pierson-Moskowitz"),
                         [](const auto& info) {
                           std::string name;
                           for (char ch : info.param)
                             name += std::isalnum(ch) ? ch : '_';
                           return name;
                         });

// cos(pi m x / Lx) cos(pi n y / Ly) on the cell centres.
Field2D mode(const Grid& grid, int m, int n, double amplitude) {
  Field2D f(grid.nx, grid.ny);
  for (int j = 0; j < grid.ny; ++j)
    for (int i = 0; i < grid.nx; ++i)
      f(i, j) = float(amplitude * std::cos(kPi * m * grid.x(i) / grid.width()) *
                      std::cos(kPi * n * grid.y(j) / grid.height()));
  return f;
}

// eta = A cos(kx x) cos(ky y) cos(omega t) has phi = -(g A / omega) sin(omega t) cos cos, so
// u = phi_x = (g A kx / omega) sin(omega t) sin(kx x) cos(ky y) and likewise v. A quarter period
// after rest the velocity is largest; the transforms are float: tolerance 1e-5 of it.
TEST(FftOcean, SurfaceVelocityOfOneModeIsLinearTheorys) {
  const Grid grid{40, 24, 0.5};
  const Domain domain(grid, kG, 3.0);
  const int m = 3, n = 2;
  const double A = 0.05;
  FftOcean model;
  model.reset(domain, mode(grid, m, n, A));
  const double kx = kPi * m / grid.width(), ky = kPi * n / grid.height();
  const double omega = std::sqrt(kG * std::hypot(kx, ky) * std::tanh(std::hypot(kx, ky) * 3.0));
  EXPECT_NEAR(model.omega(m, n), omega, 1e-12 * omega);
  const double t = 0.3 * 2.0 * kPi / omega;
  model.step(t);
  const Field2D& u = *model.velocityU();
  const Field2D& v = *model.velocityV();
  const double scale = kG * A / omega * std::sin(omega * t);
  double worst = 0.0, largest = 0.0;
  for (int j = 0; j < grid.ny; ++j)
    for (int i = 0; i < grid.nx; ++i) {
      const double x = grid.x(i), y = grid.y(j);
      const double ue = scale * kx * std::sin(kx * x) * std::cos(ky * y);
      const double ve = scale * ky * std::cos(kx * x) * std::sin(ky * y);
      worst = std::max({worst, std::fabs(u(i, j) - ue), std::fabs(v(i, j) - ve)});
      largest = std::max({largest, std::fabs(ue), std::fabs(ve)});
    }
  EXPECT_GT(largest, 0.01);
  EXPECT_LT(worst, 1e-5 * largest) << "max |u - u_exact| " << worst << " of " << largest;
}

// A quarter period after rest all of one mode's energy is kinetic: KE(T/4) = PE(0), the
// definition 1/2 sum g b^2 with the basis normalisation and the cell area (float surface:
// 1e-6).
TEST(FftOcean, KineticEnergyAQuarterPeriodOnIsTheInitialPotential) {
  const Grid grid{32, 32, 1.0};
  const Domain domain(grid, kG, 4.0);
  FftOcean model;
  model.reset(domain, mode(grid, 2, 1, 0.1));
  const double pe0 = summarizeSurface(model.eta(), domain).potentialEnergy;
  EXPECT_EQ(model.kineticEnergy(), 0.0);
  model.step(0.25 * 2.0 * kPi / model.omega(2, 1));
  EXPECT_NEAR(model.kineticEnergy(), pe0, 1e-6 * pe0);
  EXPECT_LT(summarizeSurface(model.eta(), domain).potentialEnergy, 1e-10 * pe0);
}

// Linear: a drop added mid-run gives the sum of the two runs, and addEta returns its volume.
TEST(FftOcean, AddEtaIsExactSuperposition) {
  const Grid grid{48, 32, 0.5};
  const Domain domain(grid, kG, 2.0);
  const auto drop = [&](double x, double y, double a) {
    Field2D f(grid.nx, grid.ny);
    stampGaussian(f, domain, SurfaceEvent{0.0, x, y, 1.5, a});
    return f;
  };
  const Field2D first = drop(6, 8, 0.1), second = drop(15, 10, -0.05);
  FftOcean both, one, other;
  both.reset(domain, first);
  one.reset(domain, first);
  other.reset(domain, Field2D(grid.nx, grid.ny));
  for (int k = 0; k < 30; ++k)
    for (FftOcean* m : {&both, &one, &other})
      m->step(0.05);
  const double added = both.addEta(second);
  other.addEta(second);
  EXPECT_NEAR(added, second.sum() * grid.cellArea(), 1e-9);
  for (int k = 0; k < 50; ++k)
    for (FftOcean* m : {&both, &one, &other})
      m->step(0.05);
  double worst = 0.0;
  for (std::size_t k = 0; k < both.eta().size(); ++k)
    worst = std::max(worst, double(std::fabs(both.eta().data()[k] - one.eta().data()[k] -
                                             other.eta().data()[k])));
  EXPECT_LT(worst, 1e-6 * both.eta().maxAbs());
}

// The shadow damps eta_t under a body: energy goes down, the volume does not move.
TEST(FftOcean, ShadowKeepsVolumeAndTakesEnergy) {
  const Grid grid{32, 32, 0.5};
  const Domain domain(grid, kG, 2.0);
  Field2D eta0(grid.nx, grid.ny);
  stampGaussian(eta0, domain, SurfaceEvent{0.0, 5, 5, 1.5, 0.1});
  FftOcean model;
  model.reset(domain, eta0);
  for (int k = 0; k < 20; ++k)
    model.step(0.05);
  Field2D rate(grid.nx, grid.ny);
  for (int j = 10; j < 22; ++j)
    for (int i = 10; i < 22; ++i)
      rate(i, j) = 5.0f;
  const double v0 = wetVolume(model.eta(), domain);
  const double e0 = summarizeSurface(model.eta(), domain).potentialEnergy + model.kineticEnergy();
  for (int k = 0; k < 40; ++k) {
    model.step(0.05);
    model.dampUnderBodies(rate, 0.05);
  }
  const double e1 = summarizeSurface(model.eta(), domain).potentialEnergy + model.kineticEnergy();
  EXPECT_LT(e1, 0.9 * e0);
  EXPECT_NEAR(wetVolume(model.eta(), domain), v0, 1e-6 * std::fabs(eta0.sum()) + 1e-7);
}

TEST(FftOcean, NoStabilityLimitAndTheOtherModelsStep) {
  const Domain domain(Grid{16, 16, 0.4}, kG, 2.5);
  FftOcean model;
  model.reset(domain, Field2D(16, 16));
  EXPECT_EQ(model.maxStableDt(), std::numeric_limits<double>::infinity());
  EXPECT_DOUBLE_EQ(model.preferredDt(), 0.4 / std::sqrt(kG * 2.5));
}

// Not in the default set (most builtin domains have walls inside); chosen when named.
TEST(FftOcean, RunsOnlyWhenNamed) {
  const Scenario s = parseScenarioText(
      R"({"grid": {"nx": 16, "ny": 16, "dx": 0.5}, "water": {"depth": 1}})", "s.json", ".");
  for (const auto& model : createScenarioModels(s, {}, {}, false))
    EXPECT_NE(model->id(), "fft-ocean");
  EXPECT_EQ(createScenarioModels(s, {"fft-ocean"}, {}, false).front()->id(), "fft-ocean");
  const Scenario named = parseScenarioText(
      R"({"grid": {"nx": 16, "ny": 16, "dx": 0.5}, "water": {"depth": 1},
          "models": {"fft-ocean": {"wind_speed": 5}}})",
      "s.json", ".");
  const auto models = createScenarioModels(named, {}, {}, false);
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models.front()->params().get("wind_speed"), 5.0);
}

std::string comparisonError(const std::string& json) {
  return errorOf([&] {
    const Scenario s = parseScenarioText(json, "s.json", ".");
    Comparison(s, createScenarioModels(s, {"fft-ocean"}, {}, false));
  });
}

TEST(FftOcean, RefusesDomainsItCannotRepresent) {
  EXPECT_EQ(errorOf([] {
              const Scenario s = loadScenario("builtin:pi-pool");
              Comparison(s, createScenarioModels(s, {"fft-ocean"}, {}, false));
            }),
            "fft-ocean: the domain has 858 solid cells inside the rectangle (a mask, the Pi "
            "pool or a coast); the modes cos(kx x) cos(ky y) need the whole rectangle wet");
  Domain uneven(Grid{8, 8, 1.0}, kG, 1.0);
  Field2D depth(8, 8, 1.0f);
  depth(3, 3) = 1.5f;
  uneven.setRestDepth(depth);
  FftOcean model;
  EXPECT_EQ(errorOf([&] { model.reset(uneven, Field2D(8, 8)); }),
            "fft-ocean: the rest depth of the water ranges from 1 to 1.5 m; w^2 = g k tanh(k d) "
            "needs one depth");
  EXPECT_EQ(comparisonError(R"({"grid": {"nx": 80, "ny": 80, "dx": 0.5}, "water": {"depth": 1},
                               "domain": {"edges": "open"}})"),
            "s.json: domain.edges: fft-ocean has no absorbing layer for open edges yet; use "
            "walls for it");
  Domain open(Grid{8, 8, 1.0}, kG, 1.0);
  Edges edges;
  edges.kinds[std::size_t(Side::East)] = EdgeKind::Open;
  open.setEdges(edges);
  EXPECT_EQ(errorOf([&] { model.reset(open, Field2D(8, 8)); }),
            "fft-ocean: domain.edges: open edges are not representable; the basin's modes "
            "cos(kx x) cos(ky y) have walls on all four sides");
  EXPECT_EQ(errorOf([] {
              const Scenario s = parseScenarioText(
                  R"({"grid": {"nx": 16, "ny": 16, "dx": 0.5}, "water": {"depth": 1}})", "s.json",
                  ".");
              createScenarioModels(s, {"fft-ocean"}, {"fft-ocean.wind_speed=nan"}, false);
            }),
            "--set fft-ocean.wind_speed=nan: value must be a finite number");
}

// A wall painted mid-run: fft-ocean stops with the reason, the other model takes the stroke
// and runs on.
TEST(FftOcean, MaskStrokeStopsItWithTheReasonAndTheOthersRunOn) {
  const Scenario s = parseScenarioText(
      R"({"grid": {"nx": 32, "ny": 32, "dx": 0.25}, "water": {"depth": 1},
          "initial": {"drops": [{"x": 4, "y": 4, "radius": 1, "amplitude": 0.05}]},
          "excitations": [{"type": "mask", "time": 0.1, "solid": true,
                           "dabs": [{"x": 6, "y": 4, "radius": 0.5}]}]})",
      "s.json", ".");
  Comparison comparison(s, createScenarioModels(s, {"fft-ocean", "swe-adi"}, {}, false));
  for (int f = 0; f < 20; ++f)
    comparison.advanceFrame();
  ASSERT_TRUE(comparison.failure(0).has_value());
  EXPECT_EQ(comparison.failure(0)->rfind("fft-ocean: a mask stroke of ", 0), 0u)
      << *comparison.failure(0);
  EXPECT_NE(comparison.failure(0)->find("need the whole rectangle wet (t = 0.1"), std::string::npos)
      << *comparison.failure(0);
  EXPECT_FALSE(comparison.failure(1).has_value());
}

}  // namespace
}  // namespace wb
