#include "core/measure/gauge_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace wb {

namespace {

// The indices [first, last) of the samples inside the window.
std::pair<std::size_t, std::size_t> inside(const Series& s, TimeWindow w) {
  const auto first = std::lower_bound(s.t.begin(), s.t.end(), w.begin);
  const auto last = std::upper_bound(first, s.t.end(), w.end);
  return {std::size_t(first - s.t.begin()), std::size_t(last - s.t.begin())};
}

// The abscissa of the vertex of the parabola through (-h, a), (0, b), (h, c) as a fraction of
// h, in [-1, 1]; 0 when the three points are on a line.
double vertexOffset(double a, double b, double c) {
  const double curvature = a - 2.0 * b + c;
  if (curvature == 0.0) return 0.0;
  return std::clamp(0.5 * (a - c) / curvature, -1.0, 1.0);
}

}  // namespace

std::optional<double> rmsDifference(const Series& s, const std::function<double(double)>& f,
                                    TimeWindow window) {
  const auto [first, last] = inside(s, window);
  if (last < first + 2) return std::nullopt;
  double sum = 0.0, previous = 0.0;
  for (std::size_t k = first; k < last; ++k) {
    const double e = s.v[k] - f(s.t[k]);
    if (k > first) sum += 0.5 * (previous + e * e) * (s.t[k] - s.t[k - 1]);
    previous = e * e;
  }
  const double span = s.t[last - 1] - s.t[first];
  return span > 0.0 ? std::sqrt(sum / span) : std::sqrt(previous);
}

std::optional<Peak> peakOf(const Series& s, TimeWindow window) {
  const auto [first, last] = inside(s, window);
  if (last <= first) return std::nullopt;
  const auto top = std::size_t(
      std::max_element(s.v.begin() + long(first), s.v.begin() + long(last)) - s.v.begin());
  Peak peak{s.v[top], s.t[top]};
  if (top > first && top + 1 < last) {
    // The parabola through the three samples, in a local variable of the mean step (the steps
    // of one model are equal within a tick; a record's rows are evenly spaced).
    const double h = 0.5 * (s.t[top + 1] - s.t[top - 1]);
    const double a = s.v[top - 1], b = s.v[top], c = s.v[top + 1];
    const double x = vertexOffset(a, b, c);
    peak.time = s.t[top] + x * h;
    peak.value = b + 0.25 * (c - a) * x;  // the parabola's value at its vertex
  }
  return peak;
}

std::optional<double> arrivalTime(const Series& s, double threshold, TimeWindow window) {
  const auto [first, last] = inside(s, window);
  for (std::size_t k = first; k < last; ++k) {
    const double a = std::fabs(s.v[k]);
    if (a <= threshold) continue;
    if (k == first) return s.t[k];
    const double before = std::fabs(s.v[k - 1]);
    return s.t[k - 1] + (threshold - before) / (a - before) * (s.t[k] - s.t[k - 1]);
  }
  return std::nullopt;
}

std::optional<double> bestShift(const Series& s, const std::function<double(double)>& f,
                                TimeWindow window, double maxShift) {
  const int steps = 100;
  const double h = maxShift / steps;
  std::vector<double> cost;
  for (int k = -steps; k <= steps; ++k) {
    const double d = k * h;
    const auto rms = rmsDifference(
        s, [&](double t) { return f(t - d); }, window);
    if (!rms) return std::nullopt;
    cost.push_back(*rms * *rms);
  }
  const auto best = std::size_t(std::min_element(cost.begin(), cost.end()) - cost.begin());
  double d = (double(best) - steps) * h;
  if (best > 0 && best + 1 < cost.size())
    d += vertexOffset(cost[best - 1], cost[best], cost[best + 1]) * h;
  return d;
}

GaugeComparison compareWithRecord(const Series& model, const GaugeRecord& record, double runEnd) {
  const RecordSpec& spec = record.spec();
  GaugeComparison c;
  c.window = spec.window.value_or(TimeWindow{0.0, runEnd});
  c.window.end = std::min(c.window.end, runEnd);
  const Series ref{record.times(), record.etas()};
  const auto f = [&](double t) { return record.at(t); };
  c.rmsError = rmsDifference(model, f, c.window);
  c.peak = peakOf(model, c.window);
  c.refPeak = peakOf(ref, c.window);
  if (spec.arrivalThreshold) {
    c.arrivalThreshold = *spec.arrivalThreshold;
  } else {
    const auto [first, last] = inside(ref, c.window);
    double largest = 0.0;
    for (std::size_t k = first; k < last; ++k)
      largest = std::max(largest, std::fabs(ref.v[k]));
    c.arrivalThreshold = 0.1 * largest;
  }
  c.arrival = arrivalTime(model, c.arrivalThreshold, c.window);
  c.refArrival = arrivalTime(ref, c.arrivalThreshold, c.window);
  TimeWindow align = spec.alignWindow.value_or(c.window);
  align.end = std::min(align.end, runEnd);
  c.bestShift = bestShift(model, f, align, spec.maxShift);
  return c;
}

const std::vector<std::string>& gaugeSummaryColumns() {
  static const std::vector<std::string> columns = {
      "window_start",     "window_end",         "rms_error",         "peak",
      "ref_peak",         "peak_error",         "peak_error_rel",    "peak_time",
      "ref_peak_time",    "peak_time_error",    "arrival_threshold", "arrival_time",
      "ref_arrival_time", "arrival_time_error", "best_shift"};
  return columns;
}

std::vector<std::optional<double>> gaugeSummaryValues(const Series* model,
                                                      const GaugeRecord& record, double runEnd) {
  GaugeComparison c;
  if (model) {
    c = compareWithRecord(*model, record, runEnd);
  } else {
    c.window = record.spec().window.value_or(TimeWindow{0.0, runEnd});
    c.window.end = std::min(c.window.end, runEnd);
  }
  using Value = std::optional<double>;
  const auto difference = [](const Value& a, const Value& b) -> Value {
    if (!a || !b) return std::nullopt;
    return *a - *b;
  };
  const auto value = [](const std::optional<Peak>& p) {
    return p ? Value(p->value) : std::nullopt;
  };
  const auto time = [](const std::optional<Peak>& p) { return p ? Value(p->time) : std::nullopt; };
  const Value peakError = difference(value(c.peak), value(c.refPeak));
  Value relative;
  if (peakError && c.refPeak->value != 0.0) relative = *peakError / c.refPeak->value;
  return {c.window.begin,
          c.window.end,
          c.rmsError,
          value(c.peak),
          value(c.refPeak),
          peakError,
          relative,
          time(c.peak),
          time(c.refPeak),
          difference(time(c.peak), time(c.refPeak)),
          model ? Value(c.arrivalThreshold) : std::nullopt,
          c.arrival,
          c.refArrival,
          difference(c.arrival, c.refArrival),
          c.bestShift};
}

}  // namespace wb
