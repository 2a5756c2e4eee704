// DIR/gauges.csv and DIR/transects.csv (docs/cli.md): the scenario's gauges, one row per gauge
// per model per step (time,gauge,model,eta,depth,u,v,ref_eta,ref_depth), and its transects,
// one row per point per model per recorded frame (time,transect,s,x,y,model,eta,depth,ref_eta).
// A column without a value (u, v of a model without velocity; the ref_ columns without an
// exact reference) is empty; at a gauge with a record, ref_eta and ref_depth are the record's
// (core/measure/gauge_record.hpp). Written a whole frame at a time like series.csv.
// DIR/gauge_summary.csv: every model against every gauge's record (gauge_metrics.hpp,
// docs/gauges.md), written when the run ends.
#pragma once

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "app/export/output_file.hpp"
#include "core/measure/gauge_metrics.hpp"
#include "core/measure/gauges.hpp"
#include "core/run/comparison.hpp"
#include "core/run/tick_steps.hpp"

namespace wb::cli {

class GaugesLog {
 public:
  // Starts recording the gauges of `comparison` (before its first frame), which outlives the log.
  GaugesLog(const std::filesystem::path& out, Comparison& comparison) : comparison_(comparison) {
    const Scenario& scenario = comparison.scenario();
    if (!scenario.gauges.empty()) {
      gauges_.emplace(out / "gauges.csv");
      gauges_->append("time,gauge,model,eta,depth,u,v,ref_eta,ref_depth\n");
      comparison.setRecordGauges(true);
    }
    for (const GaugeSpec& gauge : scenario.gauges)
      if (gauge.record) {
        series_.assign(comparison.modelCount() * scenario.gauges.size(), {});
        summary_.emplace(out / "gauge_summary.csv");
        break;
      }
    if (!scenario.transects.empty()) {
      transects_.emplace(out / "transects.csv");
      transects_->append("time,transect,s,x,y,model,eta,depth,ref_eta\n");
    }
  }

  // Appends the gauges' samples since the last frame and the transects now; throws WriteError
  // (see dropFrame).
  void frame(Comparison& comparison) {
    const Scenario& scenario = comparison.scenario();
    if (gauges_) {
      gauges_->beginFrame();
      std::string rows;
      for (std::size_t k = 0; k < comparison.modelCount(); ++k)
        for (const GaugeSample& sample : comparison.takeGaugeSamples(k)) {
          const GaugeSpec& gauge = scenario.gauges[std::size_t(sample.gauge)];
          if (gauge.record) {
            Series& series = series_[k * scenario.gauges.size() + std::size_t(sample.gauge)];
            series.t.push_back(sample.time);
            series.v.push_back(sample.value.eta);
          }
          rows += row(sample.time, gauge.name, comparison.model(k).id(), sample.value,
                      sample.reference, true);
        }
      gauges_->append(rows);
    }
    if (transects_) {
      transects_->beginFrame();
      std::string rows;
      for (const TransectSpec& transect : scenario.transects)
        for (const TransectPoint& point : transectPoints(transect))
          for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
            if (comparison.failure(k)) continue;
            char where[96];
            std::snprintf(where, sizeof where, ",%.9g,%.9g,%.9g", point.s, point.x, point.y);
            const PointSample value =
                samplePoint(comparison.model(k), comparison.domain(), point.x, point.y);
            rows += row(comparison.time(), transect.name + where, comparison.model(k).id(), value,
                        exact(comparison, point.x, point.y, comparison.time()), false);
          }
      transects_->append(rows);
    }
  }
  // The samples of a dropped frame stay in the summary's series: the summary measures the run.
  void dropFrame() {
    for (auto* file : {&gauges_, &transects_})
      if (*file) (*file)->dropFrame();
  }
  // Writes the summary and renames the files into place. Throws WriteError.
  void finish() {
    if (summary_ && !summaryWritten_) {
      summaryWritten_ = true;
      summary_->append(summaryText(comparison_));
    }
    for (auto* file : {&gauges_, &transects_, &summary_})
      if (*file) (*file)->commit();
  }

 private:
  static std::optional<PointSample> exact(const Comparison& comparison, double x, double y,
                                          double time) {
    if (!comparison.reference()) return std::nullopt;
    return sampleReference(*comparison.reference(), comparison.domain(), x, y, time);
  }

  // time,name,model,eta,depth[,u,v],ref_eta[,ref_depth]: empty where there is no value.
  static std::string row(double time, const std::string& name, const std::string& model,
                         const PointSample& value, const std::optional<PointSample>& reference,
                         bool gauge) {
    std::string line = timeText(time) + "," + name + "," + model + "," + number(value.eta) + "," +
                       number(value.depth);
    if (gauge)
      for (const auto& component : {value.u, value.v})
        line += "," + (component ? number(*component) : std::string());
    line += "," + (reference ? number(reference->eta) : std::string());
    if (gauge) line += "," + (reference ? number(reference->depth) : std::string());
    return line + "\n";
  }
  static std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", value);
    return text;
  }

  // gauge_summary.csv: one row per gauge with a record per model; a model that stopped has
  // its measures empty (they would measure a run it did not finish).
  std::string summaryText(const Comparison& comparison) const {
    const Scenario& scenario = comparison.scenario();
    std::string text = "gauge,model";
    for (const std::string& column : gaugeSummaryColumns())
      text.append(",").append(column);
    text.push_back('\n');
    for (std::size_t g = 0; g < scenario.gauges.size(); ++g) {
      const GaugeSpec& gauge = scenario.gauges[g];
      if (!gauge.record) continue;
      for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
        text.append(gauge.name).append(",").append(comparison.model(k).id());
        const Series* series =
            comparison.failure(k) ? nullptr : &series_[k * scenario.gauges.size() + g];
        for (const auto& v : gaugeSummaryValues(series, *gauge.record, comparison.time())) {
          text.push_back(',');
          if (v) text.append(number(*v));
        }
        text.push_back('\n');
      }
    }
    return text;
  }

  const Comparison& comparison_;
  std::optional<OutputFile> gauges_, transects_, summary_;
  std::vector<Series> series_;  // [model * gauges + gauge], gauges with a record only
  bool summaryWritten_ = false;
};

}  // namespace wb::cli
