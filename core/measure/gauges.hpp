// Gauges and transects: where a comparison measures the models against each other and, where
// the scenario has one, against an exact reference (GeoClaw's gauges, ParaView's Probe and Plot
// Over Line). A gauge records every model step; a transect is a profile along a line at frame
// times. Both sample a cell-centred field bilinearly (core/grid/interpolation.hpp: the four
// cell centres around the point; within half a cell of the grid's edge, the outermost
// centres), so a sample equals the bilinear value of the dumped field at the same time.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/grid/domain.hpp"
#include "core/measure/gauge_record.hpp"
#include "core/measure/references.hpp"
#include "core/model/model.hpp"

namespace wb {

struct GaugeSpec {
  std::string name;
  double x = 0.0, y = 0.0;  // m
  // A measured (or another code's) series at the gauge: the gauge's reference where it has one
  // (core/measure/gauge_record.hpp).
  std::shared_ptr<const GaugeRecord> record;
};

struct TransectSpec {
  std::string name;
  double x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0;  // m, from and to
  int samples = 100;                              // points, both ends included
};

// One model's state at a point: surface elevation and water depth (m), and the depth-averaged
// velocity (m/s) where the model has one.
struct PointSample {
  double eta = 0.0, depth = 0.0;
  std::optional<double> u, v;
};

PointSample samplePoint(const Model& model, const Domain& domain, double x, double y);
// The reference at a point at time t: its eta where samplePoint takes the models' (the point
// clamped onto the outermost cell centres), and its depth over the ground sampled as
// samplePoint samples it (no velocity).
PointSample sampleReference(const Reference& reference, const Domain& domain, double x, double y,
                            double t);
// A gauge's record at time t: its eta, and the depth that eta makes over the ground there.
PointSample sampleRecord(const GaugeRecord& record, const Domain& domain, double x, double y,
                         double t);

// A gauge's sample at a model's step.
struct GaugeSample {
  double time = 0.0;  // s, the end of the step
  int gauge = 0;      // index in the scenario's list
  PointSample value;
  // The gauge's record there and then, else the scenario's exact reference, if any.
  std::optional<PointSample> reference;
};

// The points of a transect: distance s from its start (m) and position.
struct TransectPoint {
  double s = 0.0, x = 0.0, y = 0.0;
};
std::vector<TransectPoint> transectPoints(const TransectSpec& transect);

}  // namespace wb
