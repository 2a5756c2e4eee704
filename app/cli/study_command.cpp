// wavebench-cli study: the subcommands, and the preparation they share (docs/studies.md).
#include "app/cli/study_command.hpp"

#include <fcntl.h>
#include <omp.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <optional>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <thread>

#include "app/cli/options.hpp"
#include "app/export/output_file.hpp"
#include "core/errors.hpp"
#include "core/run/threads.hpp"
#include "core/scenario/field_io.hpp"
#include "models/registry.hpp"

namespace wb::cli {
namespace fs = std::filesystem;

namespace {

// The tables collect wrote: study.csv, eoc.csv, gauge_summary.csv with gauge records, report.html.
void printWrote(const fs::path& dir, const StudyPlan& plan) {
  std::string tables = (dir / "study.csv").string() + ", " + (dir / "eoc.csv").string();
  if (!plan.gaugeRecords.empty()) tables += ", " + (dir / "gauge_summary.csv").string();
  std::printf("wrote %s and %s\n", tables.c_str(), (dir / "report.html").c_str());
}

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

// A model's explicit limit: its stability bound, or the gravity wave's Courant limit
// dx / sqrt(g d_max) where the bound is longer (the implicit and spectral models).
double explicitLimit(const Comparison& comparison) {
  const Domain& domain = comparison.domain();
  return std::min(comparison.model(0).maxStableDt(),
                  domain.grid().dx / std::sqrt(domain.g() * domain.maxWetDepth()));
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

// Temporaries of writers that were killed (FILE.PID.tmp): with the folder locked exclusively
// no writer is left to finish them.
void removeStaleTemporaries(const fs::path& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir / "runs", ec))
    if (entry.path().extension() == ".tmp") fs::remove(entry.path(), ec);
}

int runSubcommand(const FlagReader& flags, const std::string& file) {
  const auto out = flags.value("--out");
  if (!out) throw InputError("study run: --out DIR is required");
  const int cores = usableCores();  // the process's affinity mask and Slurm allocation
  const PreparedStudy study = prepareStudy(file, true);
  const int jobs = flags.integer("--jobs", std::max(1, cores / study.plan.threads), 1, 1024);
  const fs::path dir = *out;
  ensureWritableDirectory(dir);
  const StudyLock lock = claimFolder(dir, study.plan);  // a second `study run` is refused
  fs::create_directories(dir / "runs");
  removeStaleTemporaries(dir);
  const std::vector<int> pending = pendingRuns(dir, study.plan, flags.isSet("--retry-failed"));
  if (pending.size() < study.plan.runs.size())
    std::fprintf(stderr, "study: %zu of %zu runs already done in %s; running the other %zu\n",
                 study.plan.runs.size() - pending.size(), study.plan.runs.size(), dir.c_str(),
                 pending.size());
  const int stopped = runStudyJobs(dir, study.plan, pending, jobs, lock);
  if (stopped) return stopped;
  const auto results = collectStudy(dir, study.plan);
  int status = 0;
  for (const auto& result : results)
    if (result && result->status != "ok") status = 3;
  printWrote(dir, study.plan);
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
  // A run that `study run` started dies with it and shares its lock; any other holds the
  // folder shared, beside other runs (Slurm's tasks) but never beside a `study run` or `submit`.
  std::optional<StudyLock> lock = StudyLock::inherited(args[0]);
  if (!lock) lock.emplace(args[0], StudyLock::Kind::Shared);
  return runOneStudyRun(args[0], int(value));
}

// Result files that are there but hold no whole result of this plan (cut short, garbage, or
// another plan's): their runs read as pending.
std::vector<int> corruptResults(const fs::path& dir, const StudyPlan& plan) {
  std::vector<int> corrupt;
  for (const auto& run : plan.runs) {
    std::error_code ec;
    if (fs::exists(resultFile(dir, run.index), ec) && !readResult(dir, plan, run.index))
      corrupt.push_back(run.index);
  }
  return corrupt;
}

// study collect DIR [--wait]: exit 3 when runs are left without a result (--wait) or a result
// file is corrupt, after writing the tables either way.
int collectSubcommand(const FlagReader& flags, const fs::path& dir) {
  const StudyPlan plan = readPlan(dir);
  if (studyFolderBusy(dir))
    std::fprintf(stderr,
                 "study: %s is in use by a `study run` or `submit`; the tables hold the results "
                 "so far\n",
                 dir.c_str());
  int status = 0;
  if (flags.isSet("--wait")) status = waitForResults(dir, plan);
  collectStudy(dir, plan);
  if (const std::vector<int> corrupt = corruptResults(dir, plan); !corrupt.empty()) {
    std::string names;
    for (std::size_t k = 0; k < corrupt.size() && k < 5; ++k)
      names += (k ? ", " : "") + resultFile(dir, corrupt[k]).filename().string();
    if (corrupt.size() > 5) names += ", ...";
    std::fprintf(stderr,
                 "study: %zu result file%s in %s %s corrupt (%s): cut short, unreadable or of "
                 "another plan; %s shown as pending: run %s again (study run, or study run-one "
                 "DIR INDEX)\n",
                 corrupt.size(), corrupt.size() == 1 ? "" : "s", (dir / "runs").c_str(),
                 corrupt.size() == 1 ? "is" : "are", names.c_str(),
                 corrupt.size() == 1 ? "its run is" : "their runs are",
                 corrupt.size() == 1 ? "it" : "them");
    status = 3;
  }
  printWrote(dir, plan);
  return status;
}

}  // namespace

StudyLock::StudyLock(const fs::path& dir, Kind kind) {
  // Above the standard descriptors and kInheritedLockFd, so that a child's dup2 onto
  // kInheritedLockFd never meets the descriptor itself.
  const int opened = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (opened < 0)
    throw InputError(dir.string() + ": cannot open the study's folder: " + std::strerror(errno));
  fd_ = ::fcntl(opened, F_DUPFD_CLOEXEC, kInheritedLockFd + 1);
  ::close(opened);
  if (fd_ < 0)
    throw InputError(dir.string() + ": cannot open the study's folder: " + std::strerror(errno));
  if (::flock(fd_, (kind == Kind::Exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0) return;
  const int error = errno;
  if (error != EWOULDBLOCK) return;  // a file system without locks: go on unlocked, as `run` does
  ::close(fd_);
  fd_ = -1;
  if (kind == Kind::Shared || studyFolderBusy(dir))
    throw InputError(dir.string() +
                     ": in use by a `study run` or `study submit` of it; wait for it to end");
  throw InputError(dir.string() +
                   ": in use by runs of the study (`study run-one`, e.g. Slurm's tasks); wait "
                   "for them to end");
}

std::optional<StudyLock> StudyLock::inherited(const fs::path& dir) {
  const char* parent = std::getenv(kStudyParentVariable);
  if (!parent || !*parent) return std::nullopt;
  // Die with the parent (a SIGKILL it cannot pass on), then check that it is still there: it
  // may have died before the request was made.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (std::to_string(::getppid()) != parent)
    throw InputError("study run-one: the `study run` that started it (pid " + std::string(parent) +
                     ") has ended");
  struct stat held {
  }, folder{};
  if (::fstat(kInheritedLockFd, &held) != 0 || ::stat(dir.c_str(), &folder) != 0 ||
      held.st_dev != folder.st_dev || held.st_ino != folder.st_ino)
    return std::nullopt;
  // The parent's exclusive lock, shared through the inherited descriptor: taking it again
  // through that descriptor succeeds only when it is held there (or by no one).
  if (::flock(kInheritedLockFd, LOCK_EX | LOCK_NB) != 0) return std::nullopt;
  ::fcntl(kInheritedLockFd, F_SETFD, FD_CLOEXEC);
  return StudyLock(kInheritedLockFd);
}

StudyLock::~StudyLock() {
  // Closing, never LOCK_UN: a lock shared with a parent or children stays theirs.
  if (fd_ >= 0) ::close(fd_);
}

bool studyFolderBusy(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool busy = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);
  return busy;
}

// The folder holds this study's plan, or none: another study's results are never mixed in.
StudyLock claimFolder(const fs::path& dir, const StudyPlan& plan) {
  StudyLock lock(dir, StudyLock::Kind::Exclusive);
  std::error_code ec;
  if (fs::exists(planFile(dir), ec)) {
    const StudyPlan existing = readPlan(dir);
    if (existing.hash != plan.hash)
      throw InputError(dir.string() + ": holds the results of another study (" + existing.source +
                       ", plan " + existing.hash + "; this one is " + plan.hash +
                       "); use another --out or remove it");
    return lock;
  }
  writeWholeFile(planFile(dir), planToJson(plan).dump(1) + "\n");
  return lock;
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
  study.base = planScenario(plan);  // the runs are checked on the copy they will read
  study.calibrationGrid = plan.runs.empty() ? 0 : plan.runs.front().grid;
  for (const auto& run : plan.runs)
    study.calibrationGrid = std::min(study.calibrationGrid, run.grid);
  // Seconds per cell and step of each group, timed at the smallest grid.
  std::map<std::string, double> costPerCellStep;
  std::map<std::string, std::pair<int, double>> coarsest;  // per group: grid and its step
  for (auto& run : plan.runs) {
    const Scenario s = runScenario(plan, study.base, run);
    // Each run built as `run` builds a comparison, so the plan refuses what a run would.
    std::optional<Comparison> built;
    try {
      built.emplace(studyComparison(run, s, 0.0, plan.force));
    } catch (const InputError& e) {  // the model refuses the domain: name the run
      throw InputError(plan.source + ": run " + run.name + ": " + e.what());
    }
    if (run.dt.seconds) run.dtSeconds = *run.dt.seconds;
    if (run.dt.multiple) run.dtSeconds = proportionalStep(s, run, explicitLimit(*built), coarsest);
    if (run.dtSeconds > 0) {
      try {
        built.emplace(studyComparison(run, s, run.dtSeconds, plan.force));
      } catch (const InputError& e) {
        // "force" is suggested only where it would let the run start (a step beyond a bound,
        // not one outside the parameter's range).
        std::string hint;
        if (!plan.force) try {
            studyComparison(run, s, run.dtSeconds, true);
            hint = " (in a study: \"force\": true)";
          } catch (const InputError&) {
          }
        throw InputError(plan.source + ": axes.dt: " + run.dt.text + " on grid " +
                         std::to_string(run.grid) + ": " + e.what() + hint);
      }
    }
    Model& model = built->model(0);
    const double dt = model.preferredDt();
    const double cells = double(run.cells.nx) * run.cells.ny;
    if (withCalibration && run.grid == study.calibrationGrid)
      costPerCellStep[groupKey(run)] = calibrate(model) / cells;
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
  if (sub == "collect") return collectSubcommand(FlagReader(args, {}, {"--wait"}), target);
  throw InputError("study: unknown subcommand '" + sub +
                   "' (expected plan, run, run-one, submit or collect)");
}

}  // namespace wb::cli
