// wavebench-cli study: the subcommands, and the preparation they share (docs/studies.md).
#include "app/cli/study_command.hpp"

#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <thread>

#include "app/cli/options.hpp"
#include "app/cli/run_output.hpp"
#include "app/export/output_file.hpp"
#include "core/errors.hpp"
#include "core/run/threads.hpp"
#include "core/scenario/field_io.hpp"
#include "models/registry.hpp"

namespace wb::cli {
namespace fs = std::filesystem;

namespace {

std::vector<ModelDeclaration> declarations() {
  std::vector<ModelDeclaration> models;
  for (const auto& entry : modelCatalogue())
    models.push_back({entry.id, entry.specs});
  return models;
}

std::string secondsText(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", seconds);
  return text;
}

// The run's model built and reset on its grid with the study's parameters and, when dt > 0,
// that step. The model's own check refuses a dt beyond its bound without force.
struct BuiltRun {
  std::unique_ptr<Model> model;
  double explicitLimit = 0.0;
};
BuiltRun buildRun(const StudyPlan& plan, const PlannedRun& run, const Scenario& scenario,
                  const Domain& domain, const Field2D& eta0, double dt) {
  std::vector<std::string> overrides;
  for (const auto& [param, value] : run.params)
    overrides.push_back(run.model + "." + param + "=" + value);
  BuiltRun built;
  built.model = std::move(createScenarioModels(scenario, {run.model}, overrides, plan.force)[0]);
  if (dt > 0) built.model->params().set("dt", dt, "dt");
  built.model->reset(domain, eta0);
  // A model's explicit limit: its stability bound, or the gravity wave's Courant limit
  // dx / sqrt(g d_max) where the bound is longer (the implicit and spectral models).
  built.explicitLimit = std::min(built.model->maxStableDt(),
                                 domain.grid().dx / std::sqrt(domain.g() * domain.maxWetDepth()));
  return built;
}

// The steps one pass of the run takes: every tick in equal steps no longer than dt.
long long plannedSteps(const Scenario& scenario, double dt) {
  const long long ticks = std::llround(scenario.duration / scenario.tick);
  return ticks * (long long)std::ceil(scenario.tick / std::min(dt, scenario.tick) - 1e-9);
}

// Times a few steps of the model: seconds per step.
double calibrate(Model& model) {
  const double dt = model.preferredDt();
  model.step(dt);  // caches and solvers warm
  int steps = 0;
  const auto start = std::chrono::steady_clock::now();
  double elapsed = 0.0;
  while (steps < 3 || (elapsed < 0.05 && steps < 200)) {
    model.step(dt);
    ++steps;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return elapsed / steps;
}

std::string groupKey(const PlannedRun& run) {
  std::string key = run.model + "|" + run.dt.text;
  for (const auto& [param, value] : run.params)
    key += "|" + param + "=" + value;
  return key;
}

// "Nx": N explicit limits on the group's coarsest grid, rounded down to a whole number of
// steps per tick, and in proportion to dx on the finer grids. So the Courant number is the same
// on every grid and the step halves exactly when the cells do; N limits of each grid, each
// rounded to the tick on its own, would not (1/60 s: 2, 3 and 5 steps for 0.014, 0.007 and
// 0.0035 s).
double proportionalStep(const Scenario& s, const PlannedRun& run, double explicitLimit,
                        std::map<std::string, std::pair<int, double>>& coarsest) {
  const auto [it, first] = coarsest.try_emplace(groupKey(run), run.grid, 0.0);
  if (first) {
    const double dt = *run.dt.multiple * explicitLimit;
    it->second.second = s.tick / std::ceil(s.tick / dt - 1e-9);
  }
  return it->second.second * it->second.first / run.grid;
}

int planSubcommand(const FlagReader& flags, const std::string& file) {
  (void)flags;
  const PreparedStudy study = prepareStudy(file, true);
  const StudyPlan& plan = study.plan;
  std::printf("%s: %zu runs of %s; errors at", file.c_str(), plan.runs.size(),
              plan.scenario.c_str());
  for (double t : plan.errorAt)
    std::printf(" %s", secondsText(t).c_str());
  std::printf(" s against %s\n", plan.hasReference
                                     ? "the scenario's reference"
                                     : "the finest grid of each group (the scenario has no "
                                       "reference)");
  std::printf("%5s  %-44s %11s %10s %10s  %s\n", "index", "run", "cells", "step s", "steps",
              "estimate");
  double total = 0.0;
  for (const auto& run : plan.runs) {
    const std::string cells = std::to_string(run.cells.nx) + " x " + std::to_string(run.cells.ny);
    std::printf("%5d  %-44s %11s %10s %10lld  %s\n", run.index, run.name.c_str(), cells.c_str(),
                secondsText(run.stepSeconds).c_str(), run.steps,
                durationText(run.estimateSeconds).c_str());
    total += run.estimateSeconds;
  }
  std::printf(
      "estimated %s in all on one core (%d warm-up + %d timed pass%s per run; calibrated "
      "on grid %d)\n",
      durationText(total).c_str(), plan.warmup ? 1 : 0, plan.repeats, plan.repeats == 1 ? "" : "es",
      study.calibrationGrid);
  return 0;
}

int runSubcommand(const FlagReader& flags, const std::string& file) {
  const auto out = flags.value("--out");
  if (!out) throw InputError("study run: --out DIR is required");
  const int cores = usableCores();  // the process's affinity mask and Slurm allocation
  const PreparedStudy study = prepareStudy(file, true);
  const int jobs = flags.integer("--jobs", std::max(1, cores / study.plan.threads), 1, 1024);
  RunOutput output(*out);  // locked: a second `study run` on the folder is refused
  const fs::path dir = output.dir();
  claimFolder(dir, study.plan);
  fs::create_directories(dir / "runs");
  const std::vector<int> pending = pendingRuns(dir, study.plan, flags.isSet("--retry-failed"));
  if (pending.size() < study.plan.runs.size())
    std::fprintf(stderr, "study: %zu of %zu runs already done in %s; running the other %zu\n",
                 study.plan.runs.size() - pending.size(), study.plan.runs.size(), dir.c_str(),
                 pending.size());
  const int stopped = runStudyJobs(dir, study.plan, pending, jobs);
  if (stopped) return stopped;
  const auto results = collectStudy(dir, study.plan);
  int status = 0;
  for (const auto& result : results)
    if (result && result->status != "ok") status = 3;
  std::printf("wrote %s, %s and %s\n", (dir / "study.csv").c_str(), (dir / "eoc.csv").c_str(),
              (dir / "report.html").c_str());
  return status;
}

// study collect --wait: until every run has its result file. The array's jobs are asked of
// squeue (by the study's job name; accounting may be off, so never sacct): when none is queued
// or running and runs still have no result, waiting ends with 3 and the runs named. Without
// squeue, the result files alone are watched.
int waitForResults(const fs::path& dir, const StudyPlan& plan) {
  constexpr auto kPoll = std::chrono::seconds(2);
  std::size_t reported = plan.runs.size() + 1;
  for (;;) {
    const std::vector<int> missing = pendingRuns(dir, plan, false);
    if (missing.size() != reported)
      std::fprintf(stderr, "study: %zu of %zu runs have their results\n",
                   plan.runs.size() - missing.size(), plan.runs.size());
    reported = missing.size();
    if (missing.empty()) return 0;
    const auto active =
        programOutput({"squeue", "-h", "-n", jobName(plan), "-t",
                       "pending,running,configuring,completing,suspended", "-o", "%i"});
    if (active && active->find_first_not_of(" \n") == std::string::npos &&
        pendingRuns(dir, plan, false).size() == missing.size()) {
      std::string names;
      for (std::size_t k = 0; k < missing.size() && k < 5; ++k)
        names += (k ? ", " : "") + plan.runs.at(std::size_t(missing[k])).name;
      if (missing.size() > 5) names += ", ...";
      std::fprintf(stderr,
                   "study: %zu runs have no result and no job of the study is queued or running "
                   "(%s; their logs are in %s)\n",
                   missing.size(), names.c_str(), (dir / "runs").c_str());
      return 3;
    }
    std::this_thread::sleep_for(kPoll);
  }
}

int runOneSubcommand(const std::vector<std::string>& args) {
  if (args.empty() || args.size() > 2)
    throw InputError("study run-one: expected DIR [INDEX] (INDEX from SLURM_ARRAY_TASK_ID)");
  std::string index = args.size() == 2 ? args[1] : "";
  if (index.empty()) {
    const char* task = std::getenv("SLURM_ARRAY_TASK_ID");
    if (!task || !*task) throw InputError("study run-one: give INDEX or set SLURM_ARRAY_TASK_ID");
    index = task;
  }
  char* end = nullptr;
  const long value = std::strtol(index.c_str(), &end, 10);
  if (index.empty() || *end != '\0' || value < 0 || value > 1000000000)
    throw InputError("study run-one: INDEX: '" + index + "' is not a run's index");
  return runOneStudyRun(args[0], int(value));
}

}  // namespace

// The folder holds this study's plan, or none: another study's results are never mixed in.
void claimFolder(const fs::path& dir, const StudyPlan& plan) {
  std::error_code ec;
  if (fs::exists(planFile(dir), ec)) {
    const StudyPlan existing = readPlan(dir);
    if (existing.hash != plan.hash)
      throw InputError(dir.string() + ": holds the results of another study (" + existing.source +
                       ", plan " + existing.hash + "; this one is " + plan.hash +
                       "); use another --out or remove it");
    return;
  }
  writeWholeFile(planFile(dir), planToJson(plan).dump(1) + "\n");
}

std::vector<int> pendingRuns(const fs::path& dir, const StudyPlan& plan, bool retryFailed) {
  std::vector<int> pending;
  for (const auto& run : plan.runs) {
    const auto result = readResult(dir, plan, run.index);
    if (!result || (retryFailed && result->status == "failed")) pending.push_back(run.index);
  }
  return pending;
}

std::string durationText(double seconds) {
  char text[48];
  if (!std::isfinite(seconds)) return "?";
  if (seconds < 60)
    std::snprintf(text, sizeof text, "%.2g s", seconds);
  else if (seconds < 3600)
    std::snprintf(text, sizeof text, "%d min %02d s", int(seconds / 60), int(seconds) % 60);
  else
    std::snprintf(text, sizeof text, "%d h %02d min", int(seconds / 3600), int(seconds / 60) % 60);
  return text;
}

PreparedStudy prepareStudy(const std::string& fileOrBuiltin, bool withCalibration) {
  PreparedStudy study;
  study.spec = loadStudy(fileOrBuiltin);
  study.base = loadPatchedScenario(study.spec.scenario, study.spec.scenarioPatch);
  checkScenarioModels(study.base);
  study.plan = expandStudy(study.spec, study.base, declarations(), defaultModelIds());
  StudyPlan& plan = study.plan;
  study.calibrationGrid = plan.runs.empty() ? 0 : plan.runs.front().grid;
  for (const auto& run : plan.runs)
    study.calibrationGrid = std::min(study.calibrationGrid, run.grid);
  // Seconds per cell and step of each group, timed at the smallest grid.
  std::map<std::string, double> costPerCellStep;
  std::map<std::string, std::pair<int, double>> coarsest;  // per group: grid and its step
  for (auto& run : plan.runs) {
    const Scenario s = runScenario(plan, study.base, run);
    const Domain domain = buildDomain(s);
    const Field2D eta0 = buildInitialEta(s, domain);
    BuiltRun built;
    try {
      built = buildRun(plan, run, s, domain, eta0, 0.0);
    } catch (const InputError& e) {  // the model refuses the domain: name the run
      throw InputError(plan.source + ": run " + run.name + ": " + e.what());
    }
    if (run.dt.seconds) run.dtSeconds = *run.dt.seconds;
    if (run.dt.multiple) run.dtSeconds = proportionalStep(s, run, built.explicitLimit, coarsest);
    if (run.dtSeconds > 0) {
      try {
        built = buildRun(plan, run, s, domain, eta0, run.dtSeconds);
      } catch (const InputError& e) {
        throw InputError(plan.source + ": axes.dt: " + run.dt.text + " on grid " +
                         std::to_string(run.grid) + ": " + e.what() +
                         " (in a study: \"force\": true)");
      }
    }
    const double dt = built.model->preferredDt();
    const double cells = double(run.cells.nx) * run.cells.ny;
    if (withCalibration && run.grid == study.calibrationGrid)
      costPerCellStep[groupKey(run)] = calibrate(*built.model) / cells;
    const double passes = plan.repeats + (plan.warmup ? 1 : 0);
    run.steps = plannedSteps(s, dt);
    run.stepSeconds = s.tick / std::ceil(s.tick / std::min(dt, s.tick) - 1e-9);
    run.estimateSeconds =
        withCalibration ? costPerCellStep[groupKey(run)] * cells * double(run.steps) * passes : 0.0;
  }
  return study;
}

int studyCommand(std::vector<std::string> args) {
  if (args.empty())
    throw InputError(
        "study: expected plan, run, run-one, submit or collect (see wavebench-cli --help)");
  const std::string sub = args[0];
  args.erase(args.begin());
  if (sub == "run-one") return runOneSubcommand(args);
  // The study file or folder comes first, then the options.
  if (args.empty() || args[0].starts_with("--"))
    throw InputError("study " + sub + ": expected " + (sub == "collect" ? "DIR" : "FILE") +
                     " first");
  const std::string target = args[0];
  args.erase(args.begin());
  if (sub == "plan") return planSubcommand(FlagReader(args, {}, {}), target);
  if (sub == "run")
    return runSubcommand(FlagReader(args, {"--out", "--jobs"}, {"--retry-failed"}), target);
  if (sub == "submit")
    return submitSubcommand(
        FlagReader(args, {"--out", "--partition", "--time", "--mem", "--account", "--array-limit"},
                   {"--slurm", "--dry-run", "--retry-failed"}),
        target);
  if (sub == "collect") {
    const FlagReader flags(args, {}, {"--wait"});
    const StudyPlan plan = readPlan(target);
    if (flags.isSet("--wait")) {
      if (const int status = waitForResults(target, plan)) {
        collectStudy(target, plan);
        return status;
      }
    }
    collectStudy(target, plan);
    std::printf("wrote %s, %s and %s\n", (fs::path(target) / "study.csv").c_str(),
                (fs::path(target) / "eoc.csv").c_str(), (fs::path(target) / "report.html").c_str());
    return 0;
  }
  throw InputError("study: unknown subcommand '" + sub +
                   "' (expected plan, run, run-one, submit or collect)");
}

}  // namespace wb::cli
