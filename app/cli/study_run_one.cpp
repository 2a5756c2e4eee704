// study run-one: one planned run of a study in this process, so that its peak memory and CPU
// time are its own (getrusage RUSAGE_SELF). One untimed warm-up, then `repeats` timed runs of
// the whole scenario; the errors come from the first, the physics being the same every time.
#include <omp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "app/cli/study_command.hpp"
#include "app/export/output_file.hpp"
#include "core/errors.hpp"
#include "core/measure/gauge_metrics.hpp"
#include "core/measure/max_map.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/field_io.hpp"
#include "models/registry.hpp"

namespace wb::cli {
namespace fs = std::filesystem;

namespace {

double cpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);  // every thread of this process: a run with threads > 1 too
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

double peakMegabytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) / 1024.0;  // kilobytes on Linux
}

std::string padded(int index) {
  char text[16];
  std::snprintf(text, sizeof text, "%04d", index);
  return text;
}

// One pass over the run's scenario; fills the errors (first pass) and returns what it took.
struct Pass {
  double cpu = 0.0, wall = 0.0;
  long long steps = 0;
  std::optional<std::string> failure;
};

Pass runPass(const StudyPlan& plan, const Scenario& scenario, const PlannedRun& run,
             RunResult* measure, const fs::path& dir) {
  Comparison comparison = studyComparison(run, scenario, run.dtSeconds, plan.force);
  // The measuring pass also keeps the series at the gauges with a record (every step, as `run`
  // does) and, where the domain has land above the still water, the maximum map of the run-up.
  bool recordsGauges = false;
  for (const GaugeSpec& gauge : scenario.gauges)
    recordsGauges = recordsGauges || (measure && gauge.record);
  if (recordsGauges) comparison.setRecordGauges(true);
  const bool measuresRunUp = measure && comparison.domain().hasLandAboveRest();
  if (measuresRunUp) comparison.recordMaxMaps({});
  std::vector<Series> series(scenario.gauges.size());
  const auto takeGaugeSamples = [&] {
    if (!recordsGauges) return;
    for (const GaugeSample& sample : comparison.takeGaugeSamples(0)) {
      Series& at = series[std::size_t(sample.gauge)];
      at.t.push_back(sample.time);
      at.v.push_back(sample.value.eta);
    }
  };
  Pass pass;
  std::size_t next = 0;  // the next error time
  const auto measureNow = [&] {
    while (next < plan.errorAt.size() && std::fabs(comparison.time() - plan.errorAt[next]) <=
                                             1e-9 * std::max(1.0, comparison.time())) {
      if (measure) {
        const FrameRecord record = comparison.record(0);
        RunErrors& errors = measure->errors[next];
        if (record.errorL2)
          errors = {plan.errorAt[next], *record.errorL1, *record.errorL2, *record.errorMax};
        if (!plan.hasReference) {
          std::ostringstream text;
          writeCsvField(text, comparison.model(0).eta());
          writeWholeFile(etaFile(dir, run.index, next), text.str(), Temporary::PerProcess);
        }
      }
      ++next;
    }
  };
  const double cpu0 = cpuSeconds();
  const auto wall0 = std::chrono::steady_clock::now();
  measureNow();
  for (int f = 0; f < scenario.frameCount() && !comparison.failure(0); ++f) {
    comparison.advanceFrame();
    takeGaugeSamples();
    pass.steps += comparison.record(0).substeps;
    if (!comparison.failure(0)) measureNow();
  }
  pass.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  pass.cpu = cpuSeconds() - cpu0;
  pass.failure = comparison.failure(0);
  if (recordsGauges)
    for (std::size_t g = 0; g < scenario.gauges.size(); ++g) {
      const GaugeSpec& gauge = scenario.gauges[g];
      if (!gauge.record) continue;
      RunGauge& measured = measure->gauges.emplace_back(RunGauge{gauge.name, {}});
      for (const auto& v : gaugeSummaryValues(pass.failure ? nullptr : &series[g], *gauge.record,
                                              comparison.time()))
        measured.values.push_back(v.value_or(NAN));
    }
  if (measuresRunUp && !pass.failure) {
    const MaxMap& map = *comparison.maxMap(0);
    const auto runUp = map.runUp(comparison.domain());
    measure->runUp = runUp ? runUp->height : NAN;
    measure->runUpNote = runUpNote(map, comparison.domain());
  }
  return pass;
}

}  // namespace

Comparison studyComparison(const PlannedRun& run, const Scenario& scenario, double dt, bool force) {
  std::vector<std::string> overrides;
  for (const auto& [param, value] : run.params)
    overrides.push_back(run.model + "." + param + "=" + value);
  if (dt > 0) {
    char text[64];
    std::snprintf(text, sizeof text, "%s.dt=%.17g", run.model.c_str(), dt);
    overrides.push_back(text);
  }
  return Comparison(scenario, createScenarioModels(scenario, {run.model}, overrides, force));
}

fs::path planFile(const fs::path& dir) {
  return dir / "study.json";
}
fs::path resultFile(const fs::path& dir, int index) {
  return dir / "runs" / (padded(index) + ".json");
}
fs::path etaFile(const fs::path& dir, int index, std::size_t time) {
  return dir / "runs" / (padded(index) + "_eta_" + std::to_string(time) + ".csv");
}

StudyPlan readPlan(const fs::path& dir) {
  const fs::path file = planFile(dir);
  std::error_code ec;
  if (!fs::exists(file, ec))
    throw InputError(file.string() + ": no study plan here (run `wavebench-cli study run` first)");
  try {
    return planFromJson(nlohmann::json::parse(readFileBytes(file)), file.string());
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file.string() + ": malformed JSON: " + e.what());
  }
}

std::optional<RunResult> readResult(const fs::path& dir, const StudyPlan& plan, int index) {
  const fs::path file = resultFile(dir, index);
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  std::optional<RunResult> result;
  try {
    result = resultFromText(readFileBytes(file));
  } catch (const InputError&) {
    return std::nullopt;
  }
  if (!result || result->hash != plan.hash || result->index != index ||
      result->name != plan.runs.at(std::size_t(index)).name)
    return std::nullopt;
  return result;
}

void writeResult(const fs::path& dir, const RunResult& result) {
  fs::create_directories(dir / "runs");
  writeWholeFile(resultFile(dir, result.index), resultToJson(result).dump(1) + "\n",
                 Temporary::PerProcess);
}

MachineInfo thisMachine() {
  MachineInfo machine;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) machine.host = host;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.starts_with("model name")) {
      machine.cpu = line.substr(line.find(':') + 2);
      break;
    }
  machine.cores = int(std::thread::hardware_concurrency());
  double load[1] = {0.0};
  if (getloadavg(load, 1) == 1) machine.loadAverage = load[0];
  return machine;
}

int runOneStudyRun(const fs::path& dir, int index) {
  const StudyPlan plan = readPlan(dir);
  if (index < 0 || index >= int(plan.runs.size()))
    throw InputError("study run-one: run " + std::to_string(index) + " is not in the plan (0 to " +
                     std::to_string(plan.runs.size() - 1) + ")");
  const PlannedRun& run = plan.runs[std::size_t(index)];
  omp_set_num_threads(plan.threads);
  RunResult result;
  result.hash = plan.hash;
  result.index = index;
  result.name = run.name;
  result.threads = plan.threads;
  result.machine = thisMachine();
  result.errorAgainst = plan.hasReference ? "reference" : "";
  for (double time : plan.errorAt)
    result.errors.push_back({time});
  try {
    // The plan's own copy of the scenario, refused when it or a file it reads is not what was
    // planned: editing the scenario while a study runs never changes its runs.
    const Scenario base = planScenario(plan);
    const Scenario scenario = runScenario(plan, base, run);
    const int passes = plan.repeats + (plan.warmup ? 1 : 0);
    for (int p = 0; p < passes; ++p) {
      const Pass pass = runPass(plan, scenario, run, p == 0 ? &result : nullptr, dir);
      result.steps = pass.steps;
      if (pass.failure) {  // a blow-up ends the run: its timing is of the part before it
        result.status = "blew-up";
        result.reason = *pass.failure;
        result.cpuSeconds = {pass.cpu};
        result.wallSeconds = {pass.wall};
        break;
      }
      if (p > 0 || !plan.warmup) {
        result.cpuSeconds.push_back(pass.cpu);
        result.wallSeconds.push_back(pass.wall);
      }
    }
  } catch (const WriteError&) {
    throw;
  } catch (const InputError& e) {  // the run cannot start here: recorded, the study goes on
    result.status = "failed";
    result.reason = e.what();
  }
  result.peakMb = peakMegabytes();
  writeResult(dir, result);
  std::printf("%s: %s%s%s\n", run.name.c_str(), result.status.c_str(),
              result.reason.empty() ? "" : ": ", result.reason.c_str());
  return result.status == "ok" ? 0 : result.status == "blew-up" ? 3 : 2;
}

}  // namespace wb::cli
