// A domain without water and a stroke that walls every cell: refused naming the key, never run
// into NaN rows reported as "ok" or into a false blow-up.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/errors.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"
#include "tests/unit/test_support.hpp"

namespace wb {
namespace {

namespace fs = std::filesystem;

std::string runError(const std::string& text, const fs::path& dir = {}) {
  return errorOf([&] {
    const Scenario s = parseScenarioText(text, "s.json", dir);
    Comparison run(s, createScenarioModels(s, {}, {}, false));
    for (int f = 0; f < 5; ++f)
      run.advanceFrame();
  });
}

TEST(HostileInput, BathymetryWithNoWaterAnywhereIsRefused) {
  const fs::path dir = fs::temp_directory_path() / "wavebench_hostile_input";
  fs::create_directories(dir);
  for (const char* ground : {"-1", "-5"}) {
    {
      std::ofstream csv(dir / "bathymetry.csv");
      for (int j = 0; j < 16; ++j)
        for (int i = 0; i < 16; ++i)
          csv << ground << (i + 1 < 16 ? "," : "\n");
    }
    EXPECT_EQ(runError(R"({"grid": {"nx": 16, "ny": 16, "dx": 0.1},
                           "water": {"bathymetry": {"csv": "bathymetry.csv"}}, "frame_dt": 0.1})",
                       dir),
              "s.json: water: no water anywhere: the ground is at or above the surface on every "
              "cell (water.bathymetry, terrain, initial)")
        << ground;
  }
  fs::remove_all(dir);
}

TEST(HostileInput, StrokeThatWallsEveryCellIsRefused) {
  EXPECT_EQ(runError(R"({"grid": {"nx": 16, "ny": 16, "dx": 0.1}, "frame_dt": 0.1,
      "excitations": [{"type": "mask", "time": 0.1, "solid": true,
                       "dabs": [{"x": 0.8, "y": 0.8, "radius": 1.6}]}]})"),
            "s.json: excitations: the mask stroke at t = 0.1 s leaves no water cell");
}

}  // namespace
}  // namespace wb
