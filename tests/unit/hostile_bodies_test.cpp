// Bodies far larger than the pool: a mesh with one vertex 1 km (or 1e12 m) off crashed the
// coupling (a stamp box empty in x but not in y filled rows of negative length) or asked for
// more memory than exists. Such bodies are refused naming the key; the stamping skips boxes
// that miss the grid.
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

// A unit cube whose second vertex is moved to (far, 0.5, 0.5).
std::string cubeWithFarVertex(const std::string& far) {
  return "v 0 0 0\nv " + far +
         " 0.5 0.5\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
         "f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\n"
         "f 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n";
}

std::string runError(const std::string& far, const std::string& body) {
  // One folder per test: CTest runs the tests of this file as processes side by side, and a
  // shared cube.obj was read by one while another rewrote it.
  const fs::path dir =
      fs::temp_directory_path() / (std::string("wavebench_hostile_bodies_") +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::create_directories(dir);
  std::ofstream(dir / "cube.obj") << cubeWithFarVertex(far);
  const std::string text = R"({"grid": {"nx": 64, "ny": 64, "dx": 0.1}, "water": {"depth": 0.5},
    "bodies": [)" + body + "]}";
  return errorOf([&] {
    const Scenario s = parseScenarioText(text, "s.json", dir);
    std::vector<std::unique_ptr<Model>> models;
    models.push_back(createModel("swe-semi-lagrangian"));
    Comparison run(s, std::move(models));
    for (int f = 0; f < 18; ++f)
      run.advanceFrame();
  });
}

const std::string kMeshBody =
    R"({"shape": "mesh", "mesh": "cube.obj", "density": 500, "x": 3.2, "y": 3.2})";

TEST(HostileBodies, MeshFarLargerThanThePoolIsRefusedNamingTheKey) {
  EXPECT_EQ(runError("1e3", kMeshBody),
            "s.json: bodies[0].size: the body is 1000 m across, more than the pool's 6.4 m");
}

TEST(HostileBodies, MeshBeyondTheSizeRangeIsRefusedNamingTheFile) {
  const std::string error = runError("1e12", kMeshBody);
  EXPECT_NE(error.find("s.json: bodies[0].mesh ("), std::string::npos) << error;
  EXPECT_NE(error.find("cube.obj): is 1e+12 m along x, outside the size key's [0.001, 10000] m"),
            std::string::npos)
      << error;
}

TEST(HostileBodies, BoxWiderThanThePoolIsRefused) {
  EXPECT_EQ(runError("1", R"({"shape": "box", "size": [1e4, 1, 1], "density": 500, "x": 3.2,
                             "y": 3.2})"),
            "s.json: bodies[0].size: the body is 10000 m across, more than the pool's 6.4 m");
}

// A mesh as wide as the pool whose mass sits at one end: its stamps reach past the grid on one
// side (run under ASan in CI).
TEST(HostileBodies, BodyAsWideAsThePoolRunsAndStaysFinite) {
  EXPECT_EQ(runError("6", kMeshBody), "no error");
}

// The same far vertex scaled into a 1 m box: its longest edge, scaled by the largest of the
// axes' factors, is 1e12 m, which overflowed the conversion of the patches' subdivision to int
// (found by fuzz_obj; UBSan in the asan preset).
TEST(HostileBodies, FarVertexScaledIntoTheBodysSizeRuns) {
  EXPECT_EQ(runError("1e12", R"({"shape": "mesh", "mesh": "cube.obj", "size": [1, 1, 1],
                                 "density": 500, "x": 3.2, "y": 3.2})"),
            "no error");
}

}  // namespace
}  // namespace wb
