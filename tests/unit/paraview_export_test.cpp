// The ParaView series (app/export/paraview_series.hpp) read back with VTK's own XML readers:
// the arrays carry the models' values bit for bit, velocity is a 3-component point vector
// where the model has one, bodies are points of a .vtp, and the .pvd timesteps are simulated
// seconds. An unwritable folder is a one-line error that leaves nothing behind.
#include <gtest/gtest.h>

#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkXMLImageDataReader.h>
#include <vtkXMLPolyDataReader.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/export/paraview_series.hpp"
#include "core/run/comparison.hpp"
#include "models/registry.hpp"
#include "test_support.hpp"

namespace wb {
namespace {
namespace fs = std::filesystem;

// frame_dt 0.05 s: the timesteps of frames 0, 2, 4 are 0, 0.1, 0.2, never the frame indices.
constexpr const char* kScenario = R"({
  "grid": {"nx": 24, "ny": 20, "dx": 0.5},
  "water": {"depth": 1.0},
  "initial": {"drops": [{"x": 5, "y": 4, "radius": 1.0, "amplitude": 0.05}]},
  "excitations": [{"type": "wind", "direction": 30, "strength": 0.4}],
  "bodies": {"count": 7, "size": 0.5},
  "frame_dt": 0.05
})";

class ParaViewExport : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("wavebench-paraview-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static Comparison makeComparison() {
    const Scenario scenario = parseScenarioText(kScenario, "test.json", {});
    return Comparison(scenario,
                      createScenarioModels(scenario, {"advected-wave", "damped-wave"}, {}, false));
  }

  fs::path dir_;
};

std::vector<double> pvdTimesteps(const fs::path& file, std::vector<std::string>* files = nullptr) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  const std::string content = text.str();
  // Each entry is `timestep="T" part="0" file="F"` (ParaViewSeries writes them in this order).
  // Read by plain search: <regex> makes GCC 12 warn inside its own headers.
  const std::string timeKey = "timestep=\"", fileKey = "\" part=\"0\" file=\"";
  std::vector<double> times;
  for (auto at = content.find(timeKey); at != std::string::npos; at = content.find(timeKey, at)) {
    at += timeKey.size();
    const auto timeEnd = content.find(fileKey, at);
    if (timeEnd == std::string::npos) break;
    times.push_back(std::stod(content.substr(at, timeEnd - at)));
    at = timeEnd + fileKey.size();
    if (files) files->push_back(content.substr(at, content.find('"', at) - at));
  }
  return times;
}

void expectArrayEquals(vtkDataArray* array, const Field2D& field, int component = 0) {
  ASSERT_NE(array, nullptr);
  ASSERT_EQ(array->GetNumberOfTuples(), vtkIdType(field.size()));
  for (std::size_t k = 0; k < field.size(); ++k)
    ASSERT_EQ(float(array->GetComponent(vtkIdType(k), component)), field.data()[k])
        << "point " << k;
}

TEST_F(ParaViewExport, ImagesCarryEtaDepthAndVelocityAsPointVectors) {
  Comparison comparison = makeComparison();
  ParaViewSeries series(dir_, comparison);
  for (int f = 0; f < 4; ++f)
    comparison.advanceFrame();  // waves and wind-driven flow
  series.frame(comparison);
  series.finish();

  for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
    const Model& model = comparison.model(k);
    vtkNew<vtkXMLImageDataReader> reader;
    const fs::path file = dir_ / model.id() / "eta_00004.vti";
    reader->SetFileName(file.c_str());
    reader->Update();
    vtkImageData* image = reader->GetOutput();
    int dims[3];
    image->GetDimensions(dims);
    EXPECT_EQ(dims[0], 24);
    EXPECT_EQ(dims[1], 20);
    EXPECT_EQ(dims[2], 1);
    EXPECT_DOUBLE_EQ(image->GetSpacing()[0], 0.5);
    EXPECT_DOUBLE_EQ(image->GetOrigin()[0], 0.25);  // cell centres
    vtkPointData* points = image->GetPointData();
    ASSERT_GT(model.eta().maxAbs(), 1e-4f) << model.id() << ": the frame must not be flat";
    expectArrayEquals(points->GetArray("eta"), model.eta());
    expectArrayEquals(points->GetArray("rest_depth"), comparison.domain().restDepth());
    ASSERT_NE(points->GetArray("wet"), nullptr);
    EXPECT_STREQ(points->GetScalars()->GetName(), "eta");
    vtkDataArray* velocity = points->GetArray("velocity");
    if (!model.velocityU()) {
      EXPECT_EQ(velocity, nullptr) << model.id() << " has no velocity to export";
      continue;
    }
    ASSERT_NE(velocity, nullptr) << model.id();
    ASSERT_EQ(velocity->GetNumberOfComponents(), 3);
    ASSERT_EQ(points->GetVectors(), velocity) << "velocity must be the active vectors";
    ASSERT_GT(model.velocityU()->maxAbs(), 1e-5f) << "the wind must have moved the water";
    expectArrayEquals(velocity, *model.velocityU(), 0);
    expectArrayEquals(velocity, *model.velocityV(), 1);
    for (vtkIdType p = 0; p < velocity->GetNumberOfTuples(); ++p)
      ASSERT_EQ(velocity->GetComponent(p, 2), 0.0);
  }
}

TEST_F(ParaViewExport, BodiesArePointsOfAPolyDataPerFrame) {
  Comparison comparison = makeComparison();
  ParaViewSeries series(dir_, comparison);
  for (int f = 0; f < 3; ++f)
    comparison.advanceFrame();
  series.frame(comparison);
  series.finish();
  for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
    const auto& bodies = comparison.bodies(k)->bodies();
    vtkNew<vtkXMLPolyDataReader> reader;
    const fs::path file = dir_ / comparison.model(k).id() / "bodies_00003.vtp";
    reader->SetFileName(file.c_str());
    reader->Update();
    vtkPolyData* poly = reader->GetOutput();
    ASSERT_EQ(poly->GetNumberOfPoints(), vtkIdType(bodies.size()));
    EXPECT_EQ(poly->GetNumberOfVerts(), vtkIdType(bodies.size()));
    vtkDataArray* velocity = poly->GetPointData()->GetArray("velocity");
    ASSERT_NE(velocity, nullptr);
    ASSERT_EQ(velocity->GetNumberOfComponents(), 3);
    for (std::size_t b = 0; b < bodies.size(); ++b) {
      double p[3];
      poly->GetPoint(vtkIdType(b), p);
      EXPECT_EQ(p[0], float(bodies[b].x));  // VTK stores points as float
      EXPECT_EQ(p[1], float(bodies[b].y));
      EXPECT_EQ(p[2], float(bodies[b].z));
      EXPECT_EQ(velocity->GetComponent(vtkIdType(b), 0), float(bodies[b].vx));
      EXPECT_EQ(velocity->GetComponent(vtkIdType(b), 1), float(bodies[b].vy));
    }
  }
}

// Rigid bodies go out as their meshes in the world: a box turned a quarter about z has its
// extents in x and y swapped around its centre, each triangle carries its body's arrays.
TEST_F(ParaViewExport, RigidBodiesAreOrientedMeshes) {
  const BodyMesh box = boxMesh(0.4, 0.2, 0.1);
  const double half = std::sqrt(0.5);
  RigidBodyFrame turned{&box, 3, {1.0, 2.0, -0.02}, {half, 0.0, 0.0, half}, {0.5, 0.0, 0.0}, 0.004};
  RigidBodyFrame level{&box, 4, {3.0, 1.0, 0.0}};
  const fs::path file = dir_ / "rigid.vtp";
  writeVtpRigidBodies(file, {turned, level});
  vtkNew<vtkXMLPolyDataReader> reader;
  reader->SetFileName(file.c_str());
  reader->Update();
  vtkPolyData* poly = reader->GetOutput();
  ASSERT_EQ(poly->GetNumberOfPoints(), 16);
  ASSERT_EQ(poly->GetNumberOfPolys(), 24);
  double first[6] = {1e9, -1e9, 1e9, -1e9, 1e9, -1e9};
  for (vtkIdType p = 0; p < 8; ++p) {
    const double* x = poly->GetPoint(p);
    for (int c = 0; c < 3; ++c) {
      first[2 * c] = std::min(first[2 * c], x[c]);
      first[2 * c + 1] = std::max(first[2 * c + 1], x[c]);
    }
  }
  constexpr double kTolerance = 1e-12;
  EXPECT_NEAR(first[0], 0.9, kTolerance);
  EXPECT_NEAR(first[1], 1.1, kTolerance);
  EXPECT_NEAR(first[2], 1.8, kTolerance);
  EXPECT_NEAR(first[3], 2.2, kTolerance);
  EXPECT_NEAR(first[4], -0.07, kTolerance);
  vtkDataArray* ids = poly->GetCellData()->GetArray("id");
  vtkDataArray* orientation = poly->GetCellData()->GetArray("orientation");
  vtkDataArray* displaced = poly->GetCellData()->GetArray("displaced_volume");
  ASSERT_TRUE(ids && orientation && displaced && poly->GetCellData()->GetArray("velocity"));
  EXPECT_EQ(ids->GetComponent(0, 0), 3);
  EXPECT_EQ(ids->GetComponent(23, 0), 4);
  EXPECT_EQ(orientation->GetNumberOfComponents(), 4);
  EXPECT_DOUBLE_EQ(orientation->GetComponent(0, 3), half);
  EXPECT_DOUBLE_EQ(displaced->GetComponent(0, 0), 0.004);
}

TEST_F(ParaViewExport, PvdTimestepsAreSimulatedSeconds) {
  Comparison comparison = makeComparison();
  ParaViewSeries series(dir_, comparison);
  for (int f = 0; f <= 4; ++f) {
    if (f % 2 == 0) series.frame(comparison);
    if (f < 4) comparison.advanceFrame();
  }
  series.finish();
  for (const char* name : {"eta.pvd", "bodies.pvd"}) {
    std::vector<std::string> files;
    const auto times = pvdTimesteps(dir_ / "damped-wave" / name, &files);
    ASSERT_EQ(times.size(), 3u) << name;
    for (std::size_t k = 0; k < times.size(); ++k) {
      EXPECT_NEAR(times[k], 0.1 * double(k), 1e-9) << name;  // frames 0, 2, 4 of 0.05 s
      EXPECT_TRUE(fs::exists(dir_ / "damped-wave" / files[k])) << files[k];
    }
  }
}

std::vector<fs::path> filesUnder(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) files.push_back(entry.path());
  return files;
}

TEST_F(ParaViewExport, UnwritableFolderIsOneLineAndLeavesNothing) {
  Comparison comparison = makeComparison();
  // A file where the folder should be: no user (root included) can create it.
  std::ofstream(dir_ / "blocker") << "not a folder";
  const std::string error =
      errorOf([&] { ParaViewSeries series(dir_ / "blocker" / "out", comparison); });
  EXPECT_NE(error.find("blocker/out"), std::string::npos) << error;
  EXPECT_NE(error.find("cannot create output folder"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  EXPECT_EQ(filesUnder(dir_), std::vector<fs::path>{dir_ / "blocker"});

  // A folder that vanishes mid-series: the writer names the file and the system's reason, and
  // leaves no temporary (the collections grow in theirs until the series ends).
  {
    ParaViewSeries series(dir_ / "out", comparison);
    fs::remove_all(dir_ / "out" / "damped-wave");
    std::ofstream(dir_ / "out" / "damped-wave") << "in the way";
    const std::string midway = errorOf([&] { series.frame(comparison); });
    EXPECT_NE(midway.find("damped-wave/eta_00000.vti: cannot write VTK image (Not a directory)"),
              std::string::npos)
        << midway;
    EXPECT_EQ(midway.find('\n'), std::string::npos) << midway;
  }
  for (const auto& file : filesUnder(dir_))
    EXPECT_NE(file.extension(), ".tmp") << file;
}

}  // namespace
}  // namespace wb
