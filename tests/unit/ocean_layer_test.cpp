// The open sea under every model (scenario "ocean", core/ocean/ocean_layer.hpp): each model's
// surface is its own plus the one ocean, the ocean is the patch's exact sea at the frame's time
// and at each gauge sample's own time, its energy is reported apart from the model's, and a
// section the ocean cannot run is refused naming the key.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/measure/diagnostics.hpp"
#include "core/ocean/ocean_layer.hpp"
#include "core/ocean/wind_sea_params.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"
#include "tests/unit/test_support.hpp"

namespace wb {
namespace {

// A 64 m square of 10 m deep water (128^2 cells) under a 6 m/s JONSWAP sea (peak period 4.5 s,
// wavelength 31 m: two in the patch), a 5 cm drop in one corner and a gauge in the other.
std::string oceanScenario(const std::string& ocean = R"({"spectrum": "jonswap",
    "wind_speed": 6, "wind_direction": 30, "seed": 7})") {
  return R"({"grid": {"nx": 128, "ny": 128, "dx": 0.5}, "water": {"depth": 10},
    "initial": {"drops": [{"x": 8, "y": 8, "radius": 1.0, "amplitude": 0.05}]},
    "gauges": [{"name": "far", "x": 52.3, "y": 49.1}],
    "ocean": )" +
         ocean + R"(, "frame_dt": 0.05, "duration": 2})";
}

Comparison run(const std::string& text, const std::vector<std::string>& models,
               const std::filesystem::path& dir = {}) {
  const Scenario s = parseScenarioText(text, "s.json", dir);
  return Comparison(s, createScenarioModels(s, models, {}, false));
}

double maxAbs(const Field2D& f) {
  return double(f.maxAbs());
}

TEST(OceanLayer, EveryModelShowsItsOwnSurfacePlusTheOneOcean) {
  Comparison comparison = run(oceanScenario(), {"damped-wave", "swe-adi"});
  ASSERT_NE(comparison.ocean(), nullptr);
  for (int f = 0; f < 20; ++f)
    comparison.advanceFrame();
  const Field2D& ocean = comparison.ocean()->height();
  ASSERT_GT(maxAbs(ocean), 0.1);  // a sea of Hs about 0.8 m
  for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
    const Field2D& local = comparison.model(k).eta();
    const Field2D& shown = comparison.surface(k);
    for (std::size_t c = 0; c < shown.size(); ++c)
      ASSERT_EQ(shown.data()[c], local.data()[c] + ocean.data()[c]) << "cell " << c;
    // The local part is the model's own: the drop's 5 cm, not the sea's metre.
    EXPECT_LT(maxAbs(local), 0.05);
  }
}

// At 1 s the drop's waves (c = 9.9 m/s) have not come within 20 m of the far corner: there the
// surface is the ocean. damped-wave's stencil reaches one cell per step (32 steps, 16 m) and
// leaves exact zeros beyond; swe-adi's implicit sweeps reach every cell of a row at once, with
// an influence that decays geometrically: below 1e-6 of the sea there.
TEST(OceanLayer, WhereNoLocalWaveHasComeTheSurfaceIsTheOcean) {
  Comparison comparison = run(oceanScenario(), {"damped-wave", "swe-adi"});
  for (int f = 0; f < 20; ++f)
    comparison.advanceFrame();
  const Field2D& ocean = comparison.ocean()->height();
  const double sea = maxAbs(ocean);
  for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
    double worst = 0.0;
    for (int j = 88; j < 128; ++j)
      for (int i = 88; i < 128; ++i)
        worst = std::max(worst, std::fabs(double(comparison.surface(k)(i, j)) - ocean(i, j)));
    EXPECT_LT(worst, 1e-6 * sea) << comparison.model(k).id();
  }
  EXPECT_EQ(comparison.surface(0)(120, 120), ocean(120, 120));  // damped-wave: exactly
}

// The frame's field (FFTW on the grid) and the gauges' point sums are the same sea: at a cell
// centre they agree to the transform's float round-off, early and an hour later.
TEST(OceanLayer, PointSumsAgreeWithTheFrameFieldEarlyAndLate) {
  const Scenario s = parseScenarioText(oceanScenario(), "s.json", {});
  const Domain domain(s.grid, s.g, s.depth);
  OceanLayer ocean(oceanParams(s), domain, "s.json: ocean");
  for (const double t : {0.0, 1.7, 3600.25}) {
    ocean.evaluate(t);
    const double sea = maxAbs(ocean.height());
    for (const auto& [i, j] : {std::pair{3, 5}, {64, 64}, {127, 0}, {101, 77}}) {
      const double point = ocean.heightAt((i + 0.5) * 0.5, (j + 0.5) * 0.5, t);
      EXPECT_NEAR(point, ocean.height()(i, j), 2e-6 * sea)
          << "t = " << t << " at " << i << "," << j;
    }
  }
}

// gauges.csv samples after every step, at the step's own time: the ocean there is the point
// sum at that time, the local part the model's sample.
TEST(OceanLayer, GaugesSampleTheOceanAtTheirOwnTime) {
  Comparison comparison = run(oceanScenario(), {"damped-wave"});
  comparison.setRecordGauges(true);
  comparison.takeGaugeSamples(0);  // time 0's
  for (int f = 0; f < 5; ++f)
    comparison.advanceFrame();
  const auto samples = comparison.takeGaugeSamples(0);
  ASSERT_GT(samples.size(), 5u);  // steps shorter than the 0.05 s frame
  const OceanLayer& ocean = *comparison.ocean();
  double spread = 0.0;
  for (const auto& sample : samples) {
    const double sea = ocean.heightAt(52.3, 49.1, sample.time);
    // No local wave has reached the gauge: what it records is the sea at its time.
    EXPECT_NEAR(sample.value.eta, sea, 1e-9) << "t = " << sample.time;
    spread = std::max(spread, std::fabs(sea - ocean.heightAt(52.3, 49.1, 0.25)));
  }
  EXPECT_GT(spread, 1e-3);  // the samples do see the sea move within the frames
}

// JONSWAP's sea runs one way along each k, so its potential and kinetic energies are each
// constant (docs/fft-ocean.md, "Is the variance stationary?"), and its variance is the
// realised Hs's: Ep = 1/2 g A (Hs / 4)^2.
TEST(OceanLayer, TheOceansEnergyIsReportedApartAndIsConstant) {
  Comparison comparison = run(oceanScenario(), {"damped-wave"});
  const FrameRecord first = comparison.record(0);
  ASSERT_TRUE(first.oceanPotential && first.oceanKinetic);
  for (int f = 0; f < 40; ++f)
    comparison.advanceFrame();
  const FrameRecord last = comparison.record(0);
  EXPECT_NEAR(*last.oceanPotential / *first.oceanPotential, 1.0, 1e-12);
  EXPECT_NEAR(*last.oceanKinetic / *first.oceanKinetic, 1.0, 1e-12);
  // The model's own energy is the drop's, orders of magnitude below the sea's.
  EXPECT_LT(first.energyTotal(), 1e-3 * *first.oceanPotential);
  const double area = 64.0 * 64.0;
  const double realisedHs = 4.0 * std::sqrt(2.0 * *first.oceanPotential / (9.81 * area));
  // Pierson-Moskowitz at 6 m/s: 0.21 (1.026 * 6)^2 / 9.81 = 0.81 m; one realisation on a patch
  // two peak wavelengths wide scatters about it.
  EXPECT_NEAR(realisedHs, comparison.ocean()->spectrum().piersonMoskowitzHs(), 0.25 * 0.81);
  std::ostringstream csv;
  writeSeriesHeader(csv);
  writeSeriesRow(csv, last);
  EXPECT_NE(csv.str().find("ocean_energy_potential,ocean_energy_kinetic"), std::string::npos);
}

TEST(OceanLayer, TheSameSeedIsTheSameSeaAndTheSectionRoundTrips) {
  const Scenario s = parseScenarioText(oceanScenario(), "s.json", {});
  const Scenario again = parseScenarioText(scenarioToJson(s).dump(), "s.json", {});
  ASSERT_TRUE(again.ocean);
  EXPECT_EQ(*again.ocean, *s.ocean);
  Comparison a(s, createScenarioModels(s, {"damped-wave"}, {}, false));
  Comparison b(again, createScenarioModels(again, {"swe-adi"}, {}, false));
  const Field2D &seaA = a.ocean()->height(), &seaB = b.ocean()->height();
  for (std::size_t c = 0; c < seaA.size(); ++c)
    ASSERT_EQ(seaA.data()[c], seaB.data()[c]);
  Comparison other = run(oceanScenario(R"({"spectrum": "jonswap", "wind_speed": 6,
      "wind_direction": 30, "seed": 8})"),
                         {"damped-wave"});
  EXPECT_NE(other.ocean()->height()(10, 10), seaA(10, 10));
  Comparison calm = run(R"({"grid": {"nx": 16, "ny": 16, "dx": 0.5}})", {"damped-wave"});
  EXPECT_EQ(calm.ocean(), nullptr);
  EXPECT_EQ(&calm.surface(0), &calm.model(0).eta());
  EXPECT_FALSE(calm.record(0).oceanPotential);
}

TEST(OceanLayer, ASectionTheOceanCannotRunIsRefusedNamingTheKey) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "wavebench_ocean";
  std::filesystem::create_directories(dir);
  {
    std::ofstream csv(dir / "shelf.csv");  // 2 m deep on the west half, 10 m on the east
    for (int j = 0; j < 32; ++j)
      for (int i = 0; i < 32; ++i)
        csv << (i < 16 ? "2" : "10") << (i + 1 < 32 ? "," : "\n");
  }
  const auto error = [&](const std::string& ocean, const std::string& water = "{\"depth\": 10}",
                         const std::string& grid = "{\"nx\": 32, \"ny\": 32, \"dx\": 0.5}") {
    return errorOf([&] {
      run(R"({"grid": )" + grid + R"(, "water": )" + water + R"(, "ocean": )" + ocean + "}",
          {"damped-wave"}, dir);
    });
  };
  EXPECT_EQ(error(R"({"wind_speed": -1})"), "s.json: ocean.wind_speed: -1 is outside [0, 100] m/s");
  EXPECT_NE(error(R"({"spectrum": "pierson"})").find("s.json: ocean.spectrum: 'pierson'"),
            std::string::npos);
  EXPECT_EQ(error(R"({"swell": 2})"), "s.json: ocean.swell: unknown parameter");
  EXPECT_NE(error(R"({"wind_speed": "nan"})").find("s.json: ocean.wind_speed"), std::string::npos);
  EXPECT_EQ(error("7"), "s.json: ocean: must be an object");
  EXPECT_NE(
      error(R"({"wind_speed": 5})", "{\"depth\": 10}", "{\"nx\": 33, \"ny\": 32, \"dx\": 0.5}")
          .find("s.json: ocean: the grid is 33 x 32"),
      std::string::npos);
  EXPECT_NE(
      error(R"({"wind_speed": 5})", R"({"bathymetry": {"csv": "shelf.csv"}, "max_depth": 10})")
          .find("s.json: ocean: the rest depth of the water ranges from 2 to 10 m"),
      std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace wb
