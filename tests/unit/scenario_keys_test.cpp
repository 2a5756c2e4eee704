// The scenario's key table (core/scenario/scenario_keys.hpp) against its readers, its writer and
// docs/scenario.md: the docs' key tables are the declared ones, every builtin scenario reads
// back from what the writer makes of it, and a key's kind decides its checks wherever it is.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "core/scenario/gauge_record_keys.hpp"
#include "core/scenario/scenario.hpp"
#include "core/scenario/scenario_sections.hpp"

namespace wb {
namespace {

std::string readText(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string parseError(const std::string& text) {
  try {
    parseScenarioText(text, "s.json", {});
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

// Each table generated from the declarations stands verbatim in its section of
// docs/scenario.md: a key missing, added, or with another type, default, range, unit or doc
// fails here, printing the table the page should hold.
TEST(ScenarioKeys, DocsTablesAreTheDeclaredOnes) {
  const std::string page =
      readText(std::filesystem::path(WAVEBENCH_SOURCE_DIR) / "docs" / "scenario.md");
  ASSERT_FALSE(page.empty());
  for (const KeyTable& table : scenarioKeyTables()) {
    const std::size_t heading = page.find("\n" + table.heading + "\n");
    ASSERT_NE(heading, std::string::npos) << "docs/scenario.md has no heading " << table.heading;
    const std::size_t next = page.find("\n## ", heading + 1);
    const std::size_t at = page.find(table.markdown, heading);
    EXPECT_TRUE(at != std::string::npos && at < next)
        << "docs/scenario.md, " << table.heading
        << ": the key table is not the declared one (core/scenario/scenario_keys.cpp); it "
           "should read\n"
        << table.markdown;
  }
}

// Every key of a table has one name and a doc: the docs' rows and the Bodies tab's tooltips.
TEST(ScenarioKeys, EveryKeyHasOneNameAndADoc) {
  const auto checkTable = [](const auto& keys, const std::string& where) {
    std::set<std::string> names;
    for (const auto& key : keys) {
      EXPECT_TRUE(names.insert(key.name).second) << where << "." << key.name << " twice";
      EXPECT_FALSE(key.doc.empty()) << where << "." << key.name << " has no doc";
      EXPECT_TRUE(key.get || key.kind == KeyKind::Object)
          << where << "." << key.name << " has no writer";
    }
  };
  checkTable(scenarioKeys(), "top");
  for (const ScenarioKey& key : scenarioKeys())
    if (key.kind == KeyKind::Object) checkTable(key.children, key.name);
  checkTable(tracerKeys(), "bodies");
  checkTable(bodyKeys(), "bodies[k]");
  checkTable(meshBodyKeys(), "bodies[k]");
  checkTable(gaugeKeys(), "gauges[k]");
  checkTable(recordKeys(), "gauges[k].record");
  checkTable(transectKeys(), "transects[k]");
  checkTable(referenceKeys(), "reference");
  checkTable(incomingKeys(), "incoming");
  checkTable(incomingSineKeys(), "incoming.sine");
  checkTable(incomingSolitaryKeys(), "incoming.solitary");
  checkTable(timedDropKeys(), "drop");
  checkTable(rainKeys(), "rain");
  checkTable(boatKeys(), "boat");
  checkTable(steerKeys(), "boat.steer[k]");
  checkTable(windKeys(), "wind");
  checkTable(windRegionKeys(), "wind.region");
  checkTable(stirKeys(), "stir");
  checkTable(strokeKeys(), "mask");
  checkTable(dabKeys(), "mask.dabs[k]");
}

// What the writer makes of every builtin scenario reads back to the same scenario.
TEST(ScenarioKeys, EveryBuiltinReadsBackFromItsWriter) {
  for (const std::string& name : builtinScenarioNames()) {
    const nlohmann::json written = scenarioToJson(loadScenario("builtin:" + name));
    const Scenario again = parseScenario(written, "builtin:" + name, {}, true);
    EXPECT_EQ(scenarioToJson(again), written) << name;
  }
}

// An integer key refuses a fraction as such before its range, in every table: the only boat's
// towed_by 0.5 is "must be an integer" like grid.nx 8.5, not "outside [0, 0]".
TEST(ScenarioKeys, AnIntegerKeyRefusesAFractionBeforeItsRange) {
  const std::string boat =
      R"({"grid": {"nx": 16, "ny": 16}, "excitations": [{"type": "boat", "target": [4, 4]}],
          "bodies": [{"x": 8, "y": 8, "towed_by": )";
  EXPECT_EQ(parseError(boat + "0.5}]}"), "s.json: bodies[0].towed_by: must be an integer");
  EXPECT_EQ(parseError(boat + "1}]}"), "s.json: bodies[0].towed_by: 1 is outside [0, 0]");
  EXPECT_EQ(parseError(R"({"grid": {"nx": 8.5}})"), "s.json: grid.nx: must be an integer");
}

// A choice read as text (a reference's kind, a record's units) is a string before it is one of
// its choices, and its message quotes them; a body's shape names them bare.
TEST(ScenarioKeys, AQuotedChoiceIsAStringFirst) {
  EXPECT_EQ(parseError(R"({"grid": {}, "reference": {"kind": 5}})"),
            "s.json: reference.kind: must be a string");
  EXPECT_EQ(parseError(R"({"grid": {}, "reference": {"kind": "linear", "dispersion": "deep"}})"),
            "s.json: reference.dispersion: must be \"finite-depth\" or \"shallow-water\"");
  EXPECT_EQ(parseError(R"({"grid": {}, "reference": {}})"),
            "s.json: reference.kind: must be \"lake-at-rest\", \"standing-mode\", "
            "\"dam-break\", \"thacker\" or \"linear\"");
  EXPECT_EQ(parseError(R"({"grid": {}, "bodies": [{"x": 1, "y": 1, "shape": 5}]})"),
            "s.json: bodies[0].shape: must be box, hull or mesh");
}

// A key read only with another (water.min_depth with bathymetry) is unknown without it, and a
// default that depends on a key before it follows that key (max_depth: depth).
TEST(ScenarioKeys, KeysThatDependOnOthers) {
  EXPECT_EQ(parseError(R"({"grid": {}, "water": {"min_depth": 0.2}})"),
            "s.json: water.min_depth: unknown key");
  const Scenario s = parseScenarioText(
      R"({"grid": {}, "water": {"depth": 3, "bathymetry": {"csv": "b.csv"}}})", "s.json", {});
  EXPECT_EQ(s.bathymetryMaxDepth, 3.0);
  const Scenario tracers =
      parseScenarioText(R"({"grid": {"dx": 0.25}, "bodies": {"count": 3}})", "s.json", {});
  EXPECT_EQ(tracers.bodies.size, 0.5);
}

}  // namespace
}  // namespace wb
