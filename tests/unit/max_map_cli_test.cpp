// `wavebench-cli run --max-maps --out DIR` (docs/cli.md, docs/exports.md "Maximum maps"): every
// model's max_map.csv and max_map.vti hold the same values, max_maps.csv its run-up, and a
// write that fails leaves one line and no partial map.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vtkDataArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkXMLImageDataReader.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/unit/test_support.hpp"

namespace wb {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> linesOf(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

std::vector<std::string> fieldsOf(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string field; std::getline(in, field, ',');)
    fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

class MaxMapCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("wavebench-maxmap-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs the CLI through sh with `prefix` before it (ulimit ...); returns its exit code.
  int cli(const std::string& args, const std::string& prefix = "") const {
    const std::string command = "sh -c \"" + prefix + "exec '" WAVEBENCH_CLI "' " + args + "\" >'" +
                                (dir_ / "out.txt").string() + "' 2>'" +
                                (dir_ / "err.txt").string() + "'";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  fs::path dir_;
};

// builtin:thacker's bowl: swe-semi-lagrangian floods its slopes, damped-wave takes them as walls.
TEST_F(MaxMapCli, WritesTheCsvAndTheVtiWithTheSameValuesAndTheRunUp) {
  const fs::path out = dir_ / "run";
  ASSERT_EQ(cli("run --scenario builtin:thacker --models swe-semi-lagrangian,damped-wave "
                "--frames 30 --max-maps --quiet --out '" +
                out.string() + "'"),
            0)
      << linesOf(dir_ / "err.txt").size();
  for (const std::string model : {"swe-semi-lagrangian", "damped-wave"}) {
    SCOPED_TRACE(model);
    const auto rows = linesOf(out / model / "max_map.csv");
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows[0], "i,j,x,y,eta_max,depth_max,arrival_time");
    vtkNew<vtkXMLImageDataReader> reader;
    reader->SetFileName((out / model / "max_map.vti").c_str());
    reader->Update();
    vtkImageData* image = reader->GetOutput();
    int dims[3];
    image->GetDimensions(dims);
    ASSERT_EQ(dims[0], 80);
    vtkDataArray* arrays[3] = {image->GetPointData()->GetArray("eta_max"),
                               image->GetPointData()->GetArray("depth_max"),
                               image->GetPointData()->GetArray("arrival_time")};
    for (vtkDataArray* array : arrays)
      ASSERT_NE(array, nullptr);
    int empty = 0, arrived = 0;
    for (std::size_t r = 1; r < rows.size(); ++r) {
      const auto fields = fieldsOf(rows[r]);
      ASSERT_EQ(fields.size(), 7u) << rows[r];
      const vtkIdType point = std::stoi(fields[1]) * dims[0] + std::stoi(fields[0]);
      for (int a = 0; a < 3; ++a) {
        const double value = arrays[a]->GetComponent(point, 0);
        if (fields[4 + a].empty()) {  // never wet, or nothing arrived: NaN in the image
          EXPECT_TRUE(std::isnan(value)) << rows[r];
          ++empty;
        } else {
          // %.9g of a float reads back as the same float.
          EXPECT_EQ(float(std::stod(fields[4 + a])), float(value)) << rows[r];
          arrived += a == 2;
        }
      }
    }
    EXPECT_EQ(rows.size() - 1, 80u * 80u);  // every cell of the bowl is open
    EXPECT_GT(empty, 0);                    // dry ground above the shoreline
    EXPECT_GT(arrived, 0);
  }
  const auto summary = linesOf(out / "max_maps.csv");
  ASSERT_EQ(summary.size(), 3u);
  EXPECT_EQ(summary[0], "model,time,eta_max,depth_max,run_up,run_up_x,run_up_y,run_up_note");
  EXPECT_EQ(fieldsOf(summary[1]).back(), "measured");
  EXPECT_GT(std::stod(fieldsOf(summary[1])[4]), 0.0);
  EXPECT_EQ(summary[2].substr(0, 12), "damped-wave,");
  EXPECT_EQ(fieldsOf(summary[2])[4], "");  // no run-up, not 0
  EXPECT_EQ(fieldsOf(summary[2]).back(), "no_wet_dry");
}

// A file-size limit the maps exceed (series.csv fits): exit 2, one line naming the map, and no
// max_map.csv or temporary of it; the frames already written are kept.
TEST_F(MaxMapCli, AFailedWriteLeavesOneLineAndNoPartialMap) {
  const fs::path out = dir_ / "run";
  const int code =
      cli("run --scenario builtin:thacker --models swe-semi-lagrangian --frames 3 "
          "--max-maps --quiet --out '" +
              out.string() + "'",
          "trap '' XFSZ; ulimit -f 100; ");
  EXPECT_EQ(code, 2);
  const auto err = linesOf(dir_ / "err.txt");
  ASSERT_EQ(err.size(), 1u);
  EXPECT_NE(err[0].find("max_map.csv"), std::string::npos) << err[0];
  EXPECT_FALSE(fs::exists(out / "swe-semi-lagrangian" / "max_map.csv"));
  EXPECT_FALSE(fs::exists(out / "swe-semi-lagrangian" / "max_map.csv.tmp"));
  EXPECT_FALSE(fs::exists(out / "max_maps.csv"));
  EXPECT_TRUE(fs::exists(out / "series.csv"));
}

// An output folder that cannot be made: one line, nothing written.
TEST_F(MaxMapCli, AnUnwritableFolderGivesOneLineAndNothing) {
  std::ofstream(dir_ / "file") << "x";
  EXPECT_EQ(cli("run --scenario builtin:thacker --frames 3 --max-maps --quiet --out '" +
                (dir_ / "file" / "run").string() + "'"),
            2);
  EXPECT_EQ(linesOf(dir_ / "err.txt").size(), 1u);
  EXPECT_FALSE(fs::exists(dir_ / "file" / "run"));
}

// SIGTERM stops a long run between frames: the maps are written with what the run reached, and
// the interrupt line says so.
TEST_F(MaxMapCli, AnInterruptedRunWritesTheMapsReachedSoFar) {
  const fs::path out = dir_ / "run", err = dir_ / "err.txt";
  std::vector<std::string> args{
      WAVEBENCH_CLI, "run", "--scenario", "builtin:thacker", "--models", "swe-semi-lagrangian",
      "--duration",  "500", "--max-maps", "--quiet",         "--out",    out.string()};
  std::vector<char*> argv;
  for (auto& arg : args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  const std::string errName = err.string();
  const pid_t pid = fork();
  if (pid == 0) {  // only async-signal-safe calls until exec
    const int e = open(errName.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(e, STDERR_FILENO);
    execv(argv[0], argv.data());
    _exit(127);
  }
  EXPECT_TRUE(waitForFile(out / "series.csv.tmp", 4095));  // a few frames written
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  const auto lines = linesOf(err);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("the maximum maps of the run so far"), std::string::npos) << lines[0];
  const auto summary = linesOf(out / "max_maps.csv");
  ASSERT_EQ(summary.size(), 2u);
  const double reached = std::stod(fieldsOf(summary[1])[1]);
  EXPECT_GT(reached, 0.0);
  EXPECT_LT(reached, 500.0);
  EXPECT_EQ(linesOf(out / "swe-semi-lagrangian" / "max_map.csv").size(), 80u * 80u + 1);
  EXPECT_TRUE(fs::exists(out / "swe-semi-lagrangian" / "max_map.vti"));
}

TEST_F(MaxMapCli, ArrivalToleranceNeedsMaxMaps) {
  EXPECT_EQ(cli("run --scenario builtin:thacker --frames 1 --arrival-tolerance 0.01"), 2);
  const auto err = linesOf(dir_ / "err.txt");
  ASSERT_EQ(err.size(), 1u);
  EXPECT_NE(err[0].find("--arrival-tolerance: needs --max-maps"), std::string::npos);
}

}  // namespace
}  // namespace wb
