// Study plans (core/study): every axis kind expands into the runs and names it should, bad
// studies are refused naming the key, and the orders of convergence are the ones the errors
// give.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/errors.hpp"
#include "core/study/eoc.hpp"
#include "core/study/study_plan.hpp"
#include "core/study/study_spec.hpp"
#include "models/registry.hpp"

namespace wb {
namespace {

std::vector<ModelDeclaration> catalogue() {
  std::vector<ModelDeclaration> models;
  for (const auto& entry : modelCatalogue())
    models.push_back({entry.id, entry.specs});
  return models;
}

StudyPlan planOf(const std::string& text) {
  const StudySpec spec = parseStudyText(text, "s.json", "/tmp");
  const Scenario base = loadPatchedScenario(spec.scenario, spec.scenarioPatch);
  return expandStudy(spec, base, catalogue(), defaultModelIds());
}

std::string errorOf(const std::string& text) {
  try {
    planOf(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(StudyPlan, EveryAxisKindExpandsAndNamesItsRuns) {
  const StudyPlan plan = planOf(R"({"scenario": "builtin:standing-wave",
    "axes": {"models": ["damped-wave", "swe-adi"], "grid": [128, 64], "dt": [0.01, "0.5x"],
             "swe-adi.iterations": [1, 2]}})");
  // damped-wave: 2 steps x 2 grids; swe-adi: 2 iterations x 2 steps x 2 grids.
  ASSERT_EQ(plan.runs.size(), 12u);
  EXPECT_EQ(plan.runs[0].name, "damped-wave_grid64_dt0.01");
  EXPECT_EQ(plan.runs[1].name, "damped-wave_grid128_dt0.01");
  EXPECT_EQ(plan.runs[3].name, "damped-wave_grid128_dt0.5x");
  EXPECT_EQ(plan.runs[4].name, "swe-adi_grid64_dt0.01_iterations1");
  EXPECT_EQ(plan.runs[11].name, "swe-adi_grid128_dt0.5x_iterations2");
  EXPECT_EQ(plan.paramColumns, std::vector<std::string>{"swe-adi.iterations"});
  for (std::size_t k = 0; k < plan.runs.size(); ++k)
    EXPECT_EQ(plan.runs[k].index, int(k));
  // The domain keeps its 16 x 8 m: 128 cells along x make 64 along y, 0.125 m each.
  EXPECT_EQ(plan.runs[1].cells.nx, 128);
  EXPECT_EQ(plan.runs[1].cells.ny, 64);
  EXPECT_DOUBLE_EQ(plan.runs[1].cells.dx, 0.125);
  EXPECT_EQ(*plan.runs[0].dt.seconds, 0.01);
  EXPECT_EQ(*plan.runs[2].dt.multiple, 0.5);
  EXPECT_TRUE(plan.hasReference);
  EXPECT_EQ(plan.errorAt, std::vector<double>{20.0});  // the scenario's duration
}

TEST(StudyPlan, WithoutAxesRunsTheScenariosModelsOnItsGrid) {
  const StudyPlan ritter = planOf(R"({"scenario": "builtin:ritter"})");
  ASSERT_EQ(ritter.runs.size(), 2u);  // the scenario names swe-semi-lagrangian and swe-adi
  EXPECT_EQ(ritter.runs[0].name, "swe-adi_grid1000");
  EXPECT_EQ(ritter.runs[0].dt.text, "auto");
  const StudyPlan standing = planOf(R"({"scenario": "builtin:standing-wave"})");
  EXPECT_EQ(standing.runs.size(), defaultModelIds().size());
}

TEST(StudyPlan, ThePlanReadsBackAndItsHashFollowsTheStudy) {
  const std::string text = R"({"scenario": "builtin:standing-wave",
    "axes": {"models": ["swe-adi"], "grid": [32, 64], "swe-adi.damping": [0, 0.1]},
    "error": {"at": [1, 0.5]}, "repeats": 3})";
  const StudyPlan plan = planOf(text);
  const StudyPlan back = planFromJson(planToJson(plan), "study.json");
  EXPECT_EQ(planToJson(back), planToJson(plan));
  EXPECT_EQ(back.errorAt, (std::vector<double>{0.5, 1.0}));
  EXPECT_EQ(back.repeats, 3);
  EXPECT_EQ(back.runs[3].params.at(0), (std::pair<std::string, std::string>{"damping", "0.1"}));
  EXPECT_EQ(planOf(text).hash, plan.hash);
  EXPECT_NE(planOf(R"({"scenario": "builtin:standing-wave", "axes": {"grid": [32]}})").hash,
            plan.hash);
}

// An incoming edge's record must cover the study's runs, as `run` requires
// (docs/scenario.md, "Incoming edges").
TEST(StudyPlan, RecordShorterThanTheRunsIsRefused) {
  const std::string study = R"({"scenario": "builtin:standing-wave", "axes": {"grid": [64]},
    "scenario_patch": {"duration": 4, "domain": {"edges": {"west": {"incoming":
      {"series": [[0, 0], [1, 0.001], [3, 0]]REST}}}}}})";
  const auto with = [&](const std::string& rest) {
    return errorOf(std::string(study).replace(study.find("REST"), 4, rest));
  };
  EXPECT_EQ(with(""),
            "builtin:standing-wave (patched by the study): domain.edges.west.incoming.series: the "
            "record ends at 3 s, "
            "before the run's end at 4 s (shorten the run, or add \"then\": \"open\" to open the "
            "side after it)");
  EXPECT_EQ(with(R"(, "then": "open")"), "no error");
}

TEST(StudyPlan, BadStudiesAreRefusedNamingTheKey) {
  const std::string head = R"({"scenario": "builtin:standing-wave", )";
  EXPECT_EQ(errorOf(head + R"("axes": {"models": ["dampedwave"]}})"),
            "s.json: axes.models[0]: unknown model 'dampedwave' (known: damped-wave, "
            "advected-wave, swe-semi-lagrangian, swe-adi, fft-ocean)");
  EXPECT_EQ(errorOf(head + R"("axes": {"grid": []}})"),
            "s.json: axes.grid: empty axis: give at least one value");
  EXPECT_EQ(errorOf(head + R"("axes": {"models": ["swe-adi"], "swe-adi.iteration": [1]}})")
                .rfind("s.json: axes.swe-adi.iteration: unknown parameter of swe-adi (known: dt, "
                       "iterations",
                       0),
            0u);
  EXPECT_EQ(errorOf(head + R"("axes": {"models": ["swe-adi"], "swe-adi.iterations": [1, 0]}})"),
            "s.json: axes.swe-adi.iterations[1]: 0 is outside [1, 100]");
  EXPECT_EQ(errorOf(head + R"("axes": {"models": ["damped-wave"], "swe-adi.iterations": [1]}})"),
            "s.json: axes.swe-adi.iterations: model 'swe-adi' is not among the study's models");
  EXPECT_EQ(errorOf(head + R"("axes": {"grid": [65]}})"),
            "s.json: axes.grid: 65: 65 cells along the longer side give 32.5 along the other (the "
            "scenario's grid is 64 x 32); use a multiple of 2");
  EXPECT_EQ(errorOf(head + R"("axes": {"dt": ["fast"]}})"),
            "s.json: axes.dt[0]: 'fast' is not seconds, \"Nx\" with 0 < N <= 10000, or \"auto\"");
  EXPECT_EQ(errorOf(head + R"("axes": {"grid": [64, 64]}})"),
            "s.json: axes.grid[1]: repeats a value");
  EXPECT_EQ(errorOf(head + R"("error": {"at": [0.01]}})"),
            "s.json: error.at[0]: 0.01 s is not a whole number of the scenario's ticks of "
            "0.0166667 s");
  EXPECT_EQ(errorOf(head + R"("axis": {}})"), "s.json: axis: unknown key");
  EXPECT_EQ(errorOf(R"({"axes": {}})"), "s.json: scenario: missing");
}

TEST(StudyPlan, FieldsReadFromCsvAreNotResampled) {
  Scenario base;
  base.source = "s.json";
  base.grid = {64, 32, 0.25};
  base.mask = FieldSource{{"mask.csv", false}, FieldFormat::Csv};
  EXPECT_EQ(scenarioOnGrid(base, base.grid, "g").grid.nx, 64);
  try {
    scenarioOnGrid(base, {128, 64, 0.125}, "study.json: axes.grid: 128");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("study.json: axes.grid: 128: s.json: domain.mask is a "
                                          "CSV of 64 x 32 cells, which a study does not resample",
                                          0),
              0u);
  }
}

// A grid is refused where reading the scenario on it would be: an open edge's absorbing layers
// are in cells (24 each, and as much water between), so 24 and 48 cells cannot hold two of
// them; `run` refuses such a scenario, and so does the plan, before anything runs.
TEST(StudyPlan, AGridTooSmallForTheOpenEdgesLayersIsRefused) {
  Scenario base;
  base.source = "open.json";
  base.grid = {96, 80, 0.1};
  base.edges = Edges::all(EdgeKind::Open);
  EXPECT_EQ(scenarioOnGrid(base, base.grid, "g").grid.nx, 96);
  try {
    scenarioOnGrid(base, gridWithLongerSide(base.grid, 48, "g"), "s.json: axes.grid: 48");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "s.json: axes.grid: 48: open.json: domain.edges: open west edge needs at least 72 "
              "cells in x (2 absorbing layer(s) of 24 and as much water), the grid has 48");
  }
}

// "0.5x" and "0.50x" are one step: compared by value and named alike.
TEST(StudyPlan, StepsAreComparedByValue) {
  const std::string head = R"({"scenario": "builtin:standing-wave", )";
  EXPECT_EQ(errorOf(head + R"("axes": {"dt": ["0.5x", "0.50x"]}})"),
            "s.json: axes.dt[1]: repeats a value");
  EXPECT_EQ(errorOf(head + R"("axes": {"dt": ["5e-1x", "0.5x"]}})"),
            "s.json: axes.dt[1]: repeats a value");
  const StudyPlan plan = planOf(head + R"("axes": {"models": ["swe-adi"], "dt": ["0.50x"]}})");
  EXPECT_EQ(plan.runs.at(0).name, "swe-adi_grid64_dt0.5x");
}

// The plan keeps its own copy of the scenario and the hash of every file it reads: the runs
// read the copy, and refuse when a file changed since the plan.
TEST(StudyPlan, ThePlanHoldsTheScenarioAndTheHashesOfItsFiles) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("wavebench_plan_copy_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
  };
  std::string mask;
  for (int j = 0; j < 8; ++j)
    mask += "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1\n";
  write("mask.csv", mask);
  write("w.json", R"({"grid": {"nx": 16, "ny": 8, "dx": 1}, "water": {"depth": 0.5},
    "domain": {"mask": {"csv": "mask.csv"}}, "duration": 0.5})");
  const StudySpec spec = parseStudyText(R"({"scenario": "w.json"})", "s.json", dir);
  const StudyPlan plan = expandStudy(spec, loadPatchedScenario(spec.scenario, spec.scenarioPatch),
                                     catalogue(), defaultModelIds());
  write("w.json", R"({"grid": {"nx": 16, "ny": 8, "dx": 1}, "water": {"depth": 2.5}})");
  EXPECT_EQ(planScenario(plan).depth, 0.5);  // the copy, not the file as it is now
  const StudyPlan back = planFromJson(planToJson(plan), "study.json");
  EXPECT_EQ(planScenario(back).depth, 0.5);
  write("mask.csv", "0" + mask.substr(1));
  try {
    planScenario(plan);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(
                  (dir / "mask.csv").string() + ": changed since the study was planned", 0),
              0u)
        << e.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(StudyEoc, OrdersAreTheSlopesOfTheErrors) {
  // e = 3 n^-2 on 32, 64, 128 and 4 n^-1 thereafter; a blown-up run (NaN) is left out.
  std::vector<GridError> points = {{128, 3.0 / (128.0 * 128.0)},
                                   {32, 3.0 / (32.0 * 32.0)},
                                   {64, 3.0 / (64.0 * 64.0)},
                                   {100, NAN}};
  EocTable table = convergenceOrders(points);
  ASSERT_EQ(table.points.size(), 3u);
  EXPECT_EQ(table.points[0].grid, 32);
  EXPECT_FALSE(table.eoc[0].has_value());
  EXPECT_NEAR(*table.eoc[1], 2.0, 1e-12);
  EXPECT_NEAR(*table.eoc[2], 2.0, 1e-12);
  EXPECT_NEAR(*table.fit, 2.0, 1e-12);
  table = convergenceOrders({{32, 1e-2}, {64, 5e-3}, {128, 1.25e-3}});
  EXPECT_NEAR(*table.eoc[1], 1.0, 1e-12);
  EXPECT_NEAR(*table.eoc[2], 2.0, 1e-12);
  EXPECT_NEAR(*table.fit, 1.5, 1e-12);  // symmetric points: the slope of the end points
  EXPECT_FALSE(convergenceOrders({{32, 1e-2}}).fit.has_value());
}

}  // namespace
}  // namespace wb
