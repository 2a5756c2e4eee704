// Open (absorbing) edges: the scenario key domain.edges, the layer of every model (a plane pulse
// leaves less than 0.1 % of its energy behind, against the same run with walls), and the volume
// budget's sink (drift stays the model's own error).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/grid/edges.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"
#include "models/verification/verification.hpp"
#include "tests/unit/test_support.hpp"

namespace wb {
namespace {
namespace fs = std::filesystem;

Scenario parse(const std::string& domain, int nx = 96, int ny = 80) {
  const std::string text = R"({"grid": {"nx": )" + std::to_string(nx) + R"(, "ny": )" +
                           std::to_string(ny) + R"(}, "domain": )" + domain + "}";
  return parseScenarioText(text, "s.json", ".");
}

TEST(OpenEdgesScenario, MissingKeyMeansWallsAndStringsSetEverySide) {
  EXPECT_FALSE(parse(R"({"mask": "rect"})").edges.anyOpen());
  EXPECT_EQ(parse(R"({"edges": "wall"})").edges, Edges::all(EdgeKind::Wall));
  EXPECT_EQ(parse(R"({"edges": "open"})").edges, Edges::all(EdgeKind::Open));
  const Edges some = parse(R"({"edges": {"east": "open", "north": "open", "west": "wall"}})").edges;
  EXPECT_FALSE(some.isOpen(Side::West));
  EXPECT_TRUE(some.isOpen(Side::East));
  EXPECT_FALSE(some.isOpen(Side::South));
  EXPECT_TRUE(some.isOpen(Side::North));
  EXPECT_EQ(some.layerCells, Edges::kDefaultLayerCells);
  EXPECT_EQ(parse(R"({"edges": {"south": "open", "layer_cells": 10}})").edges.layerCells, 10);
}

TEST(OpenEdgesScenario, BadInputNamesTheKey) {
  EXPECT_EQ(errorOf([] { parse(R"({"edges": "porous"})"); }),
            "s.json: domain.edges: unknown edge kind 'porous' (expected \"wall\" or \"open\")");
  EXPECT_EQ(errorOf([] { parse(R"({"edges": {"up": "open"}})"); }),
            "s.json: domain.edges.up: unknown key");
  EXPECT_EQ(errorOf([] { parse(R"({"edges": {"west": "gap"}})"); }),
            "s.json: domain.edges.west: unknown edge kind 'gap' (expected \"wall\" or \"open\")");
  EXPECT_EQ(errorOf([] { parse(R"({"edges": {"west": 1}})"); }),
            "s.json: domain.edges.west: must be a string");
  EXPECT_EQ(errorOf([] { parse(R"({"edges": 3})"); }),
            "s.json: domain.edges: must be \"wall\", \"open\" or an object of sides");
  // A 4-cell-wide grid cannot hold a layer; 48 cells hold one of 24 but not two.
  EXPECT_EQ(errorOf([] { parse(R"({"edges": "open"})", 4, 80); }),
            "s.json: domain.edges: open west edge needs at least 72 cells in x (2 absorbing "
            "layer(s) of 24 and as much water), the grid has 4");
  EXPECT_EQ(errorOf([] { parse(R"({"edges": {"north": "open"}})", 96, 47); }),
            "s.json: domain.edges: open north edge needs at least 48 cells in y (1 absorbing "
            "layer(s) of 24 and as much water), the grid has 47");
  EXPECT_EQ(errorOf([] { parse(R"({"edges": {"north": "open"}})", 96, 48); }), "no error");
}

TEST(OpenEdgesScenario, RoundTripsThroughTheWriterAndWallsWriteNothingNew) {
  const Scenario open = parse(R"({"edges": {"east": "open", "layer_cells": 16}})");
  const nlohmann::json written = scenarioToJson(open);
  EXPECT_EQ(written["domain"]["edges"]["east"], "open");
  EXPECT_EQ(parseScenario(written, "again.json", ".").edges, open.edges);
  EXPECT_FALSE(scenarioToJson(parse(R"({"mask": "rect"})"))["domain"].contains("edges"));
  EXPECT_EQ(buildDomain(open).edges(), open.edges);
}

TEST(OpenEdgesLayer, ProfileRisesFromZeroToTheEdgeOnOpenSidesOnly) {
  Domain domain(Grid{96, 64, 0.5}, 9.81, 2.0);
  Edges edges;
  edges.set(Side::East, EdgeKind::Open);
  domain.setEdges(edges);
  const double c = std::sqrt(9.81 * 2.0);
  const AbsorbingLayer layer(domain, c);
  const int width = edges.layerCells, p = AbsorbingLayer::kProfilePower;
  // sigma_max from the echo: exp(-2 integral(sigma) / c) = kLayerEcho.
  EXPECT_NEAR(layer.sigmaMax() * width * 0.5 / (p + 1),
              0.5 * c * std::log(1.0 / AbsorbingLayer::kLayerEcho), 1e-9);
  double previous = 0.0;
  for (const auto& cell : layer.cells()) {
    const int i = int(cell.index % 96), j = int(cell.index / 96);
    EXPECT_EQ(cell.sigmaY, 0.0f);
    ASSERT_GE(i, 96 - width);
    const double xi = (i + 0.5 - (96 - width)) / width;
    EXPECT_NEAR(cell.sigmaX, layer.sigmaMax() * std::pow(xi, p), 1e-5 * layer.sigmaMax());
    if (j != 10) continue;
    if (i > 96 - width) {
      EXPECT_GT(cell.sigmaX, previous);
    }
    previous = cell.sigmaX;
  }
  EXPECT_EQ(layer.cells().size(), std::size_t(64 * width));
  EXPECT_TRUE(AbsorbingLayer(Domain(Grid{96, 64, 0.5}, 9.81, 2.0), c).empty());
}

// The issue's target, per model: a plane pulse at normal incidence leaves less than 0.1 % of
// its energy (against walls), and the water it carried out is the sink, not drift.
// advected-wave runs inviscid here: with its default nu = 0.2 1/s the pulse's long waves
// are overdamped (nu > 2 c k) and spread by diffusion instead of travelling to the edges
// (docs/open-edges.md).
struct ModelCase {
  std::string id;
  std::map<std::string, std::string> params;
  // Oblique angles (degrees) and their bounds on the energy left.
  std::vector<std::pair<double, double>> oblique = {{30.0, 1e-2}, {60.0, 5e-2}};
};

void PrintTo(const ModelCase& c, std::ostream* out) {
  *out << c.id;
  for (const auto& [key, value] : c.params)
    *out << " " << key << "=" << value;
}

// A test name for a case: its id and parameters, other characters as underscores.
std::string modelCaseName(const ::testing::TestParamInfo<ModelCase>& info) {
  std::string name = info.param.id;
  for (const auto& [key, value] : info.param.params)
    name += "_" + key + value;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

class OpenEdgesModel : public ::testing::TestWithParam<ModelCase> {};

TEST_P(OpenEdgesModel, PlanePulseLeavesLessThanAThousandthOfItsEnergy) {
  const auto r = measureOpenEdgeReflection(GetParam().id, 0.0, GetParam().params);
  EXPECT_LT(r.energyLeft(), kOpenEdgeEnergyLeft) << r.energyOpen << " / " << r.energyWall;
  // The pulse's water left through the layers: the volume is the model's drift away from
  // volume0 + sink, and almost all of it went out.
  EXPECT_LT(std::fabs(r.drift()), 1e-4 * r.volume0) << r.drift();
  EXPECT_LT(r.sink, -0.95 * r.volume0);
  EXPECT_LT(std::fabs(r.volume), 0.05 * r.volume0);
}

TEST_P(OpenEdgesModel, ObliquePulsesAreAbsorbedToo) {
  // Measured (docs/open-edges.md): 30 deg 3.5e-3 to 3.8e-3 for the wave models, 1.6e-4 for
  // swe-semi-lagrangian; 60 deg 1.6e-2 to 1.9e-2 and 2.5e-7. A layer switched off leaves 1.
  for (const auto& [angle, bound] : GetParam().oblique) {
    const auto r = measureOpenEdgeReflection(GetParam().id, angle, GetParam().params);
    EXPECT_LT(r.energyLeft(), bound) << angle << " deg";
    EXPECT_LT(std::fabs(r.drift()), 1e-4 * r.volume0) << angle << " deg";
  }
}

INSTANTIATE_TEST_SUITE_P(EveryModel, OpenEdgesModel,
                         ::testing::Values(ModelCase{"damped-wave", {}},
                                           ModelCase{"damped-wave", {{"neighbours", "4"}}},
                                           ModelCase{"advected-wave", {{"nu", "0"}}},
                                           ModelCase{"swe-semi-lagrangian", {}},
                                           // 60 deg leaves 6.5e-2, above the bound, with the
                                           // energy still in the water, not in or from the
                                           // layer (docs/open-edges.md): not asserted.
                                           ModelCase{"swe-adi", {}, {{30.0, 1e-2}}}),
                         modelCaseName);

// Against free space (the same pulse on a channel too long for anything to come back) the
// measure counts only what the edges send back. Where a model keeps nothing in the water by
// itself it must agree with the wall ratio (damped-wave: 6.84e-5 against 6.91e-5); advected-wave
// at its default viscosity keeps its overdamped long waves diffusing in the channel (the wall
// ratio is 0.55 there), and its edges send back 4.1e-6 at 0 deg, 4.6e-6 at 30, 4.9e-6 at 60.
TEST(OpenEdgesAgainstFreeSpace, AgreesWithTheWallRatioWhereTheModelKeepsNothing) {
  const auto r =
      measureOpenEdgeReflection("damped-wave", 0.0, {}, PulseReference::WallsAndFreeSpace);
  EXPECT_NEAR(r.reflected, r.energyLeft(), 0.05 * r.energyLeft());
}

TEST(OpenEdgesAgainstFreeSpace, AdvectedWaveAtItsDefaultViscositySendsBackLittle) {
  for (const auto& [angle, bound] :
       {std::pair{0.0, kOpenEdgeEnergyLeft}, {30.0, 1e-2}, {60.0, 5e-2}}) {
    const auto r =
        measureOpenEdgeReflection("advected-wave", angle, {}, PulseReference::WallsAndFreeSpace);
    EXPECT_GE(r.reflected, 0.0) << angle << " deg";
    EXPECT_LT(r.reflected, bound) << angle << " deg";
    EXPECT_LT(std::fabs(r.drift()), 1e-4 * r.volume0) << angle << " deg";
  }
}

// Thin layers lower the explicit models' stable step (WavePml::stableCourant): at the automatic
// dt, a drop's rings in a pool open on all four sides stay bounded for every layer width, and a
// user dt above the layer's bound (but inside the interior one) is refused naming the layer.
// Before the layer's bound entered maxStableDt, the automatic dt grew without bound within 15 s
// for layers of 1 to 4 cells (8-neighbour damped-wave also at 16 cells with a user dt of 0.86
// dx / c, inside its interior bound dx / c).
class ExplicitOpenEdgesModel : public ::testing::TestWithParam<ModelCase> {};

TEST_P(ExplicitOpenEdgesModel, AutomaticStepIsStableForEveryLayerWidth) {
  for (int width : {1, 2, 3, 4, 6, 8, 16, 32}) {
    SCOPED_TRACE(width);
    Domain domain(Grid{96, 96, 1.0}, 9.81, 1.0);
    domain.setEdges([&] {
      Edges edges = Edges::all(EdgeKind::Open);
      edges.layerCells = width;
      return edges;
    }());
    Field2D eta0(96, 96);
    stampGaussian(eta0, domain,
                  SurfaceEvent{.x = 48.0, .y = 48.0, .radius = 3.0, .amplitude = 1e-3});
    stampGaussian(eta0, domain,
                  SurfaceEvent{.x = 20.0, .y = 70.0, .radius = 2.0, .amplitude = 1e-3});
    auto model = createModel(GetParam().id, "test");
    for (const auto& [name, value] : GetParam().params)
      model->params().setFromText(name, value, "test");
    model->reset(domain, eta0);
    const double c = std::sqrt(9.81), dt = model->preferredDt();
    EXPECT_LE(c * dt, WavePml::stableCourant(width) * 0.9 + 1e-12);
    const int steps = int(600.0 / dt);
    float highest = 0.0f;
    for (int k = 0; k < steps; ++k) {
      model->step(dt);
      if (k % 50 == 49) highest = std::max(highest, summarizeSurface(model->eta(), domain).maxAbs);
    }
    EXPECT_LT(highest, 1e-3f) << "grew at the automatic dt " << dt << " s";
    // A user dt between the layer's bound and the interior bound is refused, naming the layer.
    const double between = 1.02 * model->maxStableDt();
    model->params().set("dt", between, "test");
    try {
      model->reset(domain, eta0);
      ADD_FAILURE() << "dt " << between << " s accepted";
    } catch (const InputError& e) {
      EXPECT_NE(
          std::string(e.what()).find("absorbing layer of " + std::to_string(width) + " cells"),
          std::string::npos)
          << e.what();
    }
  }
}

// The explicit models (the shallow-water ones step implicitly and relax in their layer).
INSTANTIATE_TEST_SUITE_P(WaveModels, ExplicitOpenEdgesModel,
                         ::testing::Values(ModelCase{"damped-wave", {}},
                                           ModelCase{"damped-wave", {{"neighbours", "4"}}},
                                           ModelCase{"advected-wave", {}}),
                         modelCaseName);

// A model without a layer is refused by name, not run with walls behind the user's back.
class WallsOnly final : public Model {
 public:
  WallsOnly() : Model({}) {}
  std::string id() const override { return "walls-only"; }
  std::string title() const override { return "walls only"; }
  void reset(const Domain& domain, const Field2D& eta0) override { (void)domain, eta_ = eta0; }
  double maxStableDt() const override { return 1.0; }
  double preferredDt() const override { return 1.0; }
  void step(double) override {}
  const Field2D& eta() const override { return eta_; }
  double addEta(const Field2D&) override { return 0.0; }
  double changeMask(const Domain&, const std::vector<std::uint32_t>&) override { return 0.0; }
  void dampUnderBodies(const Field2D&, double) override {}
  double kineticEnergy() const override { return 0.0; }

 private:
  Field2D eta_;
};

TEST(OpenEdgesComparison, ModelWithoutALayerIsRefusedNamingIt) {
  std::vector<std::unique_ptr<Model>> models;
  models.push_back(std::make_unique<WallsOnly>());
  const Scenario s = parse(R"({"edges": {"west": "open"}})");
  EXPECT_EQ(errorOf([&] { Comparison(s, std::move(models)); }),
            "s.json: domain.edges: walls-only has no absorbing layer for open edges yet; use "
            "walls for it");
}

// Through the command line: series.csv carries the sink, and volume = volume(0) + sources +
// sink + drift with a drift at round-off while a drop's rings leave through the open sides.
TEST(OpenEdgesCli, SeriesCarriesTheSinkAndDriftStaysSmall) {
  const fs::path dir = fs::temp_directory_path() / ("wb_open_edges_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "open.json") << R"({"grid": {"nx": 80, "ny": 80, "dx": 1},
    "water": {"depth": 1}, "domain": {"edges": "open", "mask": "rect"},
    "initial": {"drops": [{"x": 40, "y": 40, "radius": 3, "amplitude": 0.01}]},
    "frame_dt": 0.5, "duration": 40})";
  const std::string command = "cd '" + dir.string() + "' && '" WAVEBENCH_CLI "' run --scenario " +
                              "open.json --models damped-wave,advected-wave,swe-semi-lagrangian " +
                              "--out out > cli.out 2> cli.err";
  ASSERT_EQ(std::system(command.c_str()), 0);
  std::ifstream in(dir / "out" / "series.csv");
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::stringstream columns(line);
  for (std::string name; std::getline(columns, name, ',');)
    header.push_back(name);
  const auto column = [&](const std::string& name) {
    return std::size_t(std::find(header.begin(), header.end(), name) - header.begin());
  };
  ASSERT_LT(column("volume_sink"), header.size());
  std::map<std::string, std::vector<std::string>> first, last;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');)
      cells.push_back(cell);
    const std::string model = cells[column("model")];
    if (!first.count(model)) first[model] = cells;
    last[model] = cells;
  }
  ASSERT_EQ(last.size(), 3u);
  for (const auto& [model, cells] : last) {
    const double volume0 = std::stod(first[model][column("volume")]);
    const double sink = std::stod(cells[column("volume_sink")]);
    const double drift = std::stod(cells[column("volume_drift")]);
    const double volume = std::stod(cells[column("volume")]);
    EXPECT_GT(volume0, 0.0);
    EXPECT_LT(sink, -0.05 * volume0) << model;  // water has left
    EXPECT_LT(std::fabs(drift), 1e-3 * volume0) << model;
    EXPECT_NEAR(volume, volume0 + sink + drift, 1e-6 * volume0) << model;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace wb
