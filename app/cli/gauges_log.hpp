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
        for (const GaugeSample& sample : comparison.takeGaugeSamples(k))
          rows += row(sample.time, scenario.gauges[std::size_t(sample.gauge)].name,
                      comparison.model(k).id(), sample.value, true);
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
                        false);
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
  // time,name,model,eta,depth[,u,v],ref_eta[,ref_depth]: the references are not known yet.
  static std::string row(double time, const std::string& name, const std::string& model,
                         const PointSample& value, bool withVelocity) {
    char text[256];
    std::snprintf(text, sizeof text, "%s,%s,%s,%.9g,%.9g", timeText(time).c_str(), name.c_str(),
                  model.c_str(), value.eta, value.depth);
    std::string line = text;
    if (withVelocity) {
      for (const auto& component : {value.u, value.v}) {
        line += ',';
        if (component) {
          std::snprintf(text, sizeof text, "%.9g", *component);
          line += text;
        }
      }
      return line + ",,\n";
    }
    return line + ",\n";
  }

  std::optional<OutputFile> gauges_, transects_;
};

}  // namespace wb::cli
