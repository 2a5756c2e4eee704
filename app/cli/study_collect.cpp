// study collect: the results of a study's folder merged into study.csv and eoc.csv. Without a
// reference in the scenario, each run's errors are taken here against the finest run of its
// group (the same model and axes but the grid), from the surfaces the runs kept.
#include <unistd.h>

#include <cstdio>
#include <map>
#include <sstream>

#include "app/cli/study_command.hpp"
#include "app/cli/study_report.hpp"
#include "app/export/output_file.hpp"
#include "core/errors.hpp"
#include "core/scenario/field_io.hpp"
#include "core/study/finest_run_errors.hpp"
#include "core/study/study_spec.hpp"

namespace wb::cli {
namespace fs = std::filesystem;

namespace {

std::string groupOf(const PlannedRun& run) {
  std::string key = run.model + "|" + run.dt.text;
  for (const auto& [param, value] : run.params)
    key += "|" + param + "=" + value;
  return key;
}

void errorsAgainstFinestRuns(const fs::path& dir, const StudyPlan& plan,
                             std::vector<std::optional<RunResult>>& results) {
  std::map<std::string, const PlannedRun*> finest;
  for (const auto& run : plan.runs) {
    const auto& result = results[std::size_t(run.index)];
    if (!result || result->status != "ok") continue;
    const PlannedRun*& best = finest[groupOf(run)];
    if (!best || run.grid > best->grid) best = &run;
  }
  std::optional<Scenario> base;
  try {
    base = planScenario(plan);
  } catch (const InputError& e) {  // the domain as planned is gone: no errors, and why
    std::fprintf(stderr, "study: no errors against the finest runs: %s\n", e.what());
    for (auto& result : results)
      if (result && result->status == "ok")
        result->reason = std::string("no error against the finest run: ") + e.what();
    return;
  }
  for (const auto& run : plan.runs) {
    auto& result = results[std::size_t(run.index)];
    if (!result || result->status != "ok") continue;
    const PlannedRun* best = finest[groupOf(run)];
    result->errorAgainst = "grid " + std::to_string(best->grid) + " (the finest run)";
    if (best == &run) continue;  // its own errors stay nan
    const Domain domain = buildDomain(scenarioOnGrid(*base, run.cells, plan.source));
    for (std::size_t k = 0; k < plan.errorAt.size(); ++k) {
      try {
        const Field2D eta = readCsvField(etaFile(dir, run.index, k), run.cells.nx, run.cells.ny);
        const Field2D fine =
            readCsvField(etaFile(dir, best->index, k), best->cells.nx, best->cells.ny);
        const ReferenceErrors e = errorsAgainstFinerRun(eta, domain, fine, best->cells);
        result->errors[k] = {plan.errorAt[k], e.l1, e.l2, e.max};
      } catch (const InputError& e) {  // a surface missing: no error, and why
        result->reason = e.what();
      }
    }
  }
}

// The study file as the plan read it, or (moved since) the plan the folder keeps.
std::string studyTextOf(const fs::path& dir, const StudyPlan& plan) {
  try {
    return studyText(plan.source);
  } catch (const InputError&) {
    return readFileBytes(planFile(dir));
  }
}

void writeReport(const fs::path& dir, const StudyPlan& plan, const std::string& studyCsv,
                 const std::string& eocCsv) {
  // Its own, so that two collects at once do not remove each other's files.
  const fs::path work = dir / (".report-work." + std::to_string(getpid()));
  fs::create_directories(work);
  std::string plotProblem;
  std::string html;
  try {
    html = studyReportHtml(plan, studyCsv, eocCsv, studyTextOf(dir, plan), work, plotProblem);
  } catch (...) {
    fs::remove_all(work);
    throw;
  }
  fs::remove_all(work);
  writeWholeFile(dir / "report.html", html, Temporary::PerProcess);
  if (!plotProblem.empty())
    std::fprintf(stderr, "study: %s has no plots: %s\n", (dir / "report.html").c_str(),
                 plotProblem.c_str());
}

}  // namespace

std::vector<std::optional<RunResult>> collectStudy(const fs::path& dir, const StudyPlan& plan) {
  std::vector<std::optional<RunResult>> results;
  for (const auto& run : plan.runs)
    results.push_back(readResult(dir, plan, run.index));
  if (!plan.hasReference) errorsAgainstFinestRuns(dir, plan, results);
  std::ostringstream study, eoc;
  writeStudyCsv(study, plan, results);
  writeEocCsv(eoc, plan, results);
  writeWholeFile(dir / "study.csv", study.str(), Temporary::PerProcess);
  writeWholeFile(dir / "eoc.csv", eoc.str(), Temporary::PerProcess);
  if (!plan.gaugeRecords.empty()) {
    std::ostringstream gauges;
    writeGaugeSummaryCsv(gauges, plan, results);
    writeWholeFile(dir / "gauge_summary.csv", gauges.str(), Temporary::PerProcess);
  }
  writeReport(dir, plan, study.str(), eoc.str());
  return results;
}

}  // namespace wb::cli
