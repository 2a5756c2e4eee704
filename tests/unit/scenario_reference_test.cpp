// A scenario's "reference" (core/measure/references.hpp, docs/scenario.md): it sets the initial
// surface, every frame's series.csv row carries each model's error against it, and a domain
// that breaks its assumptions is refused naming the key.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/measure/gauges.hpp"
#include "core/measure/linear_reference.hpp"
#include "core/measure/references.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/field_io.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"
#include "tests/unit/test_support.hpp"

namespace wb {
namespace {

namespace fs = std::filesystem;

// Ritter's dam break on a 20 m strip of 0.1 m cells, 1 m of water behind a dam at 6 m.
const std::string kRitter = R"({
  "grid": {"nx": 200, "ny": 4, "dx": 0.1}, "water": {"depth": 1.0},
  "reference": {"kind": "dam-break", "x0": 6.0, "h_left": 1.0, "h_right": 0.0},
  "frame_dt": 0.1, "duration": 1.0})";

std::string errorFor(const std::string& text) {
  return errorOf([&] {
    const Scenario s = parseScenarioText(text, "s.json", {});
    Comparison run(s, createScenarioModels(s, {"swe-semi-lagrangian"}, {}, false));
  });
}

TEST(ScenarioReference, SetsTheInitialSurfaceAndRoundTrips) {
  const Scenario s = parseScenarioText(kRitter, "s.json", {});
  ASSERT_TRUE(s.reference);
  const Scenario again = parseScenarioText(scenarioToJson(s).dump(), "s.json", {});
  EXPECT_EQ(scenarioToJson(s), scenarioToJson(again));
  const Domain domain = buildDomain(s);
  const Field2D eta = buildInitialEta(s, domain);
  EXPECT_EQ(eta(59, 1), 0.0f);   // x = 5.95 m: behind the dam, 1 m deep
  EXPECT_EQ(eta(60, 1), -1.0f);  // x = 6.05 m: the dry bed
  Comparison run(s, createScenarioModels(s, {"swe-semi-lagrangian"}, {}, false));
  const FrameRecord first = run.record(0);
  ASSERT_TRUE(first.errorL1 && first.errorMax);
  EXPECT_EQ(*first.errorL1, 0.0);
  EXPECT_EQ(*first.errorMax, 0.0);
}

TEST(ScenarioReference, BadReferencesAreRefusedNamingTheKey) {
  const std::string head = R"({"grid": {"nx": 32, "ny": 32, "dx": 0.1}, )";
  EXPECT_EQ(errorFor(head + R"("reference": {"kind": "tsunami"}})"),
            "s.json: reference.kind: must be \"lake-at-rest\", \"standing-mode\", "
            "\"dam-break\", \"thacker\" or \"linear\"");
  EXPECT_EQ(errorFor(head + R"("reference": {"kind": "linear", "dispersion": "deep"}})"),
            "s.json: reference.dispersion: must be \"finite-depth\" or \"shallow-water\"");
  EXPECT_EQ(errorFor(head + R"("reference": {"kind": "linear"},
                                "excitations": [{"type": "boat", "x": 1, "y": 1,
                                                 "target": [2, 2]}]})"),
            "s.json: reference: linear holds for drops and rain only: the scenario has a boat");
  EXPECT_EQ(errorFor(head + R"("domain": {"edges": {"west": "open", "layer_cells": 4}},
                                "reference": {"kind": "linear"}})"),
            "s.json: reference: linear needs walls on every side: domain.edges has an open side");
  EXPECT_EQ(errorFor(head + R"("reference": {"kind": "standing-mode", "m": 0, "n": 0}})"),
            "s.json: reference.n: m and n are both 0: no wave");
  EXPECT_EQ(
      errorFor(head + R"("reference": {"kind": "dam-break", "x0": 1, "h_left": 0.5,
                                        "h_right": 0.5}})"),
      "s.json: reference.h_right: must be less than h_left (the dam holds the deeper water on "
      "its left)");
  EXPECT_EQ(errorFor(head + R"("reference": {"kind": "lake-at-rest"},
                                "initial": {"drops": [{"x": 1, "y": 1}]}})"),
            "s.json: initial: a reference sets the initial surface; give one or the other");
  // Ritter on a Pi pool: its walls break the 1-D dam break.
  const std::string pi = errorFor(head + R"("domain": {"mask": "pi"},
      "reference": {"kind": "dam-break", "x0": 1, "h_left": 1}})");
  EXPECT_EQ(pi.rfind("s.json: reference: dam-break needs water on every cell (no mask walls): "
                     "the domain has ",
                     0),
            0u)
      << pi;
  EXPECT_EQ(errorFor(head + R"("domain": {"edges": {"west": "open", "layer_cells": 4}},
                                "reference": {"kind": "standing-mode"}})"),
            "s.json: reference: standing-mode needs walls on every side: domain.edges has an "
            "open side");
  EXPECT_EQ(errorFor(head + R"("reference": {"kind": "standing-mode", "amplitude": 50}})"),
            "s.json: reference.amplitude: 50 m on 1 m of water is beyond the linear mode's "
            "small-amplitude bound, |amplitude| <= 0.1 x depth = 0.1 m");
}

// Inputs outside the references' physics are refused naming the key: a linear standing mode as
// high as the water is deep, a dam on the strip's end wall (docs/scenario.md, "reference").
TEST(ScenarioReference, ReferencesOutsideTheirPhysicsAreRefused) {
  const std::string shallow = R"({"grid": {"nx": 32, "ny": 16, "dx": 0.25},
      "water": {"depth": 0.5}, "reference": )";
  EXPECT_EQ(errorFor(shallow + R"({"kind": "standing-mode", "amplitude": 5}})"),
            "s.json: reference.amplitude: 5 m on 0.5 m of water is beyond the linear mode's "
            "small-amplitude bound, |amplitude| <= 0.1 x depth = 0.05 m");
  EXPECT_EQ(errorFor(shallow + R"({"kind": "standing-mode", "amplitude": -0.06}})"),
            "s.json: reference.amplitude: -0.06 m on 0.5 m of water is beyond the linear mode's "
            "small-amplitude bound, |amplitude| <= 0.1 x depth = 0.05 m");
  EXPECT_EQ(errorFor(shallow + R"({"kind": "standing-mode", "amplitude": 0.05}})"), "no error");
  const std::string strip = R"({"grid": {"nx": 200, "ny": 4, "dx": 0.1}, "reference": )";
  for (const char* x0 : {"0", "20", "0.05", "19.95"})
    EXPECT_EQ(errorFor(strip + R"({"kind": "dam-break", "h_left": 1, "x0": )" + x0 + "}}"),
              std::string("s.json: reference.x0: ") + x0 +
                  " m must lie strictly inside the strip, between its first and last cell "
                  "centres (0.05, 19.95) m");
  EXPECT_EQ(errorFor(strip + R"({"kind": "dam-break", "h_left": 1, "x0": 0.06}})"), "no error");
  // Every builtin with a reference stays valid.
  for (const char* name : {"builtin:ritter", "builtin:stoker", "builtin:standing-wave",
                           "builtin:thacker", "builtin:lake-at-rest", "builtin:linear-drops"})
    EXPECT_EQ(errorOf([&] {
                const Scenario s = loadScenario(name);
                buildInitialEta(s, buildDomain(s));
              }),
              "no error")
        << name;
}

// A gauge in a corner reads the corner cell's centre (the bilinear sample clamps there), and its
// reference is taken at the same place: at t = 0 the two agree to float round-off, with no
// spurious error from the half cell between the corner and the centre.
TEST(ScenarioReference, AGaugeInACornerReadsTheReferenceWhereItReadsTheModels) {
  const Scenario s = parseScenarioText(R"({"grid": {"nx": 64, "ny": 32, "dx": 0.25},
      "water": {"depth": 0.5}, "reference": {"kind": "standing-mode", "m": 1, "n": 1},
      "gauges": [{"name": "corner", "x": 16, "y": 8}, {"name": "origin", "x": 0, "y": 0},
                 {"name": "edge", "x": 5.375, "y": 0}]})",
                                       "s.json", {});
  Comparison run(s, createScenarioModels(s, {"swe-adi"}, {}, false));
  const Reference reference(*s.reference, run.domain());
  for (const GaugeSpec& gauge : s.gauges) {
    const PointSample model = samplePoint(run.model(0), run.domain(), gauge.x, gauge.y);
    const PointSample exact = sampleReference(reference, run.domain(), gauge.x, gauge.y, 0.0);
    EXPECT_NEAR(model.eta, exact.eta, 1e-8) << gauge.name;
  }
}

// Thacker's reference shapes its own bowl, centred in the grid (rest depth h0 (1 - r^2 / a^2),
// land beyond r = a), starts from its surface at t = 0, and refuses a domain with ground or
// walls of its own or too small for its shoreline.
TEST(ScenarioReference, ThackerShapesItsBowlAndRefusesWhatBreaksIt) {
  const Scenario s = loadScenario("builtin:thacker");
  const Domain domain = buildDomain(s);
  const Reference reference(*s.reference, domain);
  const double centre = 0.5 * s.grid.width();
  for (const auto& [i, j] : {std::pair{40, 40}, {10, 40}, {3, 77}}) {
    const double x = s.grid.x(i), y = s.grid.y(j);
    const double r2 = (x - centre) * (x - centre) + (y - centre) * (y - centre);
    EXPECT_NEAR(domain.restDepth()(i, j), 0.1 * (1.0 - r2), 1e-7);
    EXPECT_NEAR(buildInitialEta(s, domain)(i, j), reference.eta(x, y, 0.0), 1e-7);
  }
  EXPECT_LT(domain.restDepth()(3, 77), 0.0f);  // land above the rest level in the corner
  const std::string head = R"({"grid": {"nx": 80, "ny": 80, "dx": 0.05}, )";
  EXPECT_EQ(errorFor(head + R"("domain": {"mask": "pi"}, "reference": {"kind": "thacker"}})"),
            "s.json: reference: thacker needs water on every cell (no mask walls)");
  EXPECT_EQ(errorFor(R"({"grid": {"nx": 40, "ny": 80, "dx": 0.05},
                         "reference": {"kind": "thacker"}})"),
            "s.json: reference: thacker its shoreline reaches 1.11803 m from the centre; the "
            "grid holds 0.95 m (half its shorter side less a cell)");
  const fs::path dir = fs::temp_directory_path() / "wavebench_thacker_ground";
  fs::create_directories(dir);
  std::ofstream(dir / "ground.csv") << "1,1,1,1\n1,1,1,1\n1,1,1,1\n1,1,1,1\n";
  const std::string withGround = errorOf([&] {
    const Scenario ground = parseScenarioText(R"({"grid": {"nx": 4, "ny": 4, "dx": 2},
        "water": {"bathymetry": {"csv": "ground.csv"}}, "reference": {"kind": "thacker"}})",
                                              "s.json", dir);
    buildDomain(ground);
  });
  EXPECT_EQ(withGround,
            "s.json: reference: thacker sets the ground (a bowl): give no water.bathymetry or "
            "terrain");
  fs::remove_all(dir);
}

// gauges.csv and transects.csv carry the reference beside every sample: ref_eta its surface at
// the point and time, ref_depth that over the ground sampled as the models' depth is.
TEST(ScenarioReference, GaugesAndTransectsCarryTheReference) {
  const fs::path dir = fs::temp_directory_path() / "wavebench_reference_gauges";
  fs::remove_all(dir);
  const std::string command = std::string("'") + WAVEBENCH_CLI +
                              "' run --scenario builtin:thacker --duration 0.5 --out '" +
                              dir.string() + "' --models swe-semi-lagrangian --quiet";
  ASSERT_EQ(std::system(command.c_str()), 0);
  const Scenario s = loadScenario("builtin:thacker");
  const Domain domain = buildDomain(s);
  const Reference reference(*s.reference, domain);
  const auto rows = [&](const std::string& file) {
    std::ifstream in(dir / file);
    std::string line;
    std::getline(in, line);
    std::vector<std::vector<std::string>> table;
    while (std::getline(in, line)) {
      std::vector<std::string> columns;
      std::stringstream split(line);
      for (std::string c; std::getline(split, c, ',');)
        columns.push_back(c);
      if (line.back() == ',') columns.push_back("");
      table.push_back(columns);
    }
    return table;
  };
  int gaugeRows = 0;
  for (const auto& c : rows("gauges.csv")) {  // time,gauge,model,eta,depth,u,v,ref_eta,ref_depth
    ASSERT_EQ(c.size(), 9u);
    const GaugeSpec& gauge = s.gauges[c[1] == "centre" ? 0 : 1];
    const PointSample exact = sampleReference(reference, domain, gauge.x, gauge.y, std::stod(c[0]));
    EXPECT_NEAR(std::stod(c[7]), reference.eta(gauge.x, gauge.y, std::stod(c[0])), 1e-9);
    EXPECT_NEAR(std::stod(c[8]), exact.depth, 1e-9);
    ++gaugeRows;
  }
  EXPECT_GT(gaugeRows, 2 * 30);  // two gauges, every step of 0.5 s
  int transectRows = 0;
  for (const auto& c : rows("transects.csv")) {  // time,transect,s,x,y,model,eta,depth,ref_eta
    ASSERT_EQ(c.size(), 9u);
    const double x = std::stod(c[3]), y = std::stod(c[4]), t = std::stod(c[0]);
    EXPECT_NEAR(std::stod(c[8]), reference.eta(x, y, t), 1e-9);
    ++transectRows;
  }
  EXPECT_EQ(transectRows, 61 * 11);  // 61 points at frames 0, 0.05, ..., 0.5 s
  fs::remove_all(dir);
}

// The linear reference is fft-ocean's field (the same exact rotation of the basin's modes, in
// double): on a walled flat basin with an initial drop and two later drops its error_max
// against fft-ocean stays at float round-off at every frame, at two output cadences.
TEST(ScenarioReference, LinearEqualsFftOceansFieldWithDropsAtTheirTimes) {
  const auto scenario = [](double frameDt) {
    std::ostringstream text;
    text << R"({"grid": {"nx": 64, "ny": 48, "dx": 0.1}, "water": {"depth": 0.5},
      "initial": {"drops": [{"x": 2.0, "y": 2.0, "radius": 0.3, "amplitude": 0.01}]},
      "excitations": [
        {"type": "drop", "time": 0.5, "x": 4.5, "y": 1.2, "radius": 0.25, "amplitude": -0.008},
        {"type": "drop", "time": 1.25, "x": 1.0, "y": 3.5, "radius": 0.2, "amplitude": 0.006}],
      "reference": {"kind": "linear"}, "duration": 2.0, "frame_dt": )"
         << frameDt << "}";
    return parseScenarioText(text.str(), "s.json", {});
  };
  for (const double frameDt : {0.25, 0.05}) {
    const Scenario s = scenario(frameDt);
    Comparison run(s, createScenarioModels(s, {"fft-ocean"}, {}, false));
    int frames = 0;
    while (run.time() < 2.0 - 1e-9) {
      run.advanceFrame();
      const FrameRecord r = run.record(0);
      ASSERT_TRUE(r.errorMax);
      EXPECT_LT(*r.errorMax, 5e-9) << "t = " << r.time << ", frame_dt " << frameDt;
      EXPECT_GT(r.maxAbsEta, 1e-3);  // a surface to compare, not two flat ones
      ++frames;
    }
    EXPECT_EQ(frames, int(std::lround(2.0 / frameDt)));
  }
}

// gauges.csv's reference of the linear solution is taken at every step's own time: fft-ocean,
// which computes the same field, matches it at every row, before and after the drop at 2 s.
TEST(ScenarioReference, LinearReferenceAtEveryGaugeSample) {
  const fs::path dir = fs::temp_directory_path() / "wavebench_linear_gauges";
  fs::remove_all(dir);
  const std::string command = std::string("'") + WAVEBENCH_CLI +
                              "' run --scenario builtin:linear-drops --duration 2.5 --out '" +
                              dir.string() + "' --models fft-ocean --quiet";
  ASSERT_EQ(std::system(command.c_str()), 0);
  std::ifstream in(dir / "gauges.csv");
  std::string line;
  std::getline(in, line);
  int rows = 0;
  double largest = 0.0;
  while (std::getline(in, line)) {  // time,gauge,model,eta,depth,u,v,ref_eta,ref_depth
    std::vector<std::string> c;
    std::stringstream split(line);
    for (std::string field; std::getline(split, field, ',');)
      c.push_back(field);
    ASSERT_EQ(c.size(), 9u) << line;
    EXPECT_NEAR(std::stod(c[3]), std::stod(c[7]), 5e-9) << line;
    largest = std::max(largest, std::fabs(std::stod(c[7])));
    ++rows;
  }
  EXPECT_GT(rows, 150);      // every step of 2.5 s
  EXPECT_GT(largest, 1e-4);  // the waves reached the gauge
  fs::remove_all(dir);
}

// One mode of the walled basin, cos(kx x) cos(ky y) on the cell centres, oscillates as
// cos(omega t), omega = sqrt(g d) k with the shallow-water dispersion and sqrt(g k tanh(k d))
// with the finite depth; a drop added at te acts from te on, and forgetting the changes before
// a time keeps every later answer.
TEST(LinearReference, ModesOscillateAtTheirFrequenciesAndDropsActFromTheirTime) {
  const int nx = 32, ny = 16;
  const double dx = 0.25, g = 9.81, depth = 2.0, pi = std::numbers::pi;
  Field2D mode(nx, ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      mode(i, j) = float(0.01 * std::cos(3 * pi * (i + 0.5) / nx) * std::cos(pi * (j + 0.5) / ny));
  const double k = std::hypot(3 * pi / (nx * dx), pi / (ny * dx));
  for (const auto dispersion :
       {LinearReference::Dispersion::ShallowWater, LinearReference::Dispersion::FiniteDepth}) {
    LinearReference linear(nx, ny, dx, g, depth, dispersion, mode);
    const double omega = dispersion == LinearReference::Dispersion::ShallowWater
                             ? std::sqrt(g * depth) * k
                             : std::sqrt(g * k * std::tanh(k * depth));
    EXPECT_NEAR(linear.omega(3, 1), omega, 1e-12 * omega);
    for (const double t : {0.3, 7.9, 3600.0}) {
      const auto surface = linear.surface(t);
      for (const auto& [i, j] : {std::pair{0, 0}, {7, 3}, {31, 15}})
        EXPECT_NEAR((*surface)(i, j), mode(i, j) * std::cos(omega * t), 2e-8);
    }
    Field2D drop(nx, ny);
    drop(5, 5) = 0.02f;
    linear.add(drop, 2.0);
    EXPECT_NEAR((*linear.surface(1.99))(5, 5), mode(5, 5) * std::cos(omega * 1.99), 2e-8);
    EXPECT_NEAR((*linear.surface(2.0))(5, 5), mode(5, 5) * std::cos(omega * 2.0) + 0.02, 2e-8);
    const float later = (*linear.surface(2.5))(5, 5);
    linear.forgetBefore(2.2);
    EXPECT_EQ((*linear.surface(2.5))(5, 5), later);
  }
}

// series.csv's error columns against an independent computation from the dumped surfaces:
// Ritter's depth (DamBreak) at every cell centre, relative L1 and L2 over the cells wet in
// either, max |eta - eta_ref|, and the front as the last cell deeper than 1 mm.
TEST(ScenarioReference, SeriesErrorsEqualTheDumpsAgainstRitter) {
  const fs::path dir = fs::temp_directory_path() / "wavebench_reference_cli";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "ritter.json") << kRitter;
  const std::string command = std::string("'") + WAVEBENCH_CLI + "' run --scenario '" +
                              (dir / "ritter.json").string() + "' --out '" +
                              (dir / "out").string() +
                              "' --models swe-semi-lagrangian,swe-adi --dump-every 5 --quiet";
  ASSERT_EQ(std::system(command.c_str()), 0);
  std::ifstream series(dir / "out" / "series.csv");
  std::string line;
  std::getline(series, line);
  const auto header = [&] {
    std::vector<std::string> names;
    std::stringstream split(line);
    for (std::string c; std::getline(split, c, ',');)
      names.push_back(c);
    return names;
  }();
  const auto column = [&](const std::string& name) {
    const auto at = std::find(header.begin(), header.end(), name);
    EXPECT_NE(at, header.end()) << name;
    return std::size_t(at - header.begin());
  };
  const std::size_t l1Column = column("error_l1"), l2Column = column("error_l2"),
                    maxColumn = column("error_max"), frontColumn = column("front_x");
  const DamBreak ritter(9.81, 1.0, 0.0, 6.0);
  int checked = 0;
  while (std::getline(series, line)) {
    std::vector<std::string> columns;
    std::stringstream split(line);
    for (std::string c; std::getline(split, c, ',');)
      columns.push_back(c);
    const int frame = std::stoi(columns[0]);
    if (frame % 5 != 0 || frame == 0) continue;
    const double t = std::stod(columns[1]);
    char name[32];
    std::snprintf(name, sizeof name, "eta_%05d.csv", frame);
    const Field2D eta = readCsvField(dir / "out" / columns[2] / name);
    double l1 = 0, n1 = 0, l2 = 0, n2 = 0, worst = 0, front = 0;
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 200; ++i) {
        const double x = (i + 0.5) * 0.1, d = std::max(0.0, eta(i, j) + 1.0);
        const double exact = ritter.depth(x, t);
        if (d <= 0.0 && exact <= 0.0) continue;
        l1 += std::fabs(d - exact), n1 += exact;
        l2 += (d - exact) * (d - exact), n2 += exact * exact;
        worst = std::max(worst, std::fabs(eta(i, j) - (exact - 1.0)));
        if (d > 1e-3) front = std::max(front, x + 0.05);
      }
    SCOPED_TRACE(columns[2] + " frame " + columns[0]);
    ASSERT_GT(columns.size(), frontColumn);
    EXPECT_NEAR(std::stod(columns[l1Column]), l1 / n1, 1e-6);
    EXPECT_NEAR(std::stod(columns[l2Column]), std::sqrt(l2 / n2), 1e-6);
    EXPECT_NEAR(std::stod(columns[maxColumn]), worst, 1e-6);
    EXPECT_NEAR(std::stod(columns[frontColumn]), front, 1e-9);
    ++checked;
  }
  EXPECT_EQ(checked, 2 * 2);  // frames 5 and 10 of both models
  fs::remove_all(dir);
}

}  // namespace
}  // namespace wb
