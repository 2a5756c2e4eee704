// Long runs: every builtin scenario, with its own models, runs one simulated hour
// on a small grid (the same pool, coarser cells) without a blow-up, with bounded energy, and
// reports its volume drift. Printed per model: frames, max |volume drift| as metres of mean
// water level, energy at the start, its maximum in each half of the hour and at the end.
// They take minutes, so they run only when WAVEBENCH_LONG_RUNS=1:
//   WAVEBENCH_LONG_RUNS=1 build/release/tests/wavebench_tests --gtest_filter='Builtin/LongRun.*'
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/run/comparison.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"

namespace wb {
namespace {

constexpr double kOneHour = 3600.0;  // s
constexpr int kSmallGrid = 32;       // cells along the longer side
// Wave energy: total energy less the potential energy of the mean level, 1/2 g V^2 / A, which
// grows by design where drops or wakes add or remove water and is not a wave.
// Energy is bounded when the second half-hour never exceeds the first half's peak by more
// than this factor: forced scenarios settle into a balance, free ones keep or lose energy.
constexpr double kEnergyGrowthLimit = 2.0;

// The same pool on a coarser grid: the physical size and everything placed in metres stay.
Scenario coarsened(Scenario s) {
  const double factor = double(std::max(s.grid.nx, s.grid.ny)) / kSmallGrid;
  if (factor <= 1.0) return s;
  const double width = s.grid.width();
  s.grid.nx = std::max(4, int(std::lround(s.grid.nx / factor)));
  s.grid.ny = std::max(4, int(std::lround(s.grid.ny / factor)));
  s.grid.dx = width / s.grid.nx;
  return s;
}

struct ModelTrack {
  double energy0 = 0.0, firstHalfPeak = 0.0, secondHalfPeak = 0.0, energyEnd = 0.0;
  double maxAbsDrift = 0.0;
};

class LongRun : public ::testing::TestWithParam<std::string> {};

TEST_P(LongRun, OneSimulatedHourStaysFiniteWithBoundedEnergy) {
  if (!std::getenv("WAVEBENCH_LONG_RUNS")) GTEST_SKIP() << "set WAVEBENCH_LONG_RUNS=1 to run";
  Scenario scenario = coarsened(loadScenario("builtin:" + GetParam()));
  scenario.duration = kOneHour;
  Comparison comparison(scenario, createScenarioModels(scenario, {}, {}, false));
  const double wetArea = comparison.domain().wetCount() * scenario.grid.cellArea();
  std::vector<ModelTrack> tracks(comparison.modelCount());
  const int frames = scenario.frameCount();
  for (int f = 0; f <= frames; ++f) {
    if (f > 0) comparison.advanceFrame();
    for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
      if (comparison.failure(k)) continue;
      const FrameRecord r = comparison.record(k);
      ModelTrack& t = tracks[k];
      const double g = comparison.domain().g();
      const double waveEnergy = r.energyTotal() - 0.5 * g * r.volume * r.volume / wetArea;
      if (f == 0) t.energy0 = waveEnergy;
      double& peak = 2 * f <= frames ? t.firstHalfPeak : t.secondHalfPeak;
      peak = std::max(peak, waveEnergy);
      t.energyEnd = waveEnergy;
      t.maxAbsDrift = std::max(t.maxAbsDrift, std::fabs(r.volumeDrift));
    }
  }
  for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
    const ModelTrack& t = tracks[k];
    const std::string& id = comparison.model(k).id();
    std::printf(
        "long run %-12s %-20s %3d x %-3d %7d frames  max|drift| %.3g m (level)  "
        "E0 %.4g  peak 1st half %.4g  2nd half %.4g  end %.4g J\n",
        GetParam().c_str(), id.c_str(), scenario.grid.nx, scenario.grid.ny, frames,
        t.maxAbsDrift / wetArea, t.energy0, t.firstHalfPeak, t.secondHalfPeak, t.energyEnd);
    EXPECT_FALSE(comparison.failure(k).has_value()) << *comparison.failure(k);
    EXPECT_TRUE(std::isfinite(t.energyEnd)) << id;
    EXPECT_LE(t.secondHalfPeak, kEnergyGrowthLimit * t.firstHalfPeak) << id;
  }
}

INSTANTIATE_TEST_SUITE_P(Builtin, LongRun, ::testing::ValuesIn(builtinScenarioNames()),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace wb
