// Measured records at gauges (core/measure/gauge_record.hpp, gauge_metrics.hpp, the scenario's
// gauges[].record, docs/gauges.md): the reader's columns, units, shift and zeroing; every bad
// file refused in one line naming the file, line and reason; the summary's measures against
// analytic series; wavebench-cli run writing ref_eta and gauge_summary.csv.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <unistd.h>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/measure/gauge_metrics.hpp"
#include "core/measure/gauge_record.hpp"
#include "core/scenario/gauge_record_keys.hpp"
#include "core/scenario/scenario.hpp"
#include "tests/unit/test_support.hpp"

namespace wb {
namespace {
namespace fs = std::filesystem;

GaugeRecord record(const std::string& text, RecordSpec spec = {}) {
  spec.file = "f.txt";
  return GaugeRecord(text, "f.txt", spec);
}

TEST(GaugeRecord, ReadsAColumnInCentimetresAfterAHeaderAndCommentsShiftedAndZeroed) {
  RecordSpec spec;
  spec.column = 2;
  spec.units = "cm";
  spec.shift = 0.5;
  spec.zero = 0.6;  // the rows at 0 and 0.5 s of the file's own time
  const GaugeRecord r = record(
      "# Monai-like\n"
      "time g5 g7\n"
      "0 9 0.2\n"
      "0.5\t9 0.4  # a trailing comment\n"
      "\n"
      "1 9 1.3\r\n"
      "2 9 0.3\n",
      spec);
  ASSERT_EQ(r.times(), (std::vector<double>{0.5, 1.0, 1.5, 2.5}));
  EXPECT_NEAR(r.offset(), 0.003, 1e-15);
  const std::vector<double> expected{-0.001, 0.001, 0.01, 0.0};
  for (std::size_t k = 0; k < expected.size(); ++k)
    EXPECT_NEAR(r.etas()[k], expected[k], 1e-15) << k;
  EXPECT_NEAR(r.at(1.25), 0.0055, 1e-15);  // linear between the rows
  EXPECT_NEAR(r.at(0.0), -0.001, 1e-15);   // the end rows beyond them
  EXPECT_NEAR(r.at(9.0), 0.0, 1e-15);
}

TEST(GaugeRecord, ReadsCommaSeparatedColumnsAndAnyTimeColumn) {
  RecordSpec spec;
  spec.timeColumn = 1;
  spec.column = 0;
  spec.units = "mm";
  const GaugeRecord r = record("eta,t\n1,0\n3,1\n", spec);
  EXPECT_EQ(r.times(), (std::vector<double>{0.0, 1.0}));
  EXPECT_NEAR(r.at(0.5), 0.002, 1e-15);
}

TEST(GaugeRecord, RefusesEveryBadFileInOneLineNamingTheFileAndLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"0 1\n0 2\n", "f.txt: line 2: time 0 s does not increase (the row before has 0 s)"},
      {"t eta\n0 1\n1 2\n0.5 3\n",
       "f.txt: line 4: time 0.5 s does not increase (the row before has 1 s)"},
      {"0 1\n1 nan\n", "f.txt: line 2: column 1: 'nan' is not finite"},
      {"0 1\ninf 1\n", "f.txt: line 2: column 0: 'inf' is not finite"},
      {"0 1\n1\n", "f.txt: line 2: has 1 columns; column 1 is missing (columns count from 0)"},
      {"0 1\n1 1.5cm\n", "f.txt: line 2: column 1: '1.5cm' is not a number"},
      {"0,1\n1,,2\n", "f.txt: line 2: column 1: '' is not a number"},
      {"t eta\n0 1\n", "f.txt: holds 1 rows of numbers; a record needs at least two"},
      {"# nothing\n", "f.txt: holds 0 rows of numbers; a record needs at least two"},
  };
  for (const auto& [text, message] : cases) {
    SCOPED_TRACE(text);
    EXPECT_EQ(errorOf([&] { record(text); }), message);
  }
}

TEST(GaugeRecord, RefusesARecordThatDoesNotCoverTheRun) {
  const GaugeRecord r = record("0 0\n1 0\n2 0\n");
  EXPECT_EQ(errorOf([&] { r.requireCovers(2.0, "s.json: gauges[0].record"); }), "no error");
  EXPECT_EQ(errorOf([&] { r.requireCovers(2.5, "s.json: gauges[0].record"); }),
            "s.json: gauges[0].record: f.txt covers 0 to 2 s (after the shift); the run needs "
            "0 to 2.5 s");
  RecordSpec late;
  late.shift = 0.5;
  EXPECT_EQ(errorOf([&] { record("0 0\n5 0\n", late).requireCovers(1.0, "w"); }),
            "w: f.txt covers 0.5 to 5.5 s (after the shift); the run needs 0 to 1 s");
}

// ---- the measures, against analytic series ---------------------------------------------

constexpr double kA = 0.04, kT0 = 17.0, kSigma = 0.8;
double gaussian(double t) {
  return kA * std::exp(-(t - kT0) * (t - kT0) / (2 * kSigma * kSigma));
}
Series sampled(double dt, double delay, double t1 = 30.0) {
  Series s;
  for (int k = 0; k * dt <= t1 + 1e-9; ++k) {
    const double t = k * dt;
    s.t.push_back(t);
    s.v.push_back(gaussian(t - delay));
  }
  return s;
}

TEST(GaugeMetrics, RmsOfAShiftedGaussianIsTheAnalyticIntegral) {
  // int (g(t) - g(t - d))^2 dt = 2 A^2 sigma sqrt(pi) (1 - exp(-d^2 / (4 sigma^2))).
  const double d = 0.3, a = 5.0, b = 29.0;
  const double exact = std::sqrt(2 * kA * kA * kSigma * std::sqrt(M_PI) *
                                 (1 - std::exp(-d * d / (4 * kSigma * kSigma))) / (b - a));
  // The window reaches a little past the samples at a and b: the rms is over their span.
  const auto rms = rmsDifference(sampled(0.01, d), gaussian, {a - 1e-6, b + 1e-6});
  ASSERT_TRUE(rms);
  EXPECT_NEAR(*rms, exact, 1e-4 * exact);
  EXPECT_FALSE(rmsDifference(sampled(0.01, d), gaussian, {40.0, 50.0}));  // no samples there
}

TEST(GaugeMetrics, PeakBetweenSamplesIsPlacedByTheParabola) {
  const auto peak = peakOf(sampled(0.05, 0.0237), {10.0, 25.0});
  ASSERT_TRUE(peak);
  EXPECT_NEAR(peak->time, kT0 + 0.0237, 1e-3);  // the samples are 0.05 s apart
  EXPECT_NEAR(peak->value, kA, 1e-4 * kA);
  // A window that ends on the rising flank peaks at its end.
  EXPECT_NEAR(peakOf(sampled(0.05, 0.0), {10.0, 16.01})->time, 16.0, 1e-9);
}

TEST(GaugeMetrics, ArrivalIsTheFirstCrossingOfTheThreshold) {
  // |g| = A / 10 at t0 - sigma sqrt(2 ln 10).
  const double exact = kT0 + 0.4 - kSigma * std::sqrt(2 * std::log(10.0));
  const auto arrival = arrivalTime(sampled(0.01, 0.4), 0.1 * kA, {10.0, 25.0});
  ASSERT_TRUE(arrival);
  EXPECT_NEAR(*arrival, exact, 1e-4);
  EXPECT_FALSE(arrivalTime(sampled(0.01, 0.4), 2 * kA, {10.0, 25.0}));
}

TEST(GaugeMetrics, BestShiftFindsASeriesShiftedBetweenScanSteps) {
  for (double delay : {0.237, -0.4123}) {
    SCOPED_TRACE(delay);
    const auto shift = bestShift(sampled(0.013, delay), gaussian, {13.0, 20.0}, 1.0);
    ASSERT_TRUE(shift);
    EXPECT_NEAR(*shift, delay, 0.01);
  }
}

TEST(GaugeMetrics, ComparisonWithARecordMeasuresBothInTheRecordsWindow) {
  std::ostringstream text;
  for (int k = 0; k <= 600; ++k)
    text << 0.05 * k << " " << 100 * gaussian(0.05 * k) << "\n";  // cm
  RecordSpec spec;
  spec.units = "cm";
  spec.window = TimeWindow{10.0, 25.0};
  spec.alignWindow = TimeWindow{13.0, 20.0};
  const GaugeRecord r = record(text.str(), spec);
  const Series model = sampled(0.01, 0.25);
  const GaugeComparison c = compareWithRecord(model, r, 22.0);
  EXPECT_EQ(c.window.begin, 10.0);
  EXPECT_EQ(c.window.end, 22.0);  // cut to the run
  EXPECT_NEAR(c.peak->time - c.refPeak->time, 0.25, 2e-3);
  EXPECT_NEAR(c.peak->value - c.refPeak->value, 0.0, 1e-4 * kA);
  EXPECT_NEAR(c.arrivalThreshold, 0.1 * kA, 1e-12);
  EXPECT_NEAR(*c.arrival - *c.refArrival, 0.25, 2e-3);
  EXPECT_NEAR(*c.bestShift, 0.25, 0.01);
  EXPECT_NEAR(*c.rmsError,
              *rmsDifference(
                  model, [&](double t) { return r.at(t); }, c.window),
              1e-15);
}

// ---- the scenario's key and wavebench-cli run --------------------------------------------

void writeText(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
}
std::string readText(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class GaugeRecordFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("wavebench_gauge_record_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ostringstream tank;
    tank << "time(s) eta(cm)\n";
    for (int k = 0; k <= 40; ++k)
      tank << 0.05 * k << "\t" << std::sin(3.0 * 0.05 * k) << "\n";
    writeText(dir_ / "tank.txt", tank.str());
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  // A small pool with a gauge that carries `record` (JSON) and one that does not.
  std::string scenario(const std::string& record, double duration = 1.0) const {
    return R"({"grid": {"nx": 24, "ny": 24, "dx": 0.1}, "water": {"depth": 0.5},
      "initial": {"drops": [{"x": 1.2, "y": 1.2, "radius": 0.3, "amplitude": 0.02}]},
      "gauges": [{"name": "tank", "x": 1.6, "y": 1.2, "record": )" +
           record + R"(}, {"name": "plain", "x": 0.5, "y": 0.5}],
      "models": {"damped-wave": {}, "swe-adi": {}}, "frame_dt": 0.1, "duration": )" +
           std::to_string(duration) + "}";
  }
  Scenario parse(const std::string& text) const { return parseScenarioText(text, "s.json", dir_); }
  int runCli(const std::string& args) const {
    const std::string command =
        "cd '" + dir_.string() + "' && '" WAVEBENCH_CLI "' " + args + " > cli.out 2> cli.err";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  fs::path dir_;
};

TEST_F(GaugeRecordFiles, TheScenarioReadsTheRecordAndWritesItBack) {
  const Scenario s = parse(scenario(
      R"({"file": "tank.txt", "column": 1, "units": "cm", "shift": -0.1, "zero": 0.2,
          "window": [0.2, 0.9], "align_window": [0.3, 0.8], "max_shift": 0.25,
          "arrival_threshold": 0.001})"));
  ASSERT_TRUE(s.gauges[0].record);
  EXPECT_FALSE(s.gauges[1].record);
  const RecordSpec& spec = s.gauges[0].record->spec();
  EXPECT_EQ(spec.file, (dir_ / "tank.txt").generic_string());
  EXPECT_EQ(s.gauges[0].record->begin(), -0.1);
  const Scenario again = parseScenarioText(scenarioToJson(s).dump(), "again.json", "/");
  const RecordSpec& back = again.gauges[0].record->spec();
  EXPECT_EQ(back.file, spec.file);
  EXPECT_EQ(back.units, "cm");
  EXPECT_EQ(back.shift, -0.1);
  EXPECT_EQ(back.zero, 0.2);
  EXPECT_EQ(back.window->end, 0.9);
  EXPECT_EQ(back.alignWindow->begin, 0.3);
  EXPECT_EQ(back.maxShift, 0.25);
  EXPECT_EQ(*back.arrivalThreshold, 0.001);
  EXPECT_EQ(again.gauges[0].record->etas(), s.gauges[0].record->etas());
}

TEST_F(GaugeRecordFiles, BadKeysAreRefusedNamingTheKey) {
  writeText(dir_ / "flat.txt", "0 0\n0 1\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"file": "tank.txt", "colour": 1})", "s.json: gauges[0].record.colour: unknown key"},
      {R"({"column": 1})", "s.json: gauges[0].record.file: missing"},
      {R"({"file": "tank.txt", "units": "ft"})",
       "s.json: gauges[0].record.units: must be \"m\", \"cm\" or \"mm\""},
      {R"({"file": "tank.txt", "column": 0})",
       "s.json: gauges[0].record.column: 0 is the time column"},
      {R"({"file": "tank.txt", "column": 1.5})",
       "s.json: gauges[0].record.column: must be an integer"},
      {R"({"file": "tank.txt", "window": [5, 2]})",
       "s.json: gauges[0].record.window: the end must come after the start"},
      {R"({"file": "flat.txt"})",
       "s.json: gauges[0].record: " + (dir_ / "flat.txt").string() +
           ": line 2: time 0 s does not increase (the row before has 0 s)"},
  };
  for (const auto& [record, message] : cases) {
    SCOPED_TRACE(record);
    EXPECT_EQ(errorOf([&] { parse(scenario(record)); }), message);
  }
}

// Rows "time,gauge,model,eta,depth,u,v,ref_eta,ref_depth" as fields.
std::vector<std::vector<std::string>> csvRows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields;
    std::stringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');)
      fields.push_back(cell);
    if (!line.empty() && line.back() == ',') fields.emplace_back();
    rows.push_back(fields);
  }
  return rows;
}

TEST_F(GaugeRecordFiles, RunWritesTheRecordAsRefEtaAndTheSummary) {
  const std::string record = R"({"file": "tank.txt", "units": "cm", "window": [0.2, 0.9]})";
  writeText(dir_ / "s.json", scenario(record));
  ASSERT_EQ(runCli("run --scenario s.json --out out --quiet"), 0) << readText(dir_ / "cli.err");
  const Scenario s = parse(scenario(record));
  const GaugeRecord& tank = *s.gauges[0].record;
  const auto rows = csvRows(readText(dir_ / "out/gauges.csv"));
  ASSERT_EQ(rows[0], (std::vector<std::string>{"time", "gauge", "model", "eta", "depth", "u", "v",
                                               "ref_eta", "ref_depth"}));
  std::map<std::string, Series> series;
  int recorded = 0;
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const auto& row = rows[k];
    ASSERT_EQ(row.size(), 9u) << k;
    const double t = std::stod(row[0]);
    if (row[1] == "plain") {
      EXPECT_EQ(row[7], "");  // no record, no exact reference
      continue;
    }
    ++recorded;
    EXPECT_NEAR(std::stod(row[7]), tank.at(t), 1e-8) << row[0];
    EXPECT_NEAR(std::stod(row[8]), 0.5 + tank.at(t), 1e-6) << row[0];  // the depth it makes
    series[row[2]].t.push_back(t);
    series[row[2]].v.push_back(std::stod(row[3]));
  }
  EXPECT_GT(recorded, 20);
  const auto summary = csvRows(readText(dir_ / "out/gauge_summary.csv"));
  ASSERT_EQ(summary.size(), 3u);  // the header, one row per model at the gauge with a record
  const std::vector<std::string> header = summary[0];
  EXPECT_EQ(header.size(), 17u);
  EXPECT_EQ(header[4], "rms_error");
  EXPECT_EQ(header.back(), "best_shift");
  for (std::size_t k = 1; k < summary.size(); ++k) {
    std::map<std::string, std::string> cell;
    for (std::size_t c = 0; c < header.size(); ++c)
      cell[header[c]] = summary[k][c];
    SCOPED_TRACE(cell["model"]);
    EXPECT_EQ(cell["gauge"], "tank");
    // The measures of the written series (to the printed precision).
    const GaugeComparison c = compareWithRecord(series[cell["model"]], tank, 1.0);
    EXPECT_EQ(cell["window_start"], "0.2");
    EXPECT_EQ(cell["window_end"], "0.9");
    EXPECT_NEAR(std::stod(cell["rms_error"]), *c.rmsError, 1e-6 * *c.rmsError);
    EXPECT_NEAR(std::stod(cell["peak"]), c.peak->value, 1e-8);
    EXPECT_NEAR(std::stod(cell["ref_peak"]), c.refPeak->value, 1e-8 * c.refPeak->value);
    EXPECT_NEAR(std::stod(cell["peak_error"]), c.peak->value - c.refPeak->value, 1e-8);
    EXPECT_NEAR(std::stod(cell["peak_time_error"]), c.peak->time - c.refPeak->time, 1e-6);
    EXPECT_NEAR(std::stod(cell["best_shift"]), *c.bestShift, 1e-6);
  }
}

TEST_F(GaugeRecordFiles, RunRefusesARecordShorterThanTheRunOrABadFileAndWritesNothing) {
  writeText(dir_ / "s.json", scenario(R"({"file": "tank.txt", "units": "cm"})", 3.0));
  EXPECT_EQ(runCli("run --scenario s.json --out out"), 2);
  EXPECT_EQ(readText(dir_ / "cli.err"),
            "wavebench-cli: s.json: gauges[0].record: " + (dir_ / "tank.txt").string() +
                " covers 0 to 2 s (after the shift); the run needs 0 to 3 s\n");
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  // A file the reader refuses: its one line, and nothing written either.
  writeText(dir_ / "flat.txt", "0 0\n0 1\n");
  writeText(dir_ / "flat.json", scenario(R"({"file": "flat.txt"})"));
  EXPECT_EQ(runCli("run --scenario flat.json --out out"), 2);
  EXPECT_EQ(readText(dir_ / "cli.err"),
            "wavebench-cli: flat.json: gauges[0].record: " + (dir_ / "flat.txt").string() +
                ": line 2: time 0 s does not increase (the row before has 0 s)\n");
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  // --frames shortens the run to what the record covers.
  EXPECT_EQ(runCli("run --scenario s.json --out out --frames 20 --quiet"), 0)
      << readText(dir_ / "cli.err");
}

}  // namespace
}  // namespace wb
