// The table of bad inputs: each row is an input a user can produce and the exact
// one-line message it must give, through the library and through wavebench-cli (exit 2, or
// exit 3 for a blow-up). A run that fails must leave no partial output behind.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include "tests/unit/test_support.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/model/parameters.hpp"
#include "core/scenario/field_io.hpp"
#include "core/scenario/scenario.hpp"

namespace wb {
namespace {
namespace fs = std::filesystem;

enum class Match { Exact, StartsWith };

std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

void writeText(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
}

std::string readText(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

// A fresh folder per test (CTest runs tests in parallel processes).
class BadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("wavebench_bad_input_" + std::string(info->name()) + "_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    writeFiles();
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  // Small input files the scenarios below refer to (relative to the scenario file).
  void writeFiles() {
    writeText(dir_ / "good.csv", "0,0,0,0\n0,1,1,0\n0,0,0,0\n0,0,0,0\n");
    writeText(dir_ / "short_row.csv", "0,0,0,0\n0,1,1\n0,0,0,0\n0,0,0,0\n");
    writeText(dir_ / "word.csv", "0,0,0,0\n0,1,high,0\n0,0,0,0\n0,0,0,0\n");
    writeText(dir_ / "nan.csv", "0,0,0,0\n0,1,nan,0\n0,0,0,0\n0,0,0,0\n");
    writeText(dir_ / "inf.csv", "0,0,0,0\n0,1,1,0\n0,0,0,-inf\n0,0,0,0\n");
    writeText(dir_ / "huge.csv", "0,0,0,0\n0,1,1e999,0\n0,0,0,0\n0,0,0,0\n");
    writeText(dir_ / "garbage.png", "\x89PNG\r\n\x1a\nthis is not an image");
    writeText(dir_ / "text.png", "hello");
    writeText(dir_ / "a_file", "a regular file where a folder is expected\n");
    // Left half black (solid), right half white (water), 4 x 2 pixels.
    Field2D halves(4, 2);
    for (int j = 0; j < 2; ++j)
      for (int i = 2; i < 4; ++i)
        halves(i, j) = 1.0f;
    writePngField(dir_ / "halves.png", halves, 0.0f, 1.0f);
  }

  std::string scenarioError(const std::string& text) {
    return replaceAll(errorOf([&] {
                        const Scenario s = parseScenarioText(text, "s.json", dir_);
                        const Domain domain = buildDomain(s);
                        buildInitialEta(s, domain);
                      }),
                      dir_.string(), "{dir}");
  }

  fs::path dir_;
};

// A valid 4 x 4 scenario with `extra` members added at the top level.
std::string small(const std::string& extra) {
  return R"({"grid": {"nx": 4, "ny": 4, "dx": 0.1})" + (extra.empty() ? "" : ", " + extra) + "}";
}

struct ScenarioCase {
  std::string json;
  std::string message;  // "{dir}" stands for the scenario's folder
};

TEST_F(BadInput, ScenarioTextGivesOneLineNamingFileKeyAndReason) {
  const std::vector<ScenarioCase> cases = {
      {R"({"grid": {"nx": 10)",
       "s.json: malformed JSON: parse error at line 1, column 19: syntax error while parsing "
       "object - unexpected end of input; expected '}'"},
      {"",
       "s.json: malformed JSON: parse error at line 1, column 1: syntax error while parsing "
       "value - unexpected end of input; expected '[', '{', or a literal"},
      {R"({"grid": {"nx": 1e999, "ny": 8}})",
       "s.json: malformed JSON: number overflow parsing '1e999'"},
      {"[1, 2]", "s.json: must be an object"},
      {"{}", "s.json: grid: missing"},
      {R"({"grid": [64, 64]})", "s.json: grid: must be an object"},
      {R"({"grid": {"nx": "64"}})", "s.json: grid.nx: must be a number"},
      {R"({"grid": {"nx": 8.5}})", "s.json: grid.nx: must be an integer"},
      {R"({"grid": {"nx": true}})", "s.json: grid.nx: must be a number"},
      {R"({"grid": {"nx": 8, "nz": 8}})", "s.json: grid.nz: unknown key"},
      {small(R"("colour": "blue")"), "s.json: colour: unknown key"},
      {R"({"grid": {"nx": 2}})", "s.json: grid.nx: 2 is outside [4, 65536]"},
      {R"({"grid": {"nx": -8}})", "s.json: grid.nx: -8 is outside [4, 65536]"},
      {R"({"grid": {"nx": 1e300}})", "s.json: grid.nx: 1e+300 is outside [4, 65536]"},
      {R"({"grid": {"nx": 5000, "ny": 5000}})",
       "s.json: grid: 5000 x 5000 cells is too large (at most 4096 x 4096)"},
      {R"({"grid": {"nx": 65536, "ny": 65536}})",
       "s.json: grid: 65536 x 65536 cells is too large (at most 4096 x 4096)"},
      {R"({"grid": {"dx": 0}})", "s.json: grid.dx: 0 is outside [1e-06, 1e+06]"},
      {small(R"("water": {"depth": -1})"), "s.json: water.depth: -1 is outside [0.01, 100000]"},
      {small(R"("water": {"g": "9.81"})"), "s.json: water.g: must be a number"},
      {small(R"("water": {"g": null})"), "s.json: water.g: must be a number"},
      {small(R"("frame_dt": "inf")"), "s.json: frame_dt: must be a number"},
      {small(R"("frame_dt": 0)"), "s.json: frame_dt: 0 is outside [1e-05, 60]"},
      {small(R"("frame_dt": 1e-5, "duration": 1e7)"),
       "s.json: duration: is more than 100000000 frames of frame_dt"},
      {small(R"("domain": {"mask": "square"})"),
       "s.json: domain.mask: unknown mask preset 'square' (expected \"rect\" or \"pi\")"},
      {small(R"("domain": {"mask": {"csv": "good.csv", "png": "halves.png"}})"),
       "s.json: domain.mask: needs exactly one of \"csv\" or \"png\""},
      {small(R"("domain": {"mask": {"csv": ""}})"), "s.json: domain.mask.csv: must be a file name"},
      {small(R"("initial": {"drops": {"x": 1}})"), "s.json: initial.drops: must be an array"},
      {small(R"("initial": {"drops": [{"x": 9, "y": 0.1}]})"),
       "s.json: initial.drops[0].x: 9 is outside [0, 0.4]"},
      {small(R"("initial": {"drops": [{"x": 0.1}]})"), "s.json: initial.drops[0].y: missing"},
      {small(R"("excitations": [{"type": "meteor"}])"),
       "s.json: excitations[0].type: unknown excitation 'meteor' (expected drop, rain, boat, "
       "wind, stir, body or mask)"},
      {small(R"("excitations": [{"rate": 3}])"),
       "s.json: excitations[0]: needs a \"type\": drop, rain, boat, wind, stir, body or mask"},
      {small(R"("excitations": [{"type": "rain", "rate": -3}])"),
       "s.json: excitations[0].rate: -3 is outside [0, 1e+06]"},
      {small(R"("excitations": [{"type": "rain", "start": 2, "end": 1}])"),
       "s.json: excitations[0].end: is before \"start\""},
      {small(R"("excitations": [{"type": "wind", "start": 2, "end": 1}])"),
       "s.json: excitations[0].end: is before \"start\""},
      {small(
           R"("excitations": [{"type": "wind", "region": {"x0": 2, "y0": 0, "x1": 1, "y1": 1}}])"),
       "s.json: excitations[0].region.x1: is less than x0"},
      {small(
           R"("excitations": [{"type": "wind", "region": {"x0": 0, "y0": 2, "x1": 1, "y1": 1}}])"),
       "s.json: excitations[0].region.y1: is less than y0"},
      {small(R"("excitations": [{"type": "boat"}])"),
       "s.json: excitations[0]: a boat needs a \"target\" or a \"path\""},
      {small(R"("excitations": [{"type": "boat", "path": [[0.1, 0.1], [0.2]]}])"),
       "s.json: excitations[0].path[1]: must be [x, y]"},
      {small(R"("models": {"damped-wave": 3})"), "s.json: models.damped-wave: must be an object"},
      // A key nobody reads beside a long (heap-held) mesh name: found by fuzz_scenario when the
      // reader refused unknown keys from its destructor, which leaked the body being returned.
      {small(R"("bodies": [{"shape": "mesh", "mesh": "a-mesh-file-with-a-long-name.obj",
                            "densitydescriptio": 350, "x": 0.2, "y": 0.2}])"),
       "s.json: bodies[0].densitydescriptio: unknown key"},
      {small(R"("excitations": [{"type": "wind", "region": {"x0": 0, "y0": 0, "x1": 1, "y1": 1,
                                 "z0": 0}}])"),
       "s.json: excitations[0].region.z0: unknown key"},
      {small(R"("bodies": [{"x": 0.2, "y": 0.2, "density": -1}])"),
       "s.json: bodies[0].density: -1 is outside [1, 100000]"},
      {small(R"("bodies": [{"x": 0.2, "y": 0.2}, {"x": 0.2, "y": 0.2, "size": [1, 0, 1]}])"),
       "s.json: bodies[1].size[1]: 0 is outside [0.001, 10000]"},
      {small(R"("bodies": [{"x": 0.2, "y": 0.2, "size": [1, 1]}])"),
       "s.json: bodies[0].size: must be [x, y, z]"},
      {small(R"("bodies": [{"x": 0.2}])"), "s.json: bodies[0].y: missing"},
      {small(R"("bodies": [{"x": 0.2, "y": 0.2, "shape": "sphere"}])"),
       "s.json: bodies[0].shape: must be box, hull or mesh"},
      {small(R"("excitations": [{"type": "body", "time": -1, "x": 0.2, "y": 0.2}])"),
       "s.json: excitations[0].time: -1 is outside [0, 1e+12]"},
      {small(R"("excitations": [{"type": "body", "time": 1, "x": 0.2, "mass": 3}])"),
       "s.json: excitations[0].y: missing"},
      {small(R"("excitations": [{"type": "body", "x": 0.2, "y": 0.2, "towed_by": 0}])"),
       "s.json: excitations[0].towed_by: the scenario has no boat to tow it"},
      {small(R"("water": {"density": 0})"), "s.json: water.density: 0 is outside [1, 100000]"},
      {small(R"("initial": {"eta": {"csv": "nope.csv"}})"),
       "{dir}/nope.csv: cannot open for reading"},
      {small(R"("initial": {"eta": {"csv": "."}})"), "{dir}/.: is a folder, not a file"},
      {small(R"("initial": {"eta": {"csv": "short_row.csv"}})"),
       "{dir}/short_row.csv: row 2 has 3 columns, expected 4"},
      {small(R"("initial": {"eta": {"csv": "word.csv"}})"),
       "{dir}/word.csv: row 2, column 3: not a number: 'high'"},
      {small(R"("initial": {"eta": {"csv": "nan.csv"}})"),
       "{dir}/nan.csv: row 2, column 3: value is not finite"},
      {small(R"("initial": {"eta": {"csv": "inf.csv"}})"),
       "{dir}/inf.csv: row 3, column 4: value is not finite"},
      {small(R"("initial": {"eta": {"csv": "huge.csv"}})"),
       "{dir}/huge.csv: row 2, column 3: not a number: '1e999'"},
      {R"({"grid": {"nx": 5, "ny": 4}, "initial": {"eta": {"csv": "good.csv"}}})",
       "{dir}/good.csv: field is 4 x 4 (columns x rows), grid needs 5 x 4"},
      {small(R"("water": {"bathymetry": {"png": "garbage.png"}})"),
       "{dir}/garbage.png: not a readable PNG image ([20]is[20]: invalid chunk type)"},
      {small(R"("domain": {"mask": {"png": "text.png"}})"),
       "{dir}/text.png: not a readable PNG image (read beyond end of data)"},
      {small(R"("terrain": {"png": "missing.png"})"), "{dir}/missing.png: cannot open for reading"},
      {small(R"("terrain": {"png": "halves.png", "coast": "beach"})"),
       "s.json: terrain.coast: unknown coast 'beach' (expected \"walls\" or \"ground\")"},
      {small(R"("terrain": {"png": "halves.png", "coast": true})"),
       "s.json: terrain.coast: must be a string"},
      {small(R"("water": {"bathymetry": {"csv": "good.csv"}, "min_depth": -1e6})"),
       "s.json: water.min_depth: -1e+06 is outside [-100000, 100000]"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.json);
    const std::string message = scenarioError(c.json);
    EXPECT_EQ(message, c.message);
    EXPECT_EQ(message.find('\n'), std::string::npos);
  }
}

TEST_F(BadInput, FieldLoadersNameRowAndColumn) {
  const std::vector<std::pair<std::string, std::string>> csv = {
      {"1,2\n3,x\n", "f.csv: row 2, column 2: not a number: 'x'"},
      {"1,2\n3, 4 5\n", "f.csv: row 2, column 2: not a number: ' 4 5'"},
      {"1,,2\n", "f.csv: row 1, column 2: not a number: ''"},
      {"1,2,\n", "f.csv: row 1, column 3: not a number: ''"},
      {"1;2\n", "f.csv: row 1, column 1: not a number: '1;2'"},
      {"1,2\n3\n", "f.csv: row 2 has 1 columns, expected 2"},
      {"1,NaN\n", "f.csv: row 1, column 2: value is not finite"},
      {"1,2\ninf,2\n", "f.csv: row 2, column 1: value is not finite"},
      {"1,2\n1,1e39\n", "f.csv: row 2, column 2: 1e39 is too large for a 32-bit float"},
      {"0x10\n", "f.csv: row 1, column 1: not a number: '0x10'"},
      {"\n\r\n", "f.csv: empty CSV field"},
  };
  for (const auto& [text, message] : csv) {
    SCOPED_TRACE(text);
    EXPECT_EQ(errorOf([&] { parseCsvField(text, "f.csv"); }), message);
  }
  EXPECT_EQ(errorOf([] { decodePngField("", "x.png", 4, 4); }),
            "x.png: empty file, not a PNG image");
  // A valid PNG cut short: the header is readable, the pixels are not.
  std::string png = readText(dir_ / "halves.png");
  png.resize(png.size() / 2);
  const std::string truncated = errorOf([&] { decodePngField(png, "cut.png"); });
  EXPECT_EQ(truncated.rfind("cut.png: ", 0), 0u) << truncated;
  EXPECT_EQ(truncated.find('\n'), std::string::npos);
}

TEST_F(BadInput, WrongSizePngIsResampledToTheGrid) {
  // halves.png is 4 x 2 (left half solid); the scenario's grid is 8 x 6.
  const Scenario s = parseScenarioText(
      R"({"grid": {"nx": 8, "ny": 6, "dx": 0.1}, "domain": {"mask": {"png": "halves.png"}}})",
      "s.json", dir_);
  const Domain domain = buildDomain(s);
  ASSERT_EQ(domain.nx(), 8);
  ASSERT_EQ(domain.ny(), 6);
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i < 8; ++i)
      EXPECT_EQ(domain.isWet(i, j), i >= 4) << i << ", " << j;
  const Field2D big = decodePngField(readText(dir_ / "halves.png"), "halves.png", 400, 300);
  EXPECT_EQ(big.nx(), 400);
  EXPECT_EQ(big.ny(), 300);
  EXPECT_TRUE(big.allFinite());
  EXPECT_FLOAT_EQ(big(0, 0), 0.0f);
  EXPECT_FLOAT_EQ(big(399, 299), 1.0f);
}

// Found by reading for the fuzzer: a drop far larger than the grid overflowed the cell index
// (4 radii / dx = 4e18 as int) and stamped nothing; it must cover the whole pool.
TEST_F(BadInput, HugeDropRadiusCoversThePoolInsteadOfOverflowing) {
  const Scenario s = parseScenarioText(
      R"({"grid": {"nx": 4, "ny": 4, "dx": 1e-6},
          "initial": {"drops": [{"x": 0, "y": 0, "radius": 1e12, "amplitude": 0.1}]}})",
      "s.json", dir_);
  const Domain domain = buildDomain(s);
  const Field2D eta = buildInitialEta(s, domain);
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i)
      EXPECT_FLOAT_EQ(eta(i, j), 0.1f) << i << ", " << j;
}

TEST(BadInputParams, DeclaredParametersRefuseBadValues) {
  ParamValues params({
      {"k", ParamKind::Real, 0.0, 0.0, 10.0, "1/s", "damping", {}, false},
      {"steps", ParamKind::Integer, 2, 1, 8, "", "count", {}, false},
      {"boundary", ParamKind::Choice, 0, 0, 0, "", "walls", {"mirror", "zero"}, false},
      {"force", ParamKind::Flag, 0, 0, 1, "", "force", {}, false},
      {"dt", ParamKind::Real, 0.0, 1e-6, 1.0, "s", "step", {}, true},
  });
  const std::vector<std::pair<std::function<void()>, std::string>> cases = {
      {[&] { params.set("k", -1, "m.k"); }, "m.k: -1 is outside [0, 10] 1/s"},
      {[&] { params.set("k", 1.0 / 0.0, "m.k"); }, "m.k: value must be a finite number"},
      {[&] { params.setFromText("k", "nan", "m.k"); }, "m.k: value must be a finite number"},
      {[&] { params.setFromText("k", "1e999", "m.k"); }, "m.k: '1e999' is not a number"},
      {[&] { params.setFromText("k", "", "m.k"); }, "m.k: '' is not a number"},
      {[&] { params.setFromText("k", "0.5s", "m.k"); }, "m.k: '0.5s' is not a number"},
      {[&] { params.setFromText("steps", "2.5", "m.steps"); }, "m.steps: must be an integer"},
      {[&] { params.setFromText("steps", "9", "m.steps"); }, "m.steps: 9 is outside [1, 8]"},
      {[&] { params.setFromText("boundary", "wall", "m.boundary"); },
       "m.boundary: 'wall' is not one of mirror, zero"},
      {[&] { params.set("boundary", 2, "m.boundary"); }, "m.boundary: invalid choice index"},
      {[&] { params.setFromText("force", "yes", "m.force"); },
       "m.force: 'yes' is not true or false"},
      {[&] { params.setFromText("dt", "auto?", "m.dt"); }, "m.dt: 'auto?' is not a number"},
      {[&] { params.set("zz", 1, "m.zz"); }, "m.zz: unknown parameter 'zz'"},
      {[&] {
         applyParamJson(params, nlohmann::json{{"zz", 1}}, "s.json: models.m");
       },
       "s.json: models.m.zz: unknown parameter"},
      {[&] {
         applyParamJson(params, nlohmann::json{{"k", {1, 2}}}, "s.json: models.m");
       },
       "s.json: models.m.k: must be a number or a string"},
      {[&] {
         applyParamJson(params, nlohmann::json{{"k", "1e999"}}, "s.json: models.m");
       },
       "s.json: models.m.k: '1e999' is not a number"},
  };
  for (const auto& [apply, message] : cases)
    EXPECT_EQ(errorOf(apply), message);
  // Nothing bad was stored: every value is still its default.
  EXPECT_EQ(params.get("k"), 0.0);
  EXPECT_EQ(params.get("steps"), 2.0);
  EXPECT_EQ(params.text("dt"), "auto");
}

// ---- the same through wavebench-cli --------------------------------------------------------

struct CliResult {
  int exitCode = -1;
  std::string out, err;
};

struct CliCase {
  std::string args;
  int exitCode;
  std::string message;  // the stderr line without "wavebench-cli: "; "{dir}" = the work folder
  Match match = Match::Exact;
};

class BadCli : public BadInput {
 protected:
  CliResult run(const std::string& args) {
    const std::string command =
        "cd '" + dir_.string() + "' && '" WAVEBENCH_CLI "' " + args + " > cli.out 2> cli.err";
    const int status = std::system(command.c_str());
    CliResult r;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = readText(dir_ / "cli.out");
    r.err = replaceAll(readText(dir_ / "cli.err"), dir_.string(), "{dir}");
    fs::remove(dir_ / "cli.out");
    fs::remove(dir_ / "cli.err");
    return r;
  }
  void expectCase(const CliCase& c) {
    SCOPED_TRACE(c.args);
    const CliResult r = run(c.args);
    EXPECT_EQ(r.exitCode, c.exitCode);
    const std::string line = "wavebench-cli: " + c.message;
    if (c.match == Match::Exact)
      EXPECT_EQ(r.err, line + "\n");
    else
      EXPECT_EQ(r.err.rfind(line, 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  // Every file below the work folder, relative to it.
  std::vector<std::string> filesLeft() const {
    std::vector<std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(dir_))
      files.push_back(fs::relative(entry.path(), dir_).generic_string());
    std::sort(files.begin(), files.end());
    return files;
  }
};

TEST_F(BadCli, BadInputExitsTwoWithOneLineAndWritesNothing) {
  writeText(dir_ / "malformed.json", R"({"grid": {"nx": 10)");
  writeText(dir_ / "overflow.json", R"({"grid": {"nx": 1e999}})");
  writeText(dir_ / "type.json", R"({"grid": {"nx": "ten"}})");
  writeText(dir_ / "unknown.json", small(R"("colour": 1)"));
  writeText(dir_ / "huge.json", R"({"grid": {"nx": 65536, "ny": 65536}})");
  writeText(dir_ / "nan_eta.json", small(R"("initial": {"eta": {"csv": "nan.csv"}})"));
  writeText(dir_ / "no_eta.json", small(R"("initial": {"eta": {"csv": "nope.csv"}})"));
  writeText(dir_ / "bad_png.json", small(R"("domain": {"mask": {"png": "garbage.png"}})"));
  writeText(dir_ / "bad_param.json", small(R"("models": {"damped-wave": {"k": -1}})"));
  const std::string pool = "run --scenario builtin:pi-pool --frames 2 ";
  const std::vector<CliCase> cases = {
      {"run --scenario malformed.json --out o", 2,
       "malformed.json: malformed JSON: parse error at line 1, column 19: syntax error while "
       "parsing object - unexpected end of input; expected '}'"},
      {"run --scenario overflow.json --out o", 2,
       "overflow.json: malformed JSON: number overflow parsing '1e999'"},
      {"run --scenario type.json --out o", 2, "type.json: grid.nx: must be a number"},
      {"run --scenario unknown.json --out o", 2, "unknown.json: colour: unknown key"},
      {"run --scenario huge.json --out o", 2,
       "huge.json: grid: 65536 x 65536 cells is too large (at most 4096 x 4096)"},
      {"run --scenario nan_eta.json --out o", 2,
       "{dir}/nan.csv: row 2, column 3: value is not finite"},
      {"run --scenario no_eta.json --out o", 2, "{dir}/nope.csv: cannot open for reading"},
      {"run --scenario bad_png.json --out o", 2,
       "{dir}/garbage.png: not a readable PNG image ([20]is[20]: invalid chunk type)"},
      {"run --scenario bad_param.json --out o", 2,
       "bad_param.json: models.damped-wave.k: -1 is outside [0, 10000] 1/s"},
      {"run --scenario missing.json --out o", 2, "missing.json: cannot open for reading"},
      {"run --scenario builtin:nope --out o", 2,
       "builtin:nope: no such builtin scenario (known: ", Match::StartsWith},
      {"run --out o", 2, "run: --scenario FILE|builtin:NAME is required"},
      {"frobnicate", 2,
       "unknown command 'frobnicate' (expected run, bench, verify or list; see --help)"},
      {pool + "--bogus", 2, "--bogus: unknown option (see wavebench-cli --help)"},
      {pool + "--force=yes", 2, "--force: unknown option (see wavebench-cli --help)"},
      {pool + "--out", 2, "--out: missing value"},
      {"run --scenario builtin:pi-pool --frames abc", 2, "--frames: 'abc' is not a number"},
      {"run --scenario builtin:pi-pool --frames 1.5", 2, "--frames: must be an integer"},
      {"run --scenario builtin:pi-pool --frames -1", 2, "--frames: -1 is outside [0, 100000000]"},
      {pool + "--frames 3", 2, "--frames: given twice ('2', then '3'); give it once"},
      {pool + "--out o --out=p", 2, "--out: given twice ('o', then 'p'); give it once"},
      {pool + "--threads nan", 2, "--threads: 'nan' is not a number"},
      {"run --scenario builtin:pi-pool --duration 1e999", 2, "--duration: '1e999' is not a number"},
      {"run --scenario builtin:pi-pool --duration inf", 2, "--duration: 'inf' is not a number"},
      {"run --scenario builtin:pi-pool --duration 1 --frames 2", 2,
       "run: give --duration or --frames, not both"},
      {pool + "--dump-every 5", 2, "--dump-every: needs --out DIR"},
      {pool + "--models nope", 2, "--models: unknown model 'nope' (known: ", Match::StartsWith},
      {pool + "--set k=1", 2, "--set k=1: expected id.param=value"},
      {pool + "--set foo.k=1", 2, "--set foo.k=1: unknown model 'foo' (known: ", Match::StartsWith},
      {pool + "--set damped-wave.zz=1", 2, "--set damped-wave.zz=1: unknown parameter 'zz'"},
      {pool + "--set damped-wave.k=nan", 2,
       "--set damped-wave.k=nan: value must be a finite number"},
      {pool + "--set damped-wave.k=-1", 2, "--set damped-wave.k=-1: -1 is outside [0, 10000] 1/s"},
      {pool + "--set damped-wave.boundary=wall", 2,
       "--set damped-wave.boundary=wall: 'wall' is not one of mirror, zero"},
      {pool + "--out a_file/sub", 2, "a_file/sub: cannot create output folder: Not a directory"},
      {pool + "--out a_file", 2, "a_file: cannot create output folder", Match::StartsWith},
      {pool + "--models fft-ocean --set fft-ocean.wind_speed=nan", 2,
       "--set fft-ocean.wind_speed=nan: value must be a finite number"},
      {pool + "--models fft-ocean", 2,
       "fft-ocean: the domain has 858 solid cells inside the rectangle (a mask, the Pi pool or a "
       "coast); the modes cos(kx x) cos(ky y) need the whole rectangle wet"},
      {pool + "--models ''", 2, "--models: empty value"},
      {pool + "--models ,", 2, "--models: ',' names no model"},
      {pool + "--out ''", 2, "--out: empty value"},
      {pool + "--scenario=", 2, "--scenario: empty value"},
      {pool + "--models damped-wave --set swe-adi.dt=0.01", 2,
       "--set swe-adi.dt=0.01: model 'swe-adi' is not in this run (running: damped-wave)"},
      {"list --bogus", 2, "--bogus: unknown option (see wavebench-cli --help)"},
      {"bench --models damped-wave --grid 100000", 2, "--grid: 100000 is outside [8, 4096]"},
      {"bench --grid 64", 2, "bench: --models id,id is required"},
      {"verify --models nope", 2, "--models: unknown model 'nope' (known: ", Match::StartsWith},
  };
  for (const auto& c : cases)
    expectCase(c);
  // Nothing was written: no output folder, no series.csv, no temporary file.
  EXPECT_FALSE(fs::exists(dir_ / "o"));
  EXPECT_TRUE(fs::is_regular_file(dir_ / "a_file"));
  for (const auto& file : filesLeft()) {
    EXPECT_EQ(file.find(".tmp"), std::string::npos) << file;
    EXPECT_EQ(file.find("series.csv"), std::string::npos) << file;
  }
}

// c = 20 m/s on dx = 0.1 m puts damped-wave's stability bound at 0.005 s; dt = 0.01 s is
// twice that (two substeps of 1/120 s per frame).
const std::string kUnstable =
    "run --scenario builtin:pi-pool --models damped-wave --frames 120 --set damped-wave.c=20 "
    "--set damped-wave.dt=0.01 --out out ";

TEST_F(BadCli, UnstableDtIsRefusedNamingTheBound) {
  const CliResult r = run(kUnstable);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(
      r.err.rfind("wavebench-cli: damped-wave.dt: 0.01 s exceeds the stability bound 0.005 s", 0),
      0u)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out"));  // refused before anything was written
}

TEST_F(BadCli, ForcedUnstableRunExitsThreeAndKeepsTheSeriesUpToTheFailure) {
  const CliResult r = run(kUnstable + "--force --quiet");
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_EQ(r.err.rfind("wavebench-cli: damped-wave blew up at t = ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  // The failing frame is named; the series holds the header and every frame before it.
  const auto frameAt = r.err.find("(frame ");
  ASSERT_NE(frameAt, std::string::npos);
  const int failedFrame = std::stoi(r.err.substr(frameAt + 7));
  EXPECT_GT(failedFrame, 0);
  EXPECT_LT(failedFrame, 120);
  const std::string series = readText(dir_ / "out" / "series.csv");
  EXPECT_EQ(std::count(series.begin(), series.end(), '\n'), 1 + failedFrame);
  std::string lower = series;
  for (auto& ch : lower)
    ch = char(std::tolower(ch));
  EXPECT_EQ(lower.find("nan"), std::string::npos);
  EXPECT_EQ(lower.find("inf"), std::string::npos);
  EXPECT_EQ(filesLeft(),
            (std::vector<std::string>{"a_file", "garbage.png", "good.csv", "halves.png", "huge.csv",
                                      "inf.csv", "nan.csv", "out", "out/series.csv",
                                      "short_row.csv", "text.png", "word.csv"}));
}

// A model that refuses an edit of the scenario during the run (fft-ocean cannot hold a wall
// inside its basin) is stopped with its reason and marked REFUSED, not BLEW UP; the others run
// on and the series is written; the exit code is 3, as for any model stopped during a run.
TEST_F(BadCli, ModelRefusingAMaskStrokeIsStoppedAndMarkedRefused) {
  writeText(dir_ / "stroke.json",
            R"({"grid": {"nx": 16, "ny": 16, "dx": 0.1},
                "excitations": [{"type": "mask", "time": 0.05, "solid": true,
                                 "dabs": [{"x": 0.8, "y": 0.8, "radius": 0.15}]}],
                "models": {"damped-wave": {}, "fft-ocean": {}}, "duration": 0.2})");
  const CliResult r = run("run --scenario stroke.json --out out");
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_EQ(r.err.rfind("wavebench-cli: fft-ocean: a mask stroke of ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("); stopped\n"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  const auto rowOf = [&](const std::string& id) {
    const auto at = r.out.find("\n" + id + " ");
    return at == std::string::npos ? std::string()
                                   : r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
  };
  EXPECT_NE(rowOf("fft-ocean").find("REFUSED"), std::string::npos) << r.out;
  EXPECT_NE(rowOf("damped-wave").find(" ok"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("BLEW UP"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "series.csv"));
}

// --help lists every option each command takes (the FlagReader lists of app/cli/main.cpp).
TEST_F(BadCli, HelpNamesEveryOption) {
  const CliResult r = run("--help");
  EXPECT_EQ(r.exitCode, 0);
  for (const char* option :
       {"--scenario", "--models", "--duration", "--frames", "--out", "--dump-every", "--threads",
        "--set", "--force", "--quiet", "--sequential", "--grid", "--json"})
    EXPECT_NE(r.out.find(option), std::string::npos) << option;
}

TEST_F(BadCli, SuccessfulRunLeavesNoTemporaryFiles) {
  const CliResult r =
      run("run --scenario builtin:pi-pool --frames 4 --dump-every 2 --quiet --out out");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(fs::exists(dir_ / "out" / "series.csv"));
  EXPECT_TRUE(fs::exists(dir_ / "out" / "damped-wave" / "eta_00002.csv"));
  for (const auto& file : filesLeft())
    EXPECT_EQ(file.find(".tmp"), std::string::npos) << file;
}

}  // namespace
}  // namespace wb
