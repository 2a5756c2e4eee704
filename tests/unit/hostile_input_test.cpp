// A domain without water and a stroke that walls every cell: refused naming the key, never run
// into NaN rows reported as "ok" or into a false blow-up.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "core/forcing/body_shapes.hpp"
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
                ": cell (3, 5): 1e+06 m is outside [-10, 10] (initial.eta, at most 10 times the "
                "deepest water, 1 m)");
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

// A key given twice in one object is refused with its path (nlohmann's parser keeps the last
// silently); an empty PNG names itself, not libpng's text.
TEST(HostileInput, DuplicateKeysAndEmptyImagesAreNamed) {
  const fs::path dir = fs::temp_directory_path() / "wavebench_hostile_duplicates";
  fs::create_directories(dir);
  std::ofstream(dir / "empty.png").flush();
  const std::string head = R"({"grid": {"nx": 16, "ny": 16, "dx": 0.1}, "frame_dt": 0.1, )";
  EXPECT_EQ(runError(R"({"grid": {"nx": 4, "ny": 4, "dx": 0.1, "nx": 8}})"),
            "s.json: grid.nx: given twice");
  EXPECT_EQ(runError(head + R"("bodies": [{"x": 0.2, "y": 0.2},
                                          {"x": 0.2, "y": 0.2, "density": 300, "density": 900}]})"),
            "s.json: bodies[1].density: given twice");
  EXPECT_EQ(runError(head + R"("excitations": [1, {"type": "wind", "type": "rain"}]})"),
            "s.json: excitations[1].type: given twice");
  // The same key in two objects is no duplicate.
  EXPECT_EQ(runError(head + R"("bodies": [{"x": 0.2, "y": 0.2}, {"x": 0.4, "y": 0.2}]})"),
            "no error");
  EXPECT_EQ(runError(head + R"("domain": {"mask": {"png": "empty.png"}}})", dir),
            (dir / "empty.png").string() + ": empty file, not a PNG image");
  fs::remove_all(dir);
}

// The initial surface is a wave on the pool's water: a 1000 m spike on 1 m of water (swe-adi
// reported it "ok" with its energy up 5.9e8 times in 3 frames) is refused naming the key.
// Two gauges (transects) of one name write rows that cannot be told apart: the second use is
// refused, naming the first.
TEST(HostileInput, DuplicateGaugeAndTransectNamesAreRefused) {
  const std::string head = R"({"grid": {"nx": 16, "ny": 16, "dx": 0.1}, )";
  EXPECT_EQ(runError(head + R"("gauges": [{"name": "a", "x": 0.5, "y": 0.5},
      {"name": "b", "x": 0.6, "y": 0.5}, {"name": "a", "x": 0.7, "y": 0.5}]})"),
            "s.json: gauges[2].name: 'a' is already the name of gauges[0]; each needs its own "
            "(its rows are told apart by it)");
  EXPECT_EQ(runError(head + R"("transects": [{"name": "t", "from": [0.1, 0.1], "to": [1, 1]},
      {"name": "t", "from": [0.1, 1], "to": [1, 0.1]}]})"),
            "s.json: transects[1].name: 't' is already the name of transects[0]; each needs its "
            "own (its rows are told apart by it)");
}

// A fraction where an integer belongs is named as such, even when the range holds one value.
TEST(HostileInput, FractionalIntegersAreRefusedAsSuch) {
  const std::string text = R"({"grid": {"nx": 96, "ny": 80, "dx": 0.5},
      "excitations": [{"type": "boat", "x": 20, "y": 20, "target": [30, 20]}],
      "bodies": [{"shape": "hull", "size": [1.2, 0.4, 0.3], "density": 500, "x": 18, "y": 20,
                  "towed_by": 0}],
      "ocean": {"wind_speed": 0, "window": {"follow": 0.5}}})";
  EXPECT_EQ(runError(text), "s.json: ocean.window.follow: must be an integer");
  EXPECT_EQ(runError(R"({"grid": {"nx": 16.5, "ny": 16, "dx": 0.1}})"),
            "s.json: grid.nx: must be an integer");
}

// The grid cap is one check (checkGridSize) that the scenario reader and the workbench's --grid
// share.
TEST(HostileInput, GridsBeyondTheCapAreRefusedByOneCheck) {
  EXPECT_EQ(runError(R"({"grid": {"nx": 8192, "ny": 8192, "dx": 0.1}})"),
            "s.json: grid: 8192 x 8192 cells is too large (at most 4096 x 4096)");
  EXPECT_EQ(errorOf([] {
              checkGridSize(Grid{4096, 4097, 1.0}, "--grid");
            }),
            "--grid: 4096 x 4097 cells is too large (at most 4096 x 4096)");
  EXPECT_EQ(errorOf([] { checkGridSize(Grid{4096, 4096, 1.0}, "--grid"); }), "no error");
}

// The linear sea knows no bed: a wind sea whose significant troughs (Hs / 2) reach it, or a
// swell as high, is refused naming the key, not run into cells below the ground.
TEST(HostileInput, ASeaWhoseTroughsReachTheBedIsRefused) {
  const std::string head = R"({"grid": {"nx": 64, "ny": 64, "dx": 10}, "water": {"depth": 2},
      "duration": 0.1, "ocean": )";
  const std::string wind = runError(head + R"({"wind_speed": 100}})");
  EXPECT_EQ(wind.rfind("s.json: ocean.wind_speed: the sea's significant troughs reach ", 0), 0u)
      << wind;
  EXPECT_NE(wind.find("below the bed at 2 m: the linear sea needs water deeper than its troughs"),
            std::string::npos)
      << wind;
  EXPECT_EQ(runError(head + R"({"wind_speed": 0, "swell_height": 4, "swell_period": 30}})"),
            "s.json: ocean.swell_height: the sea's significant troughs reach 2 m below the rest "
            "level (swell H/2 = 2 m), below the bed at 2 m: the linear sea needs water deeper "
            "than its troughs");
  // A sea well clear of the bed runs.
  EXPECT_EQ(runError(head + R"({"wind_speed": 3, "swell_height": 0.2, "swell_period": 30}})"),
            "no error");
}

TEST(HostileInput, InitialSurfaceFarAboveTheWaterIsRefused) {
  const std::string head =
      R"({"grid": {"nx": 16, "ny": 16, "dx": 0.1}, "water": {"depth": 1}, "frame_dt": 0.1, )";
  EXPECT_EQ(runError(head + R"("initial": {"drops": [{"x": 0.5, "y": 0.5, "radius": 0.2,
                                                      "amplitude": 0.5},
                                                     {"x": 0.8, "y": 0.8, "radius": 0.2,
                                                      "amplitude": -1000}]}})"),
            "s.json: initial.drops[1].amplitude: -1000 m is outside [-10, 10] (at most 10 times "
            "the deepest water, 1 m)");
  const fs::path dir = fs::temp_directory_path() / "wavebench_hostile_spike";
  fs::create_directories(dir);
  {
    std::ofstream csv(dir / "eta.csv");
    for (int j = 0; j < 16; ++j)
      for (int i = 0; i < 16; ++i)
        csv << (i == 3 && j == 5 ? "1000" : "0") << (i + 1 < 16 ? "," : "\n");
  }
  EXPECT_EQ(runError(head + R"("initial": {"eta": {"csv": "eta.csv"}}})", dir),
            (dir / "eta.csv").string() +
                ": cell (3, 5): 1000 m is outside [-10, 10] (initial.eta, at most 10 times the "
                "deepest water, 1 m)");
  // Ten times the water is still a wave the models take.
  EXPECT_EQ(runError(head + R"("initial": {"drops": [{"x": 0.8, "y": 0.8, "radius": 0.3,
                                                      "amplitude": 10}]}})"),
            "no error");
  fs::remove_all(dir);
}

// ---- OBJ files that are not one closed surface, or hide control bytes ------------------------

constexpr const char* kCube = R"(v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
f 1 4 3 2
f 5 6 7 8
f 1 2 6 5
f 2 3 7 6
f 3 4 8 7
f 4 1 5 8
)";

std::string objError(const std::string& obj) {
  return errorOf([&] { parseObjMesh(obj, "hull.obj", 'z'); });
}

TEST(HostileObj, TwoShellsAreRefused) {
  // The cube again, moved 2 m along x: two closed surfaces in one file.
  std::string second;
  std::istringstream in(kCube);
  for (std::string line; std::getline(in, line);) {
    std::istringstream parts(line);
    std::string kind;
    parts >> kind;
    if (kind == "v") {
      double x, y, z;
      parts >> x >> y >> z;
      second += "v " + std::to_string(x + 2) + " " + std::to_string(y) + " " + std::to_string(z);
    } else {
      int a, b, c, d;
      parts >> a >> b >> c >> d;
      second += "f " + std::to_string(a + 8) + " " + std::to_string(b + 8) + " " +
                std::to_string(c + 8) + " " + std::to_string(d + 8);
    }
    second += "\n";
  }
  EXPECT_EQ(objError(std::string(kCube) + second),
            "hull.obj: 2 separate closed surfaces; a body is one (join them into one shell)");
}

TEST(HostileObj, ControlBytesAreShownNotPrinted) {
  const std::string nul("v 0 0 1\0x\n", 10);
  const std::string message = objError(nul);
  EXPECT_EQ(message, "hull.obj:1: '1\\x00x' is not a finite number");
  EXPECT_EQ(std::string(message.c_str()), message);  // no NUL to cut it short
}

}  // namespace
}  // namespace wb
