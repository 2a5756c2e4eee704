// DIR/gauges.csv and DIR/transects.csv (docs/cli.md): the scenario's gauges, one row per gauge
// per model per step (time,gauge,model,eta,depth,u,v,ref_eta,ref_depth), and its transects,
// one row per point per model per recorded frame (time,transect,s,x,y,model,eta,depth,ref_eta).
// A column without a value (u, v of a model without velocity; the ref_ columns without an
// exact reference) is empty. Written a whole frame at a time like series.csv.
#pragma once

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "app/export/output_file.hpp"
#include "core/measure/gauges.hpp"
#include "core/run/comparison.hpp"
#include "core/run/tick_steps.hpp"

namespace wb::cli {

class GaugesLog {
 public:
  // Starts recording the gauges of `comparison` (before its first frame).
  GaugesLog(const std::filesystem::path& out, Comparison& comparison) {
    const Scenario& scenario = comparison.scenario();
    if (!scenario.gauges.empty()) {
      gauges_.emplace(out / "gauges.csv");
      gauges_->append("time,gauge,model,eta,depth,u,v,ref_eta,ref_depth\n");
      comparison.setRecordGauges(true);
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
  void dropFrame() {
    for (auto* file : {&gauges_, &transects_})
      if (*file) (*file)->dropFrame();
  }
  // Renames the files into place. Throws WriteError.
  void finish() {
    for (auto* file : {&gauges_, &transects_})
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

  std::optional<OutputFile> gauges_, transects_;
};

}  // namespace wb::cli
