// How a model's gauge series compares with a record (docs/gauges.md, the summary): pure
// functions of sampled series, each defined where it is declared. A series is its sample times
// (increasing) and values; the record is a continuous function (GaugeRecord::at, linear
// between its rows). Every measure looks only at the samples inside its window.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/measure/gauge_record.hpp"

namespace wb {

struct Series {
  std::vector<double> t, v;
};

// The root mean square of v(t) - f(t) over the window, by the trapezoidal rule on the samples
// in it: sqrt( sum_i (e_i^2 + e_{i+1}^2)/2 (t_{i+1} - t_i) / (t_last - t_first) ), so unequal
// steps weigh by the time they span. nullopt with fewer than two samples in the window.
std::optional<double> rmsDifference(const Series& s, const std::function<double(double)>& f,
                                    TimeWindow window);

// The highest value in the window and its time; the time is refined by the parabola through
// the highest sample and its two neighbours (when both lie in the window), so a peak between
// samples is placed to a fraction of a step.
struct Peak {
  double value = 0.0, time = 0.0;
};
std::optional<Peak> peakOf(const Series& s, TimeWindow window);

// The first time in the window at which |v| exceeds threshold, linear between the samples
// around the crossing (the window's start when |v| already exceeds it there); nullopt if never.
std::optional<double> arrivalTime(const Series& s, double threshold, TimeWindow window);

// The shift d in [-maxShift, maxShift] that minimises the rms of v(t) - f(t - d) over the
// window: d > 0 when the series is late against f. Scanned in steps of maxShift / 100, the
// minimum then placed by the parabola through the best step and its neighbours.
std::optional<double> bestShift(const Series& s, const std::function<double(double)>& f,
                                TimeWindow window, double maxShift);

// A model's series at a gauge against the gauge's record (gauge_summary.csv's columns). The
// window is the record's window (else the run's [0, runEnd]) cut to the run; errors are the
// model's value less the record's.
struct GaugeComparison {
  TimeWindow window;
  std::optional<double> rmsError;
  std::optional<Peak> peak, refPeak;
  double arrivalThreshold = 0.0;
  std::optional<double> arrival, refArrival;
  std::optional<double> bestShift;
};
GaugeComparison compareWithRecord(const Series& model, const GaugeRecord& record, double runEnd);

// gauge_summary.csv's measures, the columns after "gauge,model" (docs/cli.md): `run`'s summary
// and a study's (docs/studies.md) write the same columns from the same values. The values are
// compareWithRecord's of the model's series to runEnd; a model that stopped (`model` null) has
// only the window, the rest would measure a run it did not finish. nullopt: an empty cell.
const std::vector<std::string>& gaugeSummaryColumns();
std::vector<std::optional<double>> gaugeSummaryValues(const Series* model,
                                                      const GaugeRecord& record, double runEnd);

}  // namespace wb
