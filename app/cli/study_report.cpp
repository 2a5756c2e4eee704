#include "app/cli/study_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <vector>

#include "app/cli/study_command.hpp"
#include "app/export/output_file.hpp"
#include "core/errors.hpp"
#include "core/scenario/field_io.hpp"

namespace wb::cli {
namespace fs = std::filesystem;

namespace {

using Row = std::map<std::string, std::string>;

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<Row> named() const {
    std::vector<Row> out;
    for (const auto& fields : rows) {
      Row row;
      for (std::size_t k = 0; k < header.size() && k < fields.size(); ++k)
        row[header[k]] = fields[k];
      out.push_back(std::move(row));
    }
    return out;
  }
};

// One CSV line as written by study_results.cpp: fields with commas or quotes are quoted, and
// quotes inside doubled.
std::vector<std::string> csvFields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t k = 0; k < line.size(); ++k) {
    const char c = line[k];
    if (quoted && c == '"' && k + 1 < line.size() && line[k + 1] == '"') {
      fields.back() += '"';
      ++k;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

Table parseCsv(const std::string& text) {
  Table table;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    if (table.header.empty())
      table.header = csvFields(line);
    else
      table.rows.push_back(csvFields(line));
  }
  return table;
}

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string htmlTable(const Table& table) {
  std::string html = "<div class=\"scroll\"><table>\n<tr>";
  for (const auto& name : table.header)
    html += "<th>" + escaped(name) + "</th>";
  html += "</tr>\n";
  for (const auto& fields : table.rows) {
    html += "<tr>";
    for (const auto& field : fields)
      html += "<td>" + escaped(field) + "</td>";
    html += "</tr>\n";
  }
  return html + "</table></div>\n";
}

double numberOf(const Row& row, const std::string& key) {
  const auto it = row.find(key);
  if (it == row.end() || it->second.empty() || it->second == "-") return NAN;
  try {
    return std::stod(it->second);
  } catch (const std::exception&) {
    return NAN;
  }
}

bool plottable(double x, double y) {
  return std::isfinite(x) && std::isfinite(y) && x > 0 && y > 0;
}

struct Series {
  std::string title;
  std::vector<std::pair<double, double>> points;
};

// gnuplot's single-quoted strings take no escapes: quotes become typographic ones.
std::string gnuplotText(std::string text) {
  std::replace(text.begin(), text.end(), '\'', '`');
  return "'" + text + "'";
}

// Runs gnuplot on `script` (kept in `workDir` with gnuplot's messages): the SVG it printed,
// its XML prolog and doctype left out for inlining.
std::string runGnuplot(const std::string& script, const fs::path& workDir,
                       const std::string& plotName) {
  const fs::path scriptFile = workDir / (plotName + ".gp"), logFile = workDir / (plotName + ".log");
  writeWholeFile(scriptFile, script);
  const auto svg = programOutput({"gnuplot", scriptFile.string()}, logFile);
  if (!svg) {
    std::string why = fs::exists(logFile) ? readFileBytes(logFile) : std::string();
    if (const auto end = why.find('\n', why.find_first_not_of('\n')); end != std::string::npos)
      why.resize(end);
    throw InputError(why.empty() ? std::string("cannot run gnuplot (on Debian: apt-get install "
                                               "gnuplot-nox)")
                                 : "gnuplot failed on " + plotName + ": " + why);
  }
  const auto start = svg->find("<svg");
  return start == std::string::npos ? *svg : svg->substr(start);
}

// A log-log plot of the series (those with a point to draw), or an empty string for none.
std::string logLogPlot(const std::vector<Series>& series, const std::string& title,
                       const std::string& xLabel, const std::string& yLabel, bool xIsGrid,
                       const fs::path& workDir, const std::string& plotName) {
  std::string script =
      "set terminal svg size 820,460 dynamic font 'DejaVu Sans,11' background rgb 'white'\n"
      "set logscale xy\nset grid\nset key outside right top noenhanced\n"
      "set format y '%.0e'\nset title " +
      gnuplotText(title) + " noenhanced\nset xlabel " + gnuplotText(xLabel) +
      " noenhanced\nset ylabel " + gnuplotText(yLabel) + " noenhanced\n";
  if (xIsGrid) script += "set xtics 2\n";
  std::string plot;
  int drawn = 0;
  for (const Series& s : series) {
    if (s.points.empty()) continue;
    const std::string block = "$s" + std::to_string(drawn);
    script += block + " << EOD\n";
    char line[64];
    for (const auto& [x, y] : s.points) {
      std::snprintf(line, sizeof line, "%.9g %.9g\n", x, y);
      script += line;
    }
    script += "EOD\n";
    plot += std::string(drawn ? ", " : "plot ") + block +
            " using 1:2 with linespoints lw 2 pt 7 ps 0.8 title " + gnuplotText(s.title);
    ++drawn;
  }
  if (drawn == 0) return "";
  return runGnuplot(script + plot + "\n", workDir, plotName);
}

// The columns naming a run's group: model, dt and parameter axes.
std::string groupTitle(const Row& row, const StudyPlan& plan) {
  std::string title = row.at("model") + " dt " + row.at("dt");
  for (const auto& column : plan.paramColumns)
    if (row.count(column)) title += " " + column + "=" + row.at(column);
  return title;
}

bool sameTime(const Row& row, double time) {
  return std::fabs(numberOf(row, "time") - time) <= 1e-9 * std::max(1.0, time);
}

std::vector<Series> workPrecision(const std::vector<Row>& runs, const StudyPlan& plan,
                                  double time) {
  std::map<std::string, Series> byTitle;
  std::vector<std::string> order;
  for (const Row& row : runs) {
    if (!sameTime(row, time) || row.at("status") != "ok") continue;
    // One line per group (model, dt, parameter values) through its grids: runs of another dt
    // are another method, not another point of the same line.
    const std::string title = groupTitle(row, plan);
    if (!byTitle.count(title)) order.push_back(title), byTitle[title].title = title;
    const double cpu = numberOf(row, "cpu_s"), error = numberOf(row, "error_l2");
    if (plottable(cpu, error)) byTitle[title].points.emplace_back(cpu, error);
  }
  std::vector<Series> series;
  for (const auto& title : order) {
    Series s = byTitle[title];
    std::sort(s.points.begin(), s.points.end());
    series.push_back(std::move(s));
  }
  return series;
}

std::vector<Series> convergence(const std::vector<Row>& eoc, const StudyPlan& plan, double time) {
  std::map<std::string, Series> byTitle;
  std::vector<std::string> order;
  for (const Row& row : eoc) {
    if (!sameTime(row, time)) continue;
    const std::string title = groupTitle(row, plan);
    if (!byTitle.count(title)) order.push_back(title), byTitle[title].title = title;
    if (row.at("grid") == "fit") {
      char order[32];
      std::snprintf(order, sizeof order, " (order %.3g)", numberOf(row, "eoc"));
      byTitle[title].title = title + order;
      continue;
    }
    const double grid = numberOf(row, "grid"), error = numberOf(row, "error_l2");
    if (plottable(grid, error)) byTitle[title].points.emplace_back(grid, error);
  }
  std::vector<Series> series;
  for (const auto& title : order)
    series.push_back(byTitle[title]);
  return series;
}

std::string machines(const std::vector<Row>& runs) {
  std::map<std::string, int> counts;
  for (const Row& row : runs)
    if (!row.at("host").empty())
      ++counts[row.at("host") + " | " + row.at("cpu_model") + " | " + row.at("cores") + " cores"];
  if (counts.empty()) return "<p>No run has finished yet.</p>\n";
  std::string html = "<table><tr><th>host | CPU | cores</th><th>rows</th></tr>\n";
  for (const auto& [machine, count] : counts)
    html += "<tr><td>" + escaped(machine) + "</td><td>" + std::to_string(count) + "</td></tr>\n";
  return html + "</table>\n";
}

constexpr const char* kStyle = R"(<style>
body { font-family: "DejaVu Sans", sans-serif; margin: 24px auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.8em; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; white-space: nowrap; }
th { background: #eee; }
.scroll { overflow-x: auto; max-height: 480px; overflow-y: auto; }
pre { background: #f6f6f6; padding: 8px; overflow-x: auto; }
.note { color: #844; }
svg { max-width: 100%; height: auto; }
</style>
)";

}  // namespace

std::string studyReportHtml(const StudyPlan& plan, const std::string& studyCsv,
                            const std::string& eocCsv, const std::string& studyText,
                            const fs::path& workDir, std::string& plotProblem) {
  const Table runsTable = parseCsv(studyCsv), eocTable = parseCsv(eocCsv);
  const std::vector<Row> runs = runsTable.named(), eoc = eocTable.named();
  std::map<std::string, int> statuses;
  std::string against;
  for (const Row& row : runs) {
    ++statuses[row.at("status")];
    if (against.empty()) against = row.at("error_against");
  }
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<title>Wavebench study: " + escaped(plan.source) + "</title>\n" + kStyle + "</head>\n";
  html += "<body>\n<h1>Wavebench study: " + escaped(plan.source) + "</h1>\n";
  html +=
      "<p>Scenario " + escaped(plan.scenario) + "; " + std::to_string(plan.runs.size()) + " runs (";
  bool first = true;
  for (const auto& [status, count] : statuses) {
    html += (first ? "" : ", ") + std::to_string(count) + " rows " + escaped(status);
    first = false;
  }
  html += "); " + std::to_string(plan.repeats) + " timed repeat(s) per run, " +
          std::to_string(plan.threads) + " thread(s). Errors are taken against " +
          escaped(plan.hasReference ? std::string("the scenario's reference")
                                    : "the finest run of each group (" + against + ")") +
          ". CPU time is the fastest repeat's.</p>\n";
  int plotIndex = 0;
  for (double time : plan.errorAt) {
    char at[32];
    std::snprintf(at, sizeof at, "%g", time);
    const std::string when = std::string(" at t = ") + at + " s";
    html += "<h2>Work and precision" + when + "</h2>\n";
    const auto plotOrNote = [&](const std::vector<Series>& series, const std::string& title,
                                const std::string& x, const std::string& y, bool xIsGrid) {
      if (!plotProblem.empty())
        return "<p class=\"note\">No plot: " + escaped(plotProblem) + "</p>\n";
      try {
        const std::string svg =
            logLogPlot(series, title, x, y, xIsGrid, workDir, "plot" + std::to_string(plotIndex++));
        return svg.empty() ? std::string("<p class=\"note\">No finite error to plot.</p>\n")
                           : "<figure>" + svg + "</figure>\n";
      } catch (const InputError& e) {
        plotProblem = e.what();
        return "<p class=\"note\">No plot: " + escaped(plotProblem) + "</p>\n";
      }
    };
    html += plotOrNote(workPrecision(runs, plan, time), "Work and precision" + when,
                       "CPU time of a run (s)", "L2 error (m)", false);
    html += "<h2>Convergence" + when + "</h2>\n";
    html += plotOrNote(convergence(eoc, plan, time), "Convergence" + when,
                       "cells along the longer side", "L2 error (m)", true);
  }
  html += "<h2>Orders of convergence (eoc.csv)</h2>\n" + htmlTable(eocTable);
  html += "<h2>Runs (study.csv)</h2>\n" + htmlTable(runsTable);
  html += "<h2>Machines</h2>\n" + machines(runs);
  html += "<h2>Study file</h2>\n<pre>" + escaped(studyText) + "</pre>\n";
  html += "<p>Written by wavebench-cli study collect (docs/studies.md).</p>\n</body>\n</html>\n";
  return html;
}

}  // namespace wb::cli
