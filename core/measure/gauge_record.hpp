// A measured (or another code's) time series of the surface at a gauge: a wave tank's gauge
// file, GeoClaw's gauge output, any table with a time column and an elevation column
// (docs/gauges.md, records). The scenario's gauge carries it as "record"; gauges.csv carries it
// at every sample time as ref_eta, and gauge_summary.csv measures every model against it
// (core/measure/gauge_metrics.hpp).
//
// The file: one row a line, columns separated by commas or by spaces and tabs; '#' starts a
// comment to the end of the line; blank lines are skipped; the first row may be a header (a
// row that is not all numbers). Time in seconds; elevation in `units`. The series is
//   t = t_file + shift,   eta = scale(units) * value - offset,
// where offset is the mean of scale * value over the file's first `zero` seconds (tank records
// are not zeroed: a few mm of offset at rest), or 0 when `zero` is 0.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace wb {

// A time window [begin, end] in s.
struct TimeWindow {
  double begin = 0.0, end = 0.0;
};

// The "record" object of a gauge, as written in the scenario.
struct RecordSpec {
  std::string file;  // as written back: a path resolved against the scenario, or builtin:NAME
  int timeColumn = 0, column = 1;  // counted from 0
  std::string units = "m";         // m, cm or mm
  double shift = 0.0;              // s, added to the file's times
  double zero = 0.0;               // s: subtract the mean over the first `zero` s (0: none)
  // Where the summary measures (default: the whole run) and where it looks for the best shift
  // (default: window), and how far it looks (s).
  std::optional<TimeWindow> window, alignWindow;
  double maxShift = 1.0;
  std::optional<double> arrivalThreshold;  // m; default 10 % of the record's largest |eta|
};

// "m" -> 1, "cm" -> 0.01, "mm" -> 0.001; nullopt for anything else.
std::optional<double> unitScale(const std::string& units);

class GaugeRecord {
 public:
  // Reads `text` (the bytes of spec.file, named `name` in errors). Throws InputError with one
  // line "NAME: line N: reason" (a time that does not increase, a value that is not a finite
  // number, a missing column, fewer than two rows, nothing in the first `zero` seconds).
  GaugeRecord(const std::string& text, const std::string& name, RecordSpec spec);

  const RecordSpec& spec() const { return spec_; }
  const std::vector<double>& times() const { return time_; }  // s, strictly increasing
  const std::vector<double>& etas() const { return eta_; }    // m
  double begin() const { return time_.front(); }
  double end() const { return time_.back(); }
  double offset() const { return offset_; }  // m, subtracted (zeroing)
  // Linear interpolation between the rows around t; the end rows' values beyond them.
  double at(double t) const;
  // Throws InputError ("WHERE: NAME covers a to b s; the run needs 0 to T s") unless the
  // record covers [0, runEnd].
  void requireCovers(double runEnd, const std::string& where) const;

 private:
  RecordSpec spec_;
  std::vector<double> time_, eta_;
  double offset_ = 0.0;
};

}  // namespace wb
