// wavebench-cli study end to end (docs/studies.md): the orders the standing mode measures,
// resuming after a run was killed while writing its result, a run that blows up beside runs
// that do not, a folder of another study, and study.csv and eoc.csv telling the same errors.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <thread>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/scenario/field_io.hpp"
#include "core/study/study_spec.hpp"

namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeText(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
}

// A CSV as rows of named fields (no quoted commas in the columns read here).
std::vector<std::map<std::string, std::string>> readCsv(const fs::path& file) {
  std::istringstream in(readText(file));
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');)
      fields.push_back(cell);
    if (header.empty()) {
      header = fields;
      continue;
    }
    std::map<std::string, std::string> row;
    for (std::size_t k = 0; k < header.size() && k < fields.size(); ++k)
      row[header[k]] = fields[k];
    rows.push_back(row);
  }
  return rows;
}

// Single quotes for the shell.
std::string shellQuoted(const std::string& text) {
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The options sbatch takes from a batch script, read as sbatch reads them (src/sbatch/opt.c):
// the lines after the first that start with #SBATCH, up to the first line that is neither
// blank nor a comment; in each, words split at white space, grouped by "..." or '...', a
// backslash escaping the next character, an unquoted # ending the line. `after` counts the
// #SBATCH lines after that first command, which sbatch never reads.
struct SbatchOptions {
  std::vector<std::string> options;
  int after = 0;
};
SbatchOptions sbatchOptions(const std::string& script) {
  SbatchOptions read;
  std::istringstream in(script);
  std::string line;
  std::getline(in, line);  // #!/bin/bash
  bool reading = true;
  while (std::getline(in, line)) {
    if (line.rfind("#SBATCH", 0) != 0) {
      const auto first = line.find_first_not_of(" \t");
      reading = reading && (first == std::string::npos || line[first] == '#');
      continue;
    }
    if (!reading) {
      ++read.after;
      continue;
    }
    std::string word;
    bool inWord = false, escape = false;
    char quote = 0;
    for (std::size_t k = 7; k < line.size(); ++k) {
      const char c = line[k];
      if (escape) {
        word += c, escape = false;
      } else if (c == '\\') {
        escape = inWord = true;
      } else if (quote) {
        if (c == quote)
          quote = 0;
        else
          word += c;
      } else if (c == '"' || c == '\'') {
        quote = c, inWord = true;
      } else if (c == '#') {
        break;
      } else if (c == ' ' || c == '\t') {
        if (inWord) read.options.push_back(word);
        word.clear(), inWord = false;
      } else {
        word += c, inWord = true;
      }
    }
    if (inWord) read.options.push_back(word);
  }
  return read;
}

class Study : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("wavebench_study_" + std::string(test->name()) + "_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs wavebench-cli with the arguments (shell words); returns its exit code.
  int cli(const std::string& args) {
    const std::string command = "'" WAVEBENCH_CLI "' " + args + " > '" + (dir_ / "out").string() +
                                "' 2> '" + (dir_ / "err").string() + "'";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string err() const { return readText(dir_ / "err"); }
  fs::path study(const std::string& name, const std::string& text) {
    writeText(dir_ / name, text);
    return dir_ / name;
  }
  fs::path dir_;
};

// The fitted order of each model's rows "fit" in eoc.csv.
std::map<std::string, double> fittedOrders(const fs::path& eoc) {
  std::map<std::string, double> orders;
  for (auto& row : readCsv(eoc))
    if (row["grid"] == "fit") orders[row["model"]] = std::stod(row["eoc"]);
  return orders;
}

// The standing mode of builtin:standing-wave, 0.1 mm high (a linear wave: at 1 cm, the
// shallow-water models' own nonlinearity, 2 % of the depth, is an error floor above 3e-7),
// with the Courant number fixed over three grids.
//   damped-wave: order 2 (2.000 measured on 64, 128, 256 cells). Its surface starts at rest as
//     the Taylor state of t = -dt, h^-1 = h^0 + (dt^2/2) c^2 L h^0 (core/model/rest_start.hpp);
//     with h^-1 = h^0 it lagged dt/2 behind the mode, an error A omega dt/2 |sin(omega t)| of
//     order 1. It keeps the increment h^n - h^{n-1} (core/grid/wave_levels.hpp); with three
//     float levels their rounding read as velocity made a floor of about 1.2e-8 on 256 cells
//     (fit 1.48).
//   swe-adi: order 2 (trapezoidal in time, centred in space, no start error).
TEST_F(Study, TheStandingModeMeasuresEachModelsOrder) {
  const fs::path file = study("s.json", R"({"scenario": "builtin:standing-wave",
    "scenario_patch": {"reference": {"amplitude": 0.0001}},
    "axes": {"models": ["damped-wave", "swe-adi"], "grid": [64, 128, 256], "dt": ["0.25x"]},
    "error": {"at": [2]}})");
  ASSERT_EQ(cli("study run '" + file.string() + "' --out '" + (dir_ / "o").string() + "' --jobs 2"),
            0)
      << err();
  const auto orders = fittedOrders(dir_ / "o" / "eoc.csv");
  EXPECT_NEAR(orders.at("damped-wave"), 2.0, 0.05);
  EXPECT_NEAR(orders.at("swe-adi"), 2.0, 0.15);

  // study.csv and eoc.csv tell the same errors: each grid's row of eoc.csv is a run's row.
  const auto runs = readCsv(dir_ / "o" / "study.csv");
  ASSERT_EQ(runs.size(), 6u);
  int matched = 0;
  for (auto& row : readCsv(dir_ / "o" / "eoc.csv")) {
    if (row["grid"] == "fit") continue;
    for (auto run : runs)
      if (run["model"] == row["model"] && run["grid"] == row["grid"] && run["dt"] == row["dt"] &&
          run["time"] == row["time"]) {
        EXPECT_EQ(run["error_l2"], row["error_l2"]) << run["run"];
        EXPECT_EQ(run["status"], "ok");
        EXPECT_GT(std::stod(run["steps"]), 0);
        EXPECT_GT(std::stod(run["peak_mb"]), 1);
        ++matched;
      }
  }
  EXPECT_EQ(matched, 6);
  // damped-wave's error is far below the lag its old start h^-1 = h^0 had, A omega (dt / 2)
  // |sin(omega t)| of a surface whose mean square of cos(pi x / Lx) cos(pi y / Ly) is 1/4,
  // relative to the depth 0.5 m (which it matched to 2 %): 25 times below it on 256 cells
  // (6.6e-9 against 1.75e-7), and it converges at order 2 between each pair of grids.
  const double omega = std::sqrt(9.81 * 0.5) * M_PI * std::hypot(1.0 / 16, 1.0 / 8);
  const double lag = 1e-4 * omega * (2.0 / 480 / 2) * std::fabs(std::sin(2 * omega)) * 0.5 / 0.5;
  for (auto run : runs)
    if (run["run"] == "damped-wave_grid256_dt0.25x") {
      EXPECT_LT(std::stod(run["error_l2"]), lag / 20);
    }
  for (auto& row : readCsv(dir_ / "o" / "eoc.csv"))
    if (row["model"] == "damped-wave" && (row["grid"] == "128" || row["grid"] == "256")) {
      EXPECT_NEAR(std::stod(row["eoc"]), 2.0, 0.05) << row["grid"];
    }
  // The steps halve exactly with the cells: 2 s in 120, 240 and 480 steps.
  EXPECT_EQ(runs[0].at("steps"), "120");
  EXPECT_EQ(runs[2].at("steps"), "480");
}

// Without a reference, the errors are taken against the finest run of each group: a drop
// (radius 1.5 m) in the basin, swe-adi on 32, 64 and 128 cells, second order against 128.
TEST_F(Study, WithoutAReferenceTheFinestRunIsTheReference) {
  const fs::path file = study("s.json", R"({"scenario": "builtin:standing-wave",
    "scenario_patch": {"reference": null,
                       "initial": {"drops": [{"x": 8, "y": 4, "radius": 1.5, "amplitude": 1e-4}]}},
    "axes": {"models": ["swe-adi"], "grid": [32, 64, 128], "dt": ["0.25x"]},
    "error": {"at": [1]}})");
  ASSERT_EQ(cli("study run '" + file.string() + "' --out '" + (dir_ / "o").string() + "'"), 0)
      << err();
  EXPECT_NEAR(fittedOrders(dir_ / "o" / "eoc.csv").at("swe-adi"), 2.0, 0.25);
  const auto runs = readCsv(dir_ / "o" / "study.csv");
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].at("error_against"), "grid 128 (the finest run)");
  EXPECT_LT(std::stod(runs[0].at("error_l2")), 1e-5);
  EXPECT_GT(std::stod(runs[0].at("error_l2")), std::stod(runs[1].at("error_l2")));
  EXPECT_EQ(runs[2].at("error_l2"), "nan");  // the finest run is the reference
}

// Gauges that carry a record give each run a column gauge_rms.NAME: the RMS of the run's
// gauge series against the record, the number `run` writes in gauge_summary.csv for the same
// model on the same grid and steps (builtin:shoal: four gauges against swe-adi on 512 cells).
TEST_F(Study, GaugeRecordsGiveEachRunTheGaugeErrorsRunGives) {
  const fs::path file = study("s.json", R"({"scenario": "builtin:shoal",
    "axes": {"models": ["damped-wave"], "grid": [64, 128]}, "error": {"at": [12]}})");
  ASSERT_EQ(cli("study run '" + file.string() + "' --out '" + (dir_ / "o").string() + "'"), 0)
      << err();
  ASSERT_EQ(cli("run --scenario builtin:shoal --models damped-wave --out '" +
                (dir_ / "r").string() + "'"),
            0)
      << err();
  const auto runs = readCsv(dir_ / "o" / "study.csv");
  ASSERT_EQ(runs.size(), 2u);
  const auto summary = readCsv(dir_ / "r" / "gauge_summary.csv");
  ASSERT_EQ(summary.size(), 4u);
  for (auto gauge : summary) {
    const std::string column = "gauge_rms." + gauge["gauge"];
    ASSERT_TRUE(runs[1].count(column)) << column;
    EXPECT_EQ(runs[1].at(column), gauge["rms_error"]) << column;  // grid 128, the scenario's
    EXPECT_GT(std::stod(runs[0].at(column)), std::stod(runs[1].at(column))) << column;
  }
}

// A gauge's record, which the gauge errors are taken against, is part of the plan: edited
// after it, the run fails naming the file.
TEST_F(Study, EditingAGaugeRecordAfterThePlanFailsTheRun) {
  writeText(dir_ / "rec.csv", "0 0\n1 0.001\n2 0\n");
  writeText(dir_ / "w.json", R"({"grid": {"nx": 16, "ny": 8, "dx": 1}, "water": {"depth": 0.5},
    "duration": 1, "initial": {"drops": [{"x": 8, "y": 4, "radius": 2, "amplitude": 0.001}]},
    "gauges": [{"name": "a", "x": 10, "y": 4, "record": {"file": "rec.csv"}}]})");
  const fs::path file = study("s.json", R"({"scenario": "w.json",
    "axes": {"models": ["damped-wave"]}})");
  const fs::path out = dir_ / "o";
  ASSERT_EQ(
      cli("study submit '" + file.string() + "' --out '" + out.string() + "' --slurm --dry-run"), 0)
      << err();
  writeText(dir_ / "rec.csv", "0 0\n1 0.002\n2 0\n");
  EXPECT_EQ(cli("study run-one '" + out.string() + "' 0"), 2);
  cli("study collect '" + out.string() + "'");
  const auto rows = readCsv(out / "study.csv");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("status"), "failed");
  EXPECT_NE(readText(out / "study.csv").find("rec.csv: changed since the study was planned"),
            std::string::npos)
      << readText(out / "study.csv");
}

// A study measures each run against its gauges' records and takes its run-up as `run` does
// (gauge_summary.csv, max_maps.csv): the same series (every step) give the same figures, digit
// for digit. Thacker's bowl at 1.2 s has passed the shoreline's widest, 1.118 m from the
// centre, where the ground is h0 (r^2/a^2 - 1) = 0.025 m above the still water: the run-up is
// the highest wetted cell's ground, within a cell's rise (2 h0 r dx / a^2 = 0.011 m) of it.
// damped-wave takes the slopes as walls: no run-up, not 0. The record is the Monai tank's
// (any series serves: the figures compared are the study's against run's).
TEST_F(Study, GaugeRecordsAndTheRunUpAreMeasuredAsRunMeasuresThem) {
  const fs::path file = study("s.json", R"({"scenario": "builtin:thacker",
    "scenario_patch": {"gauges": [{"name": "east", "x": 2.6, "y": 2.0,
      "record": {"file": "builtin:MonaiValley_WaveGages.txt", "column": 1, "units": "cm",
                 "window": [0.2, 1.2], "max_shift": 0.3}}]},
    "axes": {"models": ["swe-semi-lagrangian", "damped-wave"]},
    "error": {"at": [1.2]}})");
  ASSERT_EQ(cli("study run '" + file.string() + "' --out '" + (dir_ / "o").string() + "'"), 0)
      << err();
  const auto planned = nlohmann::json::parse(readText(dir_ / "o" / "study.json"));
  writeText(dir_ / "patched.json", planned.at("scenario_json").dump());
  ASSERT_EQ(cli("run --scenario '" + (dir_ / "patched.json").string() +
                "' --models swe-semi-lagrangian,damped-wave --duration 1.2 --threads 1 "
                "--max-maps --quiet --out '" +
                (dir_ / "r").string() + "'"),
            0)
      << err();
  const auto studied = readCsv(dir_ / "o" / "gauge_summary.csv");
  const auto ran = readCsv(dir_ / "r" / "gauge_summary.csv");
  ASSERT_EQ(studied.size(), 2u);
  ASSERT_EQ(ran.size(), 2u);
  for (const auto& row : studied) {
    SCOPED_TRACE(row.at("run"));
    EXPECT_EQ(row.at("gauge"), "east");
    EXPECT_EQ(row.at("status"), "ok");
    const auto same = std::find_if(ran.begin(), ran.end(),
                                   [&](const auto& r) { return r.at("model") == row.at("model"); });
    ASSERT_NE(same, ran.end());
    for (const auto& [column, value] : *same) {
      if (column == "gauge" || column == "model") continue;
      EXPECT_EQ(row.at(column), value) << column;
    }
    EXPECT_FALSE(row.at("rms_error").empty());
    EXPECT_FALSE(row.at("best_shift").empty());
  }
  const auto runs = readCsv(dir_ / "o" / "study.csv");
  const auto maps = readCsv(dir_ / "r" / "max_maps.csv");
  ASSERT_EQ(runs.size(), 2u);
  ASSERT_EQ(maps.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    SCOPED_TRACE(runs[k].at("model"));
    ASSERT_EQ(maps[k].at("model"), runs[k].at("model"));
    EXPECT_EQ(runs[k].at("run_up"), maps[k].at("run_up"));
    EXPECT_EQ(runs[k].at("run_up_note"), maps[k].at("run_up_note"));
  }
  EXPECT_EQ(runs[0].at("run_up_note"), "measured");
  EXPECT_NEAR(std::stod(runs[0].at("run_up")), 0.025, 0.011);
  EXPECT_EQ(runs[1].at("run_up"), "");
  EXPECT_EQ(runs[1].at("run_up_note"), "no_wet_dry");
}

TEST_F(Study, ARerunRedoesOnlyTheRunKilledWhileWritingItsResult) {
  const fs::path file = study("s.json", R"({"scenario": "builtin:standing-wave",
    "axes": {"models": ["damped-wave"], "grid": [32, 64, 128]}, "error": {"at": [0.5]}})");
  const std::string run = "study run '" + file.string() + "' --out '" + (dir_ / "o").string() + "'";
  ASSERT_EQ(cli(run), 0) << err();
  const fs::path runs = dir_ / "o" / "runs";
  const std::string first = readText(runs / "0000.json"), third = readText(runs / "0002.json");
  // Run 1 killed while writing: its result cut short, and a temporary left beside it.
  const std::string second = readText(runs / "0001.json");
  writeText(runs / "0001.json", second.substr(0, second.size() / 2));
  writeText(runs / "0002.json.tmp", "{\"hash\"");
  writeText(runs / "0000.json", first + " ");  // a whole result, marked to see it is kept
  ASSERT_EQ(cli(run), 0) << err();
  EXPECT_NE(err().find("2 of 3 runs already done"), std::string::npos) << err();
  EXPECT_EQ(readText(runs / "0000.json"), first + " ");
  EXPECT_EQ(readText(runs / "0002.json"), third);
  EXPECT_EQ(readCsv(dir_ / "o" / "study.csv").size(), 3u);
  for (auto& row : readCsv(dir_ / "o" / "study.csv"))
    EXPECT_EQ(row["status"], "ok") << row["run"];
  // Another study is not mixed into the folder.
  const fs::path other = study("t.json", R"({"scenario": "builtin:standing-wave",
    "axes": {"models": ["swe-adi"], "grid": [32]}, "error": {"at": [0.5]}})");
  EXPECT_EQ(cli("study run '" + other.string() + "' --out '" + (dir_ / "o").string() + "'"), 2);
  EXPECT_NE(err().find("holds the results of another study"), std::string::npos) << err();
}

TEST_F(Study, ARunThatBlowsUpIsRecordedAndTheOthersComplete) {
  // A tick of 1 s, so that 3 explicit limits (0.68 s on 32 cells) are not cut to 1/60 s.
  const std::string axes = R"("scenario_patch": {"tick": 1, "frame_dt": 1},
    "axes": {"models": ["damped-wave", "swe-adi"], "grid": [32], "dt": ["0.5x", "3x"]},
    "error": {"at": [10, 20]})";
  const fs::path refused =
      study("r.json", R"({"scenario": "builtin:standing-wave", )" + axes + "}");
  EXPECT_EQ(cli("study plan '" + refused.string() + "'"), 2);
  EXPECT_NE(err().find("axes.dt: 3x on grid 32: damped-wave.dt: "), std::string::npos) << err();
  EXPECT_NE(err().find("exceeds the stability bound"), std::string::npos) << err();

  const fs::path forced =
      study("f.json", R"({"scenario": "builtin:standing-wave", "force": true, )" + axes + "}");
  EXPECT_EQ(cli("study run '" + forced.string() + "' --out '" + (dir_ / "o").string() + "'"), 3);
  std::map<std::string, std::string> status, error;
  for (auto& row : readCsv(dir_ / "o" / "study.csv"))
    if (row["time"] == "20")
      status[row["run"]] = row["status"], error[row["run"]] = row["error_l2"];
  ASSERT_EQ(status.size(), 4u);
  EXPECT_EQ(status["damped-wave_grid32_dt3x"], "blew-up");
  EXPECT_EQ(error["damped-wave_grid32_dt3x"], "nan");
  EXPECT_EQ(status["damped-wave_grid32_dt0.5x"], "ok");
  EXPECT_EQ(status["swe-adi_grid32_dt3x"], "ok");  // implicit: stable at 3 explicit limits
  EXPECT_EQ(status["swe-adi_grid32_dt0.5x"], "ok");
  EXPECT_LT(std::stod(error["swe-adi_grid32_dt0.5x"]), 1e-3);
  // The work-precision diagram draws each dt as a line of its own, not one line per model.
  const std::string html = readText(dir_ / "o" / "report.html");
  const auto start = html.find("<h2>Work and precision at t = 20 s");
  ASSERT_NE(start, std::string::npos);
  const std::string diagram = html.substr(start, html.find("<h2>Convergence", start) - start);
  EXPECT_NE(diagram.find("swe-adi dt 0.5x"), std::string::npos) << diagram;
  EXPECT_NE(diagram.find("swe-adi dt 3x"), std::string::npos) << diagram;
}

TEST_F(Study, RunOneTakesItsIndexFromSlurm) {
  const fs::path file = study("s.json", R"({"scenario": "builtin:standing-wave",
    "axes": {"models": ["swe-adi"], "grid": [32, 64]}, "error": {"at": [0.5]}})");
  ASSERT_EQ(cli("study run '" + file.string() + "' --out '" + (dir_ / "o").string() + "'"), 0);
  fs::remove(dir_ / "o" / "runs" / "0001.json");
  ASSERT_EQ(cli("study run-one '" + (dir_ / "o").string() + "'"), 2);
  EXPECT_NE(err().find("SLURM_ARRAY_TASK_ID"), std::string::npos);
  ASSERT_EQ(cli("study collect '" + (dir_ / "o").string() + "'"), 0) << err();
  EXPECT_EQ(readCsv(dir_ / "o" / "study.csv")[1]["status"], "pending");
  ASSERT_EQ(cli("study run-one '" + (dir_ / "o").string() + "' 7"), 2);
  EXPECT_NE(err().find("run 7 is not in the plan (0 to 1)"), std::string::npos) << err();
  setenv("SLURM_ARRAY_TASK_ID", "1", 1);
  const int code = cli("study run-one '" + (dir_ / "o").string() + "'");
  unsetenv("SLURM_ARRAY_TASK_ID");
  ASSERT_EQ(code, 0) << err();
  ASSERT_EQ(cli("study collect '" + (dir_ / "o").string() + "'"), 0) << err();
  EXPECT_EQ(readCsv(dir_ / "o" / "study.csv")[1]["status"], "ok");
}

// study submit --slurm --dry-run writes the job array of the runs not done yet: one task per
// run (well under Slurm's default MaxArraySize without a cluster to ask), throttled by
// --array-limit.
TEST_F(Study, SubmitWritesAJobArrayOfThePendingRuns) {
  const fs::path file = study("s.json", R"({"scenario": "builtin:standing-wave", "threads": 2,
    "axes": {"models": ["swe-adi"], "grid": [32, 64, 128]}, "error": {"at": [0.5]}})");
  const std::string submit = "study submit '" + file.string() + "' --out '" +
                             (dir_ / "o").string() + "' --slurm --dry-run --partition short";
  ASSERT_EQ(cli(submit + " --array-limit 2"), 0) << err();
  std::string script = readText(dir_ / "o" / "submit.sbatch");
  EXPECT_NE(script.find("#SBATCH --array=0-2%2\n"), std::string::npos) << script;
  EXPECT_NE(script.find("#SBATCH --cpus-per-task=2\n"), std::string::npos) << script;
  EXPECT_NE(script.find("#SBATCH --partition=short\n"), std::string::npos) << script;
  EXPECT_NE(script.find("\nruns=(0 1 2)\n"), std::string::npos) << script;
  EXPECT_NE(script.find("SLURM_ARRAY_TASK_ID * 1)):1}"), std::string::npos) << script;
  EXPECT_NE(script.find("study run-one '" + (dir_ / "o").string() + "' \"$index\""),
            std::string::npos);
  ASSERT_EQ(cli("study run-one '" + (dir_ / "o").string() + "' 1"), 0) << err();
  ASSERT_EQ(cli(submit), 0) << err();
  script = readText(dir_ / "o" / "submit.sbatch");
  EXPECT_NE(script.find("#SBATCH --array=0-1\n"), std::string::npos) << script;
  EXPECT_NE(script.find("\nruns=(0 2)\n"), std::string::npos) << script;
  // The script itself, run as Slurm would run task 1 (the second pending run, index 2).
  const std::string task =
      "SLURM_ARRAY_TASK_ID=1 bash '" + (dir_ / "o" / "submit.sbatch").string() + "'";
  ASSERT_EQ(std::system(task.c_str()), 0);
  EXPECT_TRUE(fs::exists(dir_ / "o" / "runs" / "0002.json"));
  EXPECT_FALSE(fs::exists(dir_ / "o" / "runs" / "0000.json"));
  EXPECT_EQ(cli("study submit '" + file.string() + "' --out '" + (dir_ / "o").string() +
                "' --slurm --dry-run --array-limit 0"),
            2);
  EXPECT_NE(err().find("--array-limit"), std::string::npos) << err();
}

// Names with a line break, a space, quotes, # and $(...) in the output folder and the study
// file: the batch script holds exactly the options meant, all read by sbatch (one block at the
// top), and running it runs the study's task and nothing else.
TEST_F(Study, SubmitScriptHoldsHostileNamesExactly) {
  const fs::path file = study("s\n#SBATCH --array=0-99\ntouch injected\n.json",
                              R"({"scenario": "builtin:standing-wave",
    "axes": {"models": ["swe-adi"], "grid": [32]}, "error": {"at": [0.5]}})");
  const fs::path out = dir_ / "a b'c #d \"e\" $(touch injected) `touch injected` %j\tz";
  ASSERT_EQ(
      cli("study submit " + shellQuoted(file.string()) + " --out " + shellQuoted(out.string()) +
          " --slurm --dry-run --time 1-12:30:15 --partition short --mem 16G "
          "--account proj_1 --array-limit 3"),
      0)
      << err();
  const fs::path script = out / "submit.sbatch";
  EXPECT_EQ(std::system(("bash -n " + shellQuoted(script.string())).c_str()), 0);
  const SbatchOptions read = sbatchOptions(readText(script));
  EXPECT_EQ(read.after, 0) << readText(script);
  ASSERT_EQ(read.options.size(), 9u) << readText(script);
  EXPECT_EQ(read.options[0].rfind("--job-name=wavebench-study-", 0), 0u) << read.options[0];
  std::string logs = (out / "runs" / "task-%a.log").string();
  logs.replace(logs.find("%j"), 2, "%%j");  // a % of the name is written %% for Slurm
  const std::vector<std::string> meant = {
      "--array=0-0%3",    "--ntasks=1",        "--cpus-per-task=1", "--time=1-12:30:15",
      "--output=" + logs, "--partition=short", "--mem=16G",         "--account=proj_1"};
  EXPECT_EQ(std::vector<std::string>(read.options.begin() + 1, read.options.end()), meant);
  // Run as Slurm runs task 0, from the work folder: the run's result, no injected command.
  const std::string task = "cd " + shellQuoted(dir_.string()) + " && SLURM_ARRAY_TASK_ID=0 bash " +
                           shellQuoted(script.string());
  ASSERT_EQ(std::system(task.c_str()), 0);
  EXPECT_TRUE(fs::exists(out / "runs" / "0000.json"));
  EXPECT_FALSE(fs::exists(dir_ / "injected"));
  EXPECT_FALSE(fs::exists(out / "injected"));
}

// Values Slurm cannot take are refused with one line before anything is written; every form of
// Slurm's time limit is taken.
TEST_F(Study, SubmitRefusesWhatSlurmCannotTake) {
  const fs::path file = study("s.json", R"({"scenario": "builtin:standing-wave",
    "axes": {"models": ["swe-adi"], "grid": [32]}, "error": {"at": [0.5]}})");
  const std::string submit = "study submit '" + file.string() + "' --slurm --dry-run ";
  const std::string o = " --out '" + (dir_ / "o").string() + "'";
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"--out '" + (dir_ / "o\n#SBATCH --array=0-99").string() + "'",
       "--out: '" + (dir_ / "o").string() + "\\n#SBATCH --array=0-99' holds a line break"},
      {"--out '" + (dir_ / "o\\p").string() + "'",
       "--out: '" + (dir_ / "o\\p").string() + "' holds a backslash, which Slurm's"},
      {"--time abc" + o, "--time: 'abc' is not a Slurm time limit (minutes, MM:SS, HH:MM:SS, "},
      {"--time -1" + o, "--time: '-1' is not a Slurm time limit"},
      {"--time 1:60" + o, "--time: '1:60' is not a Slurm time limit"},
      {"--time 1-24" + o, "--time: '1-24' is not a Slurm time limit"},
      {"--time 10:00:60" + o, "--time: '10:00:60' is not a Slurm time limit"},
      {"--time '1 hour'" + o, "--time: '1 hour' is not a Slurm time limit"},
      {"--time '10\n#SBATCH --array=0-99'" + o,
       "--time: '10\\n#SBATCH --array=0-99' is not a Slurm time limit"},
      {"--partition 'a b'" + o, "--partition: 'a b' is not a Slurm partition name"},
      {"--partition 'short\ntouch injected'" + o,
       "--partition: 'short\\ntouch injected' is not a Slurm partition name"},
      {"--partition 'short#x'" + o, "--partition: 'short#x' is not a Slurm partition name"},
      {"--mem 4X" + o, "--mem: '4X' is not a Slurm memory size"},
      {"--mem -1" + o, "--mem: '-1' is not a Slurm memory size"},
      {"--account \"a'b\"" + o, "--account: 'a'b' is not a Slurm account name"},
      {"--array-limit 2.5" + o, "--array-limit: must be an integer"},
  };
  for (const auto& [args, message] : refused) {
    EXPECT_EQ(cli(submit + args), 2) << args;
    const std::string error = err();
    EXPECT_EQ(error.rfind("wavebench-cli: " + message, 0), 0u) << args << "\n" << error;
    EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 1) << error;
    EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 3)
        << args;  // s.json, out, err: nothing written
  }
  for (const char* time :
       {"90", "30:00", "2:00:00", "48:00:00", "1-12", "1-12:30", "1-12:30:15", "UNLIMITED"}) {
    ASSERT_EQ(cli(submit + "--time " + time + o), 0) << time << ": " << err();
    EXPECT_NE(
        readText(dir_ / "o" / "submit.sbatch").find("\n#SBATCH --time=" + std::string(time) + "\n"),
        std::string::npos)
        << time;
  }
}

// An output folder that cannot be made or written gives the one line of `run` and `study run`.
TEST_F(Study, SubmitIntoAFolderThatCannotBeWrittenIsBadInput) {
  const fs::path file = study("s.json", R"({"scenario": "builtin:standing-wave",
    "axes": {"models": ["swe-adi"], "grid": [32]}, "error": {"at": [0.5]}})");
  writeText(dir_ / "a_file", "a file where a folder is expected\n");
  const std::string submit = "study submit '" + file.string() + "' --slurm --dry-run --out ";
  EXPECT_EQ(cli(submit + "'" + (dir_ / "a_file").string() + "'"), 2);
  EXPECT_EQ(
      err().rfind("wavebench-cli: " + (dir_ / "a_file").string() + ": cannot create output folder",
                  0),
      0u)
      << err();
  EXPECT_EQ(cli(submit + "'" + (dir_ / "a_file" / "sub").string() + "'"), 2);
  EXPECT_EQ(err(), "wavebench-cli: " + (dir_ / "a_file" / "sub").string() +
                       ": cannot create output folder: Not a directory\n");
  if (geteuid() != 0) {  // root writes into a read-only folder
    fs::create_directories(dir_ / "read_only");
    fs::permissions(dir_ / "read_only", fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_EQ(cli(submit + "'" + (dir_ / "read_only" / "o").string() + "'"), 2);
    EXPECT_EQ(err().rfind("wavebench-cli: " + (dir_ / "read_only" / "o").string() +
                              ": cannot create output folder",
                          0),
              0u)
        << err();
    fs::permissions(dir_ / "read_only", fs::perms::owner_all);
  }
}

// A reference the scenario breaks on the study's terms is bad input found before anything
// runs: no output folder.
TEST_F(Study, AReferenceTheScenarioBreaksIsRefusedBeforeAnythingRuns) {
  const fs::path file = study("s.json", R"({"scenario": "builtin:standing-wave",
    "scenario_patch": {"domain": {"mask": "pi"}}, "axes": {"models": ["damped-wave"]}})");
  EXPECT_EQ(cli("study run '" + file.string() + "' --out '" + (dir_ / "o").string() + "'"), 2);
  EXPECT_EQ(err(), "wavebench-cli: " + file.string() +
                       ": run damped-wave_grid64: builtin:standing-wave (patched by the study): "
                       "reference: standing-mode needs water on every cell (no mask walls): the "
                       "domain has 440 solid cells\n");
  EXPECT_FALSE(fs::exists(dir_ / "o"));
}

// A study whose axis makes a grid `run` refuses (open edges whose absorbing layers do not fit)
// is refused before anything runs: one line naming the grid and the reason, nothing written.
TEST_F(Study, AGridRunWouldRefuseIsRefusedBeforeAnythingRuns) {
  study("open.json", R"({"grid": {"nx": 96, "ny": 80, "dx": 0.1}, "water": {"depth": 0.5},
    "domain": {"edges": "open"}, "duration": 0.1,
    "initial": {"drops": [{"x": 4.8, "y": 4, "radius": 0.5, "amplitude": 0.001}]}})");
  const fs::path file = study("s.json", R"({"scenario": "open.json",
    "axes": {"models": ["swe-adi"], "grid": [24, 48, 96]}})");
  EXPECT_EQ(cli("study plan '" + file.string() + "'"), 2);
  EXPECT_EQ(err(), "wavebench-cli: " + file.string() +
                       ": axes.grid: 24: " + (dir_ / "open.json").string() +
                       ": domain.edges: open west edge needs at least 72 cells in x (2 absorbing "
                       "layer(s) of 24 and as much water), the grid has 24\n");
  EXPECT_EQ(cli("study run '" + file.string() + "' --out '" + (dir_ / "o").string() + "'"), 2);
  EXPECT_FALSE(fs::exists(dir_ / "o" / "study.json"));
}

// A step outside a parameter's range is refused without suggesting "force", which would not
// let it run.
TEST_F(Study, ForceIsSuggestedOnlyWhereItLetsTheRunStart) {
  const std::string axes =
      R"("axes": {"models": ["damped-wave"], "grid": [32], "dt": ["1e-9x"]}, "error": {"at": [0.5]})";
  const fs::path plain = study("p.json", R"({"scenario": "builtin:standing-wave", )" + axes + "}");
  const fs::path forced =
      study("f.json", R"({"scenario": "builtin:standing-wave", "force": true, )" + axes + "}");
  for (const fs::path& file : {plain, forced}) {
    EXPECT_EQ(cli("study plan '" + file.string() + "'"), 2);
    EXPECT_NE(err().find("axes.dt: 1e-09x on grid 32: "), std::string::npos) << err();
    EXPECT_NE(err().find("is outside [1e-07, 10] s"), std::string::npos) << err();
    EXPECT_EQ(err().find("force"), std::string::npos) << err();
  }
}

// The runs read the plan's copy of the scenario: editing the file between two `run-one` tasks
// changes no run; a file the scenario reads (a mask) edited since the plan fails the run, with
// the reason, and `collect` shows it failed, never ok.
TEST_F(Study, EditingTheScenarioAfterThePlanChangesNoRun) {
  std::string mask;
  for (int j = 0; j < 8; ++j)
    mask += "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1\n";
  writeText(dir_ / "mask.csv", mask);
  const std::string scenario = R"({"grid": {"nx": 16, "ny": 8, "dx": 1}, "water": {"depth": 0.5},
    "domain": {"mask": {"csv": "mask.csv"}}, "duration": 0.5,
    "initial": {"drops": [{"x": 8, "y": 4, "radius": 2, "amplitude": 0.001}]}})";
  writeText(dir_ / "w.json", scenario);
  const fs::path file = study("s.json", R"({"scenario": "w.json",
    "axes": {"models": ["swe-adi", "damped-wave"]}})");
  const fs::path out = dir_ / "o";
  ASSERT_EQ(
      cli("study submit '" + file.string() + "' --out '" + out.string() + "' --slurm --dry-run"), 0)
      << err();
  ASSERT_EQ(cli("study run-one '" + out.string() + "' 0"), 0) << err();
  const std::string first = readText(out / "runs" / "0000_eta_0.csv");
  // The scenario edited between two tasks: the second runs the planned one.
  std::string deeper = scenario;
  deeper.replace(deeper.find("0.5},"), 3, "2.5");
  writeText(dir_ / "w.json", deeper);
  ASSERT_EQ(cli("study run-one '" + out.string() + "' 1"), 0) << err();
  fs::remove(out / "runs" / "0000.json");
  ASSERT_EQ(cli("study run-one '" + out.string() + "' 0"), 0) << err();
  EXPECT_EQ(readText(out / "runs" / "0000_eta_0.csv"), first);  // the same surface, digit for digit
  // The mask edited: the run fails, naming the file.
  writeText(dir_ / "mask.csv", "0" + mask.substr(1));
  fs::remove(out / "runs" / "0001.json");
  EXPECT_EQ(cli("study run-one '" + out.string() + "' 1"), 2);
  cli("study collect '" + out.string() + "'");
  const auto rows = readCsv(out / "study.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].at("status"), "failed");
  EXPECT_NE(readText(out / "study.csv").find("mask.csv: changed since the study was planned"),
            std::string::npos);
}

// collect names the result files it cannot read (cut short or garbage) and exits 3; their runs
// are pending.
TEST_F(Study, CollectCountsCorruptResultsAndExitsThree) {
  const fs::path file = study("s.json", R"({"scenario": "builtin:standing-wave",
    "axes": {"models": ["swe-adi"], "grid": [32, 64, 128]}, "error": {"at": [0.5]}})");
  const fs::path out = dir_ / "o";
  ASSERT_EQ(cli("study run '" + file.string() + "' --out '" + out.string() + "'"), 0) << err();
  ASSERT_EQ(cli("study collect '" + out.string() + "'"), 0) << err();
  const std::string whole = readText(out / "runs" / "0001.json");
  writeText(out / "runs" / "0001.json", whole.substr(0, whole.size() / 2));
  writeText(out / "runs" / "0002.json", "garbage");
  EXPECT_EQ(cli("study collect '" + out.string() + "'"), 3);
  EXPECT_NE(err().find("2 result files in " + (out / "runs").string() +
                       " are corrupt (0001.json, 0002.json)"),
            std::string::npos)
      << err();
  const auto rows = readCsv(out / "study.csv");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].at("status"), "ok");
  EXPECT_EQ(rows[1].at("status"), "pending");
  EXPECT_EQ(rows[2].at("status"), "pending");
}

// The processes whose parent is `parent` (from /proc), with their command lines.
std::map<pid_t, std::string> childrenOf(pid_t parent) {
  std::map<pid_t, std::string> children;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = readText(entry.path() / "stat");
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(stat.substr(close + 2));
    char state = 0;
    pid_t ppid = 0;
    fields >> state >> ppid;
    if (ppid != parent) continue;
    std::string cmdline = readText(entry.path() / "cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    children[std::stoi(name)] = cmdline;
  }
  return children;
}

// Gone, or a zombie (dead, waiting to be reaped by whoever adopted it).
bool dead(pid_t pid) {
  const std::string stat = readText("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(')');
  return close == std::string::npos || stat.at(close + 2) == 'Z' || stat.at(close + 2) == 'X';
}

// `study run` killed outright (SIGKILL, which it cannot pass on): its runs die with it, none
// writes a result, and while it ran the folder was locked against run-one and submit.
TEST_F(Study, AStudyKilledOutrightTakesItsRunsWithItAndLockedTheFolder) {
  const fs::path file = study("s.json", R"({"scenario": "builtin:standing-wave",
    "axes": {"models": ["swe-adi"], "grid": [256]}, "error": {"at": [60]}})");
  const fs::path out = dir_ / "o";
  const std::string cli = WAVEBENCH_CLI, log = (dir_ / "study.log").string();
  const pid_t parent = fork();
  ASSERT_GE(parent, 0);
  if (parent == 0) {
    freopen(log.c_str(), "w", stderr);
    execl(cli.c_str(), cli.c_str(), "study", "run", file.c_str(), "--out", out.c_str(), "--jobs",
          "1", static_cast<char*>(nullptr));
    _exit(127);
  }
  // Its run, once started (exec'd as run-one); a hang guard, never a fixed sleep.
  pid_t run = 0;
  const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (run == 0 && std::chrono::steady_clock::now() < giveUp) {
    for (const auto& [pid, cmdline] : childrenOf(parent))
      if (cmdline.find("run-one") != std::string::npos) run = pid;
    if (run == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_NE(run, 0) << readText(log);
  // Meanwhile the folder is the study's: run-one and submit are refused.
  EXPECT_EQ(this->cli("study run-one '" + out.string() + "' 0"), 2);
  EXPECT_NE(err().find("in use by a `study run` or `study submit`"), std::string::npos) << err();
  EXPECT_EQ(this->cli("study submit '" + file.string() + "' --out '" + out.string() +
                      "' --slurm --dry-run"),
            2);
  EXPECT_NE(err().find("in use"), std::string::npos) << err();
  ASSERT_EQ(kill(parent, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(parent, &status, 0), parent);
  const auto guard = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!dead(run) && std::chrono::steady_clock::now() < guard)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(dead(run)) << "the run outlived the study";
  // It died with the study rather than finishing (3,600 steps of swe-adi on 256 x 128 cells,
  // a second or more on any machine, against the two commands above).
  EXPECT_FALSE(fs::exists(out / "runs" / "0000.json"));
  // The rerun has the folder to itself and does the run.
  EXPECT_EQ(this->cli("study run '" + file.string() + "' --out '" + out.string() + "'"), 0)
      << err();
  for (const auto& entry : fs::directory_iterator(out / "runs"))
    EXPECT_NE(entry.path().extension(), ".tmp") << entry.path();
}

// Every builtin study plans (its scenario, axes and error times are valid) and is listed.
TEST_F(Study, EveryBuiltinStudyPlansAndIsListed) {
  ASSERT_EQ(cli("list"), 0) << err();
  const std::string listed = readText(dir_ / "out");
  const auto names = wb::builtinStudyNames();
  EXPECT_GE(names.size(), 4u);
  for (const auto& name : names) {
    EXPECT_NE(listed.find("builtin:" + name + " "), std::string::npos) << name;
    EXPECT_EQ(cli("study plan builtin:" + name), 0) << name << ": " << err();
  }
}

// report.html: one self-contained page that agrees with study.csv and eoc.csv and renders in
// a real browser (Debian's chromium, headless): a work-precision diagram and a convergence
// plot per error time, every run's L2 error and every order in its tables, nothing fetched.
TEST_F(Study, TheReportIsSelfContainedAgreesWithTheTablesAndRendersInChromium) {
  const fs::path file = study("s.json", R"({"scenario": "builtin:standing-wave",
    "scenario_patch": {"reference": {"amplitude": 0.0001}},
    "axes": {"models": ["damped-wave", "swe-adi"], "grid": [32, 64, 128]},
    "error": {"at": [1, 2]}})");
  ASSERT_EQ(cli("study run '" + file.string() + "' --out '" + (dir_ / "o").string() + "'"), 0)
      << err();
  const std::string html = readText(dir_ / "o" / "report.html");
  EXPECT_EQ(err().find("no plots"), std::string::npos) << err();
  std::size_t svgs = 0;
  for (auto at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1))
    ++svgs;
  EXPECT_EQ(svgs, 4u);  // two plots for each of the two error times
  // Nothing to fetch: no scripts, style sheets, images, frames or links out.
  for (const char* reference : {"<script", "<link", "<img", "<iframe", "src=", "url(", "@import",
                                "href=\"http", "xlink:href=\"http"})
    EXPECT_EQ(html.find(reference), std::string::npos) << reference;
  for (const auto& entry : fs::directory_iterator(dir_ / "o"))  // gnuplot's files are gone
    EXPECT_FALSE(entry.path().filename().string().starts_with(".report-work")) << entry.path();
  for (auto row : readCsv(dir_ / "o" / "study.csv"))
    EXPECT_NE(html.find("<td>" + row["error_l2"] + "</td>"), std::string::npos) << row["run"];
  for (auto row : readCsv(dir_ / "o" / "eoc.csv")) {
    EXPECT_NE(html.find("<td>" + row["eoc"] + "</td>"), std::string::npos) << row["model"];
    if (row["grid"] == "fit") {
      char order[32];
      std::snprintf(order, sizeof order, "(order %.3g)", std::stod(row["eoc"]));
      EXPECT_NE(html.find(order), std::string::npos) << row["model"];
    }
  }

  // The browser: the DOM it built holds the four plots, and its screenshot is drawn on.
  const fs::path shot = dir_ / "report.png";
  const std::string chromium =
      "chromium --headless --no-sandbox --disable-gpu --hide-scrollbars "
      "--window-size=1200,1600 ";
  const std::string url = "file://" + (dir_ / "o" / "report.html").string();
  ASSERT_EQ(std::system((chromium + "--dump-dom '" + url + "' > '" + (dir_ / "dom").string() +
                         "' 2>/dev/null")
                            .c_str()),
            0)
      << "chromium is needed (scripts/wavebench.sh test installs it)";
  const std::string dom = readText(dir_ / "dom");
  std::size_t drawn = 0;
  for (auto at = dom.find("<svg"); at != std::string::npos; at = dom.find("<svg", at + 1))
    ++drawn;
  EXPECT_EQ(drawn, 4u);
  ASSERT_EQ(
      std::system((chromium + "--screenshot='" + shot.string() + "' '" + url + "' > /dev/null 2>&1")
                      .c_str()),
      0);
  const wb::Field2D grey = wb::readPngField(shot);
  ASSERT_EQ(grey.nx(), 1200);
  std::size_t inked = 0;
  for (int j = 0; j < grey.ny(); ++j)
    for (int i = 0; i < grey.nx(); ++i)
      if (grey(i, j) < 0.8f) ++inked;
  // Text, axes and lines: 2.4 % of the first 1600 pixel rows measured; a page of one line of
  // text 0.01 %.
  EXPECT_GT(double(inked) / double(grey.size()), 0.01);
}

}  // namespace
