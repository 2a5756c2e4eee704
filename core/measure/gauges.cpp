#include "core/measure/gauges.hpp"

#include <algorithm>
#include <cmath>

#include "core/grid/interpolation.hpp"

namespace wb {

// The depth is eta plus the rest depth, both bilinear: on dry ground eta is the ground, so the
// depth there is 0 (to float round-off).
PointSample samplePoint(const Model& model, const Domain& domain, double x, double y) {
  const Grid& grid = domain.grid();
  PointSample s;
  const BilinearCell cell = bilinearCell(model.eta(), grid.dx, x, y);
  s.eta = sampleBilinear(model.eta(), cell);
  s.depth = std::max(0.0, s.eta + double(sampleBilinear(domain.restDepth(), cell)));
  if (const auto velocity = model.velocityAt(cell)) s.u = (*velocity)[0], s.v = (*velocity)[1];
  return s;
}

// The reference is evaluated where the models' eta is taken: within half a cell of the grid's
// edge the bilinear sample is that of the outermost centres (core/grid/interpolation.hpp), so
// a gauge in a corner reads the corner cell's centre, and so does its reference.
PointSample sampleReference(const Reference& reference, const Domain& domain, double x, double y,
                            double t) {
  const Grid& grid = domain.grid();
  const double half = 0.5 * grid.dx;
  x = std::clamp(x, half, grid.width() - half);
  y = std::clamp(y, half, grid.height() - half);
  PointSample s;
  s.eta = reference.eta(x, y, t);
  s.depth = std::max(0.0, s.eta + double(sampleBilinear(domain.restDepth(), domain.grid(), x, y)));
  return s;
}

PointSample sampleRecord(const GaugeRecord& record, const Domain& domain, double x, double y,
                         double t) {
  PointSample s;
  s.eta = record.at(t);
  s.depth = std::max(0.0, s.eta + double(sampleBilinear(domain.restDepth(), domain.grid(), x, y)));
  return s;
}

std::vector<TransectPoint> transectPoints(const TransectSpec& t) {
  std::vector<TransectPoint> points;
  const double length = std::hypot(t.x1 - t.x0, t.y1 - t.y0);
  for (int k = 0; k < t.samples; ++k) {
    const double f = t.samples > 1 ? double(k) / (t.samples - 1) : 0.0;
    points.push_back({f * length, t.x0 + f * (t.x1 - t.x0), t.y0 + f * (t.y1 - t.y0)});
  }
  return points;
}

}  // namespace wb
