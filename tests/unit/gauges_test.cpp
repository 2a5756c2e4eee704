// Gauges and transects (core/measure/gauges.hpp): a gauge records every step of every model,
// each sample the bilinear value of that model's field at the gauge; bad gauges and transects
// are refused naming the key.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "core/grid/interpolation.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/field_io.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"
#include "tests/unit/test_support.hpp"

namespace wb {
namespace {

// The Π pool's domain with a drop; a gauge in the open water, one near a wall, one between
// four cells; a transect across the pool.
const std::string kGauged = R"({
  "grid": {"nx": 40, "ny": 32, "dx": 0.1}, "water": {"g": 9.81, "depth": 0.4},
  "domain": {"mask": "pi"},
  "initial": {"drops": [{"x": 1.0, "y": 2.6, "radius": 0.2, "amplitude": 0.03}]},
  "gauges": [{"name": "near", "x": 1.23, "y": 2.71}, {"name": "wall", "x": 0.07, "y": 3.1},
             {"x": 2.0, "y": 2.8}],
  "transects": [{"name": "across", "from": [0.05, 2.8], "to": [3.95, 2.8], "samples": 40}],
  "frame_dt": 0.1, "duration": 1.0})";

TEST(Gauges, RecordEveryStepOfEveryModelAsTheBilinearValueOfItsField) {
  const Scenario scenario = parseScenarioText(kGauged, "g.json", {});
  ASSERT_EQ(scenario.gauges.size(), 3u);
  EXPECT_EQ(scenario.gauges[2].name, "gauge 2");
  Comparison run(scenario, createScenarioModels(scenario, {}, {}, false));
  run.setRecordGauges(true);
  std::vector<std::size_t> rows(run.modelCount(), 0), steps(run.modelCount(), 0);
  for (int f = 0; f < 6; ++f) {
    run.advanceFrame();
    for (std::size_t k = 0; k < run.modelCount(); ++k) {
      const auto samples = run.takeGaugeSamples(k);
      rows[k] += samples.size();
      steps[k] += std::size_t(run.record(k).substeps);
      // The frame's last samples are at the frame's time, of the field a dump would write.
      ASSERT_GE(samples.size(), 3u);
      for (std::size_t s = samples.size() - 3; s < samples.size(); ++s) {
        const GaugeSample& sample = samples[s];
        const GaugeSpec& gauge = scenario.gauges[std::size_t(sample.gauge)];
        EXPECT_EQ(sample.time, run.time());
        EXPECT_EQ(sample.value.eta, double(sampleBilinear(run.model(k).eta(), run.domain().grid(),
                                                          gauge.x, gauge.y)));
        EXPECT_EQ(sample.value.u.has_value(), run.model(k).velocityU() != nullptr);
      }
      // Every step, in order.
      for (std::size_t s = 3; s < samples.size(); ++s)
        EXPECT_GE(samples[s].time, samples[s - 3].time);
    }
  }
  for (std::size_t k = 0; k < run.modelCount(); ++k) {
    SCOPED_TRACE(run.model(k).id());
    EXPECT_EQ(rows[k], 3 * (steps[k] + 1));  // and the samples of time 0
    EXPECT_GT(steps[k], 6u);                 // more than one step per frame: not per frame
  }
}

TEST(Gauges, AtRestTheDepthIsTheRestDepthAndDryGroundHasNone) {
  const Scenario scenario = parseScenarioText(kGauged, "g.json", {});
  const Domain domain = buildDomain(scenario);
  const auto model = createModel("swe-semi-lagrangian");
  model->reset(domain, Field2D(domain.nx(), domain.ny()));
  const PointSample wet = samplePoint(*model, domain, 1.23, 2.71);
  EXPECT_NEAR(wet.depth, 0.4, 1e-6);
  EXPECT_EQ(wet.eta, 0.0);
  ASSERT_TRUE(wet.u && wet.v);
  EXPECT_EQ(*wet.u, 0.0);
}

TEST(Gauges, TransectPointsSpanTheLineEvenly) {
  const Scenario scenario = parseScenarioText(kGauged, "g.json", {});
  ASSERT_EQ(scenario.transects.size(), 1u);
  const auto points = transectPoints(scenario.transects[0]);
  ASSERT_EQ(points.size(), 40u);
  EXPECT_DOUBLE_EQ(points.front().x, 0.05);
  EXPECT_DOUBLE_EQ(points.back().x, 3.95);
  EXPECT_DOUBLE_EQ(points.back().s, 3.9);
  EXPECT_DOUBLE_EQ(points[13].s, 13 * 3.9 / 39);
  EXPECT_DOUBLE_EQ(points[13].y, 2.8);
}

TEST(Gauges, GaugesAndTransectsSurviveJson) {
  const Scenario scenario = parseScenarioText(kGauged, "g.json", {});
  const Scenario again = parseScenarioText(scenarioToJson(scenario).dump(), "again.json", {});
  ASSERT_EQ(again.gauges.size(), 3u);
  EXPECT_EQ(again.gauges[0].name, "near");
  EXPECT_EQ(again.gauges[1].x, 0.07);
  ASSERT_EQ(again.transects.size(), 1u);
  EXPECT_EQ(again.transects[0].samples, 40);
  EXPECT_EQ(again.transects[0].y1, 2.8);
}

TEST(Gauges, BadGaugesAndTransectsAreOneLineNamingTheKey) {
  const auto scenario = [](const std::string& keys) {
    return R"({"grid": {"nx": 40, "ny": 32, "dx": 0.1}, "domain": {"mask": "pi"}, )" + keys + "}";
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"("gauges": [{"x": 5.0, "y": 1.0}])", "g.json: gauges[0].x: 5 is outside [0, 4]"},
      {R"("gauges": [{"x": 1.0}])", "g.json: gauges[0].y: missing"},
      {R"("gauges": [{"x": 1.0, "y": 1.0, "z": 1}])", "g.json: gauges[0].z: unknown key"},
      {R"("gauges": {"x": 1.0})", "g.json: gauges: must be [{\"name\", \"x\", \"y\"}, ...]"},
      {R"("gauges": [{"name": "a,b", "x": 1.0, "y": 1.0}])",
       "g.json: gauges[0].name: must not hold a comma, a quote or a line break"},
      {R"("transects": [{"from": [1, 1], "to": [1, 1]}])",
       "g.json: transects[0].to: the transect has zero length"},
      {R"("transects": [{"from": [1, 1], "to": [2, 1], "samples": 0}])",
       "g.json: transects[0].samples: 0 is outside [2, 100000]"},
      {R"("transects": [{"from": [1, 1, 1], "to": [2, 1]}])",
       "g.json: transects[0].from: must be [x, y]"},
  };
  for (const auto& [keys, why] : cases)
    EXPECT_EQ(errorOf([&] { parseScenarioText(scenario(keys), "g.json", {}); }), why) << keys;
  // In a wall: the Π pool's bar between its legs (known once the domain is built).
  const Scenario walled =
      parseScenarioText(scenario(R"("gauges": [{"x": 2.0, "y": 0.5}])"), "g.json", {});
  EXPECT_EQ(errorOf([&] { Comparison(walled, createScenarioModels(walled, {}, {}, false)); }),
            "g.json: gauges[0]: (2, 0.5) m is in a wall");
}

std::vector<std::vector<std::string>> csvRows(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> columns;
    std::stringstream split(line);
    for (std::string c; std::getline(split, c, ',');)
      columns.push_back(c);
    if (!line.empty() && line.back() == ',') columns.push_back("");
    rows.push_back(columns);
  }
  return rows;
}

// wavebench-cli run writes gauges.csv with one row per gauge per model per step, and at the
// dumped frames its samples are the bilinear values of the dumped fields; transects.csv holds
// every point of every transect for every model at every frame.
TEST(Gauges, CliWritesEveryStepAndTheDumpedFieldsValues) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "wavebench_gauges_cli";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "g.json") << kGauged;
  const std::string command = std::string("'") + WAVEBENCH_CLI + "' run --scenario '" +
                              (dir / "g.json").string() + "' --out '" + (dir / "out").string() +
                              "' --frames 4 --dump-every 2 --quiet";
  ASSERT_EQ(std::system(command.c_str()), 0);
  const auto gauges = csvRows(dir / "out" / "gauges.csv");
  const auto series = csvRows(dir / "out" / "series.csv");
  const auto transects = csvRows(dir / "out" / "transects.csv");
  ASSERT_GT(gauges.size(), 1u);
  EXPECT_EQ(gauges[0], (std::vector<std::string>{"time", "gauge", "model", "eta", "depth", "u", "v",
                                                 "ref_eta", "ref_depth"}));
  std::map<std::string, int> steps, rows;
  std::map<std::string, std::string> frameTime;  // "frame,model" -> time
  for (std::size_t r = 1; r < series.size(); ++r) {
    if (series[r][0] != "0") steps[series[r][2]] += std::stoi(series[r][10]);
    frameTime[series[r][0] + "," + series[r][2]] = series[r][1];
  }
  const Scenario scenario = parseScenarioText(kGauged, "g.json", {});
  int checked = 0;
  for (std::size_t r = 1; r < gauges.size(); ++r) {
    const auto& row = gauges[r];
    ASSERT_EQ(row.size(), 9u) << r;
    ++rows[row[2]];
    EXPECT_EQ(row[7] + row[8], "");  // no reference in this scenario
    EXPECT_EQ(row[5].empty(), row[2] == "damped-wave") << row[2];
    for (const int frame : {2, 4}) {
      if (row[0] != frameTime[std::to_string(frame) + "," + row[2]]) continue;
      const auto gauge = std::find_if(scenario.gauges.begin(), scenario.gauges.end(),
                                      [&](const GaugeSpec& g) { return g.name == row[1]; });
      ASSERT_NE(gauge, scenario.gauges.end());
      char name[32];
      std::snprintf(name, sizeof name, "eta_%05d.csv", frame);
      const Field2D dumped = readCsvField(dir / "out" / row[2] / name);
      EXPECT_EQ(float(std::stod(row[3])), sampleBilinear(dumped, 0.1, gauge->x, gauge->y))
          << row[2] << " " << row[1] << " frame " << frame;
      ++checked;
    }
  }
  for (const auto& [model, count] : steps)
    EXPECT_EQ(rows[model], 3 * (count + 1)) << model;  // every step, and time 0
  EXPECT_EQ(checked, int(steps.size()) * 3 * 2);
  EXPECT_EQ(transects.size(), 1 + 5 * 40 * steps.size());  // frames 0 to 4
  EXPECT_EQ(transects[0][0] + transects[0][5], "timemodel");
  fs::remove_all(dir);
}

// series.csv, gauges.csv and transects.csv carry the exact simulated time of their state: the
// text reads back as the very double the Comparison holds (frames of 1/60 s have no short
// decimal: 7 ticks is 0.11666666666666667 s).
TEST(Gauges, OutputsCarryTheExactSimulatedTime) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "wavebench_exact_time";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string text = kGauged;
  text.replace(text.find("\"frame_dt\": 0.1"), 15, "\"frame_dt\": 0.0166666666666667");
  std::ofstream(dir / "g.json") << text;
  const int frames = 9;
  const std::string command = std::string("'") + WAVEBENCH_CLI + "' run --scenario '" +
                              (dir / "g.json").string() + "' --out '" + (dir / "out").string() +
                              "' --frames " + std::to_string(frames) + " --quiet";
  ASSERT_EQ(std::system(command.c_str()), 0);
  const Scenario scenario = parseScenarioText(text, "g.json", {});
  Comparison run(scenario, createScenarioModels(scenario, {}, {}, false));
  std::vector<double> frameTimes{run.time()};
  for (int f = 0; f < frames; ++f) {
    run.advanceFrame();
    frameTimes.push_back(run.time());
  }
  char nineDigits[32];  // what the outputs wrote before: not the same time
  std::snprintf(nineDigits, sizeof nineDigits, "%.9g", frameTimes[7]);
  ASSERT_NE(std::stod(nineDigits), frameTimes[7]);
  const auto series = csvRows(dir / "out" / "series.csv");
  ASSERT_EQ(series.size(), 1 + std::size_t(frames + 1) * run.modelCount());
  for (std::size_t r = 1; r < series.size(); ++r)
    EXPECT_EQ(std::stod(series[r][1]), frameTimes[std::size_t(std::stoi(series[r][0]))])
        << "series.csv row " << r << ": " << series[r][1];
  // Every transect row is at a frame's time; every gauge row at a step's, the frame's among them.
  std::set<double> atFrames(frameTimes.begin(), frameTimes.end()), gaugeTimes;
  for (const auto& row : csvRows(dir / "out" / "transects.csv")) {
    if (row[0] == "time") continue;
    EXPECT_TRUE(atFrames.count(std::stod(row[0]))) << row[0];
  }
  for (const auto& row : csvRows(dir / "out" / "gauges.csv")) {
    if (row[0] != "time") gaugeTimes.insert(std::stod(row[0]));
  }
  for (const double t : frameTimes)
    EXPECT_TRUE(gaugeTimes.count(t)) << t;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace wb
