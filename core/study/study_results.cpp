#include "core/study/study_results.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>

#include "core/measure/gauge_metrics.hpp"
#include "core/run/tick_steps.hpp"
#include "core/study/eoc.hpp"

namespace wb {
using nlohmann::json;

namespace {

// JSON has no NaN: an error not measured is null.
json numberOrNull(double value) {
  return std::isfinite(value) ? json(value) : json(nullptr);
}
double numberOrNan(const json& value) {
  return value.is_number() ? value.get<double>() : NAN;
}

std::string number(double value) {
  if (std::isnan(value)) return "nan";
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

// A free-text CSV field (a CPU's name, a reason): quoted when it holds a separator or quote.
std::string csvText(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '\n' || c == '\r') c = ' ';
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  }
  return quoted + "\"";
}

std::string paramValue(const PlannedRun& run, const std::string& column) {
  for (const auto& [param, value] : run.params)
    if (run.model + "." + param == column) return value;
  return "";
}

}  // namespace

double minimum(const std::vector<double>& values) {
  return values.empty() ? NAN : *std::min_element(values.begin(), values.end());
}

double median(std::vector<double> values) {
  if (values.empty()) return NAN;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

json resultToJson(const RunResult& r) {
  json errors = json::array();
  for (const auto& e : r.errors)
    errors.push_back({{"time", e.time},
                      {"l1", numberOrNull(e.l1)},
                      {"l2", numberOrNull(e.l2)},
                      {"max", numberOrNull(e.max)}});
  json gauges = json::array();
  for (const auto& g : r.gauges) {
    json values = json::array();
    for (double v : g.values)
      values.push_back(numberOrNull(v));
    gauges.push_back({{"gauge", g.name}, {"values", values}});
  }
  return {{"hash", r.hash},
          {"index", r.index},
          {"name", r.name},
          {"status", r.status},
          {"reason", r.reason},
          {"error_against", r.errorAgainst},
          {"errors", errors},
          {"cpu_s", r.cpuSeconds},
          {"wall_s", r.wallSeconds},
          {"steps", r.steps},
          {"peak_mb", r.peakMb},
          {"threads", r.threads},
          {"machine",
           {{"host", r.machine.host},
            {"cpu", r.machine.cpu},
            {"cores", r.machine.cores},
            {"load_average", r.machine.loadAverage}}},
          {"gauges", gauges},
          {"run_up", numberOrNull(r.runUp)},
          {"run_up_note", r.runUpNote}};
}

std::optional<RunResult> resultFromText(const std::string& text) {
  try {
    const json in = json::parse(text);
    RunResult r;
    r.hash = in.at("hash").get<std::string>();
    r.index = in.at("index").get<int>();
    r.name = in.at("name").get<std::string>();
    r.status = in.at("status").get<std::string>();
    r.reason = in.at("reason").get<std::string>();
    r.errorAgainst = in.at("error_against").get<std::string>();
    for (const auto& e : in.at("errors"))
      r.errors.push_back({e.at("time").get<double>(), numberOrNan(e.at("l1")),
                          numberOrNan(e.at("l2")), numberOrNan(e.at("max"))});
    r.cpuSeconds = in.at("cpu_s").get<std::vector<double>>();
    r.wallSeconds = in.at("wall_s").get<std::vector<double>>();
    r.steps = in.at("steps").get<long long>();
    r.peakMb = in.at("peak_mb").get<double>();
    r.threads = in.at("threads").get<int>();
    const json& m = in.at("machine");
    r.machine = {m.at("host").get<std::string>(), m.at("cpu").get<std::string>(),
                 m.at("cores").get<int>(), m.at("load_average").get<double>()};
    for (const auto& g : in.at("gauges")) {
      RunGauge gauge{g.at("gauge").get<std::string>(), {}};
      for (const auto& v : g.at("values"))
        gauge.values.push_back(numberOrNan(v));
      r.gauges.push_back(std::move(gauge));
    }
    r.runUp = numberOrNan(in.at("run_up"));
    r.runUpNote = in.at("run_up_note").get<std::string>();
    return r;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

void writeStudyCsv(std::ostream& out, const StudyPlan& plan,
                   const std::vector<std::optional<RunResult>>& results) {
  out << "run,model,grid,dt";
  for (const auto& column : plan.paramColumns)
    out << ',' << column;
  out << ",time,error_l1,error_l2,error_max,cpu_s,wall_s,steps,peak_mb,status,cpu_s_median,"
         "wall_s_median,steps_per_s,repeats,dt_s,nx,ny,threads,error_against,run_up,run_up_note,"
         "host,cpu_model,cores,load_average,reason";
  // A column per gauge with a record: the run's RMS difference from it (gauge_summary.csv's
  // rms_error), so that study.csv alone compares the runs at the gauges.
  const auto& summaryColumns = gaugeSummaryColumns();
  const std::size_t rmsColumn =
      std::size_t(std::find(summaryColumns.begin(), summaryColumns.end(), "rms_error") -
                  summaryColumns.begin());
  for (const std::string& gauge : plan.gaugeRecords)
    out << ",gauge_rms." << csvText(gauge);
  out << '\n';
  const auto gaugeCells = [&](const std::optional<RunResult>& result) {
    std::string cells;
    for (const std::string& gauge : plan.gaugeRecords) {
      double rms = NAN;
      if (result)
        for (const RunGauge& g : result->gauges)
          if (g.name == gauge && rmsColumn < g.values.size()) rms = g.values[rmsColumn];
      cells += ',' + (result ? number(rms) : std::string());
    }
    return cells;
  };
  for (const auto& run : plan.runs) {
    const std::optional<RunResult>& result = results.at(std::size_t(run.index));
    std::string head =
        run.name + ',' + run.model + ',' + std::to_string(run.grid) + ',' + run.dt.text;
    for (const auto& column : plan.paramColumns)
      head += ',' + paramValue(run, column);
    for (double time : plan.errorAt) {
      out << head << ',' << timeText(time);
      if (!result) {
        out << ",,,,,,,,pending,,,,,," << run.cells.nx << ',' << run.cells.ny << ",,,,,,,,,"
            << gaugeCells(result) << '\n';
        continue;
      }
      RunErrors errors{time};
      for (const auto& e : result->errors)
        if (std::fabs(e.time - time) <= 1e-9 * std::max(1.0, time)) errors = e;
      const double wall = minimum(result->wallSeconds);
      out << ',' << number(errors.l1) << ',' << number(errors.l2) << ',' << number(errors.max)
          << ',' << number(minimum(result->cpuSeconds)) << ',' << number(wall) << ','
          << result->steps << ',' << number(result->peakMb) << ',' << result->status << ','
          << number(median(result->cpuSeconds)) << ',' << number(median(result->wallSeconds)) << ','
          << number(wall > 0 ? double(result->steps) / wall : NAN) << ','
          << result->wallSeconds.size() << ',' << number(run.stepSeconds) << ',' << run.cells.nx
          << ',' << run.cells.ny << ',' << result->threads << ',' << csvText(result->errorAgainst)
          << ',' << (std::isnan(result->runUp) ? "" : number(result->runUp)) << ','
          << result->runUpNote << ',' << csvText(result->machine.host) << ','
          << csvText(result->machine.cpu) << ',' << result->machine.cores << ','
          << number(result->machine.loadAverage) << ',' << csvText(result->reason)
          << gaugeCells(result) << '\n';
    }
  }
}

void writeGaugeSummaryCsv(std::ostream& out, const StudyPlan& plan,
                          const std::vector<std::optional<RunResult>>& results) {
  out << "run,model,grid,dt";
  for (const auto& column : plan.paramColumns)
    out << ',' << column;
  out << ",gauge";
  for (const auto& column : gaugeSummaryColumns())
    out << ',' << column;
  out << ",status\n";
  for (const auto& run : plan.runs) {
    const std::optional<RunResult>& result = results.at(std::size_t(run.index));
    std::string head =
        run.name + ',' + run.model + ',' + std::to_string(run.grid) + ',' + run.dt.text;
    for (const auto& column : plan.paramColumns)
      head += ',' + paramValue(run, column);
    for (const std::string& gauge : plan.gaugeRecords) {
      out << head << ',' << csvText(gauge);
      const RunGauge* measured = nullptr;
      if (result)
        for (const auto& g : result->gauges)
          if (g.name == gauge) measured = &g;
      for (std::size_t c = 0; c < gaugeSummaryColumns().size(); ++c) {
        out << ',';
        if (measured && c < measured->values.size() && !std::isnan(measured->values[c]))
          out << number(measured->values[c]);
      }
      out << ',' << (result ? result->status : "pending") << '\n';
    }
  }
}

void writeEocCsv(std::ostream& out, const StudyPlan& plan,
                 const std::vector<std::optional<RunResult>>& results) {
  out << "model,dt";
  for (const auto& column : plan.paramColumns)
    out << ',' << column;
  out << ",time,grid,error_l2,eoc\n";
  // A group: the runs that differ only in grid, in plan order.
  std::map<std::string, std::vector<const PlannedRun*>> groups;
  std::vector<std::string> order;
  for (const auto& run : plan.runs) {
    std::string key = run.model + ',' + run.dt.text;
    for (const auto& column : plan.paramColumns)
      key += ',' + paramValue(run, column);
    if (!groups.count(key)) order.push_back(key);
    groups[key].push_back(&run);
  }
  for (const auto& key : order)
    for (double time : plan.errorAt) {
      std::vector<GridError> points;
      for (const PlannedRun* run : groups[key]) {
        const auto& result = results.at(std::size_t(run->index));
        if (!result || result->status != "ok") continue;
        for (const auto& e : result->errors)
          if (std::fabs(e.time - time) <= 1e-9 * std::max(1.0, time))
            points.push_back({run->grid, e.l2});
      }
      const EocTable table = convergenceOrders(points);
      const std::string head = key + ',' + timeText(time) + ',';
      for (std::size_t k = 0; k < table.points.size(); ++k)
        out << head << table.points[k].grid << ',' << number(table.points[k].error) << ','
            << (table.eoc[k] ? number(*table.eoc[k]) : "-") << '\n';
      if (table.fit) out << head << "fit,," << number(*table.fit) << '\n';
    }
}

}  // namespace wb
