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

// Fields read from files obey the ranges of their keys (water.depth, min_depth: 1e5 m).
TEST(HostileInput, FieldsFromFilesObeyTheRangesOfTheirKeys) {
  const fs::path dir = fs::temp_directory_path() / "wavebench_hostile_fields";
  fs::create_directories(dir);
  const auto field = [&](const char* name, const char* value, int atI, int atJ) {
    std::ofstream csv(dir / name);
    for (int j = 0; j < 16; ++j)
      for (int i = 0; i < 16; ++i)
        csv << (i == atI && j == atJ ? value : "0.5") << (i + 1 < 16 ? "," : "\n");
  };
  field("deep.csv", "1e12", 0, 0);
  field("spike.csv", "1e6", 3, 5);
  EXPECT_EQ(runError(R"({"grid": {"nx": 16, "ny": 16, "dx": 0.1},
                         "water": {"bathymetry": {"csv": "deep.csv"}}})",
                     dir),
            (dir / "deep.csv").string() +
                ": cell (0, 0): 1e+12 m is outside [-100000, 100000] (water.bathymetry)");
  EXPECT_EQ(runError(R"({"grid": {"nx": 16, "ny": 16, "dx": 0.1},
                         "initial": {"eta": {"csv": "spike.csv"}}})",
                     dir),
            (dir / "spike.csv").string() +
                ": cell (3, 5): 1e+06 m is outside [-100000, 100000] (initial.eta)");
  EXPECT_EQ(runError(R"({"grid": {"nx": 16, "ny": 16, "dx": 0.1},
      "excitations": [{"type": "stir", "x": 0.8, "y": 0.8, "ax": 1e9}]})"),
            "s.json: excitations[0].ax: 1e+09 is outside [-10000, 10000]");
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
