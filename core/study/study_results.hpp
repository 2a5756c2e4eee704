// What one run of a study found (runs/NNNN.json in the study's folder) and the tables made of
// all of them: study.csv, one row per run and error time, and eoc.csv, the orders of
// convergence over the grids (docs/studies.md).
#pragma once

#include <cmath>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/study/study_plan.hpp"

namespace wb {

// The machine a run was timed on: timings of different machines do not compare.
struct MachineInfo {
  std::string host;
  std::string cpu;  // /proc/cpuinfo "model name"
  int cores = 0;
  double loadAverage = 0.0;  // 1-minute, when the run started
};

struct RunErrors {
  double time = 0.0;
  double l1 = NAN, l2 = NAN, max = NAN;  // NaN where not measured (a run that blew up)
};

// A run's measures at a gauge with a record: gauge_summary.csv's columns (gaugeSummaryValues,
// core/measure/gauge_metrics.hpp), NaN for an empty cell.
struct RunGauge {
  std::string name;
  std::vector<double> values;
};

struct RunResult {
  std::string hash;  // the plan's
  int index = 0;
  std::string name;
  std::string status = "ok";  // "ok", "blew-up" or "failed" (see docs/studies.md)
  std::string reason;         // why it blew up or failed
  std::string errorAgainst;   // "reference", or "grid N" (the finest run of its group)
  std::vector<RunErrors> errors;
  std::vector<double> cpuSeconds, wallSeconds;  // per timed repeat
  long long steps = 0;                          // of one repeat
  double peakMb = 0.0;                          // the run's process
  int threads = 1;
  MachineInfo machine;
  std::vector<RunGauge> gauges;  // the scenario's gauges with a record, in its order
  // The run-up (core/measure/max_map.hpp) where the domain has land above the still water:
  // its height (m, NaN where none) and max_maps.csv's note; the note is empty where the
  // domain has no such land or the run did not finish.
  double runUp = NAN;
  std::string runUpNote;
};

nlohmann::json resultToJson(const RunResult& result);
// None when the text is not a whole result (a run killed while writing it).
std::optional<RunResult> resultFromText(const std::string& text);

double minimum(const std::vector<double>& values);  // NaN for none
double median(std::vector<double> values);          // NaN for none

// study.csv: the runs in plan order, each with one row per error time (a run without a
// result yet has status "pending"); with gauge records, a column `gauge_rms.NAME` per gauge
// after the others.
void writeStudyCsv(std::ostream& out, const StudyPlan& plan,
                   const std::vector<std::optional<RunResult>>& results);
// gauge_summary.csv: per run and gauge with a record (plan.gaugeRecords), the run's measures
// against the record as `run` writes them (status "pending": empty).
void writeGaugeSummaryCsv(std::ostream& out, const StudyPlan& plan,
                          const std::vector<std::optional<RunResult>>& results);
// eoc.csv: per model, dt, parameter values and error time, the L2 errors over the grids with
// their orders, then a row "fit" with the least-squares order.
void writeEocCsv(std::ostream& out, const StudyPlan& plan,
                 const std::vector<std::optional<RunResult>>& results);

}  // namespace wb
