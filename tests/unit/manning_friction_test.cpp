// Bottom friction by Manning's n (core/model/manning_friction.hpp): the scenario's one value
// for every model, its refusals, the note for models without friction, the exact decay of a
// uniform current and the energy it takes out. The exact cases against the models run as the
// verify rows "Manning: ..." (models/verification/manning_friction_cases.cpp).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/model/manning_friction.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"
#include "models/swe_adi/swe_adi.hpp"
#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"
#include "tests/unit/test_support.hpp"

namespace wb {
namespace {
namespace fs = std::filesystem;

std::string scenarioWith(const std::string& extra) {
  return R"({"grid": {"nx": 16, "ny": 16, "dx": 0.1}, "water": {"depth": 0.5}, "frame_dt": 0.1,
             "duration": 0.2, "initial": {"drops": [{"x": 0.8, "y": 0.8, "radius": 0.2,
             "amplitude": 0.01}]})" +
         (extra.empty() ? std::string() : ", " + extra) + "}";
}

TEST(ManningFriction, ScenarioKeyReachesTheDomainAndIsWrittenBack) {
  const Scenario none = parseScenarioText(scenarioWith(""), "s.json", {});
  EXPECT_EQ(none.friction.manning, 0.0);
  EXPECT_EQ(buildDomain(none).manning(), 0.0);
  EXPECT_FALSE(scenarioToJson(none).contains("friction"));  // written as before
  const Scenario rough =
      parseScenarioText(scenarioWith(R"("friction": {"manning": 0.025})"), "s.json", {});
  EXPECT_EQ(rough.friction.manning, 0.025);
  EXPECT_EQ(buildDomain(rough).manning(), 0.025);
  const Scenario again = parseScenarioText(scenarioToJson(rough).dump(), "s.json", {});
  EXPECT_EQ(again.friction.manning, 0.025);
}

TEST(ManningFriction, OutOfRangeValuesAreRefusedNamingTheKey) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"("friction": {"manning": -0.01})",
       "s.json: friction.manning: -0.01 is outside [0, 0.2] s m^-1/3"},
      {R"("friction": {"manning": 0.5})",
       "s.json: friction.manning: 0.5 is outside [0, 0.2] s m^-1/3"},
      {R"("friction": {"manning": 1e300})",
       "s.json: friction.manning: 1e+300 is outside [0, 0.2] s m^-1/3"},
      {R"("friction": {"manning": "0.03"})", "s.json: friction.manning: must be a number"},
      {R"("friction": {"manning": null})", "s.json: friction.manning: must be a number"},
      {R"("friction": {"chezy": 50})", "s.json: friction.chezy: unknown key"},
      {R"("friction": 0.03)", "s.json: friction: must be an object"},
  };
  for (const auto& [extra, message] : cases)
    EXPECT_EQ(errorOf([&] { parseScenarioText(scenarioWith(extra), "s.json", {}); }), message)
        << extra;
}

// Through wavebench-cli: one line on stderr, exit 2, no output folder.
TEST(ManningFriction, CliRefusesOutOfRangeValuesWithExitTwoAndWritesNothing) {
  const fs::path dir =
      fs::temp_directory_path() / ("wavebench_manning_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"("friction": {"manning": -1})", "friction.manning: -1 is outside [0, 0.2] s m^-1/3"},
      {R"("friction": {"manning": 0.3})", "friction.manning: 0.3 is outside [0, 0.2] s m^-1/3"},
      {R"("friction": {"manning": true})", "friction.manning: must be a number"},
  };
  for (const auto& [extra, message] : cases) {
    std::ofstream(dir / "s.json") << scenarioWith(extra);
    const std::string command = "cd '" + dir.string() +
                                "' && '" WAVEBENCH_CLI
                                "' run --scenario s.json --out o > out.txt 2> err.txt";
    const int status = std::system(command.c_str());
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 2) << extra;
    std::ifstream in(dir / "err.txt");
    std::stringstream err;
    err << in.rdbuf();
    EXPECT_EQ(err.str(), "wavebench-cli: s.json: " + message + "\n");
    EXPECT_FALSE(fs::exists(dir / "o")) << extra;
  }
  fs::remove_all(dir);
}

// A model without bottom friction runs, and the run says that it does not apply n.
TEST(ManningFriction, ModelsWithoutFrictionAreNotedNotSilent) {
  const Scenario s =
      parseScenarioText(scenarioWith(R"("friction": {"manning": 0.03})"), "s.json", {});
  std::vector<std::unique_ptr<Model>> models;
  for (const char* id : {"damped-wave", "advected-wave", "swe-semi-lagrangian", "swe-adi"})
    models.push_back(createModel(id));
  const Comparison comparison(s, std::move(models));
  std::vector<std::string> friction;
  for (const std::string& note : comparison.notes())
    if (note.find("friction.manning") != std::string::npos) friction.push_back(note);
  ASSERT_EQ(friction.size(), 2u);
  EXPECT_EQ(friction[0],
            "s.json: friction.manning = 0.03 is not applied by damped-wave: it has no bottom "
            "friction (docs/scenario.md, \"friction\")");
  EXPECT_NE(friction[1].find("by advected-wave"), std::string::npos);
}

// Without force, a uniform current on flat ground decays as du/dt = -k u^2, k = g n^2 / d^{4/3},
// u(t) = u0 / (1 + k u0 t); the split implicit step u / (1 + dt k |u|) is that solution sampled
// at the steps (1/u grows by dt k per step), so the model's current matches it to float
// round-off at any dt. Walls all round: a channel 200 m long, u read in its middle, before the
// ends' waves (at most u + sqrt(g d) = 1.5 m/s) arrive.
TEST(ManningFriction, UniformCurrentDecaysExactlyInTheSemiLagrangianModel) {
  const int nx = 2000, ny = 4;
  const double depth = 0.1, n = 0.03, u0 = 0.5, g = 9.81;
  Domain domain(Grid{nx, ny, 0.1}, g, depth);
  domain.setManning(n);
  const double k = g * n * n / std::pow(depth, 4.0 / 3.0);
  for (const double dt : {0.2, 0.02}) {
    SweSemiLagrangian model;
    model.params().set("dt", dt, "test");
    model.reset(domain, Field2D(nx, ny));
    Field2D u(nx, ny, float(u0));
    model.setVelocity(u, Field2D(nx, ny));
    const int steps = int(std::lround(40.0 / dt));
    double worst = 0.0;
    for (int s = 1; s <= steps; ++s) {
      model.step(dt);
      const double exact = u0 / (1.0 + k * u0 * s * dt);
      worst = std::max(worst, std::fabs((*model.velocityU())(nx / 2, 1) - exact) / exact);
    }
    // 40 s: u falls to 0.08 of u0. Float state: 1e-5 relative.
    EXPECT_LT(worst, 1e-5) << "dt " << dt;
    EXPECT_GT(model.diagnostics().at("friction_energy"), 0.0);
  }
}

// The float form the ADI's vectorised face loop uses is the double law to float round-off: the
// cube root over depths from 0.1 mm to 1 km, and the factor at speeds, depths and steps from
// the tank's to the ocean's; both stop the water at or below the floor.
TEST(ManningFriction, FloatFormIsTheLawToFloatRoundOff) {
  double worstRoot = 0.0;
  for (double d = 1e-4; d < 1e3; d *= 1.001) {
    const float x = float(d);
    const double exact = 1.0 / std::cbrt(double(x));
    worstRoot = std::max(worstRoot, std::fabs(ManningFriction::inverseCubeRoot(x) - exact) / exact);
  }
  EXPECT_LT(worstRoot, 2.0 * std::numeric_limits<float>::epsilon());  // two float ulps
  const ManningFriction friction(9.81, 0.025, 1e-4);
  double worstKeep = 0.0;
  for (const double dt : {1e-3, 0.01, 1.0})
    for (const double speed : {0.0, 1e-3, 0.3, 5.0})
      for (const double depth : {2e-4, 3e-3, 0.1, 10.0, 4000.0}) {
        const double exact = friction.keep(speed, depth, dt);
        const float value = ManningFriction::keepFloat(float(friction.gn2 * dt), float(speed),
                                                       float(depth), float(friction.floor));
        worstKeep = std::max(worstKeep, std::fabs(value - exact) / exact);
      }
  EXPECT_LT(worstKeep, 1e-6);
  EXPECT_EQ(ManningFriction::keepFloat(0.1f, 1.0f, 1e-4f, 1e-4f), 0.0f);
  EXPECT_EQ(ManningFriction::keepFloat(0.1f, 1.0f, 0.0f, 1e-4f), 0.0f);
}

// The ADI with friction next to an island far beyond the explicit limit (where its energy
// check and discharge correction run every step): nothing grows, the volume holds, friction
// takes energy out (friction_energy > 0, less energy left than without it), and the rate still
// agrees with the discharges as well as without friction.
TEST(ManningFriction, AdiIslandWithFrictionStaysBoundedAndAccountsItsEnergy) {
  const int nx = 48, ny = 48;
  Domain domain(Grid{nx, ny, 1.0}, 9.81, 1.0);
  for (int j = 20; j < 28; ++j)
    for (int i = 20; i < 28; ++i)
      domain.setWet(i, j, false);
  Field2D eta0(nx, ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      eta0(i, j) =
          domain.isWet(i, j)
              ? float(0.05 * std::exp(-(std::pow(i - 10.0, 2) + std::pow(j - 10.0, 2)) / 9.0))
              : 0.0f;
  const auto run = [&](double n) {
    Domain rough = domain;
    rough.setManning(n);
    SweAdi model;
    model.params().set("dt", 20.0 / std::sqrt(9.81), "test");
    model.reset(rough, eta0);
    double volume0 = 0.0;
    for (std::size_t k = 0; k < eta0.size(); ++k)
      volume0 += model.eta().data()[k];
    double mismatch = 0.0;  // the largest over the run, of the step's largest rate
    for (int s = 0; s < 300; ++s) {
      model.step(model.preferredDt());
      mismatch = std::max(mismatch, model.dischargeMismatch() / double(model.rate().maxAbs()));
    }
    double volume = 0.0;
    for (std::size_t k = 0; k < eta0.size(); ++k)
      volume += model.eta().data()[k];
    EXPECT_NEAR(volume, volume0, 1e-6 * nx * ny);
    EXPECT_TRUE(std::isfinite(model.waveEnergy()));
    return std::tuple{model.waveEnergy(), model.diagnostics(), mismatch};
  };
  const auto [smoothEnergy, smooth, smoothMismatch] = run(0.0);
  const auto [roughEnergy, rough, roughMismatch] = run(0.1);
  // Friction moves the rate with the discharges: their disagreement stays DischargeSync's.
  EXPECT_LT(roughMismatch, 2.0 * smoothMismatch + 1e-6);
  EXPECT_EQ(smooth.count("friction_energy"), 0u);
  EXPECT_GT(rough.at("friction_energy"), 0.0);
  EXPECT_LT(roughEnergy, smoothEnergy);
}

}  // namespace
}  // namespace wb
