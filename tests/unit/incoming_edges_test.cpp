// Incoming-wave edges (core/grid/incoming_wave.hpp, docs/open-edges.md "Incoming waves"): the
// scenario keys and their bad input, a solitary wave entering a flat channel arriving at gauges
// as eta_in(t - x / c), a pulse from inside leaving through the incoming edge, and the volume
// budget counting what entered.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/grid/domain.hpp"
#include "core/grid/edges.hpp"
#include "core/grid/incoming_wave.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/incoming_keys.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"
#include "models/verification/verification.hpp"
#include "tests/unit/test_support.hpp"

namespace wb {
namespace {
namespace fs = std::filesystem;

const std::vector<std::string> kEveryModel = {"damped-wave", "advected-wave", "swe-semi-lagrangian",
                                              "swe-adi"};

// The parameters of the checks (incomingCheckParams, models/verification/verification.hpp).
std::map<std::string, std::string> paramsOf(const std::string& model) {
  return incomingCheckParams(model);
}

double arrivalTolerance(const std::string& model) {
  return model == "swe-semi-lagrangian" ? kIncomingArrivalErrorImplicit : kIncomingArrivalError;
}

// The volume a linear long wave eta_in(t) at the edge carries in through a side of width w by
// time t: w c integral eta_in dt.
double enteredVolume(const IncomingWave& wave, double time, double width) {
  const double c = std::sqrt(9.81 * 1.0);
  const int n = 20000;
  double sum = 0.0;
  for (int k = 0; k < n; ++k)
    sum += wave.elevation((k + 0.5) * time / n, 9.81, 1.0);
  return width * c * sum * time / n;
}

TEST(IncomingEdges, SolitaryWaveArrivesAtGaugesAsTheRecordDelayedByXOverC) {
  for (const std::string& model : kEveryModel)
    for (double dx : {1.0, 0.5})
      for (double time : {40.0, 60.0}) {
        SCOPED_TRACE(model + " dx " + std::to_string(dx) + " t " + std::to_string(time));
        const IncomingArrival r = measureIncomingArrival(model, dx, time, paramsOf(model));
        std::printf("arrival %s dx %.1f t %.0f: error %.4f, volume %.5f, sink %.5f, drift %.3g\n",
                    model.c_str(), dx, time, r.error, r.volume, r.sink, r.drift());
        EXPECT_LE(r.error, arrivalTolerance(model));
      }
}

// The wave models' local wave speed (c^2 = g d on each link) takes the same incoming layer: on
// the flat channel it is the mean speed, so the wave arrives as it does there, early and late.
TEST(IncomingEdges, TheLocalWaveSpeedTakesTheIncomingWaveToo) {
  for (const std::string& model : {std::string("damped-wave"), std::string("advected-wave")})
    for (double time : {40.0, 60.0}) {
      SCOPED_TRACE(model + " t " + std::to_string(time));
      auto params = paramsOf(model);
      params["speed"] = "local";
      const IncomingArrival r = measureIncomingArrival(model, 1.0, time, params);
      EXPECT_LE(r.error, arrivalTolerance(model));
    }
}

TEST(IncomingEdges, PulseFromInsideLeavesThroughTheIncomingEdge) {
  for (const std::string& model : kEveryModel) {
    SCOPED_TRACE(model);
    const double left = measureIncomingReflection(model, paramsOf(model));
    std::printf("reflection %s: %.3g\n", model.c_str(), left);
    EXPECT_LE(left, kIncomingReflection);
  }
}

TEST(IncomingEdges, BudgetCountsTheEnteredVolume) {
  IncomingWave solitary;
  solitary.form = IncomingWave::Form::Solitary;
  solitary.amplitude = 2e-3;
  solitary.crestTime = 25.0;
  for (const std::string& model : kEveryModel) {
    SCOPED_TRACE(model);
    const IncomingArrival r = measureIncomingArrival(model, 1.0, 60.0, paramsOf(model));
    const double expected = enteredVolume(solitary, 60.0, 4.0);
    std::printf("budget %s: entered %.5f (expected %.5f), drift %.3g\n", model.c_str(), r.sink,
                expected, r.drift());
    EXPECT_NEAR(r.sink, expected, kIncomingVolumeError * expected);
    EXPECT_LE(std::abs(r.drift()), 1e-3 * expected);
  }
}

// ---- scenario keys -------------------------------------------------------------------------

// The text with every `dir` written as {dir}.
std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

Scenario parseEdges(const std::string& edges, const fs::path& dir = ".") {
  const std::string text =
      R"({"grid": {"nx": 96, "ny": 64, "dx": 1}, "domain": {"edges": )" + edges + "}}";
  return parseScenarioText(text, "s.json", dir);
}

// A series read with a kept segment (IncomingWaves::evaluate, every cell every step) is the
// series read by binary search: at every sample time, the record's first and last included,
// between samples, forward in small and large steps and backward, with a kept segment out of
// range to start with.
TEST(IncomingEdgesScenario, AKeptSegmentReadsTheSeriesAsTheSearchDoes) {
  IncomingWave wave;
  for (int k = 0; k <= 40; ++k) {
    wave.times.push_back(0.25 * k + (k % 3 == 0 ? 0.01 : 0.0));  // not evenly spaced
    wave.etas.push_back(std::sin(0.7 * k) * 0.01);
  }
  // The segment std::upper_bound finds, interpolated: the reading the walk must reproduce.
  const auto searched = [&](double t) {
    if (t > wave.times.back()) return 0.0;
    if (t <= wave.times.front()) return wave.etas.front();
    std::size_t k =
        std::size_t(std::upper_bound(wave.times.begin(), wave.times.end(), t) - wave.times.begin());
    k = std::min(k, wave.times.size() - 1);  // t at the last sample: its segment's end
    const double w = (t - wave.times[k - 1]) / (wave.times[k] - wave.times[k - 1]);
    return wave.etas[k - 1] + w * (wave.etas[k] - wave.etas[k - 1]);
  };
  std::vector<double> times = wave.times;
  for (double t = -0.5; t < 10.6; t += 0.0173)
    times.push_back(t);
  for (double t = 10.6; t > -0.5; t -= 0.61)
    times.push_back(t);
  std::uint32_t segment = 1000;
  for (const double t : times) {
    EXPECT_EQ(wave.elevation(t, 9.81, 1.0, segment), searched(t)) << "t " << t;
    EXPECT_EQ(wave.elevation(t, 9.81, 1.0), searched(t)) << "t " << t;
  }
  EXPECT_DOUBLE_EQ(wave.elevation(wave.times.back(), 9.81, 1.0), wave.etas.back());
}

// IncomingWaves reads the series once per delay and hands the reading to every cell at that
// delay: on a side whose depth varies along it and into the layer (each cell its own delay)
// and on one of a single depth (one delay per distance), every cell's elevation and face
// discharge are the series read at the cell's own delay, bit for bit, step after step.
TEST(IncomingEdgesScenario, EveryCellReadsTheSeriesAtItsOwnDelay) {
  IncomingWave wave;
  for (int k = 0; k <= 60; ++k) {
    wave.times.push_back(0.1 * k);
    wave.etas.push_back(0.01 * std::sin(0.9 * k));
  }
  const double g = 9.81, dx = 0.05;
  for (const bool varying : {true, false}) {
    Domain domain(Grid{40, 30, dx}, g, 1.0);
    Field2D depth(40, 30, 1.0f);
    for (int j = 0; j < 30; ++j)
      for (int i = 0; i < 40; ++i)
        if (varying) depth(i, j) = 0.5f + 0.02f * float(j) + 0.01f * float(i % 5);
    domain.setRestDepth(depth);
    Edges edges;
    edges.set(Side::West, EdgeKind::Incoming);
    edges.incoming[std::size_t(Side::West)] = wave;
    domain.setEdges(edges);
    IncomingWaves waves(domain, 0.0);
    for (double t = 0.0; t < 6.5; t += 0.0137) {
      waves.evaluate(t);
      for (int j = 0; j < 30; ++j)
        for (int i = 0; i < edges.layerCells; ++i) {
          const float d0 = domain.restDepth()(i, j);
          const double speed = float(std::sqrt(g * d0));
          const double eta = wave.elevation(t - double(float((i + 0.5) * dx)) / speed, g, 1.0);
          const double face = wave.elevation(t - double(float((i + 1.0) * dx)) / speed, g, 1.0);
          const std::size_t k = std::size_t(j) * 40 + std::size_t(i);
          ASSERT_EQ(waves.elevation()[k], float(eta)) << varying << " t " << t << " cell " << k;
          ASSERT_EQ(waves.dischargeX()[k], float(speed * face)) << varying << " t " << t;
        }
    }
  }
}

TEST(IncomingEdgesScenario, ReadsEveryFormAndWritesItBack) {
  const Scenario inline_ = parseEdges(
      R"({"west": {"incoming": {"series": [[0, 0], [1.5, 0.01], [3, 0]], "then": "open"}},
          "east": "open"})");
  EXPECT_EQ(inline_.edges.kind(Side::West), EdgeKind::Incoming);
  EXPECT_TRUE(inline_.edges.isOpen(Side::West));  // an incoming side has the open edge's layer
  const IncomingWave& wave = inline_.edges.incoming[std::size_t(Side::West)];
  EXPECT_EQ(wave.times, (std::vector<double>{0, 1.5, 3}));
  EXPECT_TRUE(wave.thenOpen);
  EXPECT_DOUBLE_EQ(wave.elevation(0.75, 9.81, 1), 0.005);
  EXPECT_EQ(wave.elevation(3.5, 9.81, 1), 0.0);  // ended: open
  const Scenario sine = parseEdges(R"({"south": {"incoming": {"sine": {"amplitude": 0.02,
                                       "period": 8}}}})");
  EXPECT_NEAR(sine.edges.incoming[std::size_t(Side::South)].elevation(2, 9.81, 1), 0.02, 1e-12);
  const Scenario solitary =
      parseEdges(R"({"north": {"incoming": {"solitary": {"amplitude": 0.01}}}})");
  const IncomingWave& s = solitary.edges.incoming[std::size_t(Side::North)];
  EXPECT_NEAR(s.elevation(0, 9.81, 1), 1e-3 * 0.01, 1e-7);  // starts at 1e-3 a
  // The Monai record, as distributed: tabs and spaces, 451 samples from 0 to 22.5 s.
  const Scenario monai = parseEdges(
      R"({"west": {"incoming": {"series": "builtin:MonaiValley_InputWave.txt", "then": "open"}}})");
  const IncomingWave& record = monai.edges.incoming[std::size_t(Side::West)];
  EXPECT_EQ(record.times.size(), 451u);
  EXPECT_DOUBLE_EQ(record.times.back(), 22.5);
  EXPECT_DOUBLE_EQ(record.etas.front(), -1.19e-5);
  EXPECT_EQ(record.file, "builtin:MonaiValley_InputWave.txt");
  for (const Scenario* scenario : {&inline_, &sine, &solitary, &monai}) {
    const nlohmann::json written = scenarioToJson(*scenario);
    EXPECT_EQ(parseScenario(written, "again.json", ".").edges, scenario->edges) << written.dump();
  }
}

TEST(IncomingEdgesScenario, BadInputNamesTheKeyOrTheLine) {
  const fs::path dir = fs::temp_directory_path() / "wavebench_incoming_keys";
  fs::create_directories(dir);
  std::ofstream(dir / "backwards.txt") << "0 0\n0.5\t0.001\n0.4 0.002\n";
  std::ofstream(dir / "words.txt") << "0 0\n0.5 high\n";
  const auto error = [&](const std::string& edges) {
    return replaceAll(errorOf([&] { parseEdges(edges, dir); }), dir.string(), "{dir}");
  };
  EXPECT_EQ(error(R"({"west": {"incoming": {"series": "backwards.txt"}}})"),
            "s.json: domain.edges.west.incoming.series ({dir}/backwards.txt): line 3: time 0.4 s "
            "does not increase (the sample before is at 0.5 s)");
  EXPECT_EQ(error(R"({"west": {"incoming": {"series": [[0, 0], [2, 1e-3], [2, 0]]}}})"),
            "s.json: domain.edges.west.incoming.series[2]: time 2 s does not increase (the sample "
            "before is at 2 s)");
  EXPECT_EQ(error(R"({"west": {"incoming": {"series": "words.txt"}}})"),
            "s.json: domain.edges.west.incoming.series ({dir}/words.txt): line 2: expected two "
            "numbers, time (s) and elevation (m): '0.5 high'");
  EXPECT_EQ(error(R"({"west": {"incoming": {"series": "none.txt"}}})"),
            "{dir}/none.txt: cannot open for reading");
  EXPECT_EQ(error(R"({"west": {"incoming": {}}})"),
            "s.json: domain.edges.west.incoming: needs exactly one of \"series\", \"sine\" or "
            "\"solitary\"");
  EXPECT_EQ(error(R"({"west": {"inflow": {}}})"), "s.json: domain.edges.west.inflow: unknown key");
  EXPECT_EQ(error(R"({"west": {"incoming": {"sine": {"amplitude": 0.1}}}})"),
            "s.json: domain.edges.west.incoming.sine.period: missing");
  EXPECT_EQ(error(R"({"west": {"incoming": {"sine": {"amplitude": 0.1, "period": 2},
                                            "then": "open"}}})"),
            "s.json: domain.edges.west.incoming.then: only a series ends; a sine or solitary wave "
            "has no end");
  fs::remove_all(dir);
}

// ---- through wavebench-cli: exit 2, one line, nothing written --------------------------------

class IncomingCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("wavebench_incoming_cli_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
  }
  // The scenario: a 64 x 16 channel of 1 m cells, 1 m deep, with `domain` members.
  void writeScenario(const std::string& name, const std::string& domain) {
    write(name, R"({"grid": {"nx": 64, "ny": 16, "dx": 1}, "water": {"depth": 1},
                    "frame_dt": 0.5, "duration": 5, "domain": {)" +
                    domain + "}}");
  }
  struct Result {
    int exitCode;
    std::string err;
  };
  Result run(const std::string& args) {
    const std::string command = "cd '" + dir_.string() + "' && '" WAVEBENCH_CLI "' " + args +
                                " --out out > /dev/null 2> err.txt";
    const int status = std::system(command.c_str());
    std::ifstream in(dir_ / "err.txt");
    std::string err((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    fs::remove(dir_ / "err.txt");
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, err};
  }
  void expectRefused(const std::string& args, const std::string& message) {
    SCOPED_TRACE(args);
    const Result r = run(args);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "wavebench-cli: " + message + "\n");
    EXPECT_FALSE(fs::exists(dir_ / "out"));
  }
  fs::path dir_;
};

TEST_F(IncomingCli, BadRecordsAndSidesExitTwoWithOneLineAndWriteNothing) {
  write("backwards.txt", "0 0\n1 0.001\n0.5 0\n");
  write("short.txt", "0 0\n1 0.001\n2 0\n");
  std::string mask;  // the west column solid
  for (int j = 0; j < 16; ++j) {
    for (int i = 0; i < 64; ++i)
      mask += std::string(i ? "," : "") + (i == 0 ? "0" : "1");
    mask += "\n";
  }
  write("mask.csv", mask);
  writeScenario("backwards.json",
                R"("edges": {"west": {"incoming": {"series": "backwards.txt"}}})");
  writeScenario("short.json", R"("edges": {"west": {"incoming": {"series": "short.txt"}}})");
  writeScenario("walled.json", R"("mask": {"csv": "mask.csv"},
                "edges": {"west": {"incoming": {"sine": {"amplitude": 0.01, "period": 10}}}})");
  writeScenario("ocean.json",
                R"("edges": {"west": {"incoming": {"sine": {"amplitude": 0.01, "period": 10}}}})");
  expectRefused("run --scenario backwards.json",
                "backwards.json: domain.edges.west.incoming.series (" + dir_.string() +
                    "/backwards.txt): line 3: time 0.5 s does not increase (the sample before is "
                    "at 1 s)");
  expectRefused("run --scenario short.json",
                "short.json: domain.edges.west.incoming.series: the record ends at 2 s, before the "
                "run's end at 5 s (shorten the run, or add \"then\": \"open\" to open the side "
                "after it)");
  expectRefused("run --scenario walled.json --models swe-adi",
                "walled.json: domain.edges.west: incoming edge on a side whose cells are all "
                "walls in the mask");
  expectRefused("run --scenario ocean.json --models fft-ocean --set fft-ocean.sea=open",
                "ocean.json: domain.edges: fft-ocean has no incoming-wave edge; use walls or open "
                "edges for it");
  // The record covers a run of 2 s; "then": "open" lets it run on.
  EXPECT_EQ(run("run --scenario short.json --duration 2 --models swe-adi").exitCode, 0);
  fs::remove_all(dir_ / "out");
  writeScenario("then.json",
                R"("edges": {"west": {"incoming": {"series": "short.txt", "then": "open"}}})");
  EXPECT_EQ(run("run --scenario then.json --models swe-adi").exitCode, 0);
}

}  // namespace
}  // namespace wb
