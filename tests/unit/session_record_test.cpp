// Recorded sessions (core/forcing/excitations.hpp, record*): rain switched on and off rains
// only in between, a recorded stir acts only over its own interval, and the scenario keys of
// a session (stir, boat.steer) survive JSON exactly and report bad input in one line.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/forcing/excitations.hpp"
#include "core/scenario/scenario.hpp"
#include "test_support.hpp"

namespace wb {
namespace {

TEST(SessionRecord, RainFallsOnlyWhileSwitchedOn) {
  const Domain domain(Grid{32, 32, 0.25}, 9.81, 1.0);
  Excitations excitations(ExcitationSpecs{}, domain, 7);
  constexpr double frame = 1.0 / 60.0;
  constexpr int on = 30, off = 75;  // frames
  RainSpec rain;
  rain.rate = 200.0;
  int drops = 0;
  for (int f = 0; f < 120; ++f) {
    const double t0 = f * frame;
    if (f == on) excitations.record([&](ExcitationSpecs& s) { recordRain(s, t0, rain); });
    if (f == off) excitations.record([&](ExcitationSpecs& s) { recordRain(s, t0, std::nullopt); });
    for (const auto& event : excitations.advance(t0, (f + 1) * frame)) {
      EXPECT_GE(event.time, on * frame);
      EXPECT_LT(event.time, off * frame);
      ++drops;
    }
  }
  // A Poisson process of 200 drops/s over 0.75 s: 150 expected, far from 0 and from 4 sigma.
  EXPECT_GT(drops, 150 - 4 * 13);
  EXPECT_LT(drops, 150 + 4 * 13);
  ASSERT_EQ(excitations.specs().rain.size(), 1u);
  EXPECT_EQ(excitations.specs().rain[0].start, on * frame);
  EXPECT_EQ(excitations.specs().rain[0].end, off * frame);
}

TEST(SessionRecord, SwitchingKeepsOnlyWhatActsAndNeverCutsCountedRain) {
  ExcitationSpecs specs;
  RainSpec counted;
  counted.count = 10;
  counted.end = 5.0;
  specs.rain.push_back(counted);
  recordWind(specs, 1.0, WindSpec{90.0, 0.5});
  recordWind(specs, 1.0, WindSpec{180.0, 0.7});  // changed in the same frame: one entry left
  ASSERT_EQ(specs.wind.size(), 1u);
  EXPECT_EQ(specs.wind[0].direction, 180.0);
  recordWind(specs, 2.5, std::nullopt);
  EXPECT_EQ(specs.wind[0].end, 2.5);
  recordRain(specs, 3.0, std::nullopt);
  ASSERT_EQ(specs.rain.size(), 1u);
  EXPECT_EQ(specs.rain[0].end, 5.0);  // drawn up front over [0, 5): switching off leaves it
}

TEST(SessionRecord, StirActsOverItsOwnInterval) {
  const Domain domain(Grid{40, 40, 0.1}, 9.81, 1.0);
  Excitations excitations(ExcitationSpecs{}, domain, 1);
  StirImpulse stir;
  stir.x = 1.05, stir.y = 2.05, stir.radius = 0.3, stir.ax = 2.0, stir.duration = 0.2;
  excitations.record([&](ExcitationSpecs& s) { recordStir(s, 0.5, stir); });
  EXPECT_FALSE(excitations.windAt(0.49).has_value());
  ASSERT_TRUE(excitations.windAt(0.5).has_value());
  EXPECT_NEAR(excitations.windAt(0.69)->ax(10, 20), 2.0, 1e-6);
  EXPECT_FALSE(excitations.windAt(0.7).has_value());
}

constexpr const char* kSession = R"({
  "grid": {"nx": 16, "ny": 16, "dx": 0.5},
  "excitations": [
    {"type": "boat", "target": [4, 4],
     "steer": [{"time": 0.1, "target": [1.5, 7.25]}, {"time": 0.1, "target": [2, 3]},
               {"time": 0.35, "target": [7.9, 0.1]}]},
    {"type": "stir", "time": 0.2833333333333333, "x": 3.1, "y": 4.2, "radius": 0.6,
     "ax": 5.5, "ay": -2.25, "duration": 0.2},
    {"type": "drop", "time": 0.016666666666666666, "x": 2, "y": 2}
  ]
})";

TEST(SessionRecord, SessionKeysSurviveJsonExactly) {
  const Scenario a = parseScenarioText(kSession, "s.json", {});
  ASSERT_EQ(a.excitations.boats.at(0).steering.size(), 3u);
  EXPECT_EQ(a.excitations.boats[0].steering[0].y, 7.25);
  ASSERT_EQ(a.excitations.stirs.size(), 1u);
  EXPECT_EQ(a.excitations.stirs[0].start, 0.2833333333333333);
  EXPECT_EQ(a.excitations.stirs[0].ay, -2.25);
  const auto file = std::filesystem::temp_directory_path() / "wavebench_session_record.json";
  saveScenarioFile(a, file);
  const Scenario b = loadScenarioFile(file);
  std::filesystem::remove(file);
  EXPECT_EQ(scenarioToJson(a), scenarioToJson(b));
  EXPECT_EQ(b.excitations.stirs[0].start, a.excitations.stirs[0].start);  // bit for bit
  EXPECT_EQ(b.excitations.drops[0].time, a.excitations.drops[0].time);
}

TEST(SessionRecord, BadSessionKeysAreOneLineNamingTheKey) {
  const auto parse = [](const std::string& excitation) {
    return errorOf([&] {
      parseScenarioText(
          R"({"grid": {"nx": 8, "ny": 8, "dx": 1}, "excitations": [)" + excitation + "]}", "s.json",
          {});
    });
  };
  EXPECT_EQ(parse(R"({"type": "boat", "target": [1, 1], "steer": [{"time": 2, "target": [1, 1]},
                     {"time": 1, "target": [2, 2]}]})"),
            "s.json: excitations[0].steer[1].time: must not be earlier than the entry before it");
  EXPECT_EQ(parse(R"({"type": "boat", "target": [1, 1], "steer": [{"time": 2, "target": [1]}]})"),
            "s.json: excitations[0].steer[0].target: must be [x, y]");
  EXPECT_EQ(
      parse(R"({"type": "boat", "target": [1, 1], "steer": [{"time": 2, "target": [9, 1]}]})"),
      "s.json: excitations[0].steer[0].target: 9 is outside [0, 8]");
  EXPECT_EQ(parse(R"({"type": "boat", "target": [1, 1], "steer": {"time": 2}})"),
            "s.json: excitations[0].steer: must be [{\"time\", \"target\": [x, y]}, ...]");
  EXPECT_EQ(parse(R"({"type": "stir", "time": 1, "y": 2})"), "s.json: excitations[0].x: missing");
  EXPECT_EQ(parse(R"({"type": "stir", "x": 1, "y": 2, "time": -1})"),
            "s.json: excitations[0].time: -1 is outside [0, 1e+12]");
  EXPECT_EQ(parse(R"({"type": "stir", "x": 1, "y": 2, "spin": 3})"),
            "s.json: excitations[0].spin: unknown key");
}

}  // namespace
}  // namespace wb
